/**
 * Does a report's verdict follow from what it holds? `verify` asks it of a package, whose results.json anyone
 * could have edited before signing it anew. The verdict, its exit code and the counts are recomputed with the
 * functions that wrote them (verdict.ts, attestations.ts, as results.ts calls them): for a run of the suite
 * against this tool's catalogue, the requirement records are first folded again from the scenarios' checks;
 * otherwise (a report judged on traffic, or another catalogue) they are taken as stated.
 */
import type { ScopeName } from '../spec/scopes.js';
import { BANK_REQUIREMENTS } from '../spec/requirements.js';
import { applyAttestations } from './attestations.js';
import { catalogueVersion } from './provenance.js';
import { tally } from './results.js';
import { REQUIREMENT_STATUSES, TEST_STATUSES, type RequirementRecord, type RunResults, type RunVerdict } from './results-types.js';
import { EXIT_CODES, deviationFor, foldAll, runVerdict } from './verdict.js';

export interface Recheck {
  verdict: RunVerdict;
  exitCode: number;
  /** Where the report does not follow from itself, one line each. */
  problems: string[];
  notes: string[];
}

export function recheckResults(results: RunResults): Recheck {
  const problems: string[] = [];
  const notes: string[] = [];
  const plain = results.tests.filter((t) => t.gauntletCase === undefined);
  const requirements = foldedAgain(results, problems, notes) ?? results.requirements;
  const judged = runVerdict(requirements, plain, results.filtered, results.runErrors ?? []);
  // A stop (SIGINT, a timeout) leaves no trace in the records; INTERRUPTED certifies nothing, so it is taken as stated.
  const { verdict, exitCode } =
    results.verdict === 'INTERRUPTED' ? { verdict: 'INTERRUPTED' as const, exitCode: EXIT_CODES.infrastructureFailure } : judged;
  if (verdict !== results.verdict || exitCode !== results.exitCode) {
    problems.push(`states the verdict ${results.verdict} (exit ${results.exitCode}), but its results give ${verdict} (exit ${exitCode})`);
  }
  const counts = [
    [
      'requirement(s)',
      'its requirements',
      results.summary.requirements,
      tally(
        results.requirements.map((r) => r.status),
        REQUIREMENT_STATUSES,
      ),
    ],
    [
      'scenario(s)',
      'its scenarios',
      results.summary.tests,
      tally(
        plain.map((t) => t.status),
        TEST_STATUSES,
      ),
    ],
  ] as const;
  for (const [unit, holder, stated, held] of counts) {
    for (const [status, n] of Object.entries(held)) {
      const said = (stated as Record<string, number>)[status];
      if (said !== n) problems.push(`states ${said ?? 'no'} ${unit} ${status === 'total' ? 'in all' : status}, ${holder} hold ${n}`);
    }
  }
  return { verdict, exitCode, problems, notes };
}

/** The requirement records folded again from the checks, as results.ts folds them; undefined when they cannot be. */
function foldedAgain(results: RunResults, problems: string[], notes: string[]): RequirementRecord[] | undefined {
  const { provenance, target } = results;
  if (results.kind !== 'bank-conformance' || provenance.suiteFiles.length === 0) {
    notes.push("requirement statuses taken as stated: the report was judged on traffic, not by the suite's scenarios");
    return undefined;
  }
  if (provenance.catalogue.version !== catalogueVersion()) {
    notes.push(
      `requirement statuses taken as stated: the report's catalogue (${provenance.catalogue.version}) is not this tool's (${catalogueVersion()})`,
    );
    return undefined;
  }
  const finishedAt = new Date(results.finishedAt);
  const deviations = provenance.deviations.map(({ requirement, reason, until }) => ({ requirement, reason, ...(until ? { until } : {}) }));
  const plain = results.tests.filter((t) => t.gauntletCase === undefined);
  const folded = foldAll(BANK_REQUIREMENTS, plain, (id) => deviationFor(id, deviations, finishedAt), {
    targetName: target.name,
    capabilities: provenance.capabilities,
    embedded: target.embedded,
    // The results schema holds it to the environments of targets.yaml, the scopes' names.
    environment: target.environment as ScopeName,
  });
  const requirements = applyAttestations(folded, results.attestations ?? []);
  const stated = new Map(results.requirements.map((r) => [r.id, r.status]));
  for (const record of requirements) {
    const said = stated.get(record.id);
    if (said === undefined) problems.push(`${record.id} is missing from its requirements`);
    else if (said !== record.status) problems.push(`${record.id} is stated ${said}, but the checks inside give ${record.status}`);
    stated.delete(record.id);
  }
  for (const id of stated.keys()) problems.push(`${id} is not in the catalogue the report names`);
  return requirements;
}
