import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { TestRecord, TestStatus } from '../../lib/report/types.js';
import { activeDeviation, foldRequirement, runVerdict, type CatalogueEntry } from '../../lib/report/verdict.js';

const MUST: CatalogueEntry = { id: 'SIG-04', area: 'SIG', level: 'MUST', section: 'Authentication 3', statement: 's', testedBy: 'automated' };
const SHOULD: CatalogueEntry = { ...MUST, id: 'SIG-20', level: 'SHOULD' };

function testOf(status: TestStatus, reason?: string): TestRecord {
  return {
    id: `${status}-${Math.random()}`,
    title: `a ${status} test`,
    file: 'suites/x.spec.ts',
    line: 1,
    requirements: ['SIG-04'],
    status,
    ...(reason ? { reason } : {}),
    durationMs: 1,
    warnings: [],
    evidence: { exchanges: [], redirects: [], files: [] },
  };
}

describe('requirement verdicts', () => {
  test('all tests pass: PASS; one fails: FAIL', () => {
    assert.equal(foldRequirement(MUST, [testOf('PASS'), testOf('PASS')], undefined).status, 'PASS');
    assert.equal(foldRequirement(MUST, [testOf('PASS'), testOf('FAIL')], undefined).status, 'FAIL');
  });

  test('a failing SHOULD rule is a WARNING', () => {
    assert.equal(foldRequirement(SHOULD, [testOf('FAIL')], undefined).status, 'WARNING');
  });

  test('NOT_TESTABLE carries its reason; INTERRUPTED outranks it', () => {
    const folded = foldRequirement(MUST, [testOf('PASS'), testOf('NOT_TESTABLE', 'no clock-control')], undefined);
    assert.equal(folded.status, 'NOT_TESTABLE');
    assert.equal(folded.reason, 'no clock-control');
    assert.equal(foldRequirement(MUST, [testOf('NOT_TESTABLE'), testOf('INTERRUPTED')], undefined).status, 'INTERRUPTED');
  });

  test('a known deviation excuses a failure, and is flagged when it passes', () => {
    const deviation = { requirement: 'SIG-04', reason: 'fix in 1.24' };
    assert.equal(foldRequirement(MUST, [testOf('FAIL')], deviation).status, 'KNOWN_DEVIATION');
    const passing = foldRequirement(MUST, [testOf('PASS')], deviation);
    assert.equal(passing.status, 'KNOWN_DEVIATION');
    assert.equal(passing.deviationUnexpectedlyPasses, true);
  });

  test('a deviation past its date no longer applies', () => {
    const deviations = [{ requirement: 'SIG-04', reason: 'r', until: '2026-01-31' }];
    assert.ok(activeDeviation('SIG-04', deviations, new Date('2026-01-31T20:00:00Z')));
    assert.equal(activeDeviation('SIG-04', deviations, new Date('2026-02-01T00:00:01Z')), undefined);
  });

  test('untested requirements are NOT_COVERED, or MANUAL when a person checks them', () => {
    assert.equal(foldRequirement(MUST, [], undefined).status, 'NOT_COVERED');
    assert.equal(foldRequirement({ ...MUST, testedBy: 'manual:production registry' }, [], undefined).status, 'MANUAL');
  });
});

describe('run verdict and exit code', () => {
  const fold = (statuses: TestStatus[]) => statuses.map((s, i) => ({ ...foldRequirement({ ...MUST, id: `SIG-0${i + 1}` }, [testOf(s)], undefined) }));

  test('everything passes, unfiltered: CONFORMANT, exit 0', () => {
    assert.deepEqual(runVerdict(fold(['PASS', 'PASS']), false), { verdict: 'CONFORMANT', reasons: [], exitCode: 0 });
  });

  test('any FAIL: NON_CONFORMANT, exit 1', () => {
    const verdict = runVerdict(fold(['PASS', 'FAIL']), false);
    assert.equal(verdict.verdict, 'NON_CONFORMANT');
    assert.equal(verdict.exitCode, 1);
  });

  test('interrupted: INCOMPLETE, exit 3 (infrastructure, never non-conformance)', () => {
    const verdict = runVerdict(fold(['PASS', 'INTERRUPTED']), false);
    assert.equal(verdict.verdict, 'INCOMPLETE');
    assert.equal(verdict.exitCode, 3);
  });

  test('filtered or partly covered: INCOMPLETE, exit 0', () => {
    assert.deepEqual(runVerdict(fold(['PASS']), true).exitCode, 0);
    assert.equal(runVerdict(fold(['PASS']), true).verdict, 'INCOMPLETE');
    assert.equal(runVerdict(fold(['PASS', 'NOT_TESTABLE']), false).verdict, 'INCOMPLETE');
  });
});
