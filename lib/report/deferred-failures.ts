/**
 * Failed checks raised by the reporter rather than in the worker. Playwright starts a new worker after every
 * failed test (in the worker and again in its runner), and a new worker costs about a second of CPU (its own
 * start, the suite's modules, fixtures and connections): a fault failing 140 scenarios took ten times as long
 * as a clean run. When the conformance reporter is the first of the run's reporters and nothing is retried,
 * the workers record a failed MUST check (DeferredFailure) instead of failing the test, and the reporter,
 * before any other reporter hears of the test, marks the result failed with the same error at the same spec
 * line. Every reporter, the exit code, `--max-failures` and `--last-failed` then see the scenario failed
 * (Playwright counts failures after the reporters' onTestEnd); only the worker is kept. Otherwise (a reporter
 * before this one, the UI mode without it, retries that must run in a new worker) the worker raises as before.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FullConfig, TestError, TestResult } from '@playwright/test/reporter';
import { DEFERRED_FAILURES_ENV, type DeferredFailure } from './attachments.js';

/** Whether this run's reporter can raise the workers' failed checks: it hears of each test first, and no test is retried. */
export function canRaiseDeferredFailures(config: Pick<FullConfig, 'reporter' | 'projects'>, reporterFile: string): boolean {
  // A config read by hand (a test's stand-in) may name no reporter: then no reporter of ours raises them.
  const first = config.reporter?.[0]?.[0];
  const same = (name: string) => name.replace(/\.[cm]?[jt]s$/, '') === reporterFile.replace(/\.[cm]?[jt]s$/, '');
  return (
    first !== undefined &&
    same(first.startsWith('file://') ? fileURLToPath(first) : first) &&
    (config.projects ?? []).every((project) => project.retries === 0)
  );
}

/** Tells the workers (forked after the reporters begin) to defer their failed checks; undone when the run ends. */
export function deferFailuresInWorkers(on: boolean): void {
  if (on) process.env[DEFERRED_FAILURES_ENV] = '1';
  else delete process.env[DEFERRED_FAILURES_ENV];
}

/** The test's result as Playwright would have reported it had the worker raised its failed checks. */
export function raiseDeferredFailures(result: Pick<TestResult, 'status' | 'errors' | 'error'>, failures: readonly DeferredFailure[]): void {
  if (failures.length === 0) return;
  const errors = failures.map(testErrorOf);
  result.errors.push(...errors);
  result.error ??= errors[0];
  if (result.status === 'passed') result.status = 'failed';
}

function testErrorOf(failure: DeferredFailure): TestError {
  const location = locationOf(failure.stack);
  const snippet = location && codeFrame(location);
  return { message: failure.message, stack: failure.stack, ...(location ? { location } : {}), ...(snippet ? { snippet } : {}) };
}

/** The first frame of the stack (the suite's line: lib/fixtures/suite-frames.ts). */
export function locationOf(stack: string): TestError['location'] {
  const frame = /^\s+at (?:.*? \()?(.+?):(\d+):(\d+)\)?$/m.exec(stack);
  if (!frame) return undefined;
  const [, file = '', line = '0', column = '0'] = frame;
  return { file: file.startsWith('file://') ? fileURLToPath(file) : file, line: Number(line), column: Number(column) };
}

/** The lines around the failed check, as Playwright prints them (uncoloured): two above, the line marked, a caret under the column. */
export function codeFrame(location: NonNullable<TestError['location']>): string | undefined {
  let source: string;
  try {
    source = readFileSync(location.file, 'utf8');
  } catch {
    return undefined;
  }
  const lines = source.split('\n');
  const first = Math.max(1, location.line - 2);
  const last = Math.min(lines.length, location.line + 3);
  const width = String(last).length;
  const out: string[] = [];
  for (let n = first; n <= last; n++) {
    out.push(`${n === location.line ? '>' : ' '} ${String(n).padStart(width)} | ${lines[n - 1] ?? ''}`);
    if (n === location.line) out.push(`  ${' '.repeat(width)} | ${' '.repeat(Math.max(0, location.column - 1))}^`);
  }
  return out.join('\n');
}
