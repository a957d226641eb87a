/**
 * What the service does > Sandbox mock data: the sandbox simulates payment batch processing 5 times a day
 * for every payment except periodic ones. Across a batch run, in every payment service and product: an
 * approved payment advances (SBX-09), a periodic one stays (SBX-10), and one whose requestedExecutionDate
 * is days ahead is not settled before that day (SBX-11), neither by the run nor at its approval.
 */
import { PrerequisiteUnmet, scaRedirectOf, scenario, test, type ScenarioFixtures } from '../../lib/fixtures/index.js';
import { consentedDebtor, initiate, pastNextBatchRun, paymentFrom, paymentIdOf, statusOf, type Patch } from './payment-bodies.js';
import { cellName, cellScenarios, cellsName, cellsOf, inParallel, where, type Cell } from './rule-cells.js';

/** Far enough ahead that a day later (a batch run past, whenever the bank runs them) it is still ahead, in any time zone. */
const DAYS_AHEAD = 3;
/** Statuses a payment may already end its SCA in: nothing left for a batch run to move. */
const FINAL = ['ACSC', 'RJCT', 'CANC'];

type Fixtures = Pick<ScenarioFixtures, 'newTpp' | 'consentedPsu' | 'paths' | 'sca' | 'sandboxClock' | 'check'>;
type Statuses = { before: unknown; after: Awaited<ReturnType<typeof statusOf>> };

/**
 * Approves a payment of each cell (with `patch`), moves the target's clock past a batch run, and
 * hands each cell's statuses after its SCA and after the run to `judge`; a cell without an approved payment,
 * or whose status is not read, is not evaluated.
 */
async function acrossABatchRun(
  { newTpp, consentedPsu, paths, sca, sandboxClock, check }: Fixtures,
  cells: readonly Cell[],
  requirement: string,
  patch: Patch,
  judge: (cell: Cell, statuses: Statuses) => void,
) {
  const debtor = await consentedDebtor({ newTpp, consentedPsu, paths });
  const approved = await inParallel(cells, 4, async (cell) => {
    const initiation = await initiate(debtor.tpp, paths, paymentFrom(debtor, '1.00', cell, patch), where(cell));
    const paymentId = paymentIdOf(initiation);
    const href = scaRedirectOf(initiation);
    if (paymentId === undefined || href === undefined) return { cell, unmet: `no payment with an scaRedirect (HTTP ${initiation.status})` };
    const capture = await sca.authorise(href, debtor.psu);
    if (capture.outcome !== 'success') return { cell, unmet: `the PSU could not approve it (${capture.url})` };
    const before = await statusOf(debtor.tpp, paths, paymentId, where(cell));
    if (before.transactionStatus === undefined)
      return { cell, unmet: `its status was not read after its SCA (HTTP ${before.response.status})` };
    return { cell, paymentId, before: before.transactionStatus };
  });
  if (approved.every((a) => a.paymentId === undefined))
    throw new PrerequisiteUnmet('no payment of any service and product could be approved, its status read');
  const later = await pastNextBatchRun({ sandboxClock, newTpp }, debtor.psuId);
  for (const { cell, paymentId, before, unmet } of approved) {
    if (paymentId === undefined) {
      check.notEvaluated([requirement], `not evaluated for ${cellName(cell)}: ${unmet ?? ''}`);
      continue;
    }
    // A status the bank does not answer (END-06's) shows no move, nor the lack of one.
    const after = await statusOf(later, paths, paymentId, where(cell));
    if (after.transactionStatus === undefined)
      check.notEvaluated(
        [requirement],
        `not evaluated for ${cellName(cell)}: its status was not read after the batch run (HTTP ${after.response.status})`,
      );
    else judge(cell, { before, after });
  }
}

const moved = ({ before, after }: Statuses) => `after its SCA ${String(before)}, after a batch run ${String(after.transactionStatus)}`;
const BATCH_RUN = {
  writes: 'initiates and approves payments',
  needs: ['clock-control'],
  globalState: 'moves the target clock past a batch run',
} as const;

for (const { id, cells } of cellScenarios('SBX-11.a')) {
  test(
    ...scenario(
      id,
      `${cellsName(cells)} dated days ahead, approved, is not settled before its day, neither at approval nor by a batch run`,
      { checks: ['SBX-11'], ...BATCH_RUN },
      async (fixtures) => {
        const ahead = new Date(Date.now() + DAYS_AHEAD * 86_400_000).toISOString().slice(0, 10);
        await acrossABatchRun(fixtures, cells, 'SBX-11', { requestedExecutionDate: ahead }, (cell, statuses) => {
          const { before, after } = statuses;
          fixtures.check.that('SBX-11', before !== 'ACSC' && after.transactionStatus !== 'ACSC', {
            expected: `not settled (ACSC) before its requestedExecutionDate ${ahead} (${cellName(cell)})`,
            actual: moved(statuses),
            response: after.response,
          });
        });
      },
    ),
  );
}

for (const { id, cells } of cellScenarios('SBX-09.a')) {
  test(
    ...scenario(
      id,
      `${cellsName(cells)}, approved, advance in status after the next sandbox batch run`,
      { checks: ['SBX-09'], ...BATCH_RUN },
      async (fixtures) => {
        await acrossABatchRun(fixtures, cells, 'SBX-09', {}, (cell, statuses) => {
          const { before, after } = statuses;
          fixtures.check.that('SBX-09', FINAL.includes(String(before)) || after.transactionStatus !== before, {
            expected: `a status moved on from ${String(before)} after a batch run (${cellName(cell)})`,
            actual: moved(statuses),
            response: after.response,
          });
        });
      },
    ),
  );
}

test(
  ...scenario(
    'SBX-10.a',
    'an approved periodic payment keeps its status across a sandbox batch run, in every product',
    { checks: ['SBX-10'], ...BATCH_RUN },
    async (fixtures) => {
      await acrossABatchRun(fixtures, cellsOf('SBX-10.a'), 'SBX-10', {}, (cell, statuses) => {
        const { before, after } = statuses;
        fixtures.check.that('SBX-10', after.transactionStatus === before, {
          expected: `the status after approval (${String(before)}) unchanged after a batch run (${cellName(cell)})`,
          actual: moved(statuses),
          response: after.response,
        });
      });
    },
  ),
);
