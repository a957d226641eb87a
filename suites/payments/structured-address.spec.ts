/**
 * Resources > Structured-address rule: the creditor's town name and country are required from the
 * enforcement date (13 August 2026 in the sandbox), decided by the target's clock; the debtor side is
 * inferred by the bank (ADR-02, in request-fields.spec.ts). The side of the date the target's clock is on
 * (its Date response header) is tested; with clock control, the day before the date too (ADR-09: the TPP
 * certificate must then be valid from before that day).
 */
import { scenario, test, type ScenarioFixtures, type TppResponse } from '../../lib/fixtures/index.js';
import { initiate, withAddress } from './payment-bodies.js';

const SANDBOX_ENFORCEMENT = Date.UTC(2026, 7, 13);
const withoutTown = () => withAddress({ townName: undefined });

/** Whether the target enforces the rule by its own clock (undefined: not a sandbox, no date to go by). */
function enforcedAt(target: ScenarioFixtures['target'], response: TppResponse): boolean | undefined {
  const date = Date.parse(response.headers.date ?? '');
  if (target.environment !== 'sandbox' || Number.isNaN(date)) return undefined;
  return date >= SANDBOX_ENFORCEMENT;
}

test(...scenario(
  'ADR-05.a',
  'once the rule is enforced, a payment whose creditor address has no town name is refused with 400',
  { checks: ['ADR-05', 'ADR-07', 'ERR-40', 'ADR-01', 'ADR-08', 'ERR-21'], writes: 'initiates a payment (refused)' },
  async ({ tpp, paths, target, check }) => {
    const response = await initiate(tpp, paths, withoutTown(), { malformed: 'no creditor town name' });
    const enforced = enforcedAt(target, response);
    if (enforced !== true) return check.notEvaluatedRest(`not evaluated: the target's clock (${response.headers.date ?? 'no Date header'}) is not past the sandbox enforcement date, or the target is no sandbox`);
    const refusals = ['ADR-05', 'ADR-07', 'ERR-40'].map((requirement) => check.status(requirement, response));
    check.that('ADR-01', refusals.every((r) => r.passed), { expected: 'the creditor town name demanded', response });
    check.that('ADR-08', refusals.every((r) => r.passed), { expected: `the rule enforced on ${response.headers.date ?? ''}, after 13 August 2026, in the sandbox`, response });
    check.code('ERR-21', response, { after: refusals });
  },
));

test(...scenario(
  'ADR-09.a',
  'with the sandbox clock the day before 13 August 2026, a payment without creditor town name is not refused for it',
  { checks: ['ADR-09'], writes: 'initiates a payment', needs: ['clock-control'], globalState: 'freezes the target clock before the enforcement date' },
  async ({ newTpp, sandboxClock, paths, target, check }) => {
    if (target.environment !== 'sandbox') return check.notEvaluatedRest('not evaluated: the sandbox date applies to sandbox targets only');
    const dayBefore = new Date(SANDBOX_ENFORCEMENT - 12 * 3600 * 1000);
    await sandboxClock.freeze(dayBefore);
    check.accepted('ADR-09', await initiate(newTpp({ clock: { now: () => dayBefore } }), paths, withoutTown()));
  },
));
