/**
 * Reports of rules judged over traffic, in the shape the suite writes (results.json, index.html): each
 * requirement folded from what the traffic showed, and one "test" per party judged (each TPP, by its
 * certificate's key, or the bank's answers), with its checks merged and the exchanges of its first failures
 * as evidence. The same reader, the same HTML, the same verdicts and exit codes as a suite run.
 */
import { join } from 'node:path';
import { renderHtml } from '../report/html/page.js';
import { trafficProvenance } from '../report/provenance.js';
import { RESULTS_SCHEMA_VERSION, tally } from '../report/results.js';
import { Masker } from '../report/mask.js';
import { mkdirPrivate, writePrivate } from '../report/private-files.js';
import {
  REQUIREMENT_STATUSES,
  TEST_STATUSES,
  type CheckRecord,
  type EvidenceExchange,
  type RunResults,
  type TestRecord,
  type TestStatus,
} from '../report/results-types.js';
import { foldRequirement, runVerdict, type Judgement } from '../report/verdict.js';
import type { Requirement } from '../spec/requirements.js';
import { tppRuleCard, type EvidenceSample, type RuleSummary, type RuleTally, type TppSummary } from '../tpp-judge/index.js';

export interface ReportContext {
  runId: string;
  startedAt: Date;
  finishedAt: Date;
  tool: { name: string; version: string };
  target: RunResults['target'];
  /** Where the traffic came from: `sandbox`, `proxy`, or the HAR file's name. */
  source: string;
  maskPersonalData: boolean;
}

/**
 * One report of a tally against a catalogue (the TPP rules, or the bank's rules judged on every exchange).
 * `kind`: a report of the TPP rules judges a TPP's client; one of the bank's rules judges the bank's answers.
 */
export function resultsOf(
  traffic: RuleTally,
  kind: RunResults['kind'],
  catalogue: readonly Requirement[],
  context: ReportContext,
  only?: string,
): RunResults {
  const masker = new Masker(context.maskPersonalData);
  const summaries = traffic.summaries().filter((summary) => only === undefined || summary.tpp.key === only);
  for (const summary of summaries) learnSecrets(masker, summary);
  const tests = summaries.map((summary) => testOf(summary, catalogue, context, masker));
  const byRequirement = new Map<string, Judgement[]>();
  for (const summary of summaries) {
    for (const rule of summary.rules.values()) {
      byRequirement.set(rule.rule, [...(byRequirement.get(rule.rule) ?? []), judgementOf(rule, summary, masker)]);
    }
  }
  const requirements = catalogue.map((entry) => {
    const record = foldRequirement(entry, byRequirement.get(entry.id) ?? [], undefined);
    return record.status === 'NOT_COVERED' ? { ...record, reason: notCoveredReason(entry) } : record;
  });
  const verdict = runVerdict(requirements, tests, false);
  return {
    schemaVersion: RESULTS_SCHEMA_VERSION,
    kind,
    tool: context.tool,
    runId: context.runId,
    target: context.target,
    startedAt: context.startedAt.toISOString(),
    finishedAt: context.finishedAt.toISOString(),
    durationMs: context.finishedAt.getTime() - context.startedAt.getTime(),
    filtered: false,
    verdict: verdict.verdict,
    verdictReasons: [
      only === undefined
        ? trafficLine(traffic, context.source)
        : `judged on the traffic of one TPP (${context.source}): ${summaries[0]?.exchanges ?? 0} exchanges`,
      ...verdict.reasons,
    ],
    missingForConformant: verdict.missing,
    exitCode: verdict.exitCode,
    provenance: trafficProvenance(context.tool, context.source, context.maskPersonalData),
    summary: {
      tests: tally(
        tests.map((t) => t.status),
        TEST_STATUSES,
      ),
      requirements: tally(
        requirements.map((r) => r.status),
        REQUIREMENT_STATUSES,
      ),
    },
    requirements,
    tests,
  };
}

/** Why a rule has no verdict: no exchange concerned it; for a TPP rule the judge judges, the call that would. */
function notCoveredReason(entry: Requirement): string {
  const card = tppRuleCard(entry.id);
  return card?.judged === true
    ? `no exchange of the traffic concerned it; to exercise it: ${card.hint}`
    : 'no exchange of the traffic concerned it';
}

function trafficLine(traffic: RuleTally, source: string): string {
  const { exchanges, api, browser, skipped } = traffic.totals;
  const marked = skipped > 0 ? `, ${skipped} marked broken on purpose by the recorder and not held against the TPP` : '';
  return `judged on traffic (${source}): ${exchanges} exchanges, ${api} to the interface, ${browser} of the PSU's browser${marked}`;
}

/** Writes results.json and index.html into `dir`; returns the paths. */
export function writeResults(dir: string, results: RunResults): { json: string; html: string } {
  mkdirPrivate(dir);
  const json = join(dir, 'results.json');
  const html = join(dir, 'index.html');
  writePrivate(json, JSON.stringify(results, null, 2));
  writePrivate(html, renderHtml(results));
  return { json, html };
}

