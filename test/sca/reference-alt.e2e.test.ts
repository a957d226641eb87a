/**
 * SCA steps are data: the `reference-alt` target is the embedded bank with another bank's SCA pages
 * (reference/sca-pages/alternative-pages.ts: another layout, other ids and labels, a one-time code after login). The suite's
 * browser-driving scenarios must pass against it with nothing but its own `sca` steps and `scaVariants` in
 * targets.yaml. Run through the real command, as a user would.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import type { TestRecord } from '../../lib/report/results-types.js';
import { loadTargetsFile } from '../../lib/targets/load.js';
import { COMMAND_DEFAULT_WORKERS, runCli, type CliRun } from '../support/run-cli.js';

const TARGETS = loadTargetsFile('targets.yaml').targets;
const SUITES = 'suites';

/** The spec files whose scenarios drive the SCA pages themselves (an SCA of their own, or a PSU made for them). */
function browserDrivingSuites(): string[] {
  const files = readdirSync(SUITES, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.spec.ts'));
  return files
    .map((file) => join(SUITES, file))
    .filter((file) => /\bsca\.authorise\(|\bownPsu\(\)/.test(readFileSync(file, 'utf8')))
    .sort();
}

describe('the reference-alt target (other SCA pages, the same bank)', () => {
  test('declares the same PSUs and capabilities as the reference target, and every SCA variant it has, with steps of its own', () => {
    const reference = TARGETS.reference;
    const alternative = TARGETS['reference-alt'];
    assert.ok(reference && alternative);
    assert.deepEqual(alternative.embedded, { pages: 'alternative' });
    assert.deepEqual(alternative.psus, reference.psus);
    assert.deepEqual(alternative.capabilities, reference.capabilities);
    const missing = Object.keys(reference.scaVariants ?? {}).filter((name) => !alternative.scaVariants?.[name]);
    assert.deepEqual(
      missing,
      [],
      'every SCA variant of the reference target (the suite uses them) needs steps of its own on reference-alt',
    );
    assert.notDeepEqual(alternative.sca, reference.sca);
  });

  describe('the browser-driving scenarios', () => {
    const files = browserDrivingSuites();
    let run: CliRun;
    before(async () => {
      // Every browser-driving scenario of the suite: the command's own number of workers.
      run = await runCli(['run', '--target', 'reference-alt', '--report-dir', '{reportDir}', ...files], COMMAND_DEFAULT_WORKERS);
      assert.ok(run.results, `no results; exit ${run.exitCode}\nstderr: ${run.stderr}\nstdout: ${run.stdout.slice(-3000)}`);
    });

    test('pass, as against the reference target, but for the deviations reference-alt declares', () => {
      assert.ok(files.length >= 4, `browser-driving suites: ${files.join(', ')}`);
      // GEN-06: a sandbox login asks for the national identity number only; these pages add a one-time code.
      const declared = new Set((TARGETS['reference-alt']?.deviations ?? []).map((d) => d.requirement));
      const excused = (t: TestRecord) =>
        t.status === 'FAIL' && t.checks.filter((c) => c.verdict === 'FAIL').every((c) => declared.has(c.requirement));
      const notPassed = (run.results?.tests ?? [])
        .filter((t) => t.status !== 'PASS' && !excused(t))
        .map((t) => `${t.scenario} ${t.status}: ${t.reason ?? t.error ?? ''}`);
      assert.deepEqual(notPassed, []);
      assert.equal(run.exitCode, 0, run.stdout.slice(-2000));
    });

    test('went through the alternative pages, the one-time code included', () => {
      const pages = (run.results?.tests ?? []).flatMap((t) => t.evidence.redirects.flatMap((r) => r.pages));
      assert.ok(
        pages.some((url) => /\/sca\/[^/]+\/code$/.test(url)),
        `pages seen: ${pages.slice(0, 10).join(', ')}`,
      );
    });
  });
});
