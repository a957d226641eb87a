/**
 * Release 1.18.0: a paymentId stays valid after the payment is changed in another channel of the bank. The
 * change is the target's bank-channel operation, acting as the PSU in the online bank.
 */
import { isSuccess, jsonBodyOf, scenario, test } from '../../lib/fixtures/index.js';
import { initiate, payer, paymentIdOf, paymentPath, sepaPayment } from '../payments/payment-bodies.js';

test(
  ...scenario(
    'VER-21.a',
    'a payment the PSU changes in the online bank keeps its paymentId: its details and status still answer under it',
    { checks: ['VER-21'], needs: ['bank-channel'], writes: 'initiates a payment and changes it in the bank channel' },
    async ({ newTpp, psu, consentedPsu, paths, check }) => {
      const payingPsu = await payer({ newTpp, psu, consentedPsu, paths });
      const { tpp } = payingPsu;
      const paymentId = paymentIdOf(await initiate(tpp, paths, sepaPayment(payingPsu)));
      if (paymentId === undefined) return check.notEvaluated(['VER-21'], 'not evaluated: the payment was not created');
      const statusBefore = await tpp.get(paymentPath(paths, 'paymentStatus', paymentId));
      const changed = await tpp.request({
        method: 'PATCH',
        path: paths('sandboxPayment', { paymentId }),
        json: { requestedExecutionDate: '2099-12-31' },
      });
      if (!isSuccess(changed))
        return check.notEvaluated(
          ['VER-21'],
          `not evaluated: the target did not change the payment in its bank channel (HTTP ${changed.status})`,
        );

      const details = await tpp.get(paymentPath(paths, 'payment', paymentId));
      const shownId = (jsonBodyOf(details) as { paymentId?: unknown } | undefined)?.paymentId;
      const found = check.status('VER-21', details);
      check.that(
        'VER-21',
        shownId === undefined || shownId === paymentId,
        { expected: `the payment shown as ${paymentId}`, actual: `paymentId ${String(shownId)}`, response: details },
        { after: found },
      );
      // The status speaks of the paymentId only where it answered before the change (END-06 judges the status request itself).
      if (isSuccess(statusBefore)) check.status('VER-21', await tpp.get(paymentPath(paths, 'paymentStatus', paymentId)));
      else
        check.notEvaluated(
          ['VER-21'],
          `not evaluated: the payment's status did not answer before the change either (HTTP ${statusBefore.status})`,
        );
    },
  ),
);
