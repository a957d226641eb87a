import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CheckRecord, TestRecord, TestStatus } from '../../lib/report/results-types.js';
import {
  activeDeviation,
  deviationFor,
  foldAll,
  foldRequirement,
  judgementsOf,
  runVerdict,
  type CatalogueEntry,
} from '../../lib/report/verdict.js';

const entry = (id: string, level: CatalogueEntry['level'] = 'MUST'): CatalogueEntry => ({
  id,
  area: id.slice(0, 3) as CatalogueEntry['area'],
  level,
  section: 's',
  statement: `statement of ${id}`,
  testedBy: 'automated',
  basis: 'specification',
});
const MUST = entry('SIG-04');
const SHOULD = entry('SIG-05', 'SHOULD');

const check = (requirement: string, verdict: CheckRecord['verdict'], source: CheckRecord['source'] = 'scenario'): CheckRecord => ({
  requirement,
  verdict,
  source,
  ...(verdict === 'PASS' ? {} : { message: `-> ${requirement} MUST: s\n   Expected: x\n   Actual:   y` }),
});

function scenarioRun(status: TestStatus, requirements: string[], checks: CheckRecord[], extra: Partial<TestRecord> = {}): TestRecord {
  return {
    id: `t-${Math.random()}`,
    scenario: 'SIG-04.a',
    title: 'SIG-04.a a scenario',
    file: 'suites/x.spec.ts',
    line: 1,
    requirements,
    status,
    durationMs: 1,
    warnings: [],
    checks,
    evidence: { exchanges: [], redirects: [], files: [] },
    ...extra,
  };
}

describe('judgements of one scenario run', () => {
  test('a failed check fails its own requirement only: the error body losing id fails ERR-01, not the 400 rules', () => {
    const run = scenarioRun(
      'FAIL',
      ['SIG-04', 'ERR-35'],
      [check('SIG-04', 'PASS'), check('ERR-35', 'PASS'), check('ERR-01', 'FAIL', 'invariant'), check('ERR-03', 'PASS', 'invariant')],
    );
    const judged = judgementsOf(run);
    assert.equal(judged.get('SIG-04')?.status, 'PASS');
    assert.equal(judged.get('ERR-35')?.status, 'PASS');
    assert.equal(judged.get('ERR-01')?.status, 'FAIL');
    assert.equal(judged.get('ERR-03')?.status, 'PASS');
    assert.match(judged.get('ERR-01')?.reason ?? '', /SIG-04\.a: Expected: x; Actual: y/);
  });

  test('one failure among passes of the same requirement fails it', () => {
    assert.equal(
      judgementsOf(scenarioRun('FAIL', ['LIM-01'], [check('LIM-01', 'PASS'), check('LIM-01', 'FAIL')])).get('LIM-01')?.status,
      'FAIL',
    );
  });

  test('a check whose prerequisite failed is NOT_EVALUATED, never PASS or FAIL', () => {
    const judged = judgementsOf(scenarioRun('FAIL', ['SIG-04', 'SIG-05'], [check('SIG-04', 'FAIL'), check('SIG-05', 'NOT_EVALUATED')]));
    assert.equal(judged.get('SIG-05')?.status, 'NOT_EVALUATED');
  });

  test('a declared requirement no check reached follows how the scenario ended', () => {
    const declared = ['SCA-12'];
    assert.equal(judgementsOf(scenarioRun('ERROR', declared, [], { error: 'TypeError: x' })).get('SCA-12')?.status, 'NOT_EVALUATED');
    assert.match(
      judgementsOf(scenarioRun('ERROR', declared, [], { error: 'TypeError: x' })).get('SCA-12')?.reason ?? '',
      /stopped before judging it: TypeError: x/,
    );
    assert.equal(judgementsOf(scenarioRun('INTERRUPTED', declared, [], { reason: 'browser gone' })).get('SCA-12')?.status, 'INTERRUPTED');
    assert.equal(
      judgementsOf(scenarioRun('NOT_TESTABLE', declared, [], { reason: 'no clock-control' })).get('SCA-12')?.status,
      'NOT_TESTABLE',
    );
    assert.equal(judgementsOf(scenarioRun('SKIPPED', declared, [])).get('SCA-12')?.status, 'SKIPPED');
    assert.match(judgementsOf(scenarioRun('PASS', declared, [])).get('SCA-12')?.reason ?? '', /made no check of it/);
  });

  test('a check made before an interruption still counts', () => {
    assert.equal(judgementsOf(scenarioRun('INTERRUPTED', ['SCA-10', 'SCA-12'], [check('SCA-10', 'PASS')])).get('SCA-10')?.status, 'PASS');
  });
});

