/**
 * A failed check fails its scenario in Playwright's own output and exit code, and costs no new worker when the
 * conformance reporter raises it (lib/report/deferred-failures.ts); with another reporter before it, the worker
 * raises it as before. Two runs of `npx playwright test`, one worker, the SIG-0 scenarios under a fault that
 * fails them: about 10 s.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { PACKAGE_ROOT } from '../../lib/cli/package-root.js';
import { scratchDir } from '../support/scratch.js';
import { runPlaywright } from './playwright-cli.js';

interface JsonSpec {
  title: string;
  tests: { results: { status: string; workerIndex: number }[] }[];
}
interface JsonSuite {
  specs?: JsonSpec[];
  suites?: JsonSuite[];
}

const specsOf = (suite: JsonSuite): JsonSpec[] => [...(suite.specs ?? []), ...(suite.suites ?? []).flatMap(specsOf)];

/** The shipped targets, the reference bank with a fault that fails every error answer of the SIG-0 scenarios. */
function faultyTargets(): string {
  const shipped = readFileSync(join(PACKAGE_ROOT, 'targets.yaml'), 'utf8');
  const file = join(scratchDir('xs2a-targets-'), 'targets.yaml');
  writeFileSync(file, shipped.replace(/^(\s+)embedded: true$/m, '$1embedded: { faults: [error-body-missing-fields] }'));
  return file;
}

async function run(reporters: string) {
  const reportDir = scratchDir('xs2a-report-');
  const result = await runPlaywright(['test', '--grep', 'SIG-0[4-6]\\.', '--workers', '1', `--reporter=${reporters}`], {
    XS2A_TARGETS: faultyTargets(),
    XS2A_REPORT_DIR: reportDir,
    CI: '1',
  });
  const json = result.stdout.slice(result.stdout.indexOf('{'));
  const specs = specsOf(JSON.parse(json) as JsonSuite);
  const results = specs.flatMap((spec) => spec.tests.flatMap((t) => t.results.map((r) => ({ scenario: spec.title.split(' ')[0], ...r }))));
  return { exitCode: result.exitCode, results, stderr: result.stderr };
}

describe('a failed check under plain Playwright', { concurrency: 2 }, () => {
  test('the conformance reporter first: every failed scenario failed in Playwright, all in one worker', async () => {
    const { exitCode, results, stderr } = await run('./lib/report/reporter.ts,json');
    assert.equal(exitCode, 1, stderr);
    const failed = results.filter((r) => r.status === 'failed');
    assert.ok(failed.length >= 2, JSON.stringify(results.map(({ scenario, status, workerIndex }) => ({ scenario, status, workerIndex }))));
    assert.deepEqual([...new Set(results.map((r) => r.workerIndex))], [0], 'no worker started after a failure');
  });

  test('another reporter first: the same scenarios failed, each failure in a worker of its own', async () => {
    const { exitCode, results, stderr } = await run('json,./lib/report/reporter.ts');
    assert.equal(exitCode, 1, stderr);
    const failed = results.filter((r) => r.status === 'failed');
    assert.ok(failed.length >= 2, JSON.stringify(results.map(({ scenario, status, workerIndex }) => ({ scenario, status, workerIndex }))));
    assert.ok(
      new Set(results.map((r) => r.workerIndex)).size > failed.length - 1,
      JSON.stringify(results.map(({ scenario, status, workerIndex }) => ({ scenario, status, workerIndex }))),
    );
  });
});
