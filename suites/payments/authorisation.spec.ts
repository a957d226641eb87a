/**
 * Payment SCA with dynamic linking (Authentication 10): every payment gets its own SCA, a valid session
 * does not spare it; the PSU approves it in the browser. Insufficient funds (Errors rule 5, the ACCP /
 * fundsAvailable fact of transactionStatus) and the sandbox batch processing (5 runs a day).
 */
import { randomUUID } from 'node:crypto';
import { accountsOf, PrerequisiteUnmet, scaRedirectFrom, scaRedirectOf, scenario, test } from '../../lib/fixtures/index.js';
import { consentedDebtor, initiate, pastNextBatchRun, paymentFrom, paymentIdOf, statusOf } from './payment-bodies.js';

test(...scenario(
  'SCA-07.a',
  'in a valid SCA session, each of two payments still gets its own scaRedirect, unless the bank exempts it outside the session too',
  { checks: ['SCA-07'], writes: 'initiates payments', ownPsu: true },
  async ({ newTpp, ownPsu, paths, sca, check }) => {
    // A session of the scenario's own: the SCA completed under this TPP-Session-ID, the PSU's account read under it.
    const psu = await ownPsu();
    const tpp = newTpp({ sessionId: randomUUID() });
    const redirect = await sca.authorise(scaRedirectFrom(await tpp.get(paths('accounts'))), psu);
    const psuId = redirect.params['psu-id'];
    if (redirect.outcome !== 'success' || psuId === undefined) throw new PrerequisiteUnmet(`the SCA that opens the session did not succeed: ${redirect.url}`);
    const account = accountsOf<{ iban?: unknown; currency?: unknown }>(await tpp.get(paths('accounts'), { headers: { 'PSU-ID': psuId } })).find((a) => typeof a.iban === 'string' && typeof a.currency === 'string');
    if (account === undefined) throw new PrerequisiteUnmet('the PSU of the session has no account with an IBAN to pay from');
    const debtor = { tpp, psuId, psu, account: { iban: String(account.iban), currency: String(account.currency) } };
    for (const amount of ['1.00', '2.00']) {
      const inSession = await initiate(tpp, paths, paymentFrom(debtor, amount), { headers: { 'PSU-ID': psuId } });
      const own = { expected: 'an scaRedirect link for this payment, although the TPP session is valid', response: inSession };
      if (paymentIdOf(inSession) === undefined) {
        check.notEvaluated(['SCA-07'], `not evaluated: the payment of ${amount} was not created (HTTP ${inSession.status}), so it has no SCA to ask for`);
        continue;
      }
      if (scaRedirectOf(inSession) !== undefined) {
        check.that('SCA-07', true, own);
        continue;
      }
      // No SCA asked: the bank may exempt the payment (SCA-03), or let the session stand in for its SCA. The
      // same payment under a TPP-Session-ID no SCA completed under tells the two apart.
      const outside = await initiate(newTpp({ sessionId: randomUUID(), headers: { 'PSU-ID': psuId } }), paths, paymentFrom(debtor, amount));
      if (scaRedirectOf(outside) === undefined) {
        check.notEvaluated(['SCA-07'], `not evaluated: the bank exempts a payment of ${amount} from SCA outside any session too (SCA-03), so whether the session spares it does not show`);
        continue;
      }
      check.that('SCA-07', false, { ...own, actual: 'no scaRedirect in the session, while the same payment outside it asks for SCA' });
    }
  },
));

