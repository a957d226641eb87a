/**
 * The TPP judge: fed the exchanges of a bank's traffic in order (from the sandbox, the proxy or a HAR), it
 * judges every request of every TPP against the TPP rules of the catalogue and remembers what the stateful
 * rules need. The PSU's browser at the bank's SCA site is part of the traffic too: it shows which
 * scaRedirect links were opened and what the redirect after SCA carried.
 *
 * Pure and synchronous: the caller decides where exchanges come from and where verdicts go.
 */
import { OperationTable } from '../spec/operations.js';
import { bankClockOf, requestHeader, type ObservedExchange } from './observed-exchange.js';
import { certificateOf, TppAttribution, UNIDENTIFIED, type TppRef } from './tpp-attribution.js';
import type { ApiCall, JudgeSettings, Learner, Outcome, Rule, RuleContext } from './rule.js';
import { BODY_RULES } from './rules/bodies-rules.js';
import { HEADER_RULES } from './rules/headers-rules.js';
import { LIMIT_RULES } from './rules/limits-rules.js';
import { judgeSessionReuse, scaRedirectOfAnswer, SESSION_RULES } from './rules/sessions-rules.js';
import { SIGNING_RULES } from './rules/signing-rules.js';
import { BoundedMap, TppState, type ScaLink } from './state.js';

export type RuleVerdict = 'PASS' | 'FAIL' | 'NOT_EVALUATED';

/** One rule's verdict on one exchange. */
export interface RuleCheck {
  rule: string;
  verdict: RuleVerdict;
  /** For FAIL: what the rule wanted and what the request had. */
  expected?: string;
  actual?: string;
  /** For NOT_EVALUATED: why the rule could not be judged here. */
  reason?: string;
}

export interface ExchangeVerdict {
  exchange: ObservedExchange;
  tpp: TppRef;
  /** A request of the TPP to the interface, or the PSU's browser elsewhere on the bank (its SCA site). */
  kind: 'api' | 'browser';
  checks: RuleCheck[];
  /** Why the TPP rules were not applied to this request (the recorder marks it broken on purpose). */
  skipped?: string;
}

export interface JudgeOptions extends JudgeSettings {
  /**
   * The path of the bank's base URL (`/psd2` for https://bank.example/psd2); the interface is under
   * `<basePath>/v1`. Not given: each request's own path says it (whatever comes before its first `/v1/`).
   */
  basePath?: string;
  /** The target's path overrides (targets.yaml `paths`). */
  paths?: Readonly<Record<string, string>>;
  /**
   * Whether the judge sees the PSU open a given scaRedirect link: always in the sandbox, for links through
   * the proxy there. Not given: decided at the end, by whether the traffic showed any link opened at all.
   */
  seesScaLink?: (href: string) => boolean;
}

/** Every rule the judge runs per request, in catalogue order. TPP-42 is judged on redirects (judgeSessionReuse). */
export const REQUEST_RULES: readonly Rule[] = [...SIGNING_RULES, ...HEADER_RULES, ...SESSION_RULES, ...LIMIT_RULES, ...BODY_RULES].sort((a, b) => a.id.localeCompare(b.id));

/** The ids of every TPP rule the judge can judge (the catalogue's automated TPP entries). */
export const JUDGED_RULE_IDS: readonly string[] = [...REQUEST_RULES.map((rule) => rule.id), 'TPP-42'].sort();

const LEARNERS: readonly Learner[] = REQUEST_RULES.filter((rule): rule is Rule & Learner => 'learn' in rule);

/** A TPP-41 finding that waits for the end of the traffic to know whether SCA traffic was recorded at all. */
interface Deferred {
  tpp: TppRef;
  exchange: ObservedExchange;
  expected: string;
  actual: string;
}

const DEFERRED_LIMIT = 10_000;

/** Rules judged over the exact bytes sent (the Digest, the signature's value): not on an exchange the recorder masked. */
const OVER_THE_BYTES: readonly string[] = ['TPP-04', 'TPP-15'];

/** TPPs whose sequences (request ids, sessions, links, reads) the judge follows at once; the least recently active is forgotten first. */
const TPPS_REMEMBERED = 256;

export class TppJudge {
  private readonly operations: OperationTable;
  private readonly basePath: string | undefined;
  private readonly attribution = new TppAttribution();
  /**
   * What the judge remembers per TPP, for the TPPs active last: a TPP is a verified key where the recorder
   * verifies (the sandbox), so made-up certificates cannot grow it; elsewhere the bound does it.
   */
  private readonly tpps = new BoundedMap<string, TppState>(TPPS_REMEMBERED);
  /** Who uses a TPP-Session-ID, and where its redirects arrive: redirects are tied back to their TPP by it. */
  private readonly sessionOwners = new BoundedMap<string, TppState>(100_000);
  /** scaRedirect links given, by path and query, with their TPP: opening one is seen as a browser request to it. */
  private readonly links = new BoundedMap<string, { link: ScaLink; tpp: TppState }>(100_000);
  /**
   * By TPP-Session-ID, the TPP whose link the PSU opened last: the redirect that ends the flow is that TPP's,
   * even where two TPPs use the same session id.
   */
  private readonly flowOwners = new BoundedMap<string, TppState>(100_000);
  private anyLinkOpened = false;
  private readonly deferred: Deferred[] = [];

