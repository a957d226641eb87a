/**
 * Playwright configuration of the conformance run. `xs2a-conformance run` (what `npm test` calls) starts or
 * reaches the target and hands it over in XS2A_RUN_CONTEXT; a plain `npx playwright test` (`--ui`, VS Code,
 * `--shard`) has the global setup do the same (lib/cli/global-setup.ts). Either way the conformance reporter
 * writes the same report.
 *
 * Scenarios run in parallel. One that changes the target's global state (its clock, a sandbox reset) takes
 * Playwright's `-exclusive-` lock and runs with no other scenario beside it (lib/fixtures/scenario.ts).
 */
import { defineConfig, type ReporterDescription } from '@playwright/test';
import { CONSOLE_REPORTERS, CONSOLE_REPORTER_ENV } from './lib/cli/console-reporters.js';
import { GAUNTLET_UNFAULTED_TAG } from './lib/fixtures/scenario-tags.js';
import { readRunContext } from './lib/targets/run-context.js';

/** `run --reporter` picks the console output (checked there); the conformance report is always written. */
function reporters(): ReporterDescription[] {
  const requested = (process.env[CONSOLE_REPORTER_ENV] ?? (process.env.CI ? 'line' : 'list')).split(',');
  const unknown = requested.filter((name) => !(CONSOLE_REPORTERS as readonly string[]).includes(name));
  if (unknown.length > 0) throw new Error(`${CONSOLE_REPORTER_ENV}: unknown console reporter "${unknown.join(', ')}" (known: ${CONSOLE_REPORTERS.join(', ')})`);
  const chosen: ReporterDescription[] = requested.map((name) => [name]);
  return [...(chosen.length > 0 ? chosen : [['line'] as ReporterDescription]), ['./lib/report/reporter.ts']];
}

export default defineConfig({
  testDir: './suites',
  testMatch: '**/*.spec.ts',
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  // A conformance verdict must not depend on luck: no retries hide a flaky target.
  retries: 0,
  workers: process.env.XS2A_WORKERS ? Number(process.env.XS2A_WORKERS) : 4,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  outputDir: './test-results',
  reporter: reporters(),
  globalSetup: './lib/cli/global-setup.ts',
  // Under the gauntlet every scenario runs only as the TPPs of the faults it must catch.
  ...(readRunContext()?.gauntlet ? { grepInvert: new RegExp(GAUNTLET_UNFAULTED_TAG) } : {}),
  use: {
    trace: 'off',
    screenshot: 'off',
    video: 'off',
    headless: true,
  },
});
