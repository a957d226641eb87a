/**
 * The TPP judge: fed the exchanges of a bank's traffic in order (from the sandbox, the proxy or a HAR), it
 * judges every request of every TPP against the TPP rules of the catalogue and remembers what the stateful
 * rules need. The PSU's browser at the bank's SCA site is part of the traffic too: it shows which
 * scaRedirect links were opened and what the redirect after SCA carried.
 *
 * Pure and synchronous: the caller decides where exchanges come from and where verdicts go.
 */
import { OperationTable } from '../spec/operations.js';
import { bankClockAt, learnBankClock } from './clock-at-request.js';
import { requestHeader, type ObservedExchange } from './observed-exchange.js';
import { certificateOf, TppAttribution, UNIDENTIFIED, type TppRef } from './tpp-attribution.js';
import type { ApiCall, JudgedRule, JudgeSettings, Learner, Outcome, Rule, RuleContext } from './rule.js';
import { BODY_RULES } from './rules/bodies-rules.js';
import { HEADER_RULES } from './rules/headers-rules.js';
import { LIMIT_RULES } from './rules/limits-rules.js';
import { judgePsuIdDropped, judgeSessionReuse, namesPsu, REDIRECT_RULES, scaRedirectOf, SESSION_RULES } from './rules/sessions-rules.js';
import { SIGNING_RULES } from './rules/signing-rules.js';
import { BoundedMap, TppState, type ScaLink, type ScaSuccess } from './state.js';

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

/** Every rule the judge runs per request, in catalogue order. */
const REQUEST_RULES: readonly Rule[] = [...SIGNING_RULES, ...HEADER_RULES, ...SESSION_RULES, ...LIMIT_RULES, ...BODY_RULES].sort((a, b) =>
  a.id.localeCompare(b.id),
);

/** Every rule the judge judges (the catalogue's automated TPP entries), with its hint: those of requests, and TPP-42 of redirects. */
export const JUDGED_RULES: readonly JudgedRule[] = [...REQUEST_RULES, ...REDIRECT_RULES].sort((a, b) => a.id.localeCompare(b.id));

