/**
 * What the service does > Sandbox mock data: the sandbox simulates payment batch processing 5 times a day
 * for every payment except periodic ones. An approved periodic payment keeps its status across a batch run.
 */
import { PrerequisiteUnmet, scaRedirectFrom, scenario, test } from '../../lib/fixtures/index.js';
import { consentedDebtor, initiateOnOfferedProduct, pastNextBatchRun, paymentFrom, paymentIdOf, periodicPayment, statusOf } from '../payments/payment-bodies.js';

test(...scenario(
  'SBX-10.a',
  'an approved periodic payment keeps its status across a sandbox batch run',
  { checks: ['SBX-10'], writes: 'initiates and approves a periodic payment', needs: ['clock-control'], globalState: 'moves the target clock past a batch run' },
  async ({ newTpp, consentedPsu, paths, sca, sandboxClock, check }) => {
    const debtor = await consentedDebtor({ newTpp, consentedPsu, paths });
    // On a product the bank takes periodic payments on (it may offer them for its domestic product only).
    const body = () => {
      const { debtorAccount, instructedAmount, creditorAccount } = paymentFrom(debtor, '2.00');
      return periodicPayment('Monthly', { debtorAccount, instructedAmount, creditorAccount });
    };
    const { response: initiation, product, tried } = await initiateOnOfferedProduct(debtor.tpp, paths, 'periodic-payments', body);
    const paymentId = paymentIdOf(initiation);
    if (product === undefined || paymentId === undefined) throw new PrerequisiteUnmet(`the periodic payment was not created (${tried})`);
    const periodic = { service: 'periodic-payments', product } as const;
    const redirect = await sca.authorise(scaRedirectFrom(initiation), debtor.psu);
    if (redirect.outcome !== 'success') throw new PrerequisiteUnmet('the PSU could not approve the periodic payment');
    const before = (await statusOf(debtor.tpp, paths, paymentId, periodic)).transactionStatus;
    const later = await pastNextBatchRun({ sandboxClock, newTpp }, debtor.psuId);
    const after = await statusOf(later, paths, paymentId, periodic);
    check.that('SBX-10', after.transactionStatus === before, { expected: `the status after approval (${String(before)}) unchanged after a batch run`, actual: String(after.transactionStatus), response: after.response });
  },
));
