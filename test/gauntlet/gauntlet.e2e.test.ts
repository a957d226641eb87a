/**
 * The gauntlets: every behaviour switch the reference bank declares is switched on for a TPP of its own, and
 * the scenarios that can observe it run as that TPP, all in one run of the real command against one bank.
 *
 * - The fault gauntlet: a conformance check that no fault can make fail proves nothing; here each is shown to
 *   fail, for the right reason (its own requirement), and without failing anything else in any scenario that
 *   can see the fault.
 * - The latitude gauntlet: a check that fails a legal reading of the specification is as wrong; here the
 *   suite passes every variant the bank declares, alone and all compatible ones at once.
 *
 * Which scenarios can observe which switch comes from a census run first (test/gauntlet/plan.ts).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import type { GauntletRequest } from '../../lib/cli/prepare-target.js';
import type { GauntletCaseResult, RunResults } from '../../lib/report/results-types.js';
import { listSuiteTests, type SuiteListing } from '../../lib/cli/suite-listing.js';
import { REQUIREMENTS, requirementById } from '../../lib/spec/requirements.js';
import { RULE_TABLE, scenariosOf } from '../../lib/spec/rule-table.js';
import { knownFaults, knownVariants } from '../../reference/server.js';
import { COMMAND_DEFAULT_WORKERS, runCli, type CliRun } from '../support/run-cli.js';
import {
  censusOf,
  derivePlan,
  gauntletTier,
  letterBanks,
  NOT_RUN_AGAINST_REFERENCE,
  precisionSeed,
  PRECISION_SLICE,
  type Census,
  type ScenarioDeclaration,
} from './plan.js';

const FAULTS = knownFaults();
const TIER = gauntletTier();
const VARIANTS = knownVariants();
const SCENARIO_TITLE = /^([A-Z]{3}-\d{2,3}\.[a-z]{1,2}) /;
/**
 * While working on a few switches (by hand, never in the check): XS2A_GAUNTLET_CASES, a regular expression,
 * keeps only the cases whose names match (`fault:no-sca-redirect`, `variant:…`); the verdicts over all cases
 * (every check made to fail by some fault…) are then skipped. XS2A_GAUNTLET_CENSUS names a file that keeps a
 * census between such runs: read when it is there (the census itself is then not judged), written when not.
 */
const FOCUS = process.env.XS2A_GAUNTLET_CASES ? new RegExp(process.env.XS2A_GAUNTLET_CASES) : undefined;
const CENSUS_FILE = process.env.XS2A_GAUNTLET_CENSUS;
const focused = (name: string) => FOCUS === undefined || FOCUS.test(name);
const whole = FOCUS === undefined ? {} : { skip: 'XS2A_GAUNTLET_CASES: some cases only' };

/** Runs the real command with a gauntlet request; the results and what the bank was asked per case. */
async function runGauntlet(
  request: GauntletRequest,
): Promise<{ run: CliRun; results: RunResults; consulted: Record<string, string[]>; seconds: number }> {
  const started = Date.now();
  // Thousands of scenario runs: as many workers as the command gives a run against the embedded bank.
  const run = await runCli(
    ['run', '--gauntlet', '{reportDir}/plan.json', '--report-dir', '{reportDir}'],
    COMMAND_DEFAULT_WORKERS,
    (reportDir) => {
      writeFileSync(join(reportDir, 'plan.json'), JSON.stringify(request));
    },
  );
  assert.ok(run.results?.gauntlet, `no gauntlet results; exit ${run.exitCode}\nstderr: ${run.stderr}\nstdout: ${run.stdout.slice(-3000)}`);
  const consulted = JSON.parse(readFileSync(join(run.reportDir, 'latest', 'consulted.json'), 'utf8')) as Record<string, string[]>;
  return { run, results: run.results, consulted, seconds: (Date.now() - started) / 1000 };
}

const failing = (g: GauntletCaseResult) => g.requirements.filter((r) => r.status === 'FAIL' || r.status === 'WARNING');
const stopped = (g: GauntletCaseResult) => g.scenarios.filter((s) => s.status === 'ERROR' || s.status === 'INTERRUPTED');