/** The ids of every TPP rule the judge can judge. */
export const JUDGED_RULE_IDS: readonly string[] = JUDGED_RULES.map((rule) => rule.id);

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
   * By TPP-Session-ID, the TPP whose link the PSU opened last, and that link: the redirect that ends the flow
   * is that TPP's, even where two TPPs use the same session id, and ends the SCA the link's request asked for.
   */
  private readonly flows = new BoundedMap<string, { tpp: TppState; link: ScaLink; ended: boolean }>(100_000);
  /** By the address of its TPP-Redirect-URI (origin and path), the TPP that sends it: a redirect without its session is that TPP's. */
  private readonly redirectEndpoints = new BoundedMap<string, TppState>(10_000);
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
    const clock = bankClockAt(exchange, call, tpp);
    const context = this.contextOf(exchange, call, tpp, clock.clock);
    const checks: RuleCheck[] = [];
    const onPurpose = exchange.malformed ?? exchange.deliberate;
    if (onPurpose === undefined) {
      for (const rule of REQUEST_RULES) {
        const outcome =
          exchange.masked !== undefined && OVER_THE_BYTES.includes(rule.id)
            ? { unjudged: `the recorder masked personal data in it, so the bytes signed and digested are not there (${exchange.masked})` }
            : rule.judge(context);
        const check = outcome === undefined ? undefined : this.checkOf(rule.id, outcome, tpp.ref, exchange);
        if (check !== undefined) checks.push(check);
      }
    }
    for (const learner of LEARNERS) learner.learn(context);
    this.learnSession(context);
    learnBankClock(exchange, call, tpp, clock);
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
          : {
              rule: 'TPP-41',
              verdict: 'NOT_EVALUATED' as const,
              reason: "the traffic shows no scaRedirect link opened at all: the PSU's SCA traffic is not in it",
            },
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

  private contextOf(exchange: ObservedExchange, call: ApiCall, tpp: TppState, clock: RuleContext['clock']): RuleContext {
    const response = exchange.response;
    let answer: RuleContext['answer'];
    if (response !== undefined) {
      const scaRedirect = scaRedirectOf(parseJson(response.body));
      answer = { status: response.status, ...(scaRedirect === undefined ? {} : { scaRedirect }) };
    }
    const seesScaLink = this.options.seesScaLink;
    return {
      exchange,
      call,
      tpp,
      identified: tpp.ref.key !== UNIDENTIFIED.key,
      settings: this.options,
      clock,
      header: (name) => requestHeader(exchange, name),
      rawHeader: (name) => exchange.request.headers[name],
      certificate: certificateOf(exchange),
      seesScaLink: (href) => seesScaLink?.(href),
      answer,
    };
  }

  /** The check an outcome makes; none yet for an outcome deferred to the end of the traffic (finish). */
  private checkOf(rule: string, outcome: Outcome, tpp: TppRef, exchange: ObservedExchange): RuleCheck | undefined {
    if ('pass' in outcome)
      return outcome.pass ? { rule, verdict: 'PASS' } : { rule, verdict: 'FAIL', expected: outcome.expected, actual: outcome.actual };
    if ('unjudged' in outcome) return { rule, verdict: 'NOT_EVALUATED', reason: outcome.unjudged };
    if (this.deferred.length < DEFERRED_LIMIT) this.deferred.push({ tpp, exchange: withoutBodies(exchange), ...outcome.deferred });
    return undefined;
  }

  /** Sessions and links the TPP's request shows: whose session id it is, where its redirects go, which link it got. */
  private learnSession(context: RuleContext): void {
    const redirectUri = context.header('tpp-redirect-uri');
    const endpoint = redirectUri === undefined ? null : URL.parse(redirectUri);
    if (endpoint !== null) this.redirectEndpoints.set(endpointOf(endpoint), context.tpp);
    const session = context.header('tpp-session-id');
    if (session === undefined) return;
    const state = context.tpp.session(session);
    if (redirectUri !== undefined) state.redirectUri = redirectUri;
    this.sessionOwners.set(session, context.tpp);
    const href = context.answer?.scaRedirect;
    if (href !== undefined) {
      // A 401's link is the one TPP-41 follows; a link in another answer (a payment's 201) starts a flow too.
      const asked = context.tpp.scaLinks.get(`${session}\n${context.call.method} ${context.call.pathname}`);
      const link =
        asked?.href === href ? asked : { href, session, givenIn: context.exchange.id, opened: false, namedPsu: namesPsu(context) };
      this.links.set(pathAndQuery(href), { link, tpp: context.tpp });
    }
  }

  /** The PSU's browser: a link opened, or the redirect after SCA (TPP-42, and TPP-39's dropped psu-id, are judged there). */
  private browser(exchange: ObservedExchange): ExchangeVerdict {
    let owner: TppState | undefined;
    const opened = this.links.get(pathAndQuery(exchange.request.url));
    if (opened !== undefined) {
      opened.link.opened = true;
      this.anyLinkOpened = true;
      this.flows.set(opened.link.session, { ...opened, ended: false });
      owner = opened.tpp;
    }
    const checks: RuleCheck[] = [];
    for (const url of redirectCandidates(exchange)) {
      const redirect = this.redirectOf(url, exchange.id);
      if (redirect === undefined) continue;
      owner = redirect.tpp;
      if (redirect.success === undefined) continue;
      const { tpp, session, success } = redirect;
      // A redirect without its session (a bank that drops it) still gave the TPP its identifiers.
      if (session === undefined) {
        learnIdentifiers(tpp, success);
        continue;
      }
      const flow = this.flows.get(session);
      // The flow's link ends with its first redirect (a recording may show it twice: the Location, then the request).
      const ending = flow?.tpp === tpp && !flow.ended ? flow.link : undefined;
      if (flow !== undefined) flow.ended = true;
      const outcomes: [string, Outcome | undefined][] = [
        ['TPP-39', ending === undefined ? undefined : judgePsuIdDropped(tpp, session, success, ending)],
        ['TPP-42', judgeSessionReuse(tpp, session, success)],
      ];
      for (const [rule, outcome] of outcomes) {
        const check = outcome === undefined ? undefined : this.checkOf(rule, outcome, tpp.ref, exchange);
        if (check !== undefined) checks.push(check);
      }
      learnSuccess(tpp, session, success);
    }
    return { exchange, tpp: owner?.ref ?? UNIDENTIFIED, kind: 'browser', checks };
  }

  /**
   * A URL that is a redirect to a TPP after SCA (Events): to the TPP-Redirect-URI of a session, with
   * tpp-session-id; without one, to the TPP-Redirect-URI a TPP sends (its session then unknown).
   */
  private redirectOf(text: string, seenIn: string): { tpp: TppState; session?: string; success?: ScaSuccess } | undefined {
    const url = URL.parse(text);
    if (url === null) return undefined;
    const session = url.searchParams.get('tpp-session-id') ?? undefined;
    let tpp: TppState | undefined;
    if (session === undefined) {
      tpp = url.searchParams.has('psu-id') ? this.redirectEndpoints.get(endpointOf(url)) : undefined;
    } else {
      tpp = this.flows.get(session)?.tpp ?? this.sessionOwners.get(session);
      const redirectUri = tpp?.sessions.get(session)?.redirectUri;
      if (redirectUri === undefined || !sameEndpoint(url, redirectUri)) tpp = undefined;
    }
    if (tpp === undefined) return undefined;
    const psuId = url.searchParams.get('psu-id');
    if (psuId === null) return { tpp, ...(session === undefined ? {} : { session }) };
    const psuCorporateId = url.searchParams.get('psu-corporate-id');
    const context = url.searchParams.get('context');
    return {
      tpp,
      ...(session === undefined ? {} : { session }),
      success: { psuId, seenIn, ...(psuCorporateId === null ? {} : { psuCorporateId }), ...(context === null ? {} : { context }) },
    };
  }
}

/** What a successful SCA gave the TPP: the session's last SCA, and the identifiers it now holds. */
function learnSuccess(tpp: TppState, session: string, success: ScaSuccess): void {
  const state = tpp.session(session);
  state.success = success;
  state.psuIds.set(success.psuId.toLowerCase(), success.seenIn);
  learnIdentifiers(tpp, success);
}

/** The identifiers a redirect gave the TPP (TPP-39, TPP-40 hold its requests to them). */
function learnIdentifiers(tpp: TppState, success: ScaSuccess): void {
  tpp.psuIds.set(success.psuId.toLowerCase(), success.seenIn);
  if (success.psuCorporateId !== undefined) tpp.corporateIds.set(success.psuCorporateId.toLowerCase(), success.seenIn);
}

function endpointOf(url: URL): string {
  return `${url.origin}${url.pathname}`;
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
  return expected !== null && endpointOf(url) === endpointOf(expected);
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
