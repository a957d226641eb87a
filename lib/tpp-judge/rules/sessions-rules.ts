/**
 * The SCA session (Authentication 9 to 13, the identifiers of the PSU): what the TPP does with the redirect
 * after SCA (psu-id and psu-corporate-id persisted and sent), with scaRedirect links (followed, not
 * ignored), and with its TPP-Session-IDs (one session, one PSU). These rules look back at what came
 * before; redirects are read from the browser's side of the traffic by the judge (lib/tpp-judge/tpp-judge.ts).
 */
import { PASS, fail, judged, type Learner, type Outcome, type Rule, type RuleContext } from '../rule.js';
import type { ScaSuccess, TppState } from '../state.js';

/** The successful SCA the request's session had before it, if any (sandbox operations never address a PSU). */
function priorSuccess(c: RuleContext): ScaSuccess | undefined {
  if (c.call.sandboxOperation) return undefined;
  const session = c.header('tpp-session-id');
  return session === undefined ? undefined : c.tpp.sessions.get(session)?.success;
}

/** The key of "the same request" under a session: method and path (the query may differ between tries). */
function requestKey(c: RuleContext, session: string): string {
  return `${session}\n${c.call.method} ${c.call.pathname}`;
}

/** The scaRedirect link of an answer asking for SCA (401), if it has one. */
export function scaRedirectOfAnswer(status: number, body: unknown): string | undefined {
  if (status !== 401 || typeof body !== 'object' || body === null) return undefined;
  const href = (body as { _links?: { scaRedirect?: { href?: unknown } } })._links?.scaRedirect?.href;
  return typeof href === 'string' ? href : undefined;
}

const scaRedirectFollowed: Rule & Learner = {
  id: 'TPP-41',
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
    const href = c.answer?.scaRedirect;
    if (href === undefined) c.tpp.scaLinks.delete(key);
    else c.tpp.scaLinks.set(key, { href, session, givenIn: c.exchange.id, opened: false });
  },
};

export const SESSION_RULES: readonly Rule[] = [
  {
    id: 'TPP-39',
    judge: (c) => {
      const success = priorSuccess(c);
      if (success === undefined) return undefined;
      const sent = c.header('psu-id');
      if (sent === undefined && c.header('x-psu-identity') !== undefined) return PASS;
      return judged(sent?.toLowerCase() === success.psuId.toLowerCase(), `PSU-ID: the psu-id of the SCA redirect (${success.seenIn})`, () =>
        sent === undefined ? 'no PSU-ID' : `PSU-ID: ${sent}, another than the redirect's`,
      );
    },
  },
  {
    id: 'TPP-40',
    judge: (c) => {
      const success = priorSuccess(c);
      if (success?.context !== 'CORPORATE' || success.psuCorporateId === undefined) return undefined;
      const sent = c.header('psu-corporate-id');
      return judged(sent === success.psuCorporateId, `PSU-CORPORATE-ID: the psu-corporate-id of the SCA redirect (${success.seenIn})`, () =>
        sent === undefined ? 'no PSU-CORPORATE-ID' : `PSU-CORPORATE-ID: ${sent}`,
      );
    },
  },
  scaRedirectFollowed,
];

/** TPP-42, judged when a redirect after a successful SCA is seen: a session id already used for another PSU. */
export function judgeSessionReuse(tpp: TppState, session: string, success: ScaSuccess): Outcome {
  const before = tpp.sessions.get(session)?.success;
  if (before === undefined || before.psuId.toLowerCase() === success.psuId.toLowerCase()) return PASS;
  return fail(`a TPP-Session-ID of its own for each PSU's SCA`, `TPP-Session-ID ${session} carried the SCA of psu-id ${before.psuId} (${before.seenIn}), then of psu-id ${success.psuId} (${success.seenIn})`);
}
