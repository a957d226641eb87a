// Timeouts from targets.yaml are honoured end to end, Playwright's limit for a scenario included: a target
// that gives an SCA flow 60 s is not cut off at the default 30 s by the scenario's own limit.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { DEFAULT_TIMEOUTS, defaultWorkers, RUN_CONTEXT_ENV, scenarioTimeoutMs } from '../../lib/targets/run-context.js';
import { scratchDir } from '../support/scratch.js';

/** The test timeout and workers playwright.config.ts sets for a run whose target is this. */
function configured(target: { timeouts: { requestMs: number; scaMs: number }; embedded: boolean; concurrency?: number }): {
  timeout: number;
  workers: number;
} {
  const file = join(scratchDir('xs2a-timeouts-'), 'context.json');
  writeFileSync(file, JSON.stringify({ target }));
  const env: NodeJS.ProcessEnv = { ...process.env, [RUN_CONTEXT_ENV]: file };
  delete env.XS2A_WORKERS;
  const printed = execFileSync(
    process.execPath,
    ['--import', 'tsx', '-e', "import('./playwright.config.ts').then((m) => console.log(JSON.stringify(m.default)))"],
    { env, encoding: 'utf8' },
  );
  const { timeout, workers } = JSON.parse(printed) as { timeout: number; workers: number };
  return { timeout, workers };
}

describe("a scenario's time limit", () => {
  test('is 30 s at the default timeouts, and grows in proportion to longer ones', () => {
    assert.equal(scenarioTimeoutMs(DEFAULT_TIMEOUTS), 30_000);
    assert.equal(scenarioTimeoutMs({ requestMs: 1_000, scaMs: 5_000 }), 30_000, 'never shorter than the default');
    assert.equal(scenarioTimeoutMs({ requestMs: 10_000, scaMs: 60_000 }), 90_000);
    assert.equal(scenarioTimeoutMs({ requestMs: 40_000, scaMs: 20_000 }), 120_000);
  });

  test("is what playwright.config.ts gives Playwright for the run's target, with the workers for it", () => {
    assert.deepEqual(configured({ timeouts: { requestMs: 10_000, scaMs: 60_000 }, embedded: false, concurrency: 6 }), {
      timeout: 90_000,
      workers: 6,
    });
    assert.deepEqual(configured({ timeouts: DEFAULT_TIMEOUTS, embedded: true }), {
      timeout: 30_000,
      workers: Math.min(4, availableParallelism()),
    });
  });
});

describe("a run's workers, when the command line gives none", () => {
  test("XS2A_WORKERS, else one per core up to 4 against the embedded bank, else the bank's concurrency or 16, as memory allows", () => {
    assert.equal(defaultWorkers({ embedded: true }, { XS2A_WORKERS: '3' }, 2), 3);
    assert.equal(defaultWorkers({ embedded: true }, {}, 2), 2);
    assert.equal(defaultWorkers({ embedded: true }, {}, 16), 4);
    assert.equal(
      defaultWorkers({ embedded: false }, {}, 2, 24 * 2 ** 30),
      16,
      'a remote bank: workers overlap its network time, not the cores',
    );
    assert.equal(defaultWorkers({ embedded: false, concurrency: 3 }, {}, 2, 24 * 2 ** 30), 3, "the bank's own limit");
    assert.equal(defaultWorkers({ embedded: false }, {}, 2, 2 * 2 ** 30), 5, 'no more than the memory holds');
    assert.equal(defaultWorkers(undefined, {}, 2), 4, 'no run context yet (plain npx playwright test)');
  });
});
