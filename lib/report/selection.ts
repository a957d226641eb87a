/**
 * Did this run select the whole suite? Read from what Playwright resolved and selected, never from the
 * command line, so `npx playwright test`, `--ui`, VS Code and `xs2a-conformance run` agree: a shard
 * (`config.shard`), a scenario that a filter (grep, grep-invert, file:line, --last-failed, --project…) left
 * out, or a spec file that none of its tests came from make the run filtered, and a filtered run cannot
 * certify.
 *
 * Which scenarios exist: every spec file registers its scenarios as it loads (lib/fixtures/scenario.ts), in
 * the runner's process as well, before Playwright filters them; files a file filter kept from loading are
 * found by comparing with the spec files on disk.
 */
import { existsSync, readFileSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { FullConfig, Suite } from '@playwright/test/reporter';

const REGISTRY = Symbol.for('xs2a-conformance.scenarios');
type Registry = Set<string>;

function registry(): Registry {
  const holder = globalThis as { [REGISTRY]?: Registry };
  return (holder[REGISTRY] ??= new Set());
}

/** Called by scenario() as each spec file loads: the title of a scenario that exists. */
export function registerScenarioTitle(title: string): void {
  registry().add(title);
}

/** What a run selected of the suite, in results.json: what `xs2a-conformance merge` needs to tell whether shards add up. */
export interface Selection {
  /** Tests Playwright selected. */
  tests: number;
  shard?: { current: number; total: number };
  /** Scenarios the loaded spec files define, and spec files on disk. */
  scenarios: number;
  specFiles: number;
  /** Why the run does not cover the whole suite (empty: it does). */
  reasons: string[];
}

export function selectionOf(config: FullConfig, suite: Suite): Selection {
  const tests = suite.allTests();
  const scenarios = registry();
  const files = [...new Set(config.projects.flatMap((project) => specFiles(project.testDir)))];
  const selectedTitles = new Set(tests.map((test) => test.title));
  const selectedFiles = new Set(tests.map((test) => test.location.file));
  return {
    tests: tests.length,
    ...(config.shard ? { shard: { current: config.shard.current, total: config.shard.total } } : {}),
    scenarios: scenarios.size,
    specFiles: files.length,
    reasons: incompleteness({
      shard: config.shard ?? undefined,
      leftOut: [...scenarios].filter((title) => !selectedTitles.has(title)).length,
      filesNotRun: files.filter((file) => !selectedFiles.has(file)).length,
    }),
  };
}

/** Why a selection (one run's, or shards' together) is not the whole suite. */
export function incompleteness(gaps: {
  shard?: { current: number; total: number } | undefined;
  leftOut: number;
  filesNotRun: number;
}): string[] {
  const reasons: string[] = [];
  if (gaps.shard) reasons.push(`one shard (${gaps.shard.current} of ${gaps.shard.total}): merge the shards to certify`);
  if (gaps.leftOut > 0) reasons.push(`${gaps.leftOut} scenario(s) left out by a filter (grep, file:line, project, last-failed…)`);
  if (gaps.filesNotRun > 0) reasons.push(`${gaps.filesNotRun} spec file(s) not run`);
  return reasons;
}

/** The spec files under `dir`, by their real paths (as Playwright locates tests, through links). */
function specFiles(dir: string): string[] {
  try {
    const real = realpathSync(dir);
    return readdirSync(real, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.spec.ts'))
      .map((file) => resolve(join(real, file)));
  } catch {
    return [];
  }
}

/**
 * The selection, left beside the run context for the runner that started Playwright: it tells an empty
 * selection (no report, exit 2) from a run that ended without a report.
 */
export function leaveSelectionFor(contextFile: string, selection: Selection): void {
  writeFileSync(join(dirname(contextFile), 'selection.json'), JSON.stringify(selection));
}

export function selectionLeftFor(contextFile: string): Selection | undefined {
  const file = join(dirname(contextFile), 'selection.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Selection) : undefined;
}
