import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { TestResult } from '@playwright/test/reporter';
import { canRaiseDeferredFailures, codeFrame, locationOf, raiseDeferredFailures } from '../../lib/report/deferred-failures.js';
import { scratchDir } from '../support/scratch.js';

const REPORTER = '/project/lib/report/reporter.ts';
const config = (reporter: [string, unknown?][], retries = 0) =>
  ({ reporter, projects: [{ retries }] }) as unknown as Parameters<typeof canRaiseDeferredFailures>[0];

describe('failed checks raised by the reporter', () => {
  test('only when the conformance reporter hears of each test first and nothing is retried', () => {
    assert.equal(canRaiseDeferredFailures(config([[REPORTER], ['list']]), REPORTER), true);
    assert.equal(canRaiseDeferredFailures(config([['/project/lib/report/reporter.js']]), REPORTER), true, 'the same module, compiled');
    assert.equal(canRaiseDeferredFailures(config([['list'], [REPORTER]]), REPORTER), false, 'list would print the test passed');
    assert.equal(canRaiseDeferredFailures(config([[REPORTER]], 1), REPORTER), false, 'a retry needs the failure in the worker');
    assert.equal(canRaiseDeferredFailures(config([]), REPORTER), false);
  });

  test('a passed result with deferred failures is failed, with each error at the suite line and its code frame', () => {
    const dir = scratchDir('xs2a-deferred-');
    const spec = join(dir, 'x.spec.ts');
    writeFileSync(spec, ['a', 'b', 'c', "  check.status('SIG-04', response);", 'e', 'f', 'g'].join('\n'));
    const result = { status: 'passed', errors: [], error: undefined } as unknown as TestResult;
    raiseDeferredFailures(result, [
      { message: 'Error: -> SIG-04 MUST: x', stack: `Error: -> SIG-04 MUST: x\n   Expected: y\n    at ${spec}:4:9` },
    ]);
    assert.equal(result.status, 'failed');
    assert.equal(result.errors.length, 1);
    assert.deepEqual(result.errors[0]?.location, { file: spec, line: 4, column: 9 });
    assert.equal(result.error, result.errors[0]);
    assert.match(result.errors[0]?.snippet ?? '', /^> 4 \| {3}check\.status\('SIG-04', response\);\n {4}\| {9}\^$/m);
  });

  test('a result that failed otherwise keeps its status and gains the failures; none leaves it as it was', () => {
    const failed = { status: 'timedOut', errors: [{ message: 'timeout' }] } as unknown as TestResult;
    raiseDeferredFailures(failed, [{ message: 'Error: x', stack: 'Error: x' }]);
    assert.equal(failed.status, 'timedOut');
    assert.deepEqual(
      failed.errors.map((e) => e.message),
      ['timeout', 'Error: x'],
    );
    const passed = { status: 'passed', errors: [] } as unknown as TestResult;
    raiseDeferredFailures(passed, []);
    assert.equal(passed.status, 'passed');
  });

  test('the location is the first frame, written as a path or a file URL', () => {
    assert.deepEqual(locationOf('Error: a\n  at b\n    at /p/x.spec.ts:3:4\n    at /p/y.ts:1:1'), {
      file: '/p/x.spec.ts',
      line: 3,
      column: 4,
    });
    assert.deepEqual(locationOf('Error: a\n    at run (file:///p/x.spec.ts:3:4)'), { file: '/p/x.spec.ts', line: 3, column: 4 });
    assert.equal(locationOf('Error: no frame'), undefined);
    assert.equal(codeFrame({ file: '/no/such/file.ts', line: 1, column: 1 }), undefined);
  });
});