test(...scenario(
  'ERR-39.a',
  'a payment far above the balance, approved by the PSU, is refused or rejected properly: never a 5xx, ACCP only with fundsAvailable false',
  { checks: ['ERR-39', 'ERR-32', 'STA-06', 'END-07'], writes: 'initiates and approves a payment' },
  async ({ newTpp, consentedPsu, paths, sca, check }) => {
    const debtor = await consentedDebtor({ newTpp, consentedPsu, paths });
    const initiation = await initiate(debtor.tpp, paths, paymentFrom(debtor, '99999999.00'));
    const initiated = check.status('ERR-39', initiation);
    const paymentId = paymentIdOf(initiation);
    if (paymentId === undefined) {
      // Refused at initiation: a proper refusal (judged above), which should say PAYMENT_FAILED.
      const refused = check.status('ERR-32', initiation);
      check.code('ERR-32', initiation, { after: refused });
      return check.notEvaluatedRest('not evaluated: the bank refused the payment at initiation, so it has no status to read');
    }
    check.notEvaluated(['ERR-32'], 'not evaluated: the bank did not refuse the payment at initiation (it may report the lack of funds through the status)');
    const redirect = scaRedirectOf(initiation);
    if (redirect !== undefined) await sca.authorise(redirect, debtor.psu);
    const { response, transactionStatus, fundsAvailable } = await statusOf(debtor.tpp, paths, paymentId);
    const answered = check.status('ERR-39', response, { after: initiated });
    const shown = { expected: 'ACCP only together with fundsAvailable false', actual: `transactionStatus ${String(transactionStatus)}, fundsAvailable ${String(fundsAvailable)}`, response };
    check.that('STA-06', transactionStatus !== 'ACCP' || fundsAvailable === false, shown, { after: answered });
    if (fundsAvailable === undefined) check.notEvaluated(['END-07'], 'not evaluated: the status response carries no fundsAvailable');
    else check.that('END-07', typeof fundsAvailable === 'boolean', { expected: 'fundsAvailable, a boolean', actual: JSON.stringify(fundsAvailable), response });
  },
));

test(...scenario(
  'SBX-09.a',
  'an approved payment advances in status after the next sandbox batch run',
  { checks: ['SBX-09'], writes: 'initiates and approves a payment', needs: ['clock-control'], globalState: 'moves the target clock past a batch run' },
  async ({ newTpp, consentedPsu, paths, sca, sandboxClock, check }) => {
    const debtor = await consentedDebtor({ newTpp, consentedPsu, paths });
    // Above the amounts banks commonly exempt from SCA (SCA-03): the PSU approves it in SCA.
    const initiation = await initiate(debtor.tpp, paths, paymentFrom(debtor, '125.00'));
    const paymentId = paymentIdOf(initiation);
    if (paymentId === undefined) return check.notEvaluatedRest('not evaluated: the payment was not created');
    const redirect = await sca.authorise(scaRedirectFrom(initiation), debtor.psu);
    if (redirect.outcome !== 'success') return check.notEvaluatedRest('not evaluated: the PSU could not approve the payment');
    const before = (await statusOf(debtor.tpp, paths, paymentId)).transactionStatus;
    const later = await pastNextBatchRun({ sandboxClock, newTpp }, debtor.psuId);
    const after = await statusOf(later, paths, paymentId);
    const final = ['ACSC', 'RJCT', 'CANC'].includes(String(before));
    check.that('SBX-09', final || after.transactionStatus !== before, { expected: `a status moved on from ${String(before)} after a batch run`, actual: String(after.transactionStatus), response: after.response });
  },
));

test(...scenario(
  'PAY-49.a',
  'the PSU confirming a payment in SCA is shown its amount and its creditor',
  { checks: ['PAY-49'], writes: 'initiates and approves a payment' },
  async ({ newTpp, consentedPsu, paths, sca, check }) => {
    const debtor = await consentedDebtor({ newTpp, consentedPsu, paths });
    // Above the amounts banks commonly exempt from SCA (SCA-03), so that there is an SCA to see it in.
    const body = paymentFrom(debtor, '735.35');
    const capture = await sca.authorise(scaRedirectFrom(await initiate(debtor.tpp, paths, body)), debtor.psu);
    const shown = capture.read.paymentSummary;
    if (shown === undefined) return check.notEvaluatedRest('not evaluated: the target declares no SCA step that reads the payment shown to the PSU (read: { as: paymentSummary })');
    const creditor = String(body.creditorName);
    check.that('PAY-49', shown.includes('735.35') && shown.includes(creditor), { expected: `the amount 735.35 and the creditor ${creditor} on the confirmation page`, actual: shown });
  },
));
