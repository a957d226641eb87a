/**
 * What the service does > Sandbox mock data: the sandbox simulates payment batch processing 5 times a day
 * for every payment except periodic ones. An approved periodic payment keeps its status across a batch run.
 */
import { PrerequisiteUnmet, scaRedirectFrom, scenario, test } from '../../lib/fixtures/index.js';
import { consentedDebtor, initiate, pastNextBatchRun, paymentFrom, paymentIdOf, periodicPayment, statusOf } from '../payments/payment-bodies.js';

const PERIODIC = { service: 'periodic-payments' } as const;

test(...scenario(
  'SBX-10.a',
  'an approved periodic payment keeps its status across a sandbox batch run',
  { checks: ['SBX-10'], writes: 'initiates and approves a periodic payment', needs: ['clock-control'], globalState: 'moves the target clock past a batch run' },
  async ({ newTpp, consentedPsu, paths, sca, sandboxClock, check }) => {
    const debtor = await consentedDebtor({ newTpp, consentedPsu, paths });
    const { debtorAccount, instructedAmount, creditorAccount } = paymentFrom(debtor, '2.00');
    const initiation = await initiate(debtor.tpp, paths, periodicPayment('Monthly', { debtorAccount, instructedAmount, creditorAccount }), PERIODIC);
    const paymentId = paymentIdOf(initiation);
    if (paymentId === undefined) throw new PrerequisiteUnmet(`the periodic payment was not created (HTTP ${initiation.status})`);
    const redirect = await sca.authorise(scaRedirectFrom(initiation), debtor.psu);
    if (redirect.outcome !== 'success') throw new PrerequisiteUnmet('the PSU could not approve the periodic payment');
    const before = (await statusOf(debtor.tpp, paths, paymentId, PERIODIC)).transactionStatus;
    const later = await pastNextBatchRun({ sandboxClock, newTpp }, debtor.psuId);
    const after = await statusOf(later, paths, paymentId, PERIODIC);
    check.that('SBX-10', after.transactionStatus === before, { expected: `the status after approval (${String(before)}) unchanged after a batch run`, actual: String(after.transactionStatus), response: after.response });
  },
));
