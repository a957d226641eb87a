/**
 * The picture a report opens with: per area of the catalogue, a bar of its requirements' verdicts (PASS, FAIL,
 * WARNING, NOT_EVALUATED, NOT_TESTABLE and the rest), and with a baseline (`run --baseline`) the bar before
 * beside it. One self-contained SVG: inline in index.html and written beside it as areas.svg, for a README
 * badge or a wiki page. Its verdict badge takes the colour of what the exit code means, not of the verdict's
 * word: an INCOMPLETE run that stopped on an error (exit 3) is not a yellow warning.
 */
import { AREAS } from '../../spec/requirements/requirement-types.js';
import type { RequirementStatus, RunResults } from '../results-types.js';
import { h } from './parts.js';

/** The bar's segments, in order; every other status is "other". */
const SEGMENTS = ['PASS', 'FAIL', 'WARNING', 'NOT_EVALUATED', 'NOT_TESTABLE', 'other'] as const;
type Segment = (typeof SEGMENTS)[number];

const COLOURS: Record<Segment, string> = {
  PASS: '#2e9e4f',
  FAIL: '#d92d20',
  WARNING: '#f0a500',
  NOT_EVALUATED: '#f5d68a',
  NOT_TESTABLE: '#8d96a3',
  other: '#d5d9df',
};

/**
 * What a run's exit code says, as a colour: 0 judged and nothing failed, 1 a MUST failed, 3 the run could not judge (an error, an
 * interruption).
 */
export type Tone = 'conformant' | 'passed-what-ran' | 'failed' | 'stopped';

export const TONE_COLOURS: Record<Tone, string> = {
  conformant: '#2e9e4f',
  'passed-what-ran': '#1f6fb2',
  failed: '#d92d20',
  stopped: '#4a2a7a',
};

export function toneOf(results: Pick<RunResults, 'verdict' | 'exitCode'>): Tone {
  if (results.exitCode === 1) return 'failed';
  if (results.exitCode !== 0) return 'stopped';
  return results.verdict === 'CONFORMANT' ? 'conformant' : 'passed-what-ran';
}

function segmentOf(status: RequirementStatus): Segment {
  return (SEGMENTS as readonly string[]).includes(status) ? (status as Segment) : 'other';
}

type Tally = Record<Segment, number>;

interface AreaRow {
  area: string;
  now: Tally;
  /** Requirements a filtered run left out (NOT_COVERED), not drawn. */
  notRun: number;
  before?: Tally;
}

const emptyTally = (): Tally => ({ PASS: 0, FAIL: 0, WARNING: 0, NOT_EVALUATED: 0, NOT_TESTABLE: 0, other: 0 });
const total = (tally: Tally) => SEGMENTS.reduce((sum, s) => sum + tally[s], 0);

/** Per area: the verdicts now and, with a baseline, before (each requirement's status before is its `from` where it changed). */
export function areaRows(results: RunResults): AreaRow[] {
  const before = results.baseline
    ? new Map([...results.baseline.regressions, ...results.baseline.fixes, ...results.baseline.changed].map((c) => [c.id, c.from]))
    : undefined;
  const rows = new Map<string, AreaRow>();
  for (const requirement of results.requirements) {
    const row = rows.get(requirement.area) ?? {
      area: requirement.area,
      now: emptyTally(),
      notRun: 0,
      ...(before ? { before: emptyTally() } : {}),
    };
    // A filtered run's bars show what ran: what the filter left out is counted beside them, not drawn.
    if (results.filtered && requirement.status === 'NOT_COVERED') {
      row.notRun += 1;
      rows.set(requirement.area, row);
      continue;
    }
    row.now[segmentOf(requirement.status)] += 1;
    if (row.before) row.before[segmentOf(before?.get(requirement.id) ?? requirement.status)] += 1;
    rows.set(requirement.area, row);
  }
  const order = Object.keys(AREAS);
  return [...rows.values()].sort((a, b) => order.indexOf(a.area) - order.indexOf(b.area));
}

/** An area the run judged nothing of (a filtered run): one line for all of them, not a bar each. */
function judgedAnything(row: AreaRow): boolean {
  return total(row.now) > row.now.other;
}

function countsOf(row: AreaRow): string {
  return `${countsText(row.now)} <tspan fill="#69707a">of ${total(row.now)}${row.notRun ? ` run (${row.notRun} left out)` : ''}</tspan>`;
}

const ROW = 22;
const LABEL = 46;
const COUNTS = 230;

