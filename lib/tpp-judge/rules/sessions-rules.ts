/**
 * The SCA session (Authentication 9 to 13, the identifiers of the PSU): what the TPP does with what the bank
 * gave it (a psu-id persisted and sent, a corporate context named with a corporate id it obtained), with
 * scaRedirect links (followed, not ignored), and with its TPP-Session-IDs (one session, one PSU). These rules
 * look back at what came before; redirects are read from the browser's side of the traffic by the judge
 * (lib/tpp-judge/tpp-judge.ts).
 *
 * A TPP chooses its TPP-Session-IDs: one for several PSUs, or a new one per request, are both its to choose
 * (TPP-42 reports the first as a SHOULD). So a PSU-ID or PSU-CORPORATE-ID is held to what the bank gave the
 * TPP, whichever session it came in, never to the last redirect of the request's session.
 */
import { isUuid } from '../../validate/formats.js';
import { PASS, fail, unjudged, type JudgedRule, type Learner, type Outcome, type Rule, type RuleContext } from '../rule.js';
import type { ScaLink, ScaSuccess, TppState } from '../state.js';

/** The key of "the same request" under a session: method and path (the query may differ between tries). */
function requestKey(c: RuleContext, session: string): string {
  return `${session}\n${c.call.method} ${c.call.pathname}`;
}

/** The scaRedirect link of an answer's body, if it has one (a 401 asking for SCA, a payment's 201). */
export function scaRedirectOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const href = (body as { _links?: { scaRedirect?: { href?: unknown } } })._links?.scaRedirect?.href;
  return typeof href === 'string' ? href : undefined;
}

/** Whether a request names its PSU: PSU-ID, or X-PSU-IDENTITY, the alternative the header table gives. */
export function namesPsu(c: RuleContext): boolean {
  return c.header('psu-id') !== undefined || c.header('x-psu-identity') !== undefined;
}

/** Why an identifier the traffic never showed the TPP is not held against it, where the traffic may not begin with the bank. */
const MAY_PREDATE =
  'no redirect or answer in the traffic gave it to this TPP, and the traffic may not begin with the bank (it may have been obtained before)';

/**
 * Whether the TPP obtained an identifier: PASS when the traffic showed it, else FAIL where the traffic begins
 * with the bank, else not judged. Only for a TPP known by its key: whose identifiers an unidentified sender holds is not known.
 */
function obtained(c: RuleContext, held: TppState['psuIds'], value: string, expected: string, actual: string): Outcome {
  if (!c.identified)
    return unjudged('the sender is not identified (no verified or readable certificate): which identifiers it was given is not known');
  if (held.get(value.toLowerCase()) !== undefined) return PASS;
  return c.settings.fromBankStart === true ? fail(expected, actual) : unjudged(MAY_PREDATE);
}

/** Requests that obtain or start a context rather than act in one (Authentication 13): consent flows, GET /v1/user, GET /v1/agreements. */
const OBTAINS_CONTEXT = new Set(['consents', 'bankOfferedConsents', 'user', 'agreements']);

/** Every string an answer shows, anywhere in its JSON: the identifiers it gave (the shape of GET /v1/agreements is not shown). */
function stringsOf(value: unknown, into: string[] = []): string[] {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsOf(item, into);
  else if (typeof value === 'object' && value !== null) for (const item of Object.values(value)) stringsOf(item, into);
  return into;
}

