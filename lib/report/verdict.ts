/**
 * Folding test outcomes into requirement verdicts and a run verdict, and the exit code a pipeline acts on.
 * Pure functions: the reporter feeds them, the tests of the project check them.
 */
import type { Deviation } from '../targets/types.js';
import type { RequirementRecord, RequirementStatus, RunVerdict, TestRecord, TestStatus } from './types.js';

export const EXIT_CODES = {
  conformant: 0,
  nonConformant: 1,
  configurationError: 2,
  infrastructureFailure: 3,
} as const;

export interface CatalogueEntry {
  id: string;
  area: string;
  level: string;
  section: string;
  statement: string;
  testedBy: string;
  interpretation?: string;
}

/** A deviation applies until the end of its `until` day (UTC); an expired one no longer excuses a failure. */
export function activeDeviation(id: string, deviations: readonly Deviation[], today: Date): Deviation | undefined {
  return deviations.find((d) => d.requirement === id && (!d.until || Date.parse(`${d.until}T23:59:59Z`) >= today.getTime()));
}

export function foldRequirement(
  entry: CatalogueEntry,
  tests: readonly TestRecord[],
  deviation: Deviation | undefined,
): RequirementRecord {
  const base: RequirementRecord = {
    id: entry.id,
    area: entry.area,
    level: entry.level,
    section: entry.section,
    statement: entry.statement,
    status: 'NOT_COVERED',
    tests: tests.map((t) => t.id),
    ...(entry.interpretation ? { interpretation: entry.interpretation } : {}),
  };
  if (tests.length === 0) {
    if (entry.testedBy.startsWith('manual:')) return { ...base, status: 'MANUAL', reason: entry.testedBy.slice(7) };
    return { ...base, status: 'NOT_COVERED', reason: 'no test of this run checks it' };
  }
  const count = (status: TestStatus) => tests.filter((t) => t.status === status).length;
  const firstReason = (status: TestStatus) => tests.find((t) => t.status === status)?.reason;

  if (count('FAIL') > 0) {
    const failed = tests.filter((t) => t.status === 'FAIL').map((t) => t.title);
    if (deviation) return { ...base, status: 'KNOWN_DEVIATION', reason: deviation.reason };
    // A rule the specification words as SHOULD or MAY is reported, but does not make the target non-conformant.
    const status: RequirementStatus = entry.level === 'MUST' ? 'FAIL' : 'WARNING';
    return { ...base, status, reason: `failed: ${failed.join('; ')}` };
  }
  if (count('INTERRUPTED') > 0) return { ...base, status: 'INTERRUPTED', reason: firstReason('INTERRUPTED') };
  if (deviation) {
    return {
      ...base,
      status: 'KNOWN_DEVIATION',
      reason: deviation.reason,
      deviationUnexpectedlyPasses: count('PASS') === tests.length,
    };
  }
  if (count('NOT_TESTABLE') > 0) return { ...base, status: 'NOT_TESTABLE', reason: firstReason('NOT_TESTABLE') };
  if (count('SKIPPED') > 0) return { ...base, status: 'SKIPPED', reason: firstReason('SKIPPED') };
  return { ...base, status: 'PASS' };
}

/**
 * CONFORMANT needs every automated requirement exercised and none failing. Interrupted runs cannot certify
 * and exit 3; filtered or partial runs are INCOMPLETE but exit 0 when nothing failed, so `--grep` stays usable.
 */
export function runVerdict(
  requirements: readonly RequirementRecord[],
  filtered: boolean,
): { verdict: RunVerdict; reasons: string[]; exitCode: number } {
  const ids = (status: RequirementStatus) => requirements.filter((r) => r.status === status).map((r) => r.id);
  const failed = ids('FAIL');
  if (failed.length > 0) {
    return {
      verdict: 'NON_CONFORMANT',
      reasons: [`${failed.length} requirement(s) failed: ${failed.join(', ')}`],
      exitCode: EXIT_CODES.nonConformant,
    };
  }
  const reasons: string[] = [];
  const interrupted = ids('INTERRUPTED');
  if (interrupted.length > 0) reasons.push(`${interrupted.length} requirement(s) interrupted: ${interrupted.join(', ')}`);
  if (filtered) reasons.push('the run was filtered (--grep, --shard or a file filter)');
  const notCovered = ids('NOT_COVERED').length;
  if (notCovered > 0) reasons.push(`${notCovered} automated requirement(s) not exercised by this run`);
  for (const status of ['NOT_TESTABLE', 'SKIPPED'] as const) {
    const n = ids(status).length;
    if (n > 0) reasons.push(`${n} requirement(s) ${status}`);
  }
  if (reasons.length === 0) return { verdict: 'CONFORMANT', reasons, exitCode: EXIT_CODES.conformant };
  return {
    verdict: 'INCOMPLETE',
    reasons,
    exitCode: interrupted.length > 0 ? EXIT_CODES.infrastructureFailure : EXIT_CODES.conformant,
  };
}
