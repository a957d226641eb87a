/**
 * The summary a run prints, as a person reads it on a console (issue 37, item 4): one scenario's error printed
 * once, on its ERROR line (it was printed again for each requirement the scenario left unjudged), a reason
 * several requirements share printed once, and a verdict line that names ten ids and counts the rest (one listed
 * 346). results.json keeps every id and reason.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { consoleView } from '../../lib/cli/printed-summary.js';
import { formatSummary } from '../../lib/report/results-summary.js';
import type { RunResults, TestRecord } from '../../lib/report/results-types.js';
import { requirementRecord, sampleResults } from '../report/sample-results.js';

const ERROR =
  'ScaFlowError: SCA did not reach TPP-Redirect-URI; the PSU is at https://bank/sca/1 (HTTP 200); no configured page rule matches it';

function stopped(scenario: string, requirements: string[]): TestRecord {
  return {
    id: scenario,
    scenario,
    title: scenario,
    file: 'suites/ais/account-reads.spec.ts',
    line: 1,
    requirements,
    status: 'ERROR',
    error: `${ERROR}\n    at stack`,
    durationMs: 1,
    warnings: [],
    checks: [],
    evidence: { exchanges: [], redirects: [], files: [] },
  };
}

function run(): RunResults {
  const ids = Array.from({ length: 346 }, (_, i) => `AIS-${String(i + 100).padStart(3, '0')}`);
  const judged = ['AIS-01', 'AIS-02', 'AIS-03', 'END-13'];
  return {
    ...sampleResults(),
    verdict: 'INCOMPLETE',
    exitCode: 3,
    verdictReasons: [
      `1 scenario(s) stopped with an error: END-13.a`,
      `${ids.length} requirement(s) not exercised by this run: ${ids.join(', ')}`,
    ],
    tests: [stopped('END-13.a', judged)],
    requirements: [
      ...judged.map((id) => requirementRecord(id, 'NOT_EVALUATED', { reason: `the scenario stopped before judging it: ${ERROR}` })),
      ...['SIG-12', 'SIG-13', 'LIM-01'].map((id) =>
        requirementRecord(id, 'INTERRUPTED', { reason: 'the target did not answer within 10000 ms' }),
      ),
    ],
    missingForConformant: [],
  };
}

test("a scenario's error is printed once, and each requirement it left unjudged points at it", () => {
  const before = formatSummary(run(), 'reports/latest/index.html');
  assert.equal(before.split(ERROR).length - 1, 5, 'the bare summary repeats it for each requirement');
  const text = formatSummary(consoleView(run()), 'reports/latest/index.html');
  assert.equal(text.split(ERROR).length - 1, 1, text);
  assert.match(text, /ERROR +END-13\.a +stopped: ScaFlowError: SCA did not reach/);
  assert.equal(text.split('not judged: END-13.a stopped with an error (below)').length - 1, 4);
});

test('a reason several requirements share is printed once', () => {
  const text = formatSummary(consoleView(run()), 'reports/latest/index.html');
  assert.equal(text.split('the target did not answer within 10000 ms').length - 1, 1, text);
  assert.equal(text.split('as for SIG-12').length - 1, 2);
});

test('a verdict line names ten ids and counts the rest', () => {
  const shown = consoleView(run()).verdictReasons;
  assert.equal(shown[0], '1 scenario(s) stopped with an error: END-13.a');
  assert.equal(
    shown[1],
    '346 requirement(s) not exercised by this run: AIS-100, AIS-101, AIS-102, AIS-103, AIS-104, AIS-105, AIS-106, AIS-107, AIS-108, AIS-109 and 336 more (results.json)',
  );
});
