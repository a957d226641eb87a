/**
 * The console output of a run: one of Playwright's terminal reporters, picked with `run --reporter` (handed to
 * playwright.config.ts in XS2A_CONSOLE_REPORTER). The conformance report (results.json, index.html, junit.xml)
 * is always written besides.
 */
import type { Reporter } from '@playwright/test/reporter';

export const CONSOLE_REPORTERS = ['list', 'line', 'dot', 'github', 'null'] as const;
export const CONSOLE_REPORTER_ENV = 'XS2A_CONSOLE_REPORTER';

/**
 * The reporter Playwright is given for a console reporter's name: `null` is this module's own (below), as
 * Playwright adds its line reporter, progress and all, to a run where no reporter says it prints.
 */
export function consoleReporterOf(name: string): [string] {
  return [name === 'null' ? './lib/cli/console-reporters.ts' : name];
}

/**
 * `run --reporter null`: nothing on the console; it says it prints, so that Playwright adds no reporter that does.
 * @public Playwright loads it by this file's path (consoleReporterOf), which knip cannot follow.
 */
export default class SilentReporter implements Reporter {
  printsToStdio(): boolean {
    return true;
  }
}
