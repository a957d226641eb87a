/**
 * The top of the report, what a reader needs first: the verdict and what keeps it from CONFORMANT, the
 * requirements that failed or could not be judged (with the scenarios that show why), the comparison with a
 * baseline, known deviations (a reviewed exception with its reason and end date, not a failure) and the
 * attestations, apart from the automated verdicts.
 */
import { baselineLines } from '../baseline.js';
import { REQUIREMENT_STATUSES, type RequirementRecord, type StatusChange } from '../results-types.js';
import { areaBarsSvg, toneOf } from './area-bars.js';
import { causeGroupBlock, groupByCause } from './causes.js';
import { scenarioBlock, type EvidenceFiles } from './scenario-evidence.js';
import { anchor, badge, counts, h, shownStatus, type ReportIndex } from './parts.js';

const ATTENTION = new Set(['FAIL', 'WARNING', 'INTERRUPTED', 'NOT_EVALUATED']);
const ATTENTION_ORDER = ['FAIL', 'WARNING', 'INTERRUPTED', 'NOT_EVALUATED'];

export function renderOverview(index: ReportIndex, files: EvidenceFiles): string {
  // The verdict and the picture side by side: the first screen says how the run went and where.
  const top = `<div class="top">${verdictBox(index)}<div class="box areas" id="areas"><h2 style="margin-top:0">Requirements by area</h2>${areaBarsSvg(index.results, { heading: false })}</div></div>`;
  return [
    top,
    baselineBox(index),
    attention(index, files),
    missingList(index),
    deviations(index, files),
    attestations(index),
    totals(index),
  ].join('');
}

/**
 * Requirements that keep the run from CONFORMANT besides those under "Needs attention": listed after what ran, and folded when long (a
 * filtered run has dozens).
 */
function missingList({ results }: ReportIndex): string {
  const missing = results.missingForConformant.filter((m) => !ATTENTION.has(m.status));
  if (missing.length === 0) return '';
  const listedBelow = results.missingForConformant.length - missing.length;
  const shown = missing.slice(0, 40);
  const items = `<ul class="tight">${shown.map((m) => `<li>${anchor(m.id)} ${badge(m.status)} ${h(m.reason)}</li>`).join('')}</ul>${
    missing.length > shown.length
      ? `<p class="m">and ${missing.length - shown.length} more (filter the catalogue by status, or read missingForConformant in results.json)</p>`
      : ''
  }`;
  const title = `Missing for CONFORMANT${listedBelow ? `: the ${listedBelow} requirement(s) under <a href="#attention">Needs attention</a>, and ${missing.length === 1 ? 'this one' : `these ${missing.length}`}` : ` (${missing.length})`}`;
  const open = missing.length <= 5 && !results.filtered ? ' open' : '';
  return `<details class="box" id="missing"${open}><summary><strong>${title}</strong></summary>${items}</details>`;
}

/** What the exit code means, in a few words beside it. */
const EXIT_MEANING: Record<number, string> = {
  0: 'nothing failed',
  1: 'a MUST requirement failed',
  3: 'the run could not judge everything it ran (a scenario error, an interruption or a flaky scenario)',
};

function verdictBox({ results }: ReportIndex): string {
  const missing = results.missingForConformant.filter((m) => !ATTENTION.has(m.status)).length;
  const reasons = results.verdictReasons.length
    ? `<ul class="tight">${results.verdictReasons.map((r) => `<li>${h(r)}</li>`).join('')}</ul>`
    : '';
  const faults = results.target.faults.length
    ? `<p><strong>Faults injected into the reference bank: ${h(results.target.faults.join(', '))}</strong></p>`
    : '';
  const variants = results.target.variants?.length
    ? `<p>Variants of the reference bank (legal readings it took): ${h(results.target.variants.join(', '))}</p>`
    : '';
  const more = missing
    ? `<p class="m"><a href="#missing">${missing} more requirement(s) missing for CONFORMANT</a> (not covered, manual…)</p>`
    : '';
  return `<div class="box verdict-box tone-${toneOf(results)}"><span class="b verdict tone-${toneOf(results)}">${h(results.verdict)}</span> exit code ${h(results.exitCode)}<span class="m">: ${h(EXIT_MEANING[results.exitCode] ?? '')}</span>${faults}${variants}${reasons}${more}</div>`;
}

