/** The console summary the runner prints after a run, from results.json. */
import type { RunResults } from './types.js';

export function formatSummary(results: RunResults, reportPath: string): string {
  const t = results.summary.tests;
  const r = results.summary.requirements;
  const nonZero = (counts: Record<string, number>) =>
    Object.entries(counts)
      .filter(([key, n]) => key !== 'total' && n > 0)
      .map(([key, n]) => `${n} ${key}`)
      .join(', ') || 'none';
  const lines = [
    '',
    `xs2a-conformance ${results.tool.version} · target ${results.target.name} (${results.target.environment}${
      results.target.embedded ? ', embedded' : ''
    }) · ${(results.durationMs / 1000).toFixed(1)} s${results.target.faults.length ? ` · faults: ${results.target.faults.join(', ')}` : ''}`,
    `Tests:        ${nonZero(t)} (of ${t.total})`,
    `Requirements: ${nonZero(r)} (of ${r.total} in the catalogue)`,
  ];
  for (const requirement of results.requirements) {
    if (requirement.status === 'FAIL' || requirement.status === 'WARNING' || requirement.status === 'INTERRUPTED') {
      lines.push(`  ${requirement.status.padEnd(11)} ${requirement.id}  ${requirement.statement}`);
    }
    if (requirement.deviationUnexpectedlyPasses) {
      lines.push(`  !! ${requirement.id} is listed as a known deviation but now passes: remove it from the deviations list`);
    }
  }
  lines.push(`Verdict:      ${results.verdict} (exit ${results.exitCode})${results.verdictReasons.length ? ': ' + results.verdictReasons.join('; ') : ''}`);
  lines.push(`Report:       ${reportPath}`);
  return lines.join('\n');
}
