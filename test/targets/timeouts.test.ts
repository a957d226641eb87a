// Timeouts from targets.yaml are honoured end to end, Playwright's limit for a scenario included: a target
// that gives an SCA flow 60 s is not cut off at the default 30 s by the scenario's own limit.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { DEFAULT_TIMEOUTS, RUN_CONTEXT_ENV, scenarioTimeoutMs } from '../../lib/targets/run-context.js';

/** The test timeout playwright.config.ts sets for a run whose target has these timeouts. */
function configuredTimeout(timeouts: { requestMs: number; scaMs: number }): number {
  const file = join(mkdtempSync(join(tmpdir(), 'xs2a-timeouts-')), 'context.json');
  writeFileSync(file, JSON.stringify({ target: { timeouts } }));
  const printed = execFileSync(process.execPath, ['--import', 'tsx', '-e', "import('./playwright.config.ts').then((m) => console.log(m.default.timeout))"], {
    env: { ...process.env, [RUN_CONTEXT_ENV]: file },
    encoding: 'utf8',
  });
  return Number(printed.trim());
}

describe("a scenario's time limit", () => {
  test('is 30 s at the default timeouts, and grows in proportion to longer ones', () => {
    assert.equal(scenarioTimeoutMs(DEFAULT_TIMEOUTS), 30_000);
    assert.equal(scenarioTimeoutMs({ requestMs: 1_000, scaMs: 5_000 }), 30_000, 'never shorter than the default');
    assert.equal(scenarioTimeoutMs({ requestMs: 10_000, scaMs: 60_000 }), 90_000);
    assert.equal(scenarioTimeoutMs({ requestMs: 40_000, scaMs: 20_000 }), 120_000);
  });

  test("is what playwright.config.ts gives Playwright for the run's target", () => {
    assert.equal(configuredTimeout({ requestMs: 10_000, scaMs: 60_000 }), 90_000);
    assert.equal(configuredTimeout(DEFAULT_TIMEOUTS), 30_000);
  });
});
