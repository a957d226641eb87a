/**
 * What the service does > Sandbox mock data: the sandbox simulates payment batch processing 5 times a day
 * for every payment except periodic ones. Across one batch run, in every payment service and product: an
 * approved payment advances (SBX-09), a periodic one stays (SBX-10), and one whose requestedExecutionDate
 * is days ahead is not settled before that day (SBX-11), neither by the run nor at its approval.
 */
import { PrerequisiteUnmet, scaRedirectOf, scenario } from '../../lib/fixtures/index.js';
import { consentedDebtor, initiate, pastNextBatchRun, paymentFrom, paymentIdOf, statusOf, type Patch } from './payment-bodies.js';
import { cellName, cellsOf, inParallel, where, type Cell } from './rule-cells.js';

/** Far enough ahead that 13 hours later (a batch run past) it is still days ahead, in any time zone. */
const DAYS_AHEAD = 3;
/** Statuses a payment may already end its SCA in: nothing left for a batch run to move. */
const FINAL = ['ACSC', 'RJCT', 'CANC'];

interface Plan {
  cell: Cell;
  requirement: 'SBX-09' | 'SBX-10' | 'SBX-11';
  patch: Patch;
}

scenario(
  'SBX-11.a',
  'across a batch run, in every payment service and product: a payment dated days ahead is not settled, an undated one advances, a periodic one stays',
  { checks: ['SBX-11', 'SBX-09', 'SBX-10'], writes: 'initiates and approves payments', needs: ['clock-control'], globalState: 'moves the target clock past a batch run' },
  async ({ newTpp, consentedPsu, paths, sca, sandboxClock, check }) => {
    const debtor = await consentedDebtor({ newTpp, consentedPsu, paths });
    const ahead = new Date(Date.now() + DAYS_AHEAD * 86_400_000).toISOString().slice(0, 10);
    const plans: Plan[] = [
      ...cellsOf('SBX-11.a').map((cell) => ({ cell, requirement: 'SBX-11' as const, patch: { requestedExecutionDate: ahead } })),
      ...cellsOf('batch-advances').map((cell) => ({ cell, requirement: 'SBX-09' as const, patch: {} })),
      ...cellsOf('batch-periodic').map((cell) => ({ cell, requirement: 'SBX-10' as const, patch: {} })),
    ];
    // Approved before the clock moves: each payment's status after its SCA, to compare with the one after the run.
    const approved = await inParallel(plans, 4, async (plan) => {
      const initiation = await initiate(debtor.tpp, paths, paymentFrom(debtor, '1.00', plan.cell, plan.patch), where(plan.cell));
      const paymentId = paymentIdOf(initiation);
      const href = scaRedirectOf(initiation);
      if (paymentId === undefined || href === undefined) return { plan, unmet: `no payment with an scaRedirect (HTTP ${initiation.status})` };
      const capture = await sca.authorise(href, debtor.psu);
      if (capture.outcome !== 'success') return { plan, unmet: `the PSU could not approve it (${capture.url})` };
      return { plan, paymentId, before: (await statusOf(debtor.tpp, paths, paymentId, where(plan.cell))).transactionStatus };
    });
    if (approved.every((a) => a.paymentId === undefined)) throw new PrerequisiteUnmet('no payment of any service and product could be approved');
    const later = await pastNextBatchRun({ sandboxClock, newTpp }, debtor.psuId);
    for (const { plan, paymentId, before, unmet } of approved) {
      const { cell, requirement } = plan;
      if (paymentId === undefined) {
        check.notEvaluated([requirement], `not evaluated for ${cellName(cell)}: ${unmet ?? ''}`);
        continue;
      }
      const after = await statusOf(later, paths, paymentId, where(cell));
      const moved = `after its SCA ${String(before)}, after a batch run ${String(after.transactionStatus)}`;
      if (requirement === 'SBX-11') {
        check.that('SBX-11', before !== 'ACSC' && after.transactionStatus !== 'ACSC', { expected: `not settled (ACSC) before its requestedExecutionDate ${ahead} (${cellName(cell)})`, actual: moved, response: after.response });
      } else if (requirement === 'SBX-09') {
        check.that('SBX-09', FINAL.includes(String(before)) || after.transactionStatus !== before, { expected: `a status moved on from ${String(before)} after a batch run (${cellName(cell)})`, actual: moved, response: after.response });
      } else {
        check.that('SBX-10', after.transactionStatus === before, { expected: `the status after approval (${String(before)}) unchanged after a batch run (${cellName(cell)})`, actual: moved, response: after.response });
      }
    }
  },
);
