// What a TPP is told about SCA: the 401 that asks for it (its scaRedirect link, and the error code saying why
// when there is a reason), and the redirects back to TPP-Redirect-URI after it (Events). The SCA state
// (reference/state/sca-state.ts) keeps authorisations and sessions; how they are worded to this request's TPP,
// and the faults in that wording, are here.
import { randomUUID } from 'node:crypto';
import { BankError, errorBody, plainErrorBody, ScaRequired, SYSTEM_NAME, type ErrorBody, type ErrorCode } from '../bank-errors.js';
import type { PsuContext } from '../state/sandbox-data.js';
import { withQuery, type Authorisation, type ChallengeReason, type ChallengeRequest } from '../state/sca-state.js';
import { applyBodyChanges, defineFault, defineVariant, type JsonBody } from '../switches.js';
import { resourceLink } from '../serialisation.js';
import { header, tppOf, type BankContext } from '../http/bank-context.js';

/** The paths of one account's or card account's resources, as opposed to the lists. */
const ONE_ACCOUNT = /^\/v1\/(?:card-)?accounts\/[^/?]+/;
const relativeScaRedirect = defineVariant('relative-sca-redirect', {
  description: 'the scaRedirect href is a path on the bank\'s host ("/sca/…"), not an absolute URL',
  allowedBy:
    'Link: "href (string, required)"; the basket response: "scaRedirect whose href is the address of the SCA authorisation site". Neither asks for an absolute URL, and Berlin Group writes hrefs as paths',
  source: 'Specification, Resources > Link and Signing basket authorisation response; Berlin Group 1.3.8, hrefType',
});
const scaRedirectOverHttp = defineFault('sca-redirect-over-http', {
  description: 'the scaRedirect href is a plain http:// address',
  breaks: ['SCA-01'],
});

// The 401 that asks for SCA, named for its faults as the error body is (bank-errors.ts, ERROR_BODY): the one for a
// read of one account's or card account's resources apart, which one fault alone changes.
const CHALLENGE_ONE_ACCOUNT = 'the 401 that asks for SCA to read one account or card account';
const CHALLENGE_OTHER = 'the 401 that asks for SCA for anything else';
export const CHALLENGES: readonly string[] = [CHALLENGE_ONE_ACCOUNT, CHALLENGE_OTHER];
type Challenge = Partial<ErrorBody> & { _links?: object };
const hasLink = (body: Challenge) => body._links !== undefined;
/** The 401 without its link (a payment's 201 keeps it): the error body saying why, CONSENT_INVALID when nothing else does. */
const withoutLink = ({ _links: _, ...why }: Challenge): JsonBody =>
  why.status === undefined ? plainErrorBody(401, 'CONSENT_INVALID', 'No consent for this PSU') : why;

// Declared in the order they apply: the code first, then the link.
defineFault<Challenge>('expired-session-code-consent-invalid', {
  description: 'the 401 for a call in an expired SCA session says CONSENT_INVALID instead of SCA_EXPIRED',
  breaks: ['ERR-19'],
  alters: { route: CHALLENGES, when: (body) => body.code === 'SCA_EXPIRED', apply: (body) => ({ ...body, code: 'CONSENT_INVALID' }) },
});
defineFault<Challenge>('no-sca-redirect', {
  description: 'the 401 for a request that needs SCA is an error body without the scaRedirect link',
  // With the rules that name the link, the endpoints whose answer is that SCA redirect: an account read before
  // consent (GEN-08), GET /v1/user (END-18), POST /v1/consents (END-20, VER-18) and /v1/bank-offered-consents (END-21).
  breaks: ['SCA-10', 'END-10', 'SES-01', 'SCA-02', 'GEN-08', 'END-18', 'END-20', 'VER-18', 'END-21'],
  alters: { route: CHALLENGES, when: hasLink, apply: withoutLink },
});
defineFault<Challenge>('resource-challenge-without-link', {
  description:
    'the 401 for a read of one account or card account (its details, balances, transactions) without an identified PSU has no scaRedirect link',
  breaks: ['SCA-02'],
  alters: { route: CHALLENGE_ONE_ACCOUNT, when: hasLink, apply: withoutLink },
});

/**
 * Starts (or repeats) the authorisation a request needs and returns the 401 that sends the PSU to it, with the reason when there is one.
 */
function scaRequired(ctx: BankContext, asked: ChallengeRequest, reason?: ChallengeReason): ScaRequired {
  const { switches } = ctx;
  const authorisation = ctx.world.sca.authorisationFor(asked);
  const baseUrl = ctx.world.baseUrl;
  const base = switches.breaks(scaRedirectOverHttp)
    ? baseUrl.replace(/^https:/, 'http:')
    : switches.reads(relativeScaRedirect)
      ? ''
      : baseUrl;
  // The link of a 401 the spec does not type: a Berlin Group link where the bank writes those without verbs.
  const links = { scaRedirect: resourceLink(switches, `${base}/sca/${authorisation.id}`) };
  const why = reason === undefined ? {} : errorBody(switches, 401, reason.code, reason.message);
  const challenge = ONE_ACCOUNT.test(ctx.url) ? CHALLENGE_ONE_ACCOUNT : CHALLENGE_OTHER;
  return new ScaRequired(applyBodyChanges(switches, challenge, { ...why, _links: links }, 401), authorisation.id, links);
}

