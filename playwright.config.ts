/**
 * Playwright configuration of the conformance run. The runner (`xs2a-conformance run`, what `npm test`
 * calls) starts or reaches the target and hands it over in XS2A_RUN_CONTEXT; this file only shapes the run.
 *
 * Scenarios run in parallel. One that changes the target's global state (its clock, a sandbox reset) takes
 * Playwright's `-exclusive-` lock and runs with no other scenario beside it (lib/fixtures/scenario.ts).
 */
import { defineConfig, type ReporterDescription } from '@playwright/test';
import { evidenceDirOf, readRunContext, scenarioTimeoutMs } from './lib/targets/run-context.js';

// [safety] What a run writes (the report, failure evidence) is its user's alone: files 0600, folders 0700.
process.umask(0o077);

const CONSOLE_REPORTERS = new Set(['list', 'line', 'dot', 'github', 'null']);
const FILE_REPORTERS = new Set(['json', 'junit', 'html', 'blob']);

/** `--reporter` given to the runner picks the console output; the conformance report is always written. */
function reporters(): ReporterDescription[] {
  const requested = (process.env.XS2A_CONSOLE_REPORTER ?? (process.env.CI ? 'line' : 'list')).split(',');
  const chosen: ReporterDescription[] = requested
    .filter((name) => CONSOLE_REPORTERS.has(name) || FILE_REPORTERS.has(name))
    .map((name) => [name]);
  if (!chosen.some(([name]) => CONSOLE_REPORTERS.has(name))) chosen.unshift(['line']);
  return [...chosen, ['./lib/report/reporter.ts']];
}

export default defineConfig({
  testDir: './suites',
  testMatch: '**/*.spec.ts',
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  // A conformance verdict must not depend on luck: no retries hide a flaky target.
  retries: 0,
  workers: process.env.XS2A_WORKERS ? Number(process.env.XS2A_WORKERS) : 4,
  // [safety] 30 s at the default timeouts; longer when the target's targets.yaml gives longer ones.
  timeout: scenarioTimeoutMs(readRunContext()?.target.timeouts),
  expect: { timeout: 5_000 },
  // [safety] Failure evidence waits in the run's private folder until the reporter copies it into the report.
  outputDir: evidenceDirOf(),
  reporter: reporters(),
  use: {
    trace: 'off',
    screenshot: 'off',
    video: 'off',
    headless: true,
  },
});