describe('requirement verdicts', () => {
  const judged = (status: TestStatus, checks: CheckRecord[]) => [...judgementsOf(scenarioRun(status, ['SIG-04'], checks)).values()];

  test('all checks pass: PASS; one fails: FAIL', () => {
    assert.equal(foldRequirement(MUST, judged('PASS', [check('SIG-04', 'PASS')]), undefined).status, 'PASS');
    assert.equal(
      foldRequirement(MUST, [...judged('PASS', [check('SIG-04', 'PASS')]), ...judged('FAIL', [check('SIG-04', 'FAIL')])], undefined).status,
      'FAIL',
    );
  });

  test('a failing SHOULD rule is a WARNING', () => {
    assert.equal(foldRequirement(SHOULD, [{ status: 'FAIL', scenario: 'SIG-04.a' }], undefined).status, 'WARNING');
  });

  test('worst first: FAIL, INTERRUPTED, NOT_EVALUATED, NOT_TESTABLE, SKIPPED, PASS', () => {
    const fold = (...statuses: ('PASS' | 'NOT_TESTABLE' | 'NOT_EVALUATED' | 'INTERRUPTED')[]) =>
      foldRequirement(
        MUST,
        statuses.map((status) => ({ status, scenario: 's', reason: status })),
        undefined,
      );
    assert.equal(fold('PASS', 'NOT_TESTABLE').status, 'NOT_TESTABLE');
    assert.equal(fold('PASS', 'NOT_TESTABLE').reason, 'NOT_TESTABLE');
    assert.equal(fold('NOT_TESTABLE', 'NOT_EVALUATED').status, 'NOT_EVALUATED');
    assert.equal(fold('NOT_EVALUATED', 'INTERRUPTED').status, 'INTERRUPTED');
  });

  test('a known deviation excuses a failure, and is flagged when it passes', () => {
    const deviation = { requirement: 'SIG-04', reason: 'fix in 1.24' };
    assert.equal(foldRequirement(MUST, [{ status: 'FAIL', scenario: 's' }], deviation).status, 'KNOWN_DEVIATION');
    const passing = foldRequirement(MUST, [{ status: 'PASS', scenario: 's' }], deviation);
    assert.equal(passing.status, 'KNOWN_DEVIATION');
    assert.equal(passing.deviationUnexpectedlyPasses, true);
  });

  test('a deviation past its date no longer applies: the failure counts, and the report says the deviation expired', () => {
    const deviations = [{ requirement: 'SIG-04', reason: 'r', until: '2026-01-31' }];
    assert.ok(activeDeviation('SIG-04', deviations, new Date('2026-01-31T20:00:00Z')));
    assert.equal(activeDeviation('SIG-04', deviations, new Date('2026-02-01T00:00:01Z')), undefined);
    const expired = foldRequirement(
      MUST,
      [{ status: 'FAIL', scenario: 's', reason: 's: Expected: x' }],
      deviationFor('SIG-04', deviations, new Date('2026-02-02T00:00:00Z')),
    );
    assert.equal(expired.status, 'FAIL');
    assert.deepEqual(expired.deviation, { reason: 'r', until: '2026-01-31', expired: true });
    assert.match(expired.reason ?? '', /its deviation expired on 2026-01-31/);
  });

  test('unjudged requirements are NOT_COVERED, or MANUAL when a person checks them', () => {
    assert.equal(foldRequirement(MUST, [], undefined).status, 'NOT_COVERED');
    assert.equal(foldRequirement({ ...MUST, testedBy: 'manual:production registry' }, [], undefined).status, 'MANUAL');
  });

  test('an entry that fills a gap says so', () => {
    const folded = foldRequirement({ ...MUST, basis: 'berlin-group', source: 'OpenAPI 1.3.8' }, [], undefined);
    assert.equal(folded.fillsGap, true);
    assert.equal(folded.source, 'OpenAPI 1.3.8');
    assert.equal(foldRequirement(MUST, [], undefined).fillsGap, false);
  });

  test('foldAll: requirements judged only by invariants get verdicts too', () => {
    const records = foldAll(
      [entry('SIG-04'), entry('ERR-01'), entry('ERR-02')],
      [scenarioRun('FAIL', ['SIG-04'], [check('SIG-04', 'PASS'), check('ERR-01', 'FAIL', 'invariant')])],
      () => undefined,
    );
    assert.deepEqual(
      records.map((r) => [r.id, r.status]),
      [
        ['SIG-04', 'PASS'],
        ['ERR-01', 'FAIL'],
        ['ERR-02', 'NOT_COVERED'],
      ],
    );
  });
});