function jsonOf(body: Uint8Array): unknown {
  try {
    return JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** TPP-39, on requests: a PSU-ID sent is a psu-id the bank gave this TPP in a redirect. */
const psuIdPersisted: Rule = {
  id: 'TPP-39',
  hint: 'after an SCA the judge saw (its redirect to the TPP), a request carrying the PSU-ID it gave: GET /v1/accounts with PSU-ID',
  judge: (c) => {
    const sent = c.header('psu-id');
    if (sent === undefined || c.call.sandboxOperation) return undefined;
    if (!isUuid(sent.trim())) return unjudged('PSU-ID is not a UUID at all (TPP-32)');
    return obtained(
      c,
      c.tpp.psuIds,
      sent.trim(),
      'PSU-ID: a psu-id a redirect after SCA gave this TPP',
      `PSU-ID: ${sent}, which no redirect gave it`,
    );
  },
};

/**
 * TPP-40: a request in corporate context (PSU-Context CORPORATE, or a PSU-CORPORATE-ID sent) that names its
 * PSU carries PSU-CORPORATE-ID beside PSU-ID, a corporate id the TPP obtained (a redirect, GET /v1/agreements).
 */
const corporateContextNamed: Rule & Learner = {
  id: 'TPP-40',
  hint: 'in corporate context after a corporate SCA: GET /v1/accounts with PSU-ID, PSU-Context CORPORATE and the PSU-CORPORATE-ID of the redirect (or of GET /v1/agreements)',
  judge: (c) => {
    if (c.call.sandboxOperation || OBTAINS_CONTEXT.has(c.call.path?.name ?? '')) return undefined;
    const corporateId = c.header('psu-corporate-id')?.trim();
    const corporate = c.header('psu-context')?.trim() === 'CORPORATE' || corporateId !== undefined;
    if (!corporate) return undefined;
    // Without the PSU named, the request starts a flow (the PSU picks the context during SCA), unless it names an agreement.
    if (!namesPsu(c))
      return corporateId === undefined
        ? undefined
        : fail('PSU-CORPORATE-ID beside PSU-ID', `PSU-CORPORATE-ID: ${corporateId}, without PSU-ID`);
    if (corporateId === undefined)
      return fail(
        'PSU-CORPORATE-ID beside PSU-ID in corporate context (Authentication 13)',
        'PSU-Context: CORPORATE with PSU-ID and no PSU-CORPORATE-ID',
      );
    return obtained(
      c,
      c.tpp.corporateIds,
      corporateId,
      'PSU-CORPORATE-ID: a psu-corporate-id of a redirect after SCA, or of GET /v1/agreements',
      `PSU-CORPORATE-ID: ${corporateId}, which the bank never gave this TPP`,
    );
  },
  learn: (c) => {
    // Authentication 13: a corporate id "is chosen from GET /v1/agreements when a PSU-ID exists".
    const status = c.exchange.response?.status ?? 0;
    if (c.call.path?.name !== 'agreements' || status < 200 || status > 299 || c.exchange.response === undefined) return;
    for (const text of stringsOf(jsonOf(c.exchange.response.body))) c.tpp.corporateIds.set(text.toLowerCase(), c.exchange.id);
  },
};

const scaRedirectFollowed: Rule & Learner = {
  id: 'TPP-41',
  hint: 'a request answered 401 with an scaRedirect link, then the same request in its TPP-Session-ID after the PSU opened the link',
  judge: (c) => {
    const session = c.header('tpp-session-id');
    if (session === undefined || c.call.sandboxOperation) return undefined;
    const link = c.tpp.scaLinks.get(requestKey(c, session));
    if (link === undefined) return undefined;
    if (link.opened) return PASS;
    const expected = `the PSU sent to the scaRedirect link given in ${link.givenIn} before the request is sent again`;
    const actual = `${c.call.method} ${c.call.pathname} sent again under TPP-Session-ID ${session}; the link ${link.href} was not opened`;
    const sees = c.seesScaLink(link.href);
    if (sees === undefined) return { deferred: { expected, actual } };
    return sees ? fail(expected, actual) : { unjudged: "the PSU's SCA traffic does not pass where the judge can see it" };
  },
  learn: (c) => {
    const session = c.header('tpp-session-id');
    if (session === undefined || c.call.sandboxOperation) return;
    const key = requestKey(c, session);
    // Only an answer asking for SCA (401): an scaRedirect on a payment's 201 may be authorised later, in a basket.
    const href = c.answer?.status === 401 ? c.answer.scaRedirect : undefined;
    if (href === undefined) c.tpp.scaLinks.delete(key);
    else c.tpp.scaLinks.set(key, { href, session, givenIn: c.exchange.id, opened: false, namedPsu: namesPsu(c) });
  },
};

export const SESSION_RULES: readonly Rule[] = [psuIdPersisted, corporateContextNamed, scaRedirectFollowed];

/** The rules judged on the redirect after SCA alone (the judge calls judgeSessionReuse). */
export const REDIRECT_RULES: readonly JudgedRule[] = [
  {
    id: 'TPP-42',
    hint: "two SCAs completed under one TPP-Session-ID, their redirects seen (the PSU's browser through the sandbox or the proxy)",
  },
];

/** TPP-42, judged when a redirect after a successful SCA is seen: a session id already used for another PSU. */
export function judgeSessionReuse(tpp: TppState, session: string, success: ScaSuccess): Outcome {
  const before = tpp.session(session).success;
  if (before === undefined || before.psuId.toLowerCase() === success.psuId.toLowerCase()) return PASS;
  return fail(
    `a TPP-Session-ID of its own for each PSU's SCA`,
    `TPP-Session-ID ${session} carried the SCA of psu-id ${before.psuId} (${before.seenIn}), then of psu-id ${success.psuId} (${success.seenIn})`,
  );
}

/**
 * TPP-39, judged on the redirect that ends an SCA: the request that asked for it named no PSU, though an
 * earlier SCA of the same session had given the TPP this very psu-id. The TPP held the psu-id and did not
 * send it; the PSU went through SCA again for it (Authentication 12: "persist the psu-id; repeat the call
 * with PSU-ID"). An SCA that identifies another PSU, or the first of a session, is a new PSU's and not judged.
 */
export function judgePsuIdDropped(tpp: TppState, session: string, success: ScaSuccess, link: ScaLink): Outcome | undefined {
  if (link.namedPsu) return undefined;
  const before = tpp.session(session).psuIds.get(success.psuId.toLowerCase());
  if (before === undefined) return undefined;
  return fail(
    `PSU-ID with the psu-id of the redirect in ${before} on later requests of its PSU`,
    `the request of ${link.givenIn}, under TPP-Session-ID ${session}, named no PSU; its SCA (${success.seenIn}) was of psu-id ${success.psuId}, which the TPP already held`,
  );
}