function baselineBox({ results }: ReportIndex): string {
  const comparison = results.baseline;
  if (!comparison) return '';
  const changes = (title: string, list: readonly StatusChange[]) =>
    list.length
      ? `<h3>${title} (${list.length})</h3><ul class="tight">${list.map((c) => `<li>${anchor(c.id)} ${badge(c.from)} → ${badge(c.to)}</li>`).join('')}</ul>`
      : '';
  const ids = (title: string, list: readonly string[]) =>
    list.length ? `<p><strong>${title} (${list.length}):</strong> ${list.map(anchor).join(' ')}</p>` : '';
  const [heading, ...rest] = baselineLines(comparison);
  return `<div class="box${comparison.regressions.length ? ' bad' : ''}" id="baseline"><h2 style="margin-top:0">Compared with the baseline</h2><p class="m">${h(heading ?? '')}</p>${
    rest.length === 1 && rest[0] === 'no change' ? '<p>No change.</p>' : ''
  }${changes('Regressions: held before, fail now', comparison.regressions)}${changes('Fixed', comparison.fixes)}${ids(
    'Known deviations that pass now (remove them from the list)',
    comparison.deviationsNowPassing,
  )}${changes('Other changes', comparison.changed)}${ids('New scenarios', comparison.newScenarios)}${ids('Removed scenarios', comparison.removedScenarios)}${ids(
    'Requirements judged now, not before',
    comparison.newRequirements,
  )}${ids('Requirements judged before, not now', comparison.removedRequirements)}</div>`;
}

function attention(index: ReportIndex, files: EvidenceFiles): string {
  const rows = index.results.requirements
    .filter((r) => ATTENTION.has(r.status) && !r.attestation)
    .sort((a, b) => ATTENTION_ORDER.indexOf(a.status) - ATTENTION_ORDER.indexOf(b.status));
  const stale = index.results.requirements.filter((r) => r.deviationUnexpectedlyPasses);
  // A scenario failing only where the target declares a deviation shows its evidence with the deviations.
  const blocks = index.scenarios.filter((t) => index.withEvidence.has(t.scenario) && shownStatus(t, index) !== 'KNOWN_DEVIATION');
  if (rows.length === 0 && blocks.length === 0 && stale.length === 0) return '';
  const table = rows.length
    ? `<table>${rows.map((r) => `<tr><td class="id">${anchor(r.id)}</td><td class="lv">${h(r.level)}</td><td class="st">${badge(r.status)}</td><td>${h(r.statement)}${r.reason ? `<div class="m">${h(r.reason)}</div>` : ''}</td><td>${scenarioLinks(r, index)}</td></tr>`).join('')}</table>`
    : '';
  const staleNote = stale.length
    ? `<p><strong>Listed as known deviations but passing now (remove them from the deviation list):</strong> ${stale.map((r) => anchor(r.id)).join(' ')}</p>`
    : '';
  const groups = groupByCause(blocks, index);
  const evidence = blocks.length
    ? `<h3>Scenarios that did not pass, by cause (${groups.length} cause${groups.length === 1 ? '' : 's'}, ${blocks.length} scenario${blocks.length === 1 ? '' : 's'})</h3>${groups.map((g) => causeGroupBlock(g, index, (t) => scenarioBlock(t, index, files))).join('')}`
    : '';
  return `<h2 id="attention">Needs attention</h2>${table}${staleNote}${evidence}`;
}

/** Links to the scenarios that judged a requirement, those with a failed check of it first. */
function scenarioLinks(r: RequirementRecord, index: ReportIndex): string {
  const failing = index.scenarios
    .filter((t) => t.checks.some((c) => c.requirement === r.id && c.verdict !== 'PASS'))
    .map((t) => t.scenario);
  const rest = r.tests.filter((id) => !failing.includes(id));
  // A few, not all 140 a fault fails: the rest are listed by cause below.
  const shown = [...failing.slice(0, 6), ...rest.slice(0, Math.max(0, 4 - failing.length))];
  return shown.map(anchor).join(' ') + (r.tests.length > shown.length ? ` <span class="m">+${r.tests.length - shown.length}</span>` : '');
}

