/**
 * The catalogue part of the report, as data for the page's script: every requirement (grouped there by area
 * and section) and every scenario (by area), with what each row shows. It is most of a report's content and
 * is stored compressed in the page (a conforming run: ~43 KB instead of ~470 KB of markup); the script
 * renders it with stable anchors and links both ways, and the filters.
 *
 * Short keys keep the data small; the script (html/script.ts) reads exactly these.
 */
import { gzipSync } from 'node:zlib';
import { AREAS } from '../../spec/requirements/requirement-types.js';
import type { CheckRecord, RequirementRecord, TestRecord } from '../results-types.js';
import { encodeBase85 } from './base85.js';
import { shownStatus, titleOf, type ReportIndex } from './parts.js';

export interface RequirementRow {
  /** id, level, status, statement, index of its section in `sections` */
  i: string;
  l: string;
  s: string;
  t: string;
  c: number;
  /** why it is not PASS (the first failure's Expected and Actual, the missing capability…) */
  r?: string;
  /** what the entry rests on, when it fills a gap: `berlin-group` (with `o`, the source) or `interpretation` */
  g?: string;
  o?: string;
  /** the interpretation, shown where the row did not pass (a failure is judged against it; results.json has them all) */
  n?: string;
  /** the target's deviation: reason, end date, expired; `u` when it passes now */
  d?: { r: string; u?: string; x?: 1 };
  u?: 1;
  /** the attestation: verdict, reviewer, date */
  a?: string;
}

export interface ScenarioRow {
  /** id, shown status, title without the id, `file:line` (durations are in results.json) */
  i: string;
  s: string;
  t: string;
  f: string;
  /** levels of the requirements it declares (for the level filter) */
  l: string;
  /** the requirements it declares */
  q: string[];
  /** its own checks: requirement, verdict, what it saw, how many times */
  k: [string, string, string, number][];
  /** the rules checked on its exchanges, compact: `FMT-01:2 ERR-01!` (two passes; a failure) */
  v: string;
  /** it has an evidence block at the top of the page (which holds its anchor) */
  e?: 1;
  /** why it was not run or not judged */
  r?: string;
}

export interface CatalogueData {
  areas: Record<string, string>;
  sections: string[];
  requirements: RequirementRow[];
  scenarios: ScenarioRow[];
  /** The long parts of the provenance: the target as declared (JSON) and the suite files' hashes (sha256sum lines). */
  declaredTarget: string;
  suiteFiles: string;
}

/**
 * The catalogue data for the page: rows stored by column (each field's values side by side compress a tenth
 * better than rows), gzip-compressed, in base85.
 */
export function packedCatalogue(index: ReportIndex): string {
  const data = catalogueData(index);
  const packed = { ...data, requirements: byColumn(data.requirements), scenarios: byColumn(data.scenarios) };
  return encodeBase85(gzipSync(JSON.stringify(packed), { level: 9 }));
}

/** `[{a: 1}, {a: 2, b: 3}]` → `{a: [1, 2], b: [null, 3]}` (null where a row has no value). */
function byColumn<T extends object>(rows: readonly T[]): Record<string, unknown[]> {
  const keys = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  return Object.fromEntries(keys.map((key) => [key, rows.map((row) => (row as Record<string, unknown>)[key] ?? null)]));
}

export function catalogueData(index: ReportIndex): CatalogueData {
  const sections: string[] = [];
  const sectionIndex = new Map<string, number>();
  const sectionOf = (section: string) => {
    if (!sectionIndex.has(section)) sectionIndex.set(section, sections.push(section) - 1);
    return sectionIndex.get(section) ?? 0;
  };
  return {
    areas: { ...AREAS },
    sections,
    requirements: index.results.requirements.map((r) => requirementRow(r, sectionOf(r.section))),
    scenarios: index.scenarios.map((t) => scenarioRow(t, index)),
    declaredTarget: JSON.stringify(index.results.provenance.declaredTarget, null, 2),
    suiteFiles: index.results.provenance.suiteFiles.map((f) => `${f.sha256}  ${f.path}`).join('\n'),
  };
}

function requirementRow(r: RequirementRecord, section: number): RequirementRow {
  return {
    i: r.id,
    l: r.level,
    s: r.status,
    t: r.statement,
    c: section,
    ...(r.reason && r.status !== 'PASS' ? { r: r.reason } : {}),
    ...(r.fillsGap ? { g: r.basis } : {}),
    ...(r.source ? { o: r.source } : {}),
    ...(r.interpretation && r.status !== 'PASS' ? { n: r.interpretation } : {}),
    ...(r.deviation
      ? {
          d: {
            r: r.deviation.reason,
            ...(r.deviation.until ? { u: r.deviation.until } : {}),
            ...(r.deviation.expired ? { x: 1 as const } : {}),
          },
        }
      : {}),
    ...(r.deviationUnexpectedlyPasses ? { u: 1 as const } : {}),
    ...(r.attestation ? { a: `${r.attestation.verdict} by ${r.attestation.reviewer}, ${r.attestation.date}` } : {}),
  };
}

function scenarioRow(t: TestRecord, index: ReportIndex): ScenarioRow {
  return {
    i: t.scenario,
    s: shownStatus(t, index),
    t: titleOf(t),
    f: `${t.file}:${t.line}`,
    l: [...new Set(t.requirements.map((id) => index.requirement.get(id)?.level ?? ''))].join(' '),
    q: t.requirements,
    k: t.checks.filter((c) => c.source === 'scenario').map((c) => [c.requirement, c.verdict, c.actual ?? '', c.count ?? 1]),
    v: invariantChecks(t.checks),
    ...(index.withEvidence.has(t.scenario) ? { e: 1 as const } : {}),
    ...(t.reason ? { r: t.reason } : {}),
  };
}

function invariantChecks(checks: readonly CheckRecord[]): string {
  return checks
    .filter((c) => c.source === 'invariant')
    .map(
      (c) =>
        `${c.requirement}${c.verdict === 'FAIL' ? '!' : c.verdict === 'NOT_EVALUATED' ? '?' : ''}${c.count && c.count > 1 ? `:${c.count}` : ''}`,
    )
    .join(' ');
}
