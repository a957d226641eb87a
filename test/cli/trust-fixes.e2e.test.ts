/**
 * Small breakages of trust (issue 37, item 4) in runs of the real command, against a targets file of the
 * project's own (not the shipped one): the embedded bank with a fault that fails SIG-04.a, and SCA steps that
 * match none of its pages (SCA-13.a stops). About 15 s: two runs of three and two scenarios, and a replay.
 * - `--reporter null` printed Playwright's progress and the summary: now nothing at all;
 * - `replay` read the default targets file, not the run's ("unknown target"): the run's is kept beside its report;
 * - `--last-failed` ran every selected scenario again (Playwright's record went with the run's private folder):
 *   it runs those that failed, and says so when there is no record;
 * - the console named evidence files in that deleted folder: it must name the report's copies (needs the
 *   conformance reporter to point the attachments at them: lib/report/reporter.ts).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { RunResults } from '../../lib/report/results-types.js';
import { runCli } from '../support/run-cli.js';
import { scratchDir } from '../support/scratch.js';

const project = scratchDir('xs2a-own-project-');
const targets = join(project, 'bank-targets.yaml');
writeFileSync(
  targets,
  `targets:
  mine:
    embedded: { faults: [accept-missing-signature] }
    environment: sandbox
    tpp: { generate: true, redirectUri: https://tpp.example/callback }
    psus: { private: { nationalId: "13039319955", context: PRIVATE } }
    scaDriver: http
    sca:
      - match: "**/login**"
        steps: [{ click: { selector: "button[type=submit]" } }]
`,
);
const reportDir = scratchDir('xs2a-trust-reports-');
const GREP = 'SIG-04\\.a|SIG-03\\.a|SCA-13\\.a';
const first = runCli(['run', '--targets', targets, '--target', 'mine', '--grep', GREP, '--report-dir', reportDir, '--reporter', 'null']);

test('--reporter null prints nothing: no progress, no summary', async () => {
  const run = await first;
  assert.equal(run.exitCode, 1, run.stderr);
  assert.equal(run.stdout, '');
  assert.ok(existsSync(join(reportDir, 'latest', 'results.json')), 'the report is written all the same');
});

test("replay goes back to the run's targets file", async () => {
  await first;
  const replay = await runCli(['replay', join(reportDir, 'latest'), 'SIG-04.a']);
  assert.equal(replay.exitCode, 0, replay.stderr);
  assert.match(
    replay.stdout,
    /Replaying SIG-04\.a \(FAIL in run .*\) against mine at https:\/\/127\.0\.0\.1:\d+, faults: accept-missing-signature/,
  );
});

test('--last-failed runs the scenarios that failed in the last run into the same report folder, and only those', async () => {
  await first;
  const again = await runCli(['run', '--targets', targets, '--target', 'mine', '--grep', GREP, '--report-dir', reportDir, '--last-failed']);
  assert.equal(again.exitCode, 1, again.stderr);
  const results = JSON.parse(readFileSync(join(reportDir, 'latest', 'results.json'), 'utf8')) as RunResults;
  assert.deepEqual(results.tests.map((t) => `${t.scenario} ${t.status}`).sort(), ['SCA-13.a ERROR', 'SIG-04.a FAIL']);
  const nowhere = await runCli(['run', '--last-failed', '--report-dir', join(project, 'reports')]);
  assert.equal(nowhere.exitCode, 2);
  assert.match(
    nowhere.stderr,
    /--last-failed: no earlier run is recorded in .*reports\/\.last-run\.json \(run without it first, with the same --report-dir\)/,
  );
});

test("the console names evidence files in the report, not in the run's private folder it removes", async () => {
  await first;
  const shown = await runCli([
    'run',
    '--targets',
    targets,
    '--target',
    'mine',
    '--grep',
    'SCA-13\\.a',
    '--report-dir',
    reportDir,
    '--reporter',
    'line',
  ]);
  const paths = [...shown.stdout.matchAll(/^\s+(\S*attachments\S*|\S*files\/\S*)$/gm)].map(([, path]) => path ?? '');
  assert.ok(paths.length > 0, shown.stdout);
  for (const path of paths) assert.ok(existsSync(path) || existsSync(join(process.cwd(), path)), `${path} is printed but not there`);
});
