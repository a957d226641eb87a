/**
 * What a judge's verdicts add up to, per TPP and rule, in bounded memory: counts of every verdict, the first
 * failures with what was expected and found, and the full exchanges of a few of them as evidence. A day of
 * traffic adds counts, not records.
 */
import { bodyText, type ObservedExchange } from './observed-exchange.js';
import { BoundedMap } from './state.js';
import type { TppRef } from './tpp-attribution.js';
import type { ExchangeVerdict } from './tpp-judge.js';

/** Failures kept with their finding, per TPP and rule; the rest are counted. */
const FAILURES_KEPT = 5;
/** Exchanges kept whole as evidence, per TPP and rule, and per TPP. */
const EVIDENCE_PER_RULE = 3;
const EVIDENCE_PER_TPP = 60;
/** Bodies kept in evidence are cut after this many characters. */
const BODY_KEPT = 16_384;

export interface EvidenceSample {
  id: string;
  startedAt: string;
  durationMs: number;
  request: { method: string; url: string; headers: Record<string, string>; body?: string };
  response?: { status: number; headers: Record<string, string>; body?: string };
}

export interface RuleSummary {
  rule: string;
  pass: number;
  fail: number;
  notEvaluated: number;
  /** The first failures: the exchange, what the rule wanted and what the request had. */
  failures: { exchange: string; expected: string; actual: string }[];
  /** Why the rule could not be judged, with how often. */
  reasons: Map<string, number>;
  evidence: number;
}

export interface TppSummary {
  tpp: TppRef;
  /** Exchanges judged for this TPP: its requests, and the redirects after its SCAs. */
  exchanges: number;
  /** Requests the recorder marked as broken on purpose, not judged. */
  skipped: number;
  firstSeen: string;
  lastSeen: string;
  rules: Map<string, RuleSummary>;
  evidence: EvidenceSample[];
}

/**
 * TPPs tallied at most: past it, the TPP seen first goes (its counts with it). A TPP is a verified key
 * where the recorder verifies (the sandbox), so made-up certificates do not reach this far there.
 */
const TPPS_TALLIED = 1_000;

export class RuleTally {
  private readonly byTpp = new BoundedMap<string, TppSummary>(TPPS_TALLIED);
  /** Counts of the traffic as a whole. */
  readonly totals = { exchanges: 0, api: 0, browser: 0, skipped: 0 };

  add(verdict: ExchangeVerdict): void {
    this.totals.exchanges += 1;
    this.totals[verdict.kind] += 1;
    if (verdict.skipped !== undefined) this.totals.skipped += 1;
    if (verdict.kind === 'browser' && verdict.checks.length === 0) return;
    const summary = this.summaryOf(verdict.tpp, verdict.exchange.startedAt);
    summary.exchanges += 1;
    if (verdict.skipped !== undefined) summary.skipped += 1;
    summary.lastSeen = verdict.exchange.startedAt.toISOString();
    let keep = false;
    for (const check of verdict.checks) {
      const rule = ruleSummary(summary, check.rule);
      if (check.verdict === 'PASS') rule.pass += 1;
      else if (check.verdict === 'NOT_EVALUATED') {
        rule.notEvaluated += 1;
        const reason = check.reason ?? 'not evaluated';
        rule.reasons.set(reason, (rule.reasons.get(reason) ?? 0) + 1);
      } else {
        rule.fail += 1;
        if (rule.failures.length < FAILURES_KEPT)
          rule.failures.push({ exchange: verdict.exchange.id, expected: check.expected ?? '', actual: check.actual ?? '' });
        if (rule.evidence < EVIDENCE_PER_RULE && summary.evidence.length < EVIDENCE_PER_TPP) {
          rule.evidence += 1;
          keep = true;
        }
      }
    }
    if (keep && !summary.evidence.some((sample) => sample.id === verdict.exchange.id)) summary.evidence.push(sampleOf(verdict.exchange));
  }

  summaries(): TppSummary[] {
    return [...this.byTpp.values()];
  }

  private summaryOf(tpp: TppRef, at: Date): TppSummary {
    const known = this.byTpp.get(tpp.key);
    if (known !== undefined) return known;
    const summary: TppSummary = {
      tpp,
      exchanges: 0,
      skipped: 0,
      firstSeen: at.toISOString(),
      lastSeen: at.toISOString(),
      rules: new Map(),
      evidence: [],
    };
    this.byTpp.set(tpp.key, summary);
    return summary;
  }
}

function ruleSummary(summary: TppSummary, rule: string): RuleSummary {
  let found = summary.rules.get(rule);
  if (!found) {
    found = { rule, pass: 0, fail: 0, notEvaluated: 0, failures: [], reasons: new Map(), evidence: 0 };
    summary.rules.set(rule, found);
  }
  return found;
}

function sampleOf(exchange: ObservedExchange): EvidenceSample {
  const text = (body: Uint8Array) => (body.length === 0 ? undefined : bodyText(body).slice(0, BODY_KEPT));
  const requestBody = text(exchange.request.body);
  const response = exchange.response;
  const responseBody = response === undefined ? undefined : text(response.body);
  return {
    id: exchange.id,
    startedAt: exchange.startedAt.toISOString(),
    durationMs: exchange.durationMs,
    request: {
      method: exchange.request.method,
      url: exchange.request.url,
      headers: defined(exchange.request.headers),
      ...(requestBody === undefined ? {} : { body: requestBody }),
    },
    ...(response === undefined
      ? {}
      : {
          response: {
            status: response.status,
            headers: defined(response.headers),
            ...(responseBody === undefined ? {} : { body: responseBody }),
          },
        }),
  };
}

function defined(headers: Readonly<Record<string, string | undefined>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined));
}