describe('run verdict and exit code', () => {
  const fold = (...statuses: ('PASS' | 'FAIL' | 'INTERRUPTED' | 'NOT_TESTABLE')[]) =>
    statuses.map((status, i) => foldRequirement(entry(`SIG-0${i + 1}`), [{ status, scenario: 's' }], undefined));
  const ran = (status: TestStatus = 'PASS') => [{ status, scenario: 'SIG-01.a' }];

  test('everything passes, unfiltered: CONFORMANT, exit 0', () => {
    assert.deepEqual(runVerdict(fold('PASS', 'PASS'), ran(), false), { verdict: 'CONFORMANT', reasons: [], exitCode: 0, missing: [] });
  });

  test('any FAIL: NON_CONFORMANT, exit 1', () => {
    const verdict = runVerdict(fold('PASS', 'FAIL'), ran('FAIL'), false);
    assert.equal(verdict.verdict, 'NON_CONFORMANT');
    assert.equal(verdict.exitCode, 1);
  });

  test('interrupted, or a scenario stopped with an error: INCOMPLETE, exit 3 (never non-conformance)', () => {
    assert.deepEqual(
      [runVerdict(fold('PASS', 'INTERRUPTED'), ran(), false).verdict, runVerdict(fold('PASS', 'INTERRUPTED'), ran(), false).exitCode],
      ['INCOMPLETE', 3],
    );
    const errored = runVerdict(fold('PASS'), ran('ERROR'), false);
    assert.deepEqual([errored.verdict, errored.exitCode], ['INCOMPLETE', 3]);
    assert.match(errored.reasons.join(';'), /stopped with an error: SIG-01\.a/);
  });

  test('a suite file that does not load: INCOMPLETE, exit 3, even when everything that ran passed', () => {
    const broken = runVerdict(fold('PASS', 'PASS'), ran(), false, ['Error: scenario id ERR-22.a is used twice\n  at suites/x.spec.ts:5']);
    assert.deepEqual([broken.verdict, broken.exitCode], ['INCOMPLETE', 3]);
    assert.deepEqual(broken.reasons, ['the suite did not run as written: Error: scenario id ERR-22.a is used twice']);
  });

  test('every requirement short of CONFORMANT is named with its reason, every NOT_TESTABLE reason among the reasons', () => {
    const records = [
      foldRequirement(
        entry('SIG-01'),
        [{ status: 'NOT_TESTABLE', scenario: 'SIG-01.a', reason: 'needs capability clock-control' }],
        undefined,
      ),
      foldRequirement({ ...entry('SCA-23'), testedBy: 'needs-capability:mobile-app' }, [], undefined, {
        targetName: 'reference',
        capabilities: [],
        embedded: true,
        environment: 'staging',
      }),
      foldRequirement(entry('SIG-02'), [{ status: 'PASS', scenario: 's' }], undefined),
    ];
    const verdict = runVerdict(records, ran(), false);
    assert.equal(verdict.verdict, 'INCOMPLETE');
    assert.deepEqual(
      verdict.missing.map((m) => [m.id, m.status]),
      [
        ['SIG-01', 'NOT_TESTABLE'],
        ['SCA-23', 'NOT_COVERED'],
      ],
    );
    assert.match(
      verdict.missing[1]?.reason ?? '',
      /^needs capability mobile-app \(the bank's mobile app[^)]*\): target reference does not declare it, and the embedded reference bank never can$/,
    );
    assert.ok(verdict.reasons.includes('NOT_TESTABLE (SIG-01): needs capability clock-control'), verdict.reasons.join(' | '));
    assert.ok(verdict.reasons.includes('1 requirement(s) not exercised by this run: SCA-23'), verdict.reasons.join(' | '));
  });

  test('what no target of its kind can offer is out of scope: a sandbox is CONFORMANT in its scope, named; declared, it is judged (issue 38)', () => {
    const sandbox = { targetName: 'sandbox', capabilities: [], embedded: false, environment: 'sandbox' as const };
    const records = [
      foldRequirement({ ...entry('GEN-05'), testedBy: 'needs-capability:production-target' }, [], undefined, sandbox),
      foldRequirement({ ...entry('SCA-23'), testedBy: 'needs-capability:mobile-app' }, [], undefined, sandbox),
      foldRequirement(entry('SIG-02'), [{ status: 'PASS', scenario: 's' }], undefined),
    ];
    assert.deepEqual(
      records.map((r) => r.status),
      ['OUT_OF_SCOPE', 'OUT_OF_SCOPE', 'PASS'],
    );
    assert.match(records[0]?.reason ?? '', /^out of sandbox scope: it needs capability production-target/);
    const verdict = runVerdict(records, ran(), false);
    assert.deepEqual([verdict.verdict, verdict.exitCode, verdict.missing], ['CONFORMANT', 0, []]);
    assert.deepEqual(verdict.reasons, ['sandbox scope; 2 requirement(s) out of scope: GEN-05, SCA-23']);
    const withApp = foldRequirement({ ...entry('SCA-23'), testedBy: 'needs-capability:mobile-app' }, [], undefined, {
      ...sandbox,
      capabilities: ['mobile-app'],
    });
    assert.equal(withApp.status, 'NOT_COVERED', 'a sandbox that declares the app is judged on it');
    const production = foldRequirement({ ...entry('GEN-05'), testedBy: 'needs-capability:production-target' }, [], undefined, {
      ...sandbox,
      environment: 'production',
    });
    assert.equal(production.status, 'NOT_COVERED', 'in production it is in scope');
  });

  test('filtered or partly covered: INCOMPLETE, exit 0', () => {
    assert.deepEqual(runVerdict(fold('PASS'), ran(), true).exitCode, 0);
    assert.equal(runVerdict(fold('PASS'), ran(), true).verdict, 'INCOMPLETE');
    assert.equal(runVerdict(fold('PASS', 'NOT_TESTABLE'), ran(), false).verdict, 'INCOMPLETE');
  });
});
