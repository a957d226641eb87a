/**
 * The bank's side of recorded or proxied traffic: every answer to a TPP's request is held to the rules the
 * suite checks on every exchange (lib/judge/invariants.ts: the error body and code list, JSON, the schema
 * of the operation, X-Request-ID echoed, no 5xx), each as a check of its own requirement. The same code the
 * suite runs, fed from traffic instead of from a scenario.
 */
import { CheckLog } from '../judge/checks.js';
import { Invariants } from '../judge/invariants.js';
import type { RecordedExchange } from '../tpp/index.js';
import { bodyText, interfacePath, type ExchangeVerdict, type ObservedExchange, type RuleCheck, type TppRef } from '../tpp-judge/index.js';

/** Who the bank-side checks are about. */
export const BANK: TppRef = { key: 'bank', label: "the bank's answers" };

export class BankSideJudge {
  /** By base URL: one bank normally, read from each request when the bank's base path is not given. */
  private readonly invariants = new Map<string, Invariants>();

  constructor(
    private readonly basePath: string | undefined,
    private readonly paths: Readonly<Record<string, string>> = {},
  ) {}

  /** The bank-side verdict of one exchange; undefined for what is no answer of the interface (the SCA pages, no response). */
  judge(exchange: ObservedExchange): ExchangeVerdict | undefined {
    const url = new URL(exchange.request.url);
    const relative = interfacePath(url.pathname, this.basePath);
    if (exchange.response === undefined || relative === undefined) return undefined;
    const baseUrl = `${url.origin}${url.pathname.slice(0, url.pathname.length - relative.length)}`;
    let invariants = this.invariants.get(baseUrl);
    if (invariants === undefined) {
      invariants = new Invariants(baseUrl, this.paths);
      this.invariants.set(baseUrl, invariants);
    }
    // Failures are collected, not raised: the log's sink has nothing to do.
    const log = new CheckLog([], { fail: () => undefined });
    invariants.check(log, recordedOf(exchange));
    const checks: RuleCheck[] = log.records.map((record) =>
      record.verdict === 'FAIL'
        ? { rule: record.requirement, verdict: 'FAIL', expected: '', actual: record.message ?? '' }
        : record.verdict === 'PASS'
          ? { rule: record.requirement, verdict: 'PASS' }
          : { rule: record.requirement, verdict: 'NOT_EVALUATED', reason: record.message ?? 'not evaluated' },
    );
    return { exchange, tpp: BANK, kind: 'api', checks };
  }
}

/** The TPP client's record of an exchange, which the invariants read. */
function recordedOf(exchange: ObservedExchange): RecordedExchange {
  const flat = (headers: Readonly<Record<string, string | undefined>>) =>
    Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const response = exchange.response;
  return {
    id: exchange.id,
    startedAt: exchange.startedAt.toISOString(),
    durationMs: exchange.durationMs,
    request: {
      method: exchange.request.method,
      url: exchange.request.url,
      headers: flat(exchange.request.headers),
      ...(exchange.request.body.length === 0 ? {} : { body: bodyText(exchange.request.body) }),
    },
    ...(response === undefined
      ? {}
      : { response: { status: response.status, headers: flat(response.headers), body: bodyText(response.body) } }),
    ...(exchange.malformed === undefined ? {} : { malformed: exchange.malformed }),
    ...(exchange.failureProvoked === undefined ? {} : { failureProvoked: exchange.failureProvoked }),
  };
}