  constructor(private readonly options: JudgeOptions = {}) {
    this.operations = new OperationTable(options.paths ?? {});
    this.basePath = options.basePath?.replace(/\/+$/, '');
  }

  /** Judges one exchange and learns from it. Exchanges must come in the order they happened. */
  judge(exchange: ObservedExchange): ExchangeVerdict {
    const call = this.apiCallOf(exchange);
    if (call === undefined) return this.browser(exchange);
    const tpp = this.stateOf(this.attribution.of(exchange));
    const context = this.contextOf(exchange, call, tpp);
    const checks: RuleCheck[] = [];
    const onPurpose = exchange.malformed ?? exchange.deliberate;
    if (onPurpose === undefined) {
      for (const rule of REQUEST_RULES) {
        const outcome = exchange.masked !== undefined && OVER_THE_BYTES.includes(rule.id) ? { unjudged: `the recorder masked personal data in it, so the bytes signed and digested are not there (${exchange.masked})` } : rule.judge(context);
        const check = outcome === undefined ? undefined : this.checkOf(rule.id, outcome, tpp.ref, exchange);
        if (check !== undefined) checks.push(check);
      }
    }
    for (const learner of LEARNERS) learner.learn(context);
    this.learnSession(context);
    return {
      exchange,
      tpp: tpp.ref,
      kind: 'api',
      checks,
      ...(onPurpose === undefined ? {} : { skipped: `off the TPP rules on purpose, says the recorder: ${onPurpose}` }),
    };
  }

  /**
   * The verdicts only the end of the traffic can give: repeated requests after an scaRedirect (TPP-41) in
   * traffic that did not say whether the PSU's SCA traffic is in it, decided by whether any link was opened.
   */
  finish(): ExchangeVerdict[] {
    const verdicts = this.deferred.map(({ tpp, exchange, expected, actual }) => ({
      exchange,
      tpp,
      kind: 'api' as const,
      checks: [
        this.anyLinkOpened
          ? { rule: 'TPP-41', verdict: 'FAIL' as const, expected, actual }
          : { rule: 'TPP-41', verdict: 'NOT_EVALUATED' as const, reason: "the traffic shows no scaRedirect link opened at all: the PSU's SCA traffic is not in it" },
      ],
    }));
    this.deferred.length = 0;
    return verdicts;
  }

  /** The TPPs seen so far. */
  knownTpps(): TppRef[] {
    return [...this.tpps.values()].map((state) => state.ref);
  }

  private stateOf(ref: TppRef): TppState {
    const state = this.tpps.get(ref.key) ?? new TppState(ref);
    this.tpps.set(ref.key, state);
    return state;
  }

  /** The interface request an exchange is, or undefined for the PSU's browser elsewhere on the bank. */
  private apiCallOf(exchange: ObservedExchange): ApiCall | undefined {
    // Whatever a client sent as its target (`*`, an absolute form, garbage): a URL that does not parse is no interface request.
    const url = URL.parse(exchange.request.url);
    const relative = url === null ? undefined : interfacePath(url.pathname, this.basePath);
    if (relative === undefined) return undefined;
    const path = this.operations.match(relative);
    return {
      method: exchange.request.method.toUpperCase(),
      pathname: relative,
      ...(path === undefined ? {} : { path }),
      sandboxOperation: relative.startsWith('/v1/sandbox/'),
    };
  }

  private contextOf(exchange: ObservedExchange, call: ApiCall, tpp: TppState): RuleContext {
    const response = exchange.response;
    // A request that moves the bank's clock is answered on the moved clock: its Date says nothing of the clock it came in on.
    const movesClock = call.path?.name === 'sandboxClock' && call.method !== 'GET';
    let answer: RuleContext['answer'];
    if (response !== undefined) {
      const scaRedirect = response.status === 401 ? scaRedirectOfAnswer(401, parseJson(response.body)) : undefined;
      answer = { status: response.status, ...(scaRedirect === undefined ? {} : { scaRedirect }) };
    }
    const seesScaLink = this.options.seesScaLink;
    return {
      exchange,
      call,
      tpp,
      settings: this.options,
      clock: movesClock && exchange.bankTime === undefined ? undefined : bankClockOf(exchange),
      header: (name) => requestHeader(exchange, name),
      rawHeader: (name) => exchange.request.headers[name],
      certificate: certificateOf(exchange),
      seesScaLink: (href) => seesScaLink?.(href),
      answer,
    };
  }

  /** The check an outcome makes; none yet for an outcome deferred to the end of the traffic (finish). */
  private checkOf(rule: string, outcome: Outcome, tpp: TppRef, exchange: ObservedExchange): RuleCheck | undefined {
    if ('pass' in outcome) return outcome.pass ? { rule, verdict: 'PASS' } : { rule, verdict: 'FAIL', expected: outcome.expected, actual: outcome.actual };
    if ('unjudged' in outcome) return { rule, verdict: 'NOT_EVALUATED', reason: outcome.unjudged };
    if (this.deferred.length < DEFERRED_LIMIT) this.deferred.push({ tpp, exchange: withoutBodies(exchange), ...outcome.deferred });
    return undefined;
  }