/**
 * The 401 with an scaRedirect link that starts SCA for this request's TPP, session and redirect address:
 * for the PSU and context expected, or (dynamic linking) for the payments to approve.
 */
export function scaChallenge(
  ctx: BankContext,
  asked: Pick<ChallengeRequest, 'paymentIds' | 'expectedCustomer' | 'requestedContext'> = {},
  reason?: ChallengeReason,
): ScaRequired {
  const tpp = tppOf(ctx);
  // Only a bank that serves reads without it gets here without one (the variant redirect-uri-only-where-sca).
  if (!header(ctx, 'tpp-redirect-uri')?.trim())
    throw new BankError(400, 'HTTP_HEADER_REQUIRED', 'Header TPP-Redirect-URI is required: this request needs SCA');
  return scaRequired(
    ctx,
    {
      tppId: tpp.id,
      tppName: tpp.name,
      tppSessionId: header(ctx, 'tpp-session-id') ?? '',
      redirectUri: header(ctx, 'tpp-redirect-uri') ?? '',
      ...asked,
    },
    reason,
  );
}

// The redirects back to the TPP, as the parameters they add to its TPP-Redirect-URI (in order): their faults are
// declared as changes of those parameters (`alters`), applied by applyBodyChanges as the routes' answers are.
// A success without a psu-corporate-id (private context) and one with it: what a fault of the one changes the other has not.
const SUCCESS_PRIVATE = 'the redirect after successful SCA, without psu-corporate-id';
const SUCCESS_CORPORATE = 'the redirect after successful SCA, with psu-corporate-id';
const SUCCESS = [SUCCESS_PRIVATE, SUCCESS_CORPORATE];
const FAILURE = 'the redirect after failed SCA';
/** The redirects' names for their changes: answers of no route, as the error body is (bank-errors.ts, ERROR_BODY). */
export const REDIRECTS: readonly string[] = [...SUCCESS, FAILURE];
/** The parameters a redirect adds to the TPP's address, in order. */
type RedirectQuery = Record<string, string>;
/** Where a redirect's status would be (the PSU's browser gets a 303 to it). */
const REDIRECT_STATUS = 303;
const always = () => true;
/** The parameters with `name` dropped. */
const without = (name: string) => (query: RedirectQuery) => Object.fromEntries(Object.entries(query).filter(([key]) => key !== name));

defineFault<RedirectQuery>('redirect-drops-tpp-session-id', {
  description: 'the redirect after successful SCA omits tpp-session-id',
  breaks: ['EVT-06', 'PSU-09'],
  alters: { route: SUCCESS, when: always, apply: without('tpp-session-id') },
});
defineFault<RedirectQuery>('redirect-drops-context', {
  description: 'the redirect after successful SCA omits context',
  breaks: ['EVT-07'],
  alters: { route: SUCCESS, when: always, apply: without('context') },
});
defineFault<RedirectQuery>('redirect-drops-psu-id', {
  description: 'the redirect after successful SCA omits psu-id',
  breaks: ['SCA-12', 'PSU-04', 'EVT-03', 'PSU-01'],
  alters: { route: SUCCESS, when: always, apply: without('psu-id') },
});
const redirectDropsTppQuery = defineFault('redirect-drops-tpp-query', {
  description: 'the redirect after SCA replaces the query the TPP put in TPP-Redirect-URI instead of adding to it',
  breaks: ['EVT-02'],
});
defineFault<RedirectQuery>('corporate-id-in-private-context', {
  description: 'the redirect after SCA in private context carries a psu-corporate-id',
  breaks: ['EVT-05'],
  alters: {
    route: SUCCESS_PRIVATE,
    when: always,
    // Where a psu-corporate-id stands: after psu-id.
    apply: ({ 'psu-id': psuId, ...rest }) => ({
      ...(psuId === undefined ? {} : { 'psu-id': psuId }),
      'psu-corporate-id': randomUUID(),
      ...rest,
    }),
  },
});
defineFault<RedirectQuery>('redirect-drops-corporate-id', {
  description: 'the redirect after SCA in corporate context omits psu-corporate-id',
  // GET /v1/user exists to yield a psu-corporate-id (END-18): its SCA yields none either.
  breaks: ['EVT-04', 'PSU-08', 'SCA-15', 'END-18'],
  alters: { route: SUCCESS_CORPORATE, when: always, apply: without('psu-corporate-id') },
});

