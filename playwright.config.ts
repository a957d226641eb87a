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
import { CONSOLE_REPORTERS, CONSOLE_REPORTER_ENV, consoleReporterOf } from './lib/cli/console-reporters.js';
import { defaultWorkers, evidenceDirOf, readRunContext, scenarioTimeoutMs } from './lib/targets/run-context.js';

// [safety] What a run writes (the report, failure evidence) is its user's alone: files 0600, folders 0700.
process.umask(0o077);

/** `run --reporter` picks the console output (checked there); the conformance report is always written. */
function reporters(): ReporterDescription[] {
  const requested = (process.env[CONSOLE_REPORTER_ENV] ?? (process.env.CI ? 'line' : 'list')).split(',');
  const unknown = requested.filter((name) => !(CONSOLE_REPORTERS as readonly string[]).includes(name));
  if (unknown.length > 0)
    throw new Error(`${CONSOLE_REPORTER_ENV}: unknown console reporter "${unknown.join(', ')}" (known: ${CONSOLE_REPORTERS.join(', ')})`);
  const chosen: ReporterDescription[] = requested.map(consoleReporterOf);
  // The conformance reporter first: it raises the failed checks the workers defer to it before the console
  // reporters hear of the test (lib/report/deferred-failures.ts).
  return [['./lib/report/reporter.ts'], ...(chosen.length > 0 ? chosen : [['line'] as ReporterDescription])];
}

/**
 * XS2A_GREP narrows any run as `--grep` does, without editing its command (a pipeline's smoke job; the
 * project's tests of the README's commands); with a `--grep` on the command line too, a scenario must match both.
 */
function grepOfEnvironment(): { grep: RegExp } | Record<string, never> {
  const pattern = process.env.XS2A_GREP;
  if (!pattern) return {};
  try {
    return { grep: new RegExp(pattern) };
  } catch (error) {
    throw new Error(`XS2A_GREP is not a regular expression: ${(error as Error).message}`);
  }
}

/**
 * The run `xs2a-conformance run` prepared; none yet when a plain `npx playwright test` loads this (its global setup prepares one, and its
 * workers see it).
 */
const context = readRunContext();

export default defineConfig({
  testDir: './suites',
  testMatch: '**/*.spec.ts',
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  // A conformance verdict must not depend on luck: no retries hide a flaky target.
  retries: 0,
  workers: defaultWorkers(context?.target),
  // [safety] 30 s at the default timeouts; longer when the target's targets.yaml gives longer ones.
  timeout: scenarioTimeoutMs(context?.target.timeouts),
  expect: { timeout: 5_000 },
  // [safety] Failure evidence waits in the run's private folder until the reporter copies it into the report.
  outputDir: evidenceDirOf(),
  reporter: reporters(),
  globalSetup: './lib/cli/global-setup.ts',
  ...grepOfEnvironment(),
  use: {
    trace: 'off',
    screenshot: 'off',
    video: 'off',
    headless: true,
  },
});