/** What one party's checks say about one rule, for folding the requirement over every party. */
function judgementOf(rule: RuleSummary, summary: TppSummary, masker: Masker): Judgement {
  const scenario = summary.tpp.label;
  if (rule.fail > 0) {
    const first = rule.failures[0];
    return {
      status: 'FAIL',
      scenario,
      reason: masker.text(
        `${scenario}: ${rule.fail} exchange(s); first ${first?.exchange ?? ''}: Expected: ${first?.expected ?? ''}; Actual: ${first?.actual ?? ''}`,
      ),
    };
  }
  if (rule.pass > 0) return { status: 'PASS', scenario };
  const [reason] = [...rule.reasons.entries()].sort((a, b) => b[1] - a[1])[0] ?? ['not evaluated'];
  return { status: 'NOT_EVALUATED', scenario, reason: `${scenario}: ${reason}` };
}

function testOf(summary: TppSummary, catalogue: readonly Requirement[], context: ReportContext, masker: Masker): TestRecord {
  const levelOf = new Map(catalogue.map((entry) => [entry.id, entry]));
  const checks: CheckRecord[] = [];
  const warnings: string[] = [];
  let mustFailed = false;
  for (const rule of [...summary.rules.values()].sort((a, b) => a.rule.localeCompare(b.rule))) {
    const entry = levelOf.get(rule.rule);
    if (rule.fail > 0 && entry?.level === 'MUST') mustFailed = true;
    for (const failure of rule.failures) {
      const message = masker.text(failureMessage(entry, failure));
      checks.push({ requirement: rule.rule, verdict: 'FAIL', source: 'invariant', message });
      if (entry?.level !== 'MUST') warnings.push(message);
    }
    const unshown = rule.fail - rule.failures.length;
    if (unshown > 0)
      checks.push({
        requirement: rule.rule,
        verdict: 'FAIL',
        source: 'invariant',
        message: `and ${unshown} more exchange(s) like these`,
        count: unshown,
      });
    for (const [reason, count] of rule.reasons)
      checks.push({ requirement: rule.rule, verdict: 'NOT_EVALUATED', source: 'invariant', message: reason, count });
    if (rule.pass > 0) checks.push({ requirement: rule.rule, verdict: 'PASS', source: 'invariant', count: rule.pass });
  }
  const status: TestStatus = mustFailed ? 'FAIL' : 'PASS';
  return {
    id: summary.tpp.key,
    scenario: summary.tpp.label,
    title: `${summary.tpp.label}: ${summary.exchanges} exchange(s)${summary.skipped > 0 ? `, ${summary.skipped} marked broken on purpose (not judged)` : ''}`,
    file: context.source,
    line: 0,
    requirements: [...summary.rules.keys()].sort(),
    status,
    durationMs: Date.parse(summary.lastSeen) - Date.parse(summary.firstSeen),
    warnings,
    checks,
    evidence: { exchanges: summary.evidence.map((sample) => evidenceOf(sample, masker)), redirects: [], files: [] },
  };
}

/** A failure as the suite prints one (h2spec style): the requirement line, then Expected and Actual. */
function failureMessage(entry: Requirement | undefined, failure: RuleSummary['failures'][number]): string {
  // Bank-side failures come as the invariants wrote them.
  if (failure.expected === '') return `${failure.actual}\n   Exchange: ${failure.exchange}`;
  const head = entry === undefined ? failure.exchange : `-> ${entry.id} ${entry.level}: ${entry.statement}`;
  return `${head}\n   Expected: ${failure.expected}\n   Actual:   ${failure.actual}\n   Exchange: ${failure.exchange}`;
}

function evidenceOf(sample: EvidenceSample, masker: Masker): EvidenceExchange {
  const url = masker.text(sample.request.url);
  return {
    id: sample.id,
    startedAt: sample.startedAt,
    durationMs: sample.durationMs,
    summary: `${sample.id}: ${sample.request.method} ${url} → ${sample.response?.status ?? 'no response'}`,
    request: { method: sample.request.method, url, ...masker.message(sample.request.headers, sample.request.body) },
    ...(sample.response === undefined
      ? {}
      : { response: { status: sample.response.status, ...masker.message(sample.response.headers, sample.response.body) } }),
  };
}

/** PSU identifiers in the kept exchanges, learnt before anything is written, so each is masked everywhere. */
function learnSecrets(masker: Masker, summary: TppSummary): void {
  for (const sample of summary.evidence) {
    for (const name of ['psu-id', 'psu-corporate-id', 'x-psu-identity']) masker.add(sample.request.headers[name]);
    const url = URL.parse(sample.request.url);
    masker.add(url?.searchParams.get('psu-id') ?? undefined);
    const location = sample.response?.headers.location;
    const redirect = location === undefined ? null : URL.parse(location, sample.request.url);
    masker.add(redirect?.searchParams.get('psu-id') ?? undefined);
    masker.add(redirect?.searchParams.get('psu-corporate-id') ?? undefined);
  }
  for (const rule of summary.rules.values()) {
    for (const failure of rule.failures) {
      for (const match of `${failure.expected} ${failure.actual}`.matchAll(/\b(?:psu-id|psu-corporate-id|x-psu-identity):? ([^\s,;)]+)/gi))
        masker.add(match[1]);
    }
  }
}
