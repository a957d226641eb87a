/**
 * Payment SCA with dynamic linking (Authentication 10): every payment gets its own SCA, a valid session
 * does not spare it; the PSU approves it in the browser, from an account of the context picked there
 * (PSU contexts). Insufficient funds (Errors rule 5, the ACCP / fundsAvailable fact of transactionStatus).
 */
import { randomUUID } from 'node:crypto';
import {
  accountsOf,
  PrerequisiteUnmet,
  scaRedirectFrom,
  scaRedirectOf,
  scenario,
  servedOrScaAsked,
  test,
  type ScenarioFixtures,
} from '../../lib/fixtures/index.js';
import {
  consentedDebtor,
  initiate,
  paymentFrom,
  paymentIdOf,
  refusedAlike,
  reportsFundsHonestly,
  statusOf,
  type Debtor,
} from './payment-bodies.js';
import { cellName, cellScenarios, cellsName, forEach, forEachCell, where } from './rule-cells.js';

/**
 * A debtor in a valid SCA session: the PSU completes an account-access SCA under a TPP-Session-ID of its
 * own, whose client then sends the psu-id of its redirect.
 */
async function debtorInSession(
  { newTpp, paths, sca }: Pick<ScenarioFixtures, 'newTpp' | 'paths' | 'sca'>,
  psu: Debtor['psu'],
): Promise<Debtor> {
  const sessionId = randomUUID();
  const capture = await sca.authorise(scaRedirectFrom(await newTpp({ sessionId }).get(paths('accounts'))), psu);
  const psuId = capture.params['psu-id'];
  if (capture.outcome !== 'success' || psuId === undefined)
    throw new PrerequisiteUnmet(`the PSU's SCA did not open a session (${capture.url})`);
  const tpp = newTpp({ sessionId, headers: { 'PSU-ID': psuId } });
  const account = accountsOf<{ iban?: string; currency?: string }>(await tpp.get(paths('accounts'))).find(
    (a) => a.iban !== undefined && a.currency !== undefined,
  );
  if (account?.iban === undefined || account.currency === undefined)
    throw new PrerequisiteUnmet('the PSU has no account with an IBAN to pay from');
  return { tpp, psuId, psu, account: { iban: account.iban, currency: account.currency } };
}

test(
  ...scenario(
    'SCA-07.a',
    'in a valid SCA session, each of two payments still gets its own scaRedirect, unless the bank exempts it outside the session too, in every payment service and product',
    { checks: ['SCA-07'], writes: 'initiates payments', ownPsu: true },
    async ({ newTpp, ownPsu, paths, sca, check }) => {
      // A PSU of its own, with a session of its own: an SCA completed under this TPP-Session-ID an hour ago at most.
      const debtor = await debtorInSession({ newTpp, paths, sca }, await ownPsu());
      await forEachCell('SCA-07.a', async (cell) => {
        for (const amount of ['1.00', '2.00']) {
          const inSession = await initiate(debtor.tpp, paths, paymentFrom(debtor, amount, cell), where(cell));
          if (paymentIdOf(inSession) === undefined)
            return check.notEvaluated(
              ['SCA-07'],
              `not evaluated for ${cellName(cell)}: the payment was not created (HTTP ${inSession.status})`,
            );
          const own = {
            expected: `an scaRedirect link for this payment (${cellName(cell)}), although the TPP session is valid`,
            response: inSession,
          };
          if (scaRedirectOf(inSession) !== undefined) {
            check.that('SCA-07', true, own);
            continue;
          }
          // No SCA asked: the bank may exempt the payment (SCA-03), or let the session stand in for its SCA. The
          // same payment under a TPP-Session-ID no SCA completed under tells the two apart.
          const outside = await initiate(
            newTpp({ sessionId: randomUUID(), headers: { 'PSU-ID': debtor.psuId } }),
            paths,
            paymentFrom(debtor, amount, cell),
            where(cell),
          );
          if (scaRedirectOf(outside) === undefined) {
            check.notEvaluated(
              ['SCA-07'],
              `not evaluated for ${cellName(cell)}: the bank exempts a payment of ${amount} from SCA outside any session too (SCA-03), so whether the session spares it does not show`,
            );
            continue;
          }
          check.that('SCA-07', false, { ...own, actual: 'no scaRedirect in the session, while the same payment outside it asks for SCA' });
        }
      });
    },
  ),
);

