/**
 * The gauntlet's plan (test/gauntlet/plan.ts), on a census made up here: which scenarios each fault and
 * variant runs against, in both tiers, and the precision slice that turns with the commit.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { FaultDefinition, VariantDefinition } from '../../reference/server.js';
import { derivePlan, precisionSeed, precisionSlice, type Census, type ScenarioDeclaration } from './plan.js';

const fault = (name: string, breaks: string[], refusesEveryRequest?: string): FaultDefinition => ({
  kind: 'fault',
  name,
  description: name,
  scope: 'tpp',
  breaks,
  ...(refusesEveryRequest ? { refusesEveryRequest } : {}),
});
const variant = (name: string): VariantDefinition => ({
  kind: 'variant',
  name,
  description: name,
  scope: 'tpp',
  allowedBy: 'a sentence',
  source: 'a section',
  excludes: [],
});

const SCENARIOS: ScenarioDeclaration[] = Array.from({ length: 12 }, (_, i) => ({
  scenario: `ABC-${String(i + 10)}.a`,
  checks: [`ABC-${String(i + 10)}`],
}));
/** Every scenario asked every switch but `quiet`, which one scenario asked. */
const CENSUS: Census = new Map(
  SCENARIOS.map(({ scenario }, i) => [scenario, new Set(['wide', 'everyone', 'refusing', 'reading', ...(i === 3 ? ['quiet'] : [])])]),
);
const FAULTS = [
  fault('wide', ['ABC-10']),
  fault('everyone', ['HDR-03']),
  fault('refusing', ['SIG-04'], 'refuses the plain signed request'),
  fault('quiet', ['ABC-20']),
];
const VARIANTS = [variant('reading')];
const scenariosOf = (plan: ReturnType<typeof derivePlan>, name: string) => plan.faults?.find((f) => f.name === name)?.scenarios ?? [];

describe("the gauntlet's plan", () => {
  test('the precision tier runs a fault against every scenario that asked it, and those that declare what it breaks', () => {
    const plan = derivePlan(FAULTS, VARIANTS, SCENARIOS, CENSUS, 'precision', 'seed');
    assert.equal(scenariosOf(plan, 'wide').length, SCENARIOS.length);
    assert.deepEqual(scenariosOf(plan, 'quiet'), ['ABC-13.a', 'ABC-20.a'].sort());
    // A fault that refuses every conforming request fails everything by that one cause: its declaring scenarios only.
    assert.deepEqual(scenariosOf(plan, 'refusing'), []);
  });

  test('the sensitivity tier: the declaring scenarios, a sample for an every-exchange rule, and the precision slice', () => {
    const plan = derivePlan(FAULTS, VARIANTS, SCENARIOS, CENSUS, 'sensitivity', 'seed');
    const wide = scenariosOf(plan, 'wide');
    assert.ok(wide.includes('ABC-10.a'));
    assert.equal(wide.length, 2, 'the declaring scenario and a slice of one');
    assert.equal(scenariosOf(plan, 'everyone').length, 6 + 1, 'a sample of six and a slice of one');
    assert.deepEqual(
      plan.variants?.find((v) => v.name === 'reading')?.scenarios.length,
      SCENARIOS.length,
      'a variant runs wherever it was asked',
    );
  });

  test("a commit's slice is the same on every run; over commits every scenario that asked the fault gets its turn", () => {
    const candidates = SCENARIOS.map((s) => s.scenario);
    assert.deepEqual(precisionSlice('wide', candidates, 'commit-a'), precisionSlice('wide', candidates, 'commit-a'));
    const seen = new Set<string>();
    for (let commit = 0; commit < 200 && seen.size < candidates.length; commit++)
      for (const s of precisionSlice('wide', candidates, `commit-${commit}`)) seen.add(s);
    assert.equal(seen.size, candidates.length);
    assert.notDeepEqual(
      Array.from({ length: 5 }, (_, i) => precisionSlice('wide', candidates, `commit-${i}`)[0]),
      Array.from({ length: 5 }, () => precisionSlice('wide', candidates, 'commit-0')[0]),
    );
  });

  test('the seed: XS2A_PRECISION_SEED, else the commit checked out', () => {
    assert.equal(precisionSeed({ XS2A_PRECISION_SEED: 'given' }), 'given');
    assert.match(precisionSeed({}), /^[0-9a-f]{40}$|^no-commit$/);
    assert.equal(precisionSeed({}, '/'), 'no-commit');
  });
});
