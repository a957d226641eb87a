/**
 * `run --baseline DIR`: this run against an earlier report of the same target. A regression is a
 * requirement that held (PASS, ATTESTED) and fails now (FAIL, WARNING); a fix the reverse. A known deviation
 * that failed before and passes now is named, so its entry can leave the deviation list. Scenarios and
 * requirements run now and not before (or the reverse) are new (removed) checks.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../targets/config-error.js';
import type { BaselineComparison, RequirementRecord, RequirementStatus, RunResults, StatusChange } from './results-types.js';

/** What a baseline must hold: an earlier results.json, any schema version that has these. */
export type BaselineResults = Pick<RunResults, 'runId' | 'startedAt' | 'verdict'> & {
  requirements: Pick<RequirementRecord, 'id' | 'status' | 'deviationUnexpectedlyPasses'>[];
  tests: { scenario: string; gauntletCase?: string }[];
};

/** A report folder (or its results.json); a usage error (exit 2) when it holds none. */
export function readBaseline(path: string): BaselineResults {
  const file = existsSync(path) && statSync(path).isDirectory() ? join(path, 'results.json') : path;
  let data: BaselineResults;
  try {
    data = JSON.parse(readFileSync(file, 'utf8')) as BaselineResults;
  } catch (error) {
    throw new ConfigError('--baseline', `${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  if (!Array.isArray(data.requirements) || !Array.isArray(data.tests) || typeof data.runId !== 'string') {
    throw new ConfigError('--baseline', `${file} is not the results.json of an xs2a-conformance run`);
  }
  return data;
}

const HELD: ReadonlySet<RequirementStatus> = new Set(['PASS', 'ATTESTED']);
const FAILING: ReadonlySet<RequirementStatus> = new Set(['FAIL', 'WARNING']);
/** Statuses of a requirement no scenario of the run judged. */
const UNJUDGED: ReadonlySet<RequirementStatus> = new Set(['NOT_COVERED', 'OUT_OF_SCOPE', 'MANUAL']);

export function compareWithBaseline(current: Pick<RunResults, 'requirements' | 'tests'>, baseline: BaselineResults): BaselineComparison {
  const before = new Map(baseline.requirements.map((r) => [r.id, r]));
  const comparison: BaselineComparison = {
    runId: baseline.runId,
    startedAt: baseline.startedAt,
    verdict: baseline.verdict,
    regressions: [],
    fixes: [],
    changed: [],
    newScenarios: [],
    removedScenarios: [],
    newRequirements: [],
    removedRequirements: [],
    deviationsNowPassing: [],
  };
  for (const now of current.requirements) {
    const then = before.get(now.id);
    const from: RequirementStatus = then?.status ?? 'NOT_COVERED';
    const change: StatusChange = { id: now.id, from, to: now.status };
    if (from === 'KNOWN_DEVIATION' && !then?.deviationUnexpectedlyPasses && (now.status === 'PASS' || now.deviationUnexpectedlyPasses)) {
      comparison.deviationsNowPassing.push(now.id);
    }
    if (from === now.status) continue;
    if (UNJUDGED.has(from) && !UNJUDGED.has(now.status)) comparison.newRequirements.push(now.id);
    else if (!UNJUDGED.has(from) && UNJUDGED.has(now.status)) comparison.removedRequirements.push(now.id);
    else if (HELD.has(from) && FAILING.has(now.status)) comparison.regressions.push(change);
    else if (FAILING.has(from) && HELD.has(now.status)) comparison.fixes.push(change);
    else comparison.changed.push(change);
  }
  const scenarios = (tests: readonly { scenario: string; gauntletCase?: string }[]) =>
    new Set(tests.filter((t) => t.gauntletCase === undefined).map((t) => t.scenario));
  const [thenScenarios, nowScenarios] = [scenarios(baseline.tests), scenarios(current.tests)];
  comparison.newScenarios = [...nowScenarios].filter((id) => !thenScenarios.has(id)).sort();
  comparison.removedScenarios = [...thenScenarios].filter((id) => !nowScenarios.has(id)).sort();
  return comparison;
}

/** One line per kind of change, for the console and the HTML heading. */
export function baselineLines(comparison: BaselineComparison): string[] {
  const changes = (list: readonly StatusChange[]) => list.map((c) => `${c.id} ${c.from} → ${c.to}`).join(', ');
  const lines = [`against run ${comparison.runId} (${comparison.verdict}, ${comparison.startedAt})`];
  if (comparison.regressions.length) lines.push(`regressions (${comparison.regressions.length}): ${changes(comparison.regressions)}`);
  if (comparison.fixes.length) lines.push(`fixed (${comparison.fixes.length}): ${changes(comparison.fixes)}`);
  if (comparison.deviationsNowPassing.length) {
    lines.push(
      `known deviations that pass now (${comparison.deviationsNowPassing.length}), remove them from the list: ${comparison.deviationsNowPassing.join(', ')}`,
    );
  }
  if (comparison.changed.length) lines.push(`other changes (${comparison.changed.length}): ${changes(comparison.changed)}`);
  const listed = (label: string, ids: readonly string[]) => ids.length && lines.push(`${label} (${ids.length}): ${ids.join(', ')}`);
  listed('new scenarios', comparison.newScenarios);
  listed('removed scenarios', comparison.removedScenarios);
  listed('requirements judged now, not before', comparison.newRequirements);
  listed('requirements judged before, not now', comparison.removedRequirements);
  if (lines.length === 1) lines.push('no change');
  return lines;
}
