/**
 * Resources > Structured-address rule: the creditor's name, town name and country are required from the
 * enforcement date (13 August 2026 in the sandbox), decided by the target's clock; the debtor side is
 * inferred by the bank (ADR-02, in request-fields.spec.ts). A part sent empty, or as spaces, is as missing
 * as one left out. The rule is the creditor's of every payment: each scenario judges its row of the rule
 * table in every payment service (every payment of a bulk) and product. The side of the date the target's
 * clock is on (its Date response header) is tested; with clock control, the day before the date too
 * (ADR-09: the TPP certificate must then be valid from before that day).
 */
import { RULE_TABLE } from '../../lib/spec/rule-table.js';
import { scenario, servedOrScaAsked, test, type ScenarioFixtures, type TppResponse } from '../../lib/fixtures/index.js';
import { address, initiate, payer, refusedAlike, sepaPayment, withAddress, type Patch } from './payment-bodies.js';
import { forEachCell, judgeCell } from './rule-cells.js';

const SANDBOX_ENFORCEMENT = Date.UTC(2026, 7, 13);

/** Whether the target enforces the rule by its own clock (undefined: not a sandbox, no date to go by). */
function enforcedAt(target: ScenarioFixtures['target'], response: TppResponse): boolean | undefined {
  const date = Date.parse(response.headers.date ?? '');
  if (target.environment !== 'sandbox' || Number.isNaN(date)) return undefined;
  return date >= SANDBOX_ENFORCEMENT;
}

/** Each creditor part of the rule, missing, empty or blank. */
const BROKEN: Readonly<Record<string, Patch>> = {
  'ADR-05.a': { creditorAddress: address({ townName: undefined }) },
  'ADR-06.a': { creditorAddress: undefined },
  'ADR-14.a': { creditorName: '' },
  'ADR-15.a': { creditorAddress: address({ townName: '' }) },
  'ADR-16.a': { creditorName: '   ' },
  'ADR-16.b': { creditorAddress: address({ townName: '  ' }) },
};

/** ADR-01 and ADR-08 (the rule in force) follow from the refusal of a missing town name. */
const FOLLOWING = ['ADR-01', 'ADR-08'];

for (const row of RULE_TABLE.filter((r) => Object.hasOwn(BROKEN, r.key))) {
  const patch = BROKEN[row.key] ?? {};
  const requirements = row.requirements.filter((id) => id !== 'ERR-21' && !FOLLOWING.includes(id));
  test(
    ...scenario(
      row.key,
      `once the rule is enforced, ${row.rule}, in every payment service and product`,
      { checks: row.requirements, writes: 'initiates payments (refused)' },
      async ({ newTpp, psu, consentedPsu, paths, target, check }) => {
        const payingPsu = await payer({ newTpp, psu, consentedPsu, paths });
        const notInForce = (response: TppResponse) =>
          enforcedAt(target, response) === true
            ? undefined
            : `the target's clock (${response.headers.date ?? 'no Date header'}) is not past the sandbox enforcement date, or the target is no sandbox`;
        const refusals = (
          await forEachCell(row.key, (cell) =>
            judgeCell({ check, paths }, payingPsu, cell, { patch, requirements, code: 'ERR-21', malformed: row.rule, notInForce }),
          )
        ).flat();
        // The rule as a whole (ADR-01) and its date in the sandbox (ADR-08) hold where the town name was demanded.
        const following = row.requirements.filter((id) => FOLLOWING.includes(id));
        if (following.length === 0) return;
        if (refusals.length === 0) return check.notEvaluated(following, 'not evaluated: no payment was judged against the rule in force');
        for (const id of following)
          check.that(
            id,
            refusals.every((r) => r.passed),
            { expected: 'the creditor town name demanded in every payment service and product, once the rule is enforced in the sandbox' },
          );
      },
    ),
  );
}

test(
  ...scenario(
    'ADR-09.a',
    'with the sandbox clock the day before 13 August 2026, a payment without creditor town name is not refused for it',
    {
      checks: ['ADR-09'],
      writes: 'initiates a payment',
      needs: ['clock-control'],
      globalState: 'freezes the target clock before the enforcement date',
    },
    async ({ newTpp, psu, consentedPsu, sandboxClock, paths, target, check }) => {
      if (target.environment !== 'sandbox')
        return check.notEvaluatedRest('not evaluated: the sandbox date applies to sandbox targets only');
      // The PSU's accounts, read before the clock moves (its consent may be the worker's, from before it).
      const { tpp, ...from } = await payer({ newTpp, psu, consentedPsu, paths });
      await sandboxClock.freeze(new Date(SANDBOX_ENFORCEMENT - 12 * 3600 * 1000));
      const response = await initiate(tpp, paths, withAddress(from, { townName: undefined }));
      // A refusal is the rule's, enforced early, only where the bank takes the same payment with its town name.
      const unjudged = servedOrScaAsked(response) ? undefined : await refusedAlike(tpp, paths, sepaPayment(from));
      if (unjudged !== undefined) return check.notEvaluated(['ADR-09'], `not evaluated: ${unjudged}`);
      check.accepted('ADR-09', response);
    },
  ),
);
