/**
 * The console summary the runner prints after a run, from results.json. A bank's text reaches it (reasons,
 * errors): its control characters are shown, never obeyed; the summary's own colours are left alone.
 */
import { visibleControls } from './mask.js';
import type { RunResults } from './types.js';

/** How statuses and the verdict are shown: plain text by default, colours in a terminal (lib/cli/summary.ts). */
export interface Paint {
  status(status: string): string;
}
const PLAIN: Paint = { status: (status) => status };

export function formatSummary(results: RunResults, reportPath: string, paint: Paint = PLAIN): string {
  const t = results.summary.tests;
  const r = results.summary.requirements;
  const nonZero = (counts: Record<string, number>) =>
    Object.entries(counts)
      .filter(([key, n]) => key !== 'total' && n > 0)
      .map(([key, n]) => `${n} ${paint.status(key)}`)
      .join(', ') || 'none';
  const lines = [
    '',
    `xs2a-conformance ${results.tool.version} · target ${results.target.name} (${results.target.environment}${
      results.target.embedded ? ', embedded' : ''
    }) · ${(results.durationMs / 1000).toFixed(1)} s${results.target.faults.length ? ` · faults: ${results.target.faults.join(', ')}` : ''}${results.target.variants?.length ? ` · variants: ${results.target.variants.join(', ')}` : ''}`,
    `Scenarios:    ${nonZero(t)} (of ${t.total})`,
    `Requirements: ${nonZero(r)} (of ${r.total} in the catalogue)`,
  ];
  for (const requirement of results.requirements) {
    if (['FAIL', 'WARNING', 'INTERRUPTED', 'NOT_EVALUATED'].includes(requirement.status)) {
      lines.push(`  ${paint.status(requirement.status)}${''.padEnd(13 - requirement.status.length)} ${requirement.id}  ${requirement.statement}`);
      if (requirement.reason) lines.push(`  ${''.padEnd(13)} ${''.padEnd(requirement.id.length)}  ${visibleControls(requirement.reason)}`);
    }
    if (requirement.deviationUnexpectedlyPasses) {
      lines.push(`  !! ${requirement.id} is listed as a known deviation but now passes: remove it from the deviations list`);
    }
  }
  for (const test of results.tests) {
    if (test.status === 'ERROR' && test.gauntletCase === undefined) lines.push(`  ${paint.status('ERROR')}         ${test.scenario}  stopped: ${visibleControls((test.error ?? '').split('\n')[0] ?? '')}`);
  }
  if (results.gauntlet) {
    const faults = results.gauntlet.filter((g) => g.kind === 'fault');
    const caught = faults.filter((g) => g.requirements.some((r) => r.status === 'FAIL' || r.status === 'WARNING')).length;
    const variants = results.gauntlet.filter((g) => g.kind === 'variant');
    const passed = variants.filter((g) => g.requirements.every((r) => r.status !== 'FAIL')).length;
    const census = results.gauntlet.length - faults.length - variants.length;
    lines.push(`Gauntlet:     ${faults.length} faults, ${caught} caught; ${variants.length} variant cases, ${passed} passed; ${census} census runs; ${results.tests.length} scenario runs`);
  }
  lines.push(`Verdict:      ${paint.status(results.verdict)} (exit ${results.exitCode})${results.verdictReasons.length ? ': ' + results.verdictReasons.map(visibleControls).join('; ') : ''}`);
  lines.push(`Report:       ${reportPath}`);
  return lines.join('\n');
}
