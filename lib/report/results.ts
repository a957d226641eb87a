/**
 * From the scenario records of a run to results.json: requirement verdicts folded against the catalogue,
 * attestations applied, the run verdict and what keeps it from CONFORMANT, provenance, and the comparison
 * with a baseline. The reporter calls it at the end of a run; anything that gathers scenario records
 * another way (shards merged) calls it the same way, so there is one shape and one verdict.
 */
import { BANK_REQUIREMENTS } from '../spec/requirements.js';
import type { GauntletPlan, RunContext, RunTarget } from '../targets/run-context.js';
import { applyAttestations, loadAttestations } from './attestations.js';
import { compareWithBaseline, readBaseline } from './baseline.js';
import type { Selection } from './selection.js';
import {
  REQUIREMENT_STATUSES,
  TEST_STATUSES,
  type GauntletCaseResult,
  type Provenance,
  type RunResults,
  type TestRecord,
} from './results-types.js';
import { EXIT_CODES, deviationFor, foldAll, judgementsOf, runVerdict } from './verdict.js';

/** 4: bodies over 16 KiB cut, with the whole in a file, and robustness probes counted rather than all kept (3 kept everything). */
export const RESULTS_SCHEMA_VERSION = 4;

/** What the report is made of: the reporter's run, or a merge of shards (lib/cli/commands/merge-command.ts) from theirs. */
export interface ReportInput {
  context: Pick<RunContext, 'runId' | 'startedAt' | 'tool' | 'gauntlet' | 'attestationsFile' | 'baselineDir'> & {
    target: Pick<RunTarget, 'name' | 'environment' | 'baseUrl' | 'embedded' | 'faults' | 'deviations'> &
      Partial<Pick<RunTarget, 'variants'>> & { capabilities: readonly string[] };
  };
  /** Every scenario run, gauntlet runs included. */
  tests: TestRecord[];
  /** Errors outside any scenario (a suite file that does not load). */
  runErrors: readonly string[];
  selection: Selection;
  /** Stopped by SIGINT, SIGTERM or the global timeout: what ran is reported, verdict INTERRUPTED. */
  interrupted: boolean;
  finishedAt: Date;
  /** How the run was made (lib/report/provenance.ts); a merge takes its shards'. */
  provenance: Provenance;
}

export function assembleResults({ context, tests, runErrors, selection, interrupted, finishedAt, provenance }: ReportInput): RunResults {
  const target = context.target;
  // Under the gauntlet the runs of its cases certify nothing about the target: they are folded per case.
  const plain = tests.filter((t) => t.gauntletCase === undefined);
  const folded = foldAll(BANK_REQUIREMENTS, plain, (id) => deviationFor(id, target.deviations, finishedAt), {
    targetName: target.name,
    capabilities: target.capabilities,
    embedded: target.embedded,
    environment: target.environment,
  });
  const attestations = context.attestationsFile ? loadAttestations(context.attestationsFile, finishedAt) : undefined;
  const requirements = attestations ? applyAttestations(folded, attestations) : folded;
  const filtered = selection.reasons.length > 0;
  const judged = runVerdict(requirements, plain, filtered, runErrors);
  const verdict = interrupted
    ? {
        ...judged,
        verdict: 'INTERRUPTED' as const,
        reasons: ['the run was interrupted (SIGINT, SIGTERM or the global timeout): the report shows what ran', ...judged.reasons],
        exitCode: EXIT_CODES.infrastructureFailure,
      }
    : judged;
  const sorted = [...tests].sort(
    (a, b) => a.file.localeCompare(b.file) || a.line - b.line || (a.gauntletCase ?? '').localeCompare(b.gauntletCase ?? ''),
  );
  const results: RunResults = {
    schemaVersion: RESULTS_SCHEMA_VERSION,
    kind: 'bank-conformance',
    tool: context.tool,
    runId: context.runId,
    target: {
      name: target.name,
      environment: target.environment,
      baseUrl: target.baseUrl,
      embedded: target.embedded,
      faults: target.faults,
      ...(target.variants?.length ? { variants: target.variants } : {}),
    },
    startedAt: context.startedAt,
    finishedAt: finishedAt.toISOString(),
    durationMs: finishedAt.getTime() - Date.parse(context.startedAt),
    filtered,
    selection,
    verdict: verdict.verdict,
    verdictReasons: verdict.reasons,
    missingForConformant: verdict.missing,
    ...(runErrors.length > 0 ? { runErrors: [...runErrors] } : {}),
    exitCode: verdict.exitCode,
    provenance,
    summary: {
      tests: tally(
        plain.map((t) => t.status),
        TEST_STATUSES,
      ),
      requirements: tally(
        requirements.map((r) => r.status),
        REQUIREMENT_STATUSES,
      ),
    },
    requirements,
    tests: sorted,
    ...(attestations ? { attestations } : {}),
    ...(context.gauntlet ? { gauntlet: gauntletResults(context.gauntlet, tests) } : {}),
  };
  if (context.baselineDir) results.baseline = compareWithBaseline(results, readBaseline(context.baselineDir));
  return results;
}

/** Per gauntlet case: the requirement verdicts of the scenarios run under it, and what each failed. */
function gauntletResults(plan: GauntletPlan, tests: readonly TestRecord[]): GauntletCaseResult[] {
  return plan.cases.map((gauntletCase) => {
    const runs = tests.filter((t) => t.gauntletCase === gauntletCase.name);
    const judged = new Set(runs.flatMap((t) => [...judgementsOf(t).keys()]));
    const requirements = foldAll(
      BANK_REQUIREMENTS.filter((r) => judged.has(r.id)),
      runs,
      () => undefined,
    ).map(({ id, status, reason }) => ({
      id,
      status,
      ...(reason ? { reason } : {}),
    }));
    const scenarios = runs.map((t) => ({
      scenario: t.scenario,
      status: t.status,
      failed: [...judgementsOf(t)].filter(([, j]) => j.status === 'FAIL').map(([id]) => id),
      ...(t.status === 'ERROR' || t.status === 'INTERRUPTED' ? { reason: t.reason ?? t.error?.split('\n')[0] ?? '' } : {}),
    }));
    const { name, kind, switches, breaks } = gauntletCase;
    return { case: name, kind, switches, breaks, requirements, scenarios };
  });
}

/** Counts per status, every status listed (also for reports of traffic, lib/traffic/report.ts). */
export function tally<K extends string>(values: readonly K[], keys: readonly K[]): Record<K, number> & { total: number } {
  const counts = Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;
  for (const value of values) counts[value] += 1;
  return { ...counts, total: values.length };
}