describe('gauntlets', () => {
  let listing: SuiteListing;
  let scenarios: ScenarioDeclaration[];
  let census: Census;
  let censusResults: RunResults;
  let results: RunResults;
  let plan: GauntletRequest;

  before(async () => {
    listing = await listSuiteTests();
    scenarios = listing.specs.flatMap((spec) => {
      const scenario = SCENARIO_TITLE.exec(spec.title)?.[1];
      assert.ok(scenario, `suite test without a scenario id: ${spec.title}`);
      return NOT_RUN_AGAINST_REFERENCE[scenario] ? [] : [{ scenario, checks: spec.ids }];
    });
    const kept =
      CENSUS_FILE !== undefined && existsSync(CENSUS_FILE)
        ? (JSON.parse(readFileSync(CENSUS_FILE, 'utf8')) as Record<string, string[]>)
        : undefined;
    const first = kept ? undefined : await runGauntlet({ census: scenarios.map((s) => s.scenario) });
    if (first && CENSUS_FILE !== undefined) writeFileSync(CENSUS_FILE, JSON.stringify(first.consulted));
    census = censusOf(kept ?? first?.consulted ?? {});
    censusResults = first?.results as RunResults;
    const seed = precisionSeed();
    const derived = derivePlan(FAULTS, VARIANTS, scenarios, census, TIER, seed);
    plan = {
      faults: derived.faults?.filter((f) => focused(`fault:${f.name}`)),
      variants: derived.variants?.filter((v) => focused(v.variants.length === 1 ? `variant:${v.name}` : `variants:${v.name}`)),
    };
    const second = await runGauntlet(plan);
    results = second.results;
    const runs = (kind: string) => results.tests.filter((t) => t.gauntletCase?.startsWith(kind)).length;
    console.log(
      `gauntlet (${TIER} tier${TIER === 'sensitivity' ? `, precision slice of ${PRECISION_SLICE} a fault turned by ${seed.slice(0, 12)}` : ''}): ` +
        `census ${first ? `${first.seconds.toFixed(0)} s (${first.results.tests.length} scenario runs)` : `read from ${CENSUS_FILE ?? ''}`}; ` +
        `faults and variants ${second.seconds.toFixed(0)} s (${runs('fault:')} fault runs for ${FAULTS.length} faults, ` +
        `${runs('variant')} variant runs for ${plan.variants?.length ?? 0} variant cases)`,
    );
  });

  const outcome = (name: string): GauntletCaseResult => {
    const found = results.gauntlet?.find((g) => g.case === name);
    assert.ok(found, `no results for gauntlet case ${name}`);
    return found;
  };

  describe('census', () => {
    test(
      'every scenario passes on a TPP of its own (the suite does not lean on what another scenario left behind)',
      CENSUS_FILE === undefined ? {} : { skip: 'XS2A_GAUNTLET_CENSUS: a census kept from an earlier run' },
      () => {
        const bad = censusResults.tests
          .filter((t) => !['PASS', 'NOT_TESTABLE', 'SKIPPED'].includes(t.status))
          .map((t) => `${t.scenario} ${t.status}: ${t.reason ?? t.error?.split('\n')[0] ?? ''}`);
        assert.deepEqual(bad, []);
        assert.equal(censusResults.tests.length, scenarios.length);
      },
    );

    test('every switch scoped to a TPP is asked by some scenario: the suite can observe it', whole, () => {
      const asked = new Set([...census.values()].flatMap((s) => [...s]));
      const unobserved = [...FAULTS, ...VARIANTS].filter((s) => s.scope === 'tpp' && !asked.has(s.name)).map((s) => s.name);
      assert.deepEqual(unobserved, []);
    });
  });

  const where =
    TIER === 'precision'
      ? 'in every scenario that can observe it'
      : "in the scenarios that declare what it breaks and this commit's precision slice";
  describe(`fault gauntlet: each fault fails exactly what it breaks, ${where}`, () => {
    for (const fault of FAULTS.filter((f) => focused(`fault:${f.name}`))) {
      test(`${fault.name}: ${fault.breaks.join(', ')} fail, and nothing else`, () => {
        const result = outcome(`fault:${fault.name}`);
        assert.ok(result.scenarios.length > 0, `no scenario ran under ${fault.name}`);
        assert.deepEqual(stopped(result), [], `scenarios stopped instead of judging under ${fault.name}`);
        for (const id of fault.breaks) {
          const verdict = result.requirements.find((r) => r.id === id);
          const expected = requirementById(id)?.level === 'MUST' ? 'FAIL' : 'WARNING';
          assert.equal(
            verdict?.status,
            expected,
            `${id} under ${fault.name}: ${verdict ? `${verdict.status} (${verdict.reason ?? ''})` : 'not judged by any scenario run'}`,
          );
        }
        const unexpected = failing(result).filter((r) => !fault.breaks.includes(r.id));
        const where = (id: string) => result.scenarios.filter((s) => s.failed.includes(id)).map((s) => s.scenario);
        assert.deepEqual(
          unexpected.map((r) => `${r.id} ${r.status} in ${where(r.id).join(', ') || 'a warning'}: ${r.reason ?? ''}`),
          [],
          `${fault.name} also failed requirements it does not declare`,
        );
      });
    }

    test('every check a scenario declares is made to fail by some fault', whole, () => {
      const failed = new Set(
        results.gauntlet
          ?.filter((g) => g.kind === 'fault')
          .flatMap((g) => g.scenarios.flatMap((s) => s.failed.map((id) => `${s.scenario} ${id}`))) ?? [],
      );
      const missing = scenarios.flatMap(({ scenario, checks }) =>
        checks.filter((id) => !failed.has(`${scenario} ${id}`)).map((id) => `${scenario} ${id}`),
      );
      assert.deepEqual(missing, [], 'checks (scenario and requirement) that no fault of the reference bank makes fail');
    });

    test('every rule checked on every exchange is broken by some fault', whole, () => {
      const broken = new Set(FAULTS.flatMap((f) => f.breaks));
      assert.deepEqual(
        REQUIREMENTS.filter((r) => r.everyExchange && !broken.has(r.id)).map((r) => r.id),
        [],
      );
    });
  });

  describe('latitude gauntlet: every legal reading passes, alone and together', () => {
    const cases = [
      ...VARIANTS.map((v) => ({ name: `variant:${v.name}`, members: [v.name] })),
      ...letterBanks(VARIANTS).map((members, i) => ({
        name: `variants:letter-of-the-specification${i === 0 ? '' : `-${i + 1}`}`,
        members,
      })),
    ];
    for (const { name, members } of cases.filter((c) => focused(c.name))) {
      test(`${name}: no FAIL, nothing stopped, every WARNING and NOT_EVALUATED with its reason`, () => {
        const result = outcome(name);
        assert.deepEqual(result.switches, members);
        assert.deepEqual(
          stopped(result).map((s) => `${s.scenario} ${s.status}: ${s.reason ?? ''}`),
          [],
          `scenarios stopped under ${name}`,
        );
        const where = (id: string) => result.scenarios.filter((s) => s.failed.includes(id)).map((s) => s.scenario);
        const failed = result.requirements
          .filter((r) => r.status === 'FAIL')
          .map((r) => `${r.id} in ${where(r.id).join(', ')}: ${r.reason ?? ''}`);
        assert.deepEqual(failed, [], `the suite fails a legal reading of the specification (${name})`);
        const unexplained = result.requirements
          .filter((r) => (r.status === 'WARNING' || r.status === 'NOT_EVALUATED') && !r.reason?.trim())
          .map((r) => `${r.id} ${r.status}`);
        assert.deepEqual(unexplained, [], 'a WARNING or NOT_EVALUATED without the reason the report shows');
      });
    }
  });

  test('every row of the rule table is judged by a scenario of the suites that declares its requirements', () => {
    const declared = new Map(listing.specs.map((spec) => [SCENARIO_TITLE.exec(spec.title)?.[1], spec.ids]));
    for (const row of RULE_TABLE) {
      for (const scenario of scenariosOf(row)) {
        const ids = declared.get(scenario);
        assert.ok(ids, `${row.key}: the suites have no scenario ${scenario}`);
        assert.deepEqual(
          row.requirements.filter((id) => !ids.includes(id)),
          [],
          `${row.key}: ${scenario} does not declare every requirement of the row`,
        );
      }
    }
  });

  test('the gauntlet runs certify nothing: no scenario ran outside a case', () => {
    assert.deepEqual(
      results.tests.filter((t) => t.gauntletCase === undefined).map((t) => t.scenario),
      [],
    );
  });
});