test(
  ...scenario(
    'ERR-39.a',
    'a payment far above the balance, approved by the PSU, is refused (PAYMENT_FAILED) or taken and rejected properly: never a 5xx, an ACCP with fundsAvailable only with false',
    { checks: ['ERR-39', 'ERR-32', 'STA-06', 'END-07'], writes: 'initiates and approves a payment' },
    async ({ newTpp, consentedPsu, paths, sca, check }) => {
      const debtor = await consentedDebtor({ newTpp, consentedPsu, paths });
      const initiation = await initiate(debtor.tpp, paths, paymentFrom(debtor, '99999999.00'));
      const initiated = check.status('ERR-39', initiation);
      if (!servedOrScaAsked(initiation)) {
        // Refused at initiation: a proper refusal (judged above), which should say PAYMENT_FAILED, where it is for
        // the lack of funds: the bank takes a payable payment from the same account.
        const unjudged = await refusedAlike(debtor.tpp, paths, paymentFrom(debtor, '1.00'));
        if (unjudged !== undefined) check.notEvaluated(['ERR-32'], `not evaluated: ${unjudged}`);
        else {
          const refused = check.status('ERR-32', initiation);
          check.code('ERR-32', initiation, { after: refused });
        }
        // ERR-32's first path: no status ever reports this lack of funds, so none reports it wrongly.
        if (unjudged === undefined)
          return check.heldOnPath(
            ['STA-06', 'END-07'],
            'the bank refused the payment at initiation for its lack of funds (ERR-32): no status reports it',
          );
        return check.notEvaluatedRest('not evaluated: the bank refused the payment at initiation, so it has no status to read');
      }
      // The other path the spec gives a lack of funds: taken, and reported through the status (judged below, STA-06).
      check.that('ERR-32', true, {
        expected: 'refused at initiation with PAYMENT_FAILED, or taken and reported through its status',
        actual: `taken (HTTP ${initiation.status}): the lack of funds is the status's to report`,
        response: initiation,
      });
      const paymentId = paymentIdOf(initiation);
      if (paymentId === undefined)
        return check.notEvaluatedRest("not evaluated: the answer carries no paymentId (PAY-36's), so the payment has no status to read");
      const redirect = scaRedirectOf(initiation);
      if (redirect !== undefined) await sca.authorise(redirect, debtor.psu);
      const { response, transactionStatus, fundsAvailable } = await statusOf(debtor.tpp, paths, paymentId);
      const answered = check.status('ERR-39', response, { after: initiated });
      const shown = {
        expected: 'an ACCP that carries fundsAvailable carries false',
        actual: `transactionStatus ${String(transactionStatus)}, fundsAvailable ${String(fundsAvailable)}`,
        response,
      };
      check.that('STA-06', reportsFundsHonestly(transactionStatus, fundsAvailable), shown, { after: answered });
      if (fundsAvailable === undefined) check.heldOnPath(['END-07'], 'the status response carries no fundsAvailable (optional)');
      else
        check.that('END-07', typeof fundsAvailable === 'boolean', {
          expected: 'fundsAvailable, a boolean',
          actual: JSON.stringify(fundsAvailable),
          response,
        });
    },
  ),
);

test(
  ...scenario(
    'PAY-49.a',
    'the PSU confirming a payment in SCA is shown its amount and its creditor',
    { checks: ['PAY-49'], writes: 'initiates and approves a payment' },
    async ({ newTpp, consentedPsu, paths, sca, check }) => {
      const debtor = await consentedDebtor({ newTpp, consentedPsu, paths });
      // Above the amounts banks commonly exempt from SCA (SCA-03), so that there is an SCA to see it in.
      const body = paymentFrom(debtor, '735.35');
      const capture = await sca.authorise(scaRedirectFrom(await initiate(debtor.tpp, paths, body)), debtor.psu);
      const shown = capture.read.paymentSummary;
      if (shown === undefined)
        return check.notEvaluatedRest(
          'not evaluated: the target declares no SCA step that reads the payment shown to the PSU (read: { as: paymentSummary })',
        );
      const creditor = String(body.creditorName);
      check.that('PAY-49', shown.includes('735.35') && shown.includes(creditor), {
        expected: `the amount 735.35 and the creditor ${creditor} on the confirmation page`,
        actual: shown,
      });
    },
  ),
);

/** Statuses of a payment that has not gone ahead. */
const NOT_AHEAD = ['RCVD', 'RJCT', 'CANC'];

for (const { id, cells } of cellScenarios('GEN-15.a')) {
  test(
    ...scenario(
      id,
      `a corporate PSU who picks PRIVATE in the SCA of ${cellsName(cells)} from the agreement's account does not pay from it`,
      { checks: ['GEN-15'], needs: ['corporate-psu'], writes: 'initiates payments and has the PSU act on their SCA' },
      async ({ newTpp, consentedPsu, paths, sca, check }) => {
        // The agreement's accounts, read in corporate context: the debtor sends PSU-ID and PSU-CORPORATE-ID.
        const debtor = await consentedDebtor({ newTpp, consentedPsu, paths }, 'corporate');
        const inPrivate = { ...debtor.psu, context: 'PRIVATE' as const };
        await forEach(cells, async (cell) => {
          const initiation = await initiate(debtor.tpp, paths, paymentFrom(debtor, '1.00', cell), {
            ...where(cell),
            headers: { 'PSU-Context': 'CORPORATE' },
          });
          const paymentId = paymentIdOf(initiation);
          const href = scaRedirectOf(initiation);
          if (paymentId === undefined || href === undefined)
            return check.notEvaluated(
              ['GEN-15'],
              `not evaluated for ${cellName(cell)}: no payment with an scaRedirect (HTTP ${initiation.status})`,
            );
          const attempt = await sca.attempt(href, inPrivate);
          const { response, transactionStatus } = await statusOf(debtor.tpp, paths, paymentId, where(cell));
          const endedPrivate = attempt.outcome === 'success' && attempt.params.context === 'PRIVATE';
          if (endedPrivate && transactionStatus === undefined)
            return check.notEvaluated(
              ['GEN-15'],
              `not evaluated for ${cellName(cell)}: the SCA ended in PRIVATE context, and the bank shows no status to tell whether the payment went ahead (HTTP ${response.status})`,
            );
          const wentAhead = endedPrivate && !NOT_AHEAD.includes(String(transactionStatus));
          const outcome = attempt.outcome === 'refused' ? `the PSU was stopped: ${attempt.reason}` : attempt.url;
          check.that('GEN-15', !wentAhead, {
            expected: `the payment from the agreement's account not going ahead after an SCA ended in PRIVATE context (${cellName(cell)})`,
            actual: `${outcome}; transactionStatus ${String(transactionStatus)}`,
            response,
          });
        });
      },
    ),
  );
}
