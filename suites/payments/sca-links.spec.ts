/**
 * Authentication 10, SCA with dynamic linking, read as one link, one SCA (SCA-24, SCA-25): a payment's
 * scaRedirect serves the SCA it was issued for, of that payment, in the state it was issued in. Once the
 * PSU approved or rejected it, or the TPP cancelled the payment, opening the link again (as the PSU, in
 * the browser, with the target's steps) ends in the failure redirect or an error page, never a success,
 * and leaves the payment as it was. Approving far above the balance also shows, in every payment service
 * and product, what the PSU is shown (PAY-49) and how a lack of funds is reported (STA-06, ERR-39).
 */
import { scenario, test } from '../../lib/fixtures/index.js';
import { consentedDebtor, CREDITOR_NAME, reportsFundsHonestly, statusOf } from './payment-bodies.js';
import { cancel, cellName, cellScenarios, cellsName, forEach, initiated, judgeClosed, where } from './rule-cells.js';

/** More than any sandbox balance (ERR-39). */
const FAR_ABOVE_BALANCE = '99999999.00';

for (const { id, cells } of cellScenarios('SCA-24.a')) {
  test(
    ...scenario(
      id,
      `${cellsName(cells)} approved far above the balance: the PSU is shown amount and creditor, an ACCP with fundsAvailable says false, and its link is used up`,
      { checks: ['SCA-24', 'PAY-49', 'STA-06', 'ERR-39', 'END-07'], writes: 'initiates and approves payments' },
      async ({ newTpp, consentedPsu, paths, sca, check }) => {
        const debtor = await consentedDebtor({ newTpp, consentedPsu, paths });
        await forEach(cells, async (cell) => {
          const funds = ['STA-06', 'END-07'];
          const aboveBalance = await initiated({ paths }, debtor, cell, FAR_ABOVE_BALANCE);
          check.status('ERR-39', aboveBalance.response);
          // A bank that refuses it at initiation (ERR-32) has no status to report: a payable payment serves the rest.
          const refused = aboveBalance.href === undefined && aboveBalance.response.status >= 400;
          const payment = refused ? await initiated({ paths }, debtor, cell, '1.00') : aboveBalance;
          if (payment.href === undefined)
            return check.notEvaluated(['SCA-24', 'PAY-49', ...funds], `not evaluated for ${cellName(cell)}: ${payment.unmet}`);
          // Refused for its lack of funds (the payable payment was taken): ERR-32's first path, where no status reports the lack of funds,
          // so none reports it wrongly.
          if (refused)
            check.heldOnPath(
              funds,
              `the bank refused the payment above the balance at initiation (ERR-32), so no status reports its lack of funds (${cellName(cell)})`,
            );
          const capture = await sca.authorise(payment.href, debtor.psu);
          if (capture.outcome !== 'success')
            return check.notEvaluated(
              ['SCA-24', 'PAY-49', ...(refused ? [] : funds)],
              `not evaluated for ${cellName(cell)}: the PSU could not approve the payment (${capture.url})`,
            );
          const summary = capture.read.paymentSummary;
          if (summary === undefined)
            check.notEvaluated(
              ['PAY-49'],
              'not evaluated: the target declares no SCA step that reads the payment shown to the PSU (read: { as: paymentSummary })',
            );
          else
            check.that('PAY-49', payment.amounts.some((amount) => summary.includes(amount)) && summary.includes(CREDITOR_NAME), {
              expected: `the amount (${payment.amounts.join(' or ')}) and the creditor ${CREDITOR_NAME} on the confirmation page (${cellName(cell)})`,
              actual: summary,
            });
          if (!refused) {
            const { response, transactionStatus, fundsAvailable } = await statusOf(debtor.tpp, paths, payment.paymentId, where(cell));
            const answered = check.status('ERR-39', response);
            const shown = {
              expected: `an ACCP that carries fundsAvailable carries false (${cellName(cell)})`,
              actual: `transactionStatus ${String(transactionStatus)}, fundsAvailable ${String(fundsAvailable)}`,
              response,
            };
            check.that('STA-06', reportsFundsHonestly(transactionStatus, fundsAvailable), shown, { after: answered });
            if (fundsAvailable === undefined)
              check.heldOnPath(['END-07'], `the status response carries no fundsAvailable (optional) (${cellName(cell)})`);
            else
              check.that('END-07', typeof fundsAvailable === 'boolean', {
                expected: 'fundsAvailable, a boolean',
                actual: JSON.stringify(fundsAvailable),
                response,
              });
          }
          await judgeClosed({ paths, sca, check }, debtor, cell, 'SCA-24', payment, 'approved by the PSU');
        });
      },
    ),
  );
}

for (const { id, cells } of cellScenarios('SCA-24.m')) {
  test(
    ...scenario(
      id,
      `${cellsName(cells)} the PSU rejected in its SCA: its link is used up, and the payment stays as it was`,
      { checks: ['SCA-24'], writes: 'initiates payments the PSU rejects', needs: ['sca-abort'] },
      async ({ newTpp, consentedPsu, paths, sca, check }) => {
        const debtor = await consentedDebtor({ newTpp, consentedPsu, paths });
        await forEach(cells, async (cell) => {
          const payment = await initiated({ paths }, debtor, cell, '1.00');
          if (payment.href === undefined) return check.notEvaluated(['SCA-24'], `not evaluated for ${cellName(cell)}: ${payment.unmet}`);
          const capture = await sca.authorise(payment.href, debtor.psu, { variant: 'reject-payment' });
          if (capture.outcome !== 'failure')
            return check.notEvaluated(
              ['SCA-24'],
              `not evaluated for ${cellName(cell)}: the PSU's rejection did not end in the failure redirect (${capture.url})`,
            );
          await judgeClosed({ paths, sca, check }, debtor, cell, 'SCA-24', payment, 'rejected by the PSU');
        });
      },
    ),
  );
}

for (const { id, cells } of cellScenarios('SCA-25.a')) {
  test(
    ...scenario(
      id,
      `${cellsName(cells)} the TPP cancelled before its SCA: its link ends in failure or an error page, and the payment stays cancelled`,
      { checks: ['SCA-25'], writes: 'initiates and cancels payments' },
      async ({ newTpp, consentedPsu, paths, sca, check }) => {
        const debtor = await consentedDebtor({ newTpp, consentedPsu, paths });
        await forEach(cells, async (cell) => {
          const payment = await initiated({ paths }, debtor, cell, '1.00');
          if (payment.href === undefined) return check.notEvaluated(['SCA-25'], `not evaluated for ${cellName(cell)}: ${payment.unmet}`);
          const uncancelled = await cancel({ paths }, debtor.tpp, cell, payment.paymentId);
          if (uncancelled !== undefined) return check.notEvaluated(['SCA-25'], `not evaluated for ${cellName(cell)}: ${uncancelled}`);
          await judgeClosed({ paths, sca, check }, debtor, cell, 'SCA-25', payment, 'cancelled by the TPP');
        });
      },
    ),
  );
}
