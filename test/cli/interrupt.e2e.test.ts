/**
 * Interrupting a run (Ctrl-C, a CI timeout's SIGTERM) stops it within seconds and still writes the report
 * of what ran, verdict INTERRUPTED, exit 3; the run's private folder (keys) is removed; `reports/latest`
 * moves only when a report was written, and an empty selection writes none (exit 2).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { PACKAGE_ROOT } from '../../lib/cli/package-root.js';
import type { RunResults } from '../../lib/report/results-types.js';
import { COMMAND_BIN, runCli } from '../support/run-cli.js';
import { scratchDir } from '../support/scratch.js';
import { PLAYWRIGHT_CLI } from './playwright-cli.js';

/** The run folders (xs2a-run-*) in the temporary folder that hold a context for `reportRoot`. */
function runFoldersFor(reportRoot: string): string[] {
  return readdirSync(tmpdir())
    .filter((name) => name.startsWith('xs2a-run-'))
    .filter((name) => {
      try {
        return readFileSync(join(tmpdir(), name, 'context.json'), 'utf8').includes(reportRoot);
      } catch {
        return false;
      }
    });
}

/**
 * Starts a run, waits until `passes` scenarios passed (the dot reporter's `·`), sends `signal`, and measures
 * how long the run takes to end. One Playwright worker, as runCli gives: each more costs a start for the
 * few scenarios that pass before the signal.
 */
async function interrupt(command: string[], env: NodeJS.ProcessEnv, signal: NodeJS.Signals, passes = 15) {
  const child = spawn(process.execPath, command, {
    cwd: PACKAGE_ROOT,
    env: { ...process.env, FORCE_COLOR: '0', XS2A_WORKERS: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let signalledAt = 0;
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (!signalledAt && (stdout.match(/·/g) ?? []).length >= passes) {
      signalledAt = Date.now();
      child.kill(signal);
    }
  });
  const exitCode = await new Promise<number>((resolve) => child.once('close', (code) => resolve(code ?? -1)));
  assert.ok(signalledAt > 0, `the run ended before ${passes} scenarios passed: ${stdout}${stderr}`);
  return { exitCode, stdout, stderr, stopMs: Date.now() - signalledAt };
}

function latestResults(reportRoot: string): RunResults {
  return JSON.parse(readFileSync(join(reportRoot, 'latest', 'results.json'), 'utf8')) as RunResults;
}

describe('an interrupted run', { concurrency: 1 }, () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    test(`xs2a-conformance run, ${signal}: stops within seconds, reports what ran (INTERRUPTED, exit 3), leaves no key`, async () => {
      const reportRoot = scratchDir('xs2a-interrupt-');
      const run = await interrupt([COMMAND_BIN, 'run', '--report-dir', reportRoot, '--reporter', 'dot'], {}, signal);
      assert.equal(run.exitCode, 3, run.stderr);
      assert.ok(run.stopMs < 15_000, `stopped after ${run.stopMs} ms`);
      const results = latestResults(reportRoot);
      assert.equal(results.verdict, 'INTERRUPTED');
      assert.equal(results.exitCode, 3);
      assert.ok(results.summary.tests.PASS >= 15, JSON.stringify(results.summary.tests));
      assert.match(run.stdout, /Verdict: +INTERRUPTED \(exit 3\)/);
      assert.deepEqual(runFoldersFor(reportRoot), [], 'the private run folder (TPP and CA keys) was left behind');
    });
  }

  test('plain npx playwright test, SIGTERM: the same, through the global setup', async () => {
    const reportRoot = scratchDir('xs2a-interrupt-');
    const run = await interrupt(
      [PLAYWRIGHT_CLI, 'test', '--reporter', 'dot,./lib/report/reporter.ts'],
      { XS2A_REPORT_DIR: reportRoot },
      'SIGTERM',
    );
    assert.ok(run.stopMs < 15_000, `stopped after ${run.stopMs} ms`);
    assert.equal(latestResults(reportRoot).verdict, 'INTERRUPTED');
    assert.deepEqual(runFoldersFor(reportRoot), [], 'the private run folder (TPP and CA keys) was left behind');
  });
});

describe('reports/latest', () => {
  test('an empty selection writes no report, leaves latest alone and exits 2', async () => {
    const reportRoot = scratchDir('xs2a-empty-');
    mkdirSync(join(reportRoot, 'latest'));
    writeFileSync(join(reportRoot, 'latest', 'results.json'), '{"earlier":true}');
    const run = await runCli(['run', '--grep', 'NO-SUCH-SCENARIO', '--report-dir', reportRoot]);
    assert.equal(run.exitCode, 2, run.stderr + run.stdout);
    assert.match(run.stderr, /no scenario matches the selection/);
    assert.equal(readFileSync(join(reportRoot, 'latest', 'results.json'), 'utf8'), '{"earlier":true}');
    assert.deepEqual(readdirSync(reportRoot), ['latest']);
    assert.ok(!existsSync(join(reportRoot, 'latest', 'index.html')));
  });
});