function bar(x: number, y: number, width: number, height: number, tally: Tally, label: string): string {
  const sum = total(tally);
  let at = x;
  const rects = SEGMENTS.filter((s) => tally[s] > 0).map((s) => {
    const w = (tally[s] / sum) * width;
    const rect = `<rect x="${at.toFixed(1)}" y="${y}" width="${w.toFixed(1)}" height="${height}" fill="${COLOURS[s]}"><title>${h(label)}: ${tally[s]} ${s === 'other' ? 'other (not covered, manual, skipped, known deviation, interrupted, attested)' : s}</title></rect>`;
    at += w;
    return rect;
  });
  return `<rect x="${x}" y="${y}" width="${width}" height="${height}" fill="#f3f4f6"/>${rects.join('')}`;
}

function countsText(tally: Tally): string {
  return h(
    SEGMENTS.filter((s) => tally[s] > 0 && s !== 'other')
      .map((s) => `${tally[s]} ${s === 'NOT_EVALUATED' ? 'NOT EVAL.' : s === 'NOT_TESTABLE' ? 'NOT TEST.' : s}`)
      .join(' · ') || 'nothing judged',
  );
}

/**
 * The SVG. `heading`: the tool, target and verdict badge on top (areas.svg has it; the page shows them above
 * already). Width 720, or 840 with the before column.
 */
export function areaBarsSvg(results: RunResults, { heading }: { heading: boolean }): string {
  const all = areaRows(results);
  const rows = results.filtered ? all.filter(judgedAnything) : all;
  const idle = all.length - rows.length;
  const withBefore = results.baseline !== undefined;
  const barWidth = 440;
  const beforeWidth = withBefore ? 120 : 0;
  const width = LABEL + (withBefore ? beforeWidth + 12 : 0) + barWidth + 12 + COUNTS;
  const top = heading ? 34 : 0;
  const columns = withBefore ? 18 : 0;
  const legendY = top + columns + rows.length * ROW + 6;
  const height = legendY + 20 + (idle > 0 ? 18 : 0);
  const parts: string[] = [];
  if (heading) {
    const tone = toneOf(results);
    const badge = `${results.verdict} · exit ${results.exitCode}`;
    const badgeWidth = badge.length * 7.4 + 16;
    parts.push(
      `<text x="0" y="20" font-size="14" font-weight="600" fill="#1b1f24">xs2a-conformance · ${h(results.target.name)}</text>`,
      `<rect x="${width - badgeWidth}" y="4" width="${badgeWidth.toFixed(0)}" height="22" rx="4" fill="${TONE_COLOURS[tone]}"/><text x="${(width - badgeWidth / 2).toFixed(0)}" y="20" font-size="12.5" font-weight="600" fill="#fff" text-anchor="middle">${h(badge)}</text>`,
    );
  }
  const barX = LABEL + (withBefore ? beforeWidth + 12 : 0);
  if (withBefore) {
    parts.push(
      `<text x="${LABEL}" y="${top + 12}" font-size="11" fill="#69707a">before (${h(results.baseline?.runId ?? '')})</text><text x="${barX}" y="${top + 12}" font-size="11" fill="#69707a">now</text>`,
    );
  }
  rows.forEach((row, i) => {
    const y = top + columns + i * ROW;
    const name = AREAS[row.area as keyof typeof AREAS] ?? row.area;
    parts.push(
      `<g><title>${h(row.area)}: ${h(name)}</title><text x="0" y="${y + 14}" font-size="12" font-family="ui-monospace,monospace" fill="#1b1f24">${h(row.area)}</text></g>`,
    );
    if (row.before) parts.push(bar(LABEL, y + 3, beforeWidth, 14, row.before, `${row.area} before`));
    parts.push(bar(barX, y + 3, barWidth, 14, row.now, row.area));
    parts.push(`<text x="${barX + barWidth + 12}" y="${y + 14}" font-size="11" fill="#3a414b">${countsOf(row)}</text>`);
  });
  let x = 0;
  for (const s of SEGMENTS) {
    const label = s === 'other' ? 'other' : s;
    parts.push(
      `<rect x="${x}" y="${legendY + 4}" width="10" height="10" fill="${COLOURS[s]}"/><text x="${x + 14}" y="${legendY + 13}" font-size="11" fill="#3a414b">${label}</text>`,
    );
    x += 14 + label.length * 6.6 + 14;
  }
  if (idle > 0)
    parts.push(
      `<text x="0" y="${legendY + 34}" font-size="11" fill="#69707a">${idle} more area${idle === 1 ? '' : 's'} with nothing run by this filtered run</text>`,
    );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui,-apple-system,Segoe UI,sans-serif" role="img" aria-label="requirement verdicts per area"><title>xs2a-conformance: ${h(results.target.name)} ${h(results.verdict)} (exit ${results.exitCode}), requirement verdicts per area</title>${parts.join('')}</svg>\n`;
}