  /** Sessions and links the TPP's request shows: whose session id it is, where its redirects go, which link it got. */
  private learnSession(context: RuleContext): void {
    const session = context.header('tpp-session-id');
    if (session === undefined) return;
    const redirectUri = context.header('tpp-redirect-uri');
    const state = context.tpp.session(session);
    if (redirectUri !== undefined) state.redirectUri = redirectUri;
    this.sessionOwners.set(session, context.tpp);
    const href = context.answer?.scaRedirect;
    if (href !== undefined) {
      const link = context.tpp.scaLinks.get(`${session}\n${context.call.method} ${context.call.pathname}`);
      if (link !== undefined) this.links.set(pathAndQuery(href), { link, tpp: context.tpp });
    }
  }

  /** The PSU's browser: a link opened, or the redirect after SCA (TPP-42 is judged there). */
  private browser(exchange: ObservedExchange): ExchangeVerdict {
    let owner: TppState | undefined;
    const opened = this.links.get(pathAndQuery(exchange.request.url));
    if (opened !== undefined) {
      opened.link.opened = true;
      this.anyLinkOpened = true;
      this.flowOwners.set(opened.link.session, opened.tpp);
      owner = opened.tpp;
    }
    const checks: RuleCheck[] = [];
    for (const url of redirectCandidates(exchange)) {
      const redirect = this.redirectOf(url, exchange.id);
      if (redirect === undefined) continue;
      owner = redirect.tpp;
      if (redirect.success === undefined) continue;
      const check = this.checkOf('TPP-42', judgeSessionReuse(redirect.tpp, redirect.session, redirect.success), redirect.tpp.ref, exchange);
      if (check !== undefined) checks.push(check);
      redirect.tpp.session(redirect.session).success = redirect.success;
    }
    return { exchange, tpp: owner?.ref ?? UNIDENTIFIED, kind: 'browser', checks };
  }

  /** A URL that is a redirect to a TPP after SCA (Events): to the TPP-Redirect-URI of a session, with tpp-session-id. */
  private redirectOf(text: string, seenIn: string): { tpp: TppState; session: string; success?: { psuId: string; psuCorporateId?: string; context?: string; seenIn: string } } | undefined {
    const url = URL.parse(text);
    const session = url?.searchParams.get('tpp-session-id');
    if (url === null || session === null || session === undefined) return undefined;
    const tpp = this.flowOwners.get(session) ?? this.sessionOwners.get(session);
    const redirectUri = tpp?.sessions.get(session)?.redirectUri;
    if (tpp === undefined || redirectUri === undefined || !sameEndpoint(url, redirectUri)) return undefined;
    const psuId = url.searchParams.get('psu-id');
    if (psuId === null) return { tpp, session };
    const psuCorporateId = url.searchParams.get('psu-corporate-id');
    const context = url.searchParams.get('context');
    return {
      tpp,
      session,
      success: { psuId, seenIn, ...(psuCorporateId === null ? {} : { psuCorporateId }), ...(context === null ? {} : { context }) },
    };
  }
}

/** The path of a request relative to the bank's base URL when it is one of the interface (`/v1/…`), else undefined. */
export function interfacePath(pathname: string, basePath: string | undefined): string | undefined {
  if (basePath === undefined) {
    const at = pathname.indexOf('/v1/');
    return at < 0 ? undefined : pathname.slice(at);
  }
  if (!pathname.startsWith(`${basePath}/v1/`)) return undefined;
  return pathname.slice(basePath.length);
}

/** Where a browser exchange may show the redirect after SCA: the Location of a 3xx, and the URL it requested. */
function redirectCandidates(exchange: ObservedExchange): string[] {
  const candidates = [exchange.request.url];
  const location = exchange.response?.headers.location;
  if (location !== undefined && exchange.response !== undefined && exchange.response.status >= 300 && exchange.response.status < 400) {
    const resolved = URL.parse(location, exchange.request.url);
    if (resolved !== null) candidates.unshift(resolved.toString());
  }
  return candidates;
}

/** The redirect arrives at the TPP-Redirect-URI: same scheme, host and path (the bank adds the query). */
function sameEndpoint(url: URL, redirectUri: string): boolean {
  const expected = URL.parse(redirectUri);
  return expected !== null && url.origin === expected.origin && url.pathname === expected.pathname;
}

function pathAndQuery(text: string): string {
  const url = URL.parse(text, 'https://bank.invalid');
  return url === null ? text : `${url.pathname}${url.search}`;
}

function parseJson(body: Uint8Array): unknown {
  try {
    return JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** An exchange kept for later without its bodies (deferred findings need its id and headers only). */
function withoutBodies(exchange: ObservedExchange): ObservedExchange {
  const empty = new Uint8Array(0);
  return {
    ...exchange,
    request: { ...exchange.request, body: empty },
    ...(exchange.response === undefined ? {} : { response: { ...exchange.response, body: empty } }),
  };
}

