/**
 * The console output of a run: one of Playwright's terminal reporters, picked with `run --reporter` (handed to
 * playwright.config.ts in XS2A_CONSOLE_REPORTER). The conformance report (results.json, index.html, junit.xml)
 * is always written besides.
 */
export const CONSOLE_REPORTERS = ['list', 'line', 'dot', 'github', 'null'] as const;
export const CONSOLE_REPORTER_ENV = 'XS2A_CONSOLE_REPORTER';
