/**
 * The console summary the runner prints after a run, from results.json. A bank's text reaches it (reasons,
 * errors): its control characters are shown, never obeyed; the summary's own colours are left alone.
 */
import { baselineLines } from './baseline.js';
import { visibleControls } from './mask.js';
import type { RunResults } from './results-types.js';

/** Past this many, "missing for CONFORMANT" is counted by status instead of listed (a filtered run leaves hundreds out). */
const LISTED_MISSING = 20;

/** How statuses and the verdict are shown: plain text by default, colours in a terminal (lib/cli/printed-summary.ts). */
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
  const attested = new Set((results.attestations ?? []).map((a) => a.requirement));
  for (const requirement of results.requirements) {
    if (LISTED_ABOVE.has(requirement.status) && !attested.has(requirement.id)) {
      lines.push(
        `  ${paint.status(requirement.status)}${''.padEnd(13 - requirement.status.length)} ${requirement.id}  ${requirement.statement}`,
      );
      if (requirement.reason) lines.push(`  ${''.padEnd(13)} ${''.padEnd(requirement.id.length)}  ${visibleControls(requirement.reason)}`);
    }
  }
  for (const test of results.tests) {
    if (test.status === 'ERROR' && test.gauntletCase === undefined)
      lines.push(
        `  ${paint.status('ERROR')}         ${test.scenario}  stopped: ${visibleControls((test.error ?? '').split('\n')[0] ?? '')}`,
      );
  }
  const deviations = results.requirements.filter((q) => q.status === 'KNOWN_DEVIATION' || q.deviation?.expired);
  if (deviations.length) {
    lines.push('Known deviations (reviewed exceptions, not counted against the verdict until they expire):');
    for (const q of deviations) {
      const until = q.deviation?.until ? `until ${q.deviation.until}` : 'no end date';
      const now = q.deviationUnexpectedlyPasses
        ? 'PASSES NOW: remove it from the deviations list'
        : q.deviation?.expired
          ? `EXPIRED, counted as ${q.status}`
          : 'still failing';
      lines.push(`  ${paint.status('KNOWN_DEVIATION')} ${q.id}  ${until}, ${now}: ${q.deviation?.reason ?? q.reason ?? ''}`);
    }
  }
  if (results.attestations?.length) {
    lines.push('Attestations (checked by a person, not by the suite):');
    for (const a of results.attestations) {
      const status = a.verdict === 'PASS' ? 'ATTESTED' : 'FAIL';
      lines.push(
        `  ${paint.status(status)}${''.padEnd(8 - status.length)}  ${a.requirement}  by ${a.reviewer} on ${a.date}, evidence: ${a.evidence}`,
      );
    }
  }
  if (results.baseline) {
    const [heading, ...rest] = baselineLines(results.baseline);
    lines.push(`Baseline:     ${heading ?? ''}`, ...rest.map((line) => `  ${line}`));
  }
  if (results.gauntlet) {
    const faults = results.gauntlet.filter((g) => g.kind === 'fault');
    const caught = faults.filter((g) => g.requirements.some((r) => r.status === 'FAIL' || r.status === 'WARNING')).length;
    const variants = results.gauntlet.filter((g) => g.kind === 'variant');
    const passed = variants.filter((g) => g.requirements.every((r) => r.status !== 'FAIL')).length;
    const census = results.gauntlet.length - faults.length - variants.length;
    lines.push(
      `Gauntlet:     ${faults.length} faults, ${caught} caught; ${variants.length} variant cases, ${passed} passed; ${census} census runs; ${results.tests.length} scenario runs`,
    );
  }
  lines.push(
    `Verdict:      ${paint.status(results.verdict)} (exit ${results.exitCode})${results.verdictReasons.length ? ': ' + results.verdictReasons.map(visibleControls).join('; ') : ''}`,
  );
  lines.push(...missingLines(results, paint));
  lines.push(`Report:       ${reportPath}`);
  return lines.join('\n');
}

/** Statuses printed requirement by requirement above the verdict. */
const LISTED_ABOVE = new Set(['FAIL', 'WARNING', 'INTERRUPTED', 'NOT_EVALUATED']);

/** What else keeps the run from CONFORMANT, one line each (counted by status when a filter left many out). */
function missingLines(results: RunResults, paint: Paint): string[] {
  if (results.verdict === 'CONFORMANT') return [];
  const missing = results.missingForConformant.filter((m) => !LISTED_ABOVE.has(m.status));
  if (missing.length === 0) return [];
  const heading =
    results.missingForConformant.length > missing.length
      ? 'Missing for CONFORMANT, besides the requirements above:'
      : 'Missing for CONFORMANT:';
  if (missing.length > LISTED_MISSING) {
    const byStatus = new Map<string, number>();
    for (const m of missing) byStatus.set(m.status, (byStatus.get(m.status) ?? 0) + 1);
    return [`${heading} ${[...byStatus].map(([status, n]) => `${n} ${status}`).join(', ')} (listed in results.json, missingForConformant)`];
  }
  return [heading, ...missing.map((m) => `  ${paint.status(m.status)}${''.padEnd(13 - m.status.length)} ${m.id}  ${m.reason}`)];
}
