/**
 * The fault gauntlet: every fault the reference bank declares is switched on for a TPP of its own, and the
 * scenarios that must catch it run as that TPP, all in one run of the real command against one bank. A
 * conformance check that no fault can make fail proves nothing; this is where each is shown to fail, for
 * the right reason (its own requirement), and without failing anything else.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import type { GauntletFaultResult, RunResults } from '../../lib/report/types.js';
import { listSuiteTests, type SuiteListing } from '../../lib/spec/coverage.js';
import { REQUIREMENTS, requirementById } from '../../lib/spec/requirements.js';
import { RULE_TABLE, scenariosOf } from '../../lib/spec/rule-table.js';
import { knownFaults } from '../../reference/server.js';
import { runCli, type CliRun } from '../support/run-cli.js';
import { NOT_RUN_AGAINST_REFERENCE, SCENARIOS_FOR_FAULT } from './plan.js';

const FAULTS = knownFaults();
const SCENARIO_TITLE = /^([A-Z]{3}-\d{2,3}\.[a-z]{1,2}) /;

describe('fault gauntlet', () => {
  let run: CliRun;
  let results: RunResults;
  let listing: SuiteListing;

  before(async () => {
    listing = await listSuiteTests();
    const plan = { faults: FAULTS.map(({ name }) => ({ name, ...(SCENARIOS_FOR_FAULT[name] ? { scenarios: [...SCENARIOS_FOR_FAULT[name]] } : {}) })) };
    run = await runCli(['run', '--gauntlet', '{reportDir}/plan.json', '--report-dir', '{reportDir}'], {}, (reportDir) => {
      writeFileSync(join(reportDir, 'plan.json'), JSON.stringify(plan));
    });
    assert.ok(run.results?.gauntlet, `no gauntlet results; exit ${run.exitCode}\nstderr: ${run.stderr}\nstdout: ${run.stdout.slice(-3000)}`);
    results = run.results;
  });

  const outcome = (fault: string): GauntletFaultResult => {
    const found = results.gauntlet?.find((g) => g.fault === fault);
    assert.ok(found, `no results for fault ${fault}`);
    return found;
  };

  for (const fault of FAULTS) {
    test(`${fault.name}: ${fault.breaks.join(', ')} fail, and nothing else`, () => {
      const result = outcome(fault.name);
      assert.ok(result.scenarios.length > 0, `no scenario ran under ${fault.name}`);
      const stopped = result.scenarios.filter((s) => s.status === 'ERROR' || s.status === 'INTERRUPTED');
      assert.deepEqual(stopped, [], `scenarios stopped instead of judging under ${fault.name}`);
      const failing = result.requirements.filter((r) => r.status === 'FAIL' || r.status === 'WARNING');
      for (const id of fault.breaks) {
        const verdict = result.requirements.find((r) => r.id === id);
        const expected = requirementById(id)?.level === 'MUST' ? 'FAIL' : 'WARNING';
        assert.equal(verdict?.status, expected, `${id} under ${fault.name}: ${verdict ? `${verdict.status} (${verdict.reason ?? ''})` : 'not judged by any scenario run'}`);
      }
      const unexpected = failing.filter((r) => !fault.breaks.includes(r.id)).map((r) => `${r.id} ${r.status}: ${r.reason ?? ''}`);
      assert.deepEqual(unexpected, [], `${fault.name} also failed requirements it does not declare`);
    });
  }

  test('every check a scenario declares is made to fail by some fault', () => {
    const failed = new Set(results.gauntlet?.flatMap((g) => g.scenarios.flatMap((s) => s.failed.map((id) => `${s.scenario} ${id}`))) ?? []);
    const missing: string[] = [];
    for (const spec of listing.specs) {
      const scenario = SCENARIO_TITLE.exec(spec.title)?.[1];
      assert.ok(scenario, `suite test without a scenario id: ${spec.title}`);
      if (NOT_RUN_AGAINST_REFERENCE[scenario]) continue;
      for (const id of spec.ids) if (!failed.has(`${scenario} ${id}`)) missing.push(`${scenario} ${id}`);
    }
    assert.deepEqual(missing, [], 'checks (scenario and requirement) that no fault of the reference bank makes fail');
  });

  test('every row of the rule table is judged by a scenario of the suites that declares its requirements', () => {
    const declared = new Map(listing.specs.map((spec) => [SCENARIO_TITLE.exec(spec.title)?.[1], spec.ids]));
    for (const row of RULE_TABLE) {
      for (const scenario of scenariosOf(row)) {
        const ids = declared.get(scenario);
        assert.ok(ids, `${row.key}: the suites have no scenario ${scenario}`);
        assert.deepEqual(row.requirements.filter((id) => !ids.includes(id)), [], `${row.key}: ${scenario} does not declare every requirement of the row`);
      }
    }
  });

  test('every rule checked on every exchange is broken by some fault', () => {
    const broken = new Set(FAULTS.flatMap((f) => f.breaks));
    const unbroken = REQUIREMENTS.filter((r) => r.everyExchange && !broken.has(r.id)).map((r) => r.id);
    assert.deepEqual(unbroken, []);
  });

  test('the faulty runs certify nothing: no scenario ran without a fault', () => {
    assert.deepEqual(results.tests.filter((t) => t.fault === undefined).map((t) => t.scenario), []);
  });
});