const psuIdUnstable = defineFault('psu-id-unstable', {
  description: 'the SCA redirect carries a new psu-id at every SCA',
  breaks: ['PSU-03'],
});
const psuIdNotUuid = defineFault('psu-id-not-uuid', {
  description: 'the SCA redirect carries a psu-id that is not a UUID',
  breaks: ['PSU-01', 'EVT-03'],
});
const psuIdSharedAcrossTpps = defineFault('psu-id-shared-across-tpps', {
  description: 'a PSU has one psu-id for every TPP: the redirect carries the psu-id last issued to that PSU at any TPP',
  breaks: ['PSU-02'],
});
const expiredSessionNotRenewed = defineFault('expired-session-not-renewed', {
  description: 'a new SCA under a TPP-Session-ID whose hour has passed does not renew it: calls under it stay refused',
  breaks: ['SCA-08'],
});
const abortedScaEndsSession = defineFault('aborted-sca-ends-session', {
  description: "an SCA the PSU cancels after logging in under a new TPP-Session-ID ends the PSU's valid session",
  breaks: ['SES-06'],
});

/** The psu-id this TPP gets for this customer: derived, so the same at every SCA and at no other TPP. */
function psuIdFor(ctx: BankContext, tppId: string, customerNumber: string): string {
  const { switches } = ctx;
  const directory = ctx.world.psuIds;
  // An unstable id shows only from the second SCA on; a shared one only where another TPP was given another.
  let id =
    directory.issuedBefore(tppId, customerNumber) && switches.breaks(psuIdUnstable)
      ? randomUUID()
      : directory.derive(tppId, customerNumber);
  const last = directory.lastIssuedTo(customerNumber);
  if (last !== undefined && last !== id && switches.breaks(psuIdSharedAcrossTpps)) id = last;
  if (switches.breaks(psuIdNotUuid)) id = id.replaceAll('-', '');
  return directory.issue(tppId, customerNumber, id);
}

/**
 * Successful SCA: the session opens (account access) and the PSU goes back to the TPP with psu-id and friends (Events, "After successful
 * SCA").
 */
export function successRedirect(
  ctx: BankContext,
  authorisation: Authorisation,
  customerNumber: string,
  context: PsuContext,
  psuCorporateId?: string,
): string {
  const { switches } = ctx;
  ctx.world.sca.complete(authorisation, customerNumber, { keepExpiredSession: () => switches.breaks(expiredSessionNotRenewed) });
  const psuId = psuIdFor(ctx, authorisation.tppId, customerNumber);
  const params: RedirectQuery = {
    'psu-id': psuId,
    ...(psuCorporateId === undefined ? {} : { 'psu-corporate-id': psuCorporateId }),
    'tpp-session-id': authorisation.tppSessionId,
    context: context.kind,
  };
  const query = new URL(authorisation.redirectUri).search;
  return withQuery(
    authorisation.redirectUri,
    queryOf(ctx, psuCorporateId === undefined ? SUCCESS_PRIVATE : SUCCESS_CORPORATE, params),
    query.length > 1 && switches.breaks(redirectDropsTppQuery),
  );
}

// The redirect after a failed SCA (Events, "After failed SCA").
defineFault<RedirectQuery>('failure-redirect-server-error-without-system', {
  description: 'the redirect after a failed SCA reports status 500 and leaves out system, the internal system that produced it',
  breaks: ['EVT-08'],
  alters: { route: FAILURE, when: always, apply: (query) => ({ ...without('system')(query), status: '500' }) },
});
defineFault<RedirectQuery>('failure-redirect-status-as-text', {
  description: 'the redirect after a failed SCA carries status as a reason phrase (Bad Request) instead of the HTTP status number',
  breaks: ['EVT-09'],
  alters: { route: FAILURE, when: always, apply: (query) => ({ ...query, status: 'Bad Request' }) },
});
defineFault<RedirectQuery>('failure-redirect-without-code', {
  description: 'the redirect after a failed SCA carries no code parameter',
  breaks: ['EVT-10'],
  alters: { route: FAILURE, when: always, apply: without('code') },
});
defineFault<RedirectQuery>('failure-redirect-without-message', {
  description: 'the redirect after a failed SCA carries no message parameter',
  breaks: ['EVT-11'],
  alters: { route: FAILURE, when: always, apply: without('message') },
});

/** The parameters of a redirect as its faults change them, in order. */
function queryOf(ctx: BankContext, redirect: string, params: RedirectQuery): [string, string][] {
  return Object.entries(applyBodyChanges(ctx.switches, redirect, params as JsonBody, REDIRECT_STATUS) as RedirectQuery);
}

/** Failed or cancelled SCA: the PSU goes back to the TPP with the error parameters (Events, "After failed SCA"). */
export function failureRedirect(ctx: BankContext, authorisation: Authorisation, status: number, code: ErrorCode, message: string): string {
  const { switches } = ctx;
  // An authorisation already finished stays as it finished (a used link opened again changes nothing).
  const finished = authorisation.status === 'FINALISED' || authorisation.status === 'FAILED';
  if (!finished) ctx.world.sca.fail(authorisation, { endSession: () => switches.breaks(abortedScaEndsSession) });
  return withQuery(authorisation.redirectUri, queryOf(ctx, FAILURE, { system: SYSTEM_NAME, status: String(status), code, message }));
}