function deviations(index: ReportIndex, files: EvidenceFiles): string {
  const { results } = index;
  const listed = results.provenance.deviations;
  if (listed.length === 0) return '';
  const status = (id: string) => results.requirements.find((r) => r.id === id);
  const rows = listed.map((d) => {
    const record = status(d.requirement);
    const now = record?.deviationUnexpectedlyPasses
      ? 'passes now: remove the entry'
      : record?.status === 'KNOWN_DEVIATION'
        ? 'still failing'
        : record?.status === 'NOT_COVERED'
          ? 'not judged by this run'
          : d.active
            ? (record?.status ?? '')
            : `expired: counted as ${record?.status ?? '?'}`;
    return `<tr><td class="id">${anchor(d.requirement)}</td><td class="st">${badge(record?.status ?? 'NOT_COVERED')}</td><td>${h(d.reason)}</td><td class="id">${d.until ? `until ${h(d.until)}` : 'no end date'}${d.active ? '' : ' <strong>(expired)</strong>'}</td><td>${h(now)}</td></tr>`;
  });
  const deviating = index.scenarios.filter((t) => index.withEvidence.has(t.scenario) && shownStatus(t, index) === 'KNOWN_DEVIATION');
  const evidence = deviating.length
    ? `<details><summary>Evidence of the scenarios that fail only where a deviation is declared (${deviating.length})</summary>${deviating.map((t) => scenarioBlock(t, index, files)).join('')}</details>`
    : '';
  return `<div class="box dev" id="deviations"><h2 style="margin-top:0">Known deviations (${listed.length})</h2><p class="m">Reviewed exceptions the target declares: a failure of one is reported, not counted against the verdict, until its end date.</p><table><tr><th>Requirement</th><th>Status</th><th>Reason</th><th>Expires</th><th>Now</th></tr>${rows.join('')}</table>${evidence}</div>`;
}

function attestations({ results }: ReportIndex): string {
  const list = results.attestations ?? [];
  if (list.length === 0) return '';
  const rows = list.map((a) => {
    const record = results.requirements.find((r) => r.id === a.requirement);
    const applied = record?.status === 'ATTESTED' || (a.verdict === 'FAIL' && record?.reason?.startsWith('failed, attested'));
    return `<tr id="attestation-${h(a.requirement)}"><td class="id">${anchor(a.requirement)}</td><td class="st">${badge(a.verdict === 'PASS' ? 'ATTESTED' : 'FAIL')}</td><td>${h(record?.statement ?? '')}${
      applied ? '' : `<div class="m">not applied: a scenario of this run judged it (${h(record?.status ?? '')})</div>`
    }</td><td>${h(a.reviewer)}</td><td class="id">${h(a.date)}</td><td>${h(a.evidence)}${a.note ? `<div class="m">${h(a.note)}</div>` : ''}</td></tr>`;
  });
  return `<div class="box att" id="attestations"><h2 style="margin-top:0">Attestations (${list.length}): checked by a person, not by the suite</h2><table><tr><th>Requirement</th><th>Verdict</th><th>Statement</th><th>Reviewer</th><th>Date</th><th>Evidence</th></tr>${rows.join('')}</table></div>`;
}

/** The counts of the run; per area they head each group of the catalogue below. */
function totals({ results }: ReportIndex): string {
  const t = results.summary.tests;
  const scenarioCounts = Object.entries(t)
    .filter(([k, n]) => k !== 'total' && n > 0)
    .map(([k, n]) => `<span>${h(n)} ${badge(k)}</span>`)
    .join('');
  return `<p class="c"><strong>Scenarios</strong> ${scenarioCounts} <span class="m">of ${h(t.total)}</span> · <strong>Requirements</strong> ${counts(
    results.requirements.map((r) => r.status),
    REQUIREMENT_STATUSES,
  )} <span class="m">of ${results.requirements.length}</span></p>`;
}
