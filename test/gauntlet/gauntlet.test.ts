/**
 * Each fault of the reference bank, injected alone, makes the suite tests it targets FAIL, for the right
 * reason, and the run exit with 1 (non-conformant). Runs the real command against the real bank.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { TestRecord } from '../../lib/report/types.js';
import { runCli } from '../support/run-cli.js';
import { GAUNTLET } from './faults.js';

describe('fault gauntlet', { concurrency: 2 }, () => {
  for (const { fault, grep, mustFail, because, warnings } of GAUNTLET) {
    test(`fault ${fault} makes: ${mustFail.join('; ')} FAIL`, async () => {
      const run = await runCli(['run', '--inject-fault', fault, '--grep', grep, '--workers', '1', '--report-dir', '{reportDir}']);
      assert.ok(run.results, `no results.json; stderr: ${run.stderr}\nstdout: ${run.stdout}`);
      assert.deepEqual(run.results.target.faults, [fault]);
      for (const title of mustFail) {
        const failed: TestRecord | undefined = run.results.tests.find((t) => t.title.includes(title));
        assert.ok(failed, `no test titled "${title}" ran; ran: ${run.results.tests.map((t) => t.title).join(' | ')}`);
        assert.equal(failed.status, 'FAIL', `"${failed.title}" should FAIL under ${fault}, was ${failed.status}`);
        assert.match(failed.error ?? '', because, `"${failed.title}" failed for another reason:\n${failed.error}`);
      }
      if (warnings) {
        for (const id of warnings) {
          assert.equal(run.results.requirements.find((r) => r.id === id)?.status, 'WARNING', `${id} under ${fault}`);
        }
        assert.equal(run.results.verdict, 'INCOMPLETE');
        assert.equal(run.exitCode, 0);
      } else {
        assert.equal(run.results.verdict, 'NON_CONFORMANT');
        assert.equal(run.exitCode, 1);
      }
    });
  }
});
