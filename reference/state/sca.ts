// SCA by redirect: authorisations (one per 401 that asked for SCA), the SCA
// sessions of the specification's state table, and the redirects back to the TPP.
//
// Session rules (specification, "SCA session"): a completed SCA makes its
// TPP-Session-ID valid for 1 hour for that TPP and PSU; a completed SCA under a new
// TPP-Session-ID replaces the old session; a failed or aborted one leaves it alone.
// A valid session spares the PSU the login step of a new authorisation.
import { randomUUID } from 'node:crypto';
import { errorBody, ScaRequired, SYSTEM_NAME, type ErrorCode } from '../errors.js';
import { defineFault, type Fault, type Faults } from '../faults.js';
import type { TestClock } from './clock.js';
import { contextKey, type PsuContext } from './customers.js';
import { BoundedStore, textBytes, tppOfKey } from './bounded-store.js';
import type { PsuDirectory } from './psu-ids.js';
import { DEFAULT_STORE_BOUNDS, type StoreBoundsConfig } from './store-bounds.js';

const noScaRedirect = defineFault('no-sca-redirect', {
  description: 'the 401 for a request that needs SCA is an error body without the scaRedirect link',
  breaks: ['SCA-10', 'END-10', 'SES-01', 'SCA-02'],
});
const resourceChallengeWithoutLink = defineFault('resource-challenge-without-link', {
  description: 'the 401 for a read of one account or card account (its details, balances, transactions) without an identified PSU has no scaRedirect link',
  breaks: ['SCA-02'],
});
/** The paths of one account's or card account's resources, as opposed to the lists. */
const ONE_ACCOUNT = /^\/v1\/(?:card-)?accounts\/[^/?]+/;
const scaRedirectWithoutVerbs = defineFault('sca-redirect-without-verbs', {
  description: 'the scaRedirect link has no verbs',
  breaks: ['MSG-06'],
});
const scaRedirectOverHttp = defineFault('sca-redirect-over-http', {
  description: 'the scaRedirect href is a plain http:// address',
  breaks: ['SCA-01'],
});
const redirectDropsTppSessionId = defineFault('redirect-drops-tpp-session-id', {
  description: 'the redirect after successful SCA omits tpp-session-id',
  breaks: ['EVT-06', 'PSU-09'],
});
const redirectDropsContext = defineFault('redirect-drops-context', {
  description: 'the redirect after successful SCA omits context',
  breaks: ['EVT-07'],
});
const redirectDropsPsuId = defineFault('redirect-drops-psu-id', {
  description: 'the redirect after successful SCA omits psu-id',
  breaks: ['SCA-12', 'PSU-04', 'EVT-03', 'PSU-01'],
});
const redirectDropsTppQuery = defineFault('redirect-drops-tpp-query', {
  description: 'the redirect after SCA replaces the query the TPP put in TPP-Redirect-URI instead of adding to it',
  breaks: ['EVT-02'],
});
const corporateIdInPrivateContext = defineFault('corporate-id-in-private-context', {
  description: 'the redirect after SCA in private context carries a psu-corporate-id',
  breaks: ['EVT-05'],
});
const redirectDropsCorporateId = defineFault('redirect-drops-corporate-id', {
  description: 'the redirect after SCA in corporate context omits psu-corporate-id',
  breaks: ['EVT-04', 'PSU-08', 'SCA-15'],
});

// The session table (specification, "SCA session"), as a TPP sees it on PSU-present calls.
const sessionNeverExpires = defineFault('session-never-expires', {
  description: 'an SCA session stays valid after its hour: calls under its TPP-Session-ID keep being served without a new SCA',
  breaks: ['SES-04', 'LIM-02'],
});
const sessionNotKept = defineFault('session-not-kept', {
  description: 'a completed SCA opens no session: the next PSU-present call under its TPP-Session-ID asks for SCA again at once',
  breaks: ['SES-02', 'SCA-06', 'PSU-10'],
});
const expiredSessionNotRenewed = defineFault('expired-session-not-renewed', {
  description: 'a new SCA under a TPP-Session-ID whose hour has passed does not renew it: calls under it stay refused',
  breaks: ['SCA-08'],
});
const expiredSessionCodeConsentInvalid = defineFault('expired-session-code-consent-invalid', {
  description: 'the 401 for a call in an expired SCA session says CONSENT_INVALID instead of SCA_EXPIRED',
  breaks: ['ERR-19'],
});
const newSessionKeepsOld = defineFault('new-session-keeps-old', {
  description: 'a completed SCA under a new TPP-Session-ID leaves the old session valid instead of invalidating it',
  breaks: ['SES-05', 'PSU-10'],
});
const abortedScaEndsSession = defineFault('aborted-sca-ends-session', {
  description: 'an SCA the PSU cancels after logging in under a new TPP-Session-ID ends the PSU\'s valid session',
  breaks: ['SES-06'],
});

// The redirect after a failed SCA (Events, "After failed SCA").
const failureStatusAsText = defineFault('failure-redirect-status-as-text', {
  description: 'the redirect after a failed SCA carries status as a reason phrase (Bad Request) instead of the HTTP status number',
  breaks: ['EVT-09'],
});
const failureWithoutCode = defineFault('failure-redirect-without-code', {
  description: 'the redirect after a failed SCA carries no code parameter',
  breaks: ['EVT-10'],
});
const failureWithoutMessage = defineFault('failure-redirect-without-message', {
  description: 'the redirect after a failed SCA carries no message parameter',
  breaks: ['EVT-11'],
});
const failureServerErrorWithoutSystem = defineFault('failure-redirect-server-error-without-system', {
  description: 'the redirect after a failed SCA reports status 500 and leaves out system, the internal system that produced it',
  breaks: ['EVT-08'],
});

export const SCA_SESSION_SECONDS = 3600;
/** How long a 401 repeats the link of an earlier one nobody opened: well within the hour the PSU has to finish. */
const REPEAT_UNOPENED_SECONDS = 300;
/** How long a PSU has to finish an authorisation once the TPP received the link. */
export const AUTHORISATION_SECONDS = 3600;

export type ScaStatus = 'RECEIVED' | 'PSU_AUTHENTICATED' | 'FINALISED' | 'FAILED';

export interface Authorisation {
  id: string;
  tppId: string;
  tppName: string;
  tppSessionId: string;
  redirectUri: string;
  /** What the PSU is asked to authorise. */
  purpose: 'account-access' | 'payment';
  /** For a payment (or a signing basket of payments): what the PSU confirms, with dynamic linking. */
  paymentIds?: string[];
  createdAt: Date;
  /** The PSU the TPP named with PSU-ID, if any. */
  expectedCustomer?: string;
  /** The context the TPP asked for, pre-selected on the context page. */
  requestedContext?: PsuContext;
  status: ScaStatus;
  failedLogins: number;
  /** Set at login. */
  customerNumber?: string;
  /** Set when chosen (or implied, for a PSU without agreements). */
  context?: PsuContext;
}

export interface ChallengeRequest {
  tppId: string;
  tppName: string;
  tppSessionId: string;
  redirectUri: string;
  expectedCustomer?: string;
  requestedContext?: PsuContext;
  /** A payment authorisation (dynamic linking): never spared by a session. */
  paymentIds?: string[];
  /** The path of the request that needs SCA. */
  path?: string;
}

interface Session {
  tppSessionId: string;
  validUntil: number;
}

/** Where a TPP-Session-ID stands for a PSU (specification, "SCA session"). */
export type SessionState =
  /** no SCA was completed under it for this PSU: the consent alone decides */
  | 'none'
  | 'valid'
  /** its hour has passed: a new SCA is required */
  | 'expired'
  /** a completed SCA under another TPP-Session-ID replaced it */
  | 'replaced';

/** Why a 401 asks for SCA again, when it is more than "no SCA yet". */
export interface ChallengeReason {
  code: ErrorCode;
  message: string;
}

export class ScaService {
  // Bounded per TPP and overall (store-bounds.ts), besides the pruning of old authorisations.
  private readonly authorisations: BoundedStore<string, Authorisation>;
  /** Account-access authorisations whose link nobody has opened yet, by what was asked (unopenedKey). */
  private readonly unopened: BoundedStore<string, Authorisation>;
  /** The PSU's current session, by TPP and PSU: one at a time (a new completed SCA replaces it). */
  private readonly sessions: BoundedStore<string, Session>;
  /** Every TPP-Session-ID an SCA was completed under, by TPP and id: its PSU, so a replaced or expired one is told from an unknown one. */
  private readonly sessionPsus: BoundedStore<string, string>;

  constructor(
    private readonly clock: TestClock,
    private readonly psuIds: PsuDirectory,
    private readonly faults: Faults,
    private readonly baseUrl: () => string,
    bounds: Pick<StoreBoundsConfig, 'authorisations' | 'sessions'> = DEFAULT_STORE_BOUNDS,
  ) {
    const authorisationSize = (a: Authorisation) => textBytes(a.redirectUri, a.tppSessionId, a.tppName);
    this.authorisations = new BoundedStore({ ...bounds.authorisations, tppOf: (a) => a.tppId, sizeOf: authorisationSize });
    this.unopened = new BoundedStore({ ...bounds.authorisations, tppOf: (a) => a.tppId, sizeOf: authorisationSize });
    this.sessions = new BoundedStore<string, Session>({ ...bounds.sessions, tppOf: tppOfKey, sizeOf: (session) => textBytes(session.tppSessionId) });
    this.sessionPsus = new BoundedStore<string, string>({ ...bounds.sessions, tppOf: tppOfKey, sizeOf: (customerNumber) => textBytes(customerNumber) });
  }

  /** Starts an authorisation (or repeats a pending one) and returns the 401 that sends the PSU to it (with an error code saying why, when there is a reason). */
  challenge(request: ChallengeRequest, reason?: ChallengeReason): ScaRequired {
    const now = this.clock.now();
    this.prune(now);
    const authorisation = this.unopenedFor(request, now) ?? this.start(request, now);
    const tppId = request.tppId;
    const bare = this.faults.on(noScaRedirect, tppId) || (ONE_ACCOUNT.test(request.path ?? '') && this.faults.on(resourceChallengeWithoutLink, tppId));
    if (bare) return new ScaRequired(errorBody(this.faults, tppId, 401, 'CONSENT_INVALID', 'No consent for this PSU'));
    const base = this.faults.on(scaRedirectOverHttp, tppId) ? this.baseUrl().replace(/^https:/, 'http:') : this.baseUrl();
    const href = `${base}/sca/${authorisation.id}`;
    const scaRedirect = this.faults.on(scaRedirectWithoutVerbs, tppId) ? { href } : { href, verbs: ['GET'] };
    const why = reason === undefined ? {} : errorBody(this.faults, tppId, 401, this.reasonCode(reason, tppId), reason.message);
    return new ScaRequired({ ...why, _links: { scaRedirect } }, authorisation.id);
  }

  private reasonCode(reason: ChallengeReason, tppId: string): ErrorCode {
    return reason.code === 'SCA_EXPIRED' && this.faults.on(expiredSessionCodeConsentInvalid, tppId) ? 'CONSENT_INVALID' : reason.code;
  }

  /**
   * Where this TPP-Session-ID stands for this PSU: valid within the hour after the SCA completed under it,
   * then expired; replaced once an SCA under another id completed; 'none' when no SCA completed under it.
   */
  sessionState(tppId: string, tppSessionId: string, customerNumber: string): SessionState {
    if (this.sessionPsus.get(`${tppId}\n${tppSessionId}`) !== customerNumber) return 'none';
    const current = this.sessions.get(`${tppId}\n${customerNumber}`);
    if (current === undefined) return 'replaced';
    if (current.tppSessionId !== tppSessionId) return this.faults.on(newSessionKeepsOld, tppId) ? 'valid' : 'replaced';
    if (this.faults.on(sessionNotKept, tppId)) return 'expired';
    return current.validUntil < this.clock.now().getTime() && !this.faults.on(sessionNeverExpires, tppId) ? 'expired' : 'valid';
  }

  private start(request: ChallengeRequest, now: Date): Authorisation {
    const { path: _path, ...asked } = request;
    const authorisation: Authorisation = { id: randomUUID(), purpose: request.paymentIds ? 'payment' : 'account-access', createdAt: now, status: 'RECEIVED', failedLogins: 0, ...asked };
    this.authorisations.set(authorisation.id, authorisation);
    if (authorisation.purpose === 'account-access') this.unopened.set(unopenedKey(request), authorisation);
    return authorisation;
  }

  /**
   * The account-access authorisation a request like this one already started (same TPP, session, redirect
   * address, PSU and context), while nobody has opened its link and it is young: the session is still
   * "SCA pending", and a TPP that calls again gets the same link. Storing one per 401 made every answer pay
   * for all that were never followed (a TPP's first calls, a bench).
   */
  private unopenedFor(request: ChallengeRequest, now: Date): Authorisation | undefined {
    if (request.paymentIds) return undefined; // dynamic linking: one authorisation per payment
    const pending = this.unopened.get(unopenedKey(request));
    return pending && pending.status === 'RECEIVED' && now.getTime() - pending.createdAt.getTime() < REPEAT_UNOPENED_SECONDS * 1000 ? pending : undefined;
  }

  /** Any authorisation still remembered, whatever its status (the authorisation status resource). */
  find(id: string): Authorisation | undefined {
    return this.authorisations.get(id);
  }

  /** A pending authorisation, or undefined when unknown or already finished. Its link is now opened: no later 401 repeats it. */
  pending(id: string): Authorisation | undefined {
    const authorisation = this.authorisations.get(id);
    if (authorisation?.purpose === 'account-access') this.unopened.delete(unopenedKey(authorisation));
    return authorisation && (authorisation.status === 'RECEIVED' || authorisation.status === 'PSU_AUTHENTICATED') ? authorisation : undefined;
  }

  isExpired(authorisation: Authorisation): boolean {
    return this.clock.now().getTime() - authorisation.createdAt.getTime() > AUTHORISATION_SECONDS * 1000;
  }

  /**
   * The PSU whose valid session covers this authorisation's TPP-Session-ID, if any:
   * that PSU need not log in again.
   */
  sessionCustomer(authorisation: Authorisation): string | undefined {
    const customerNumber = authorisation.expectedCustomer;
    // Authentication 10: a session does not cover SCA with dynamic linking (payments).
    if (authorisation.status !== 'RECEIVED' || customerNumber === undefined || authorisation.purpose === 'payment') return undefined;
    const session = this.sessions.get(`${authorisation.tppId}\n${customerNumber}`);
    if (session?.tppSessionId !== authorisation.tppSessionId || session.validUntil < this.clock.now().getTime()) return undefined;
    return customerNumber;
  }

  authenticated(authorisation: Authorisation, customerNumber: string): void {
    authorisation.status = 'PSU_AUTHENTICATED';
    authorisation.customerNumber = customerNumber;
  }

  /** Successful SCA: opens the session and returns the redirect to the TPP (Events, "After successful SCA"). */
  complete(authorisation: Authorisation, customerNumber: string, context: PsuContext, psuCorporateId?: string): string {
    authorisation.status = 'FINALISED';
    const tppId = authorisation.tppId;
    // Authentication 10: an SCA with dynamic linking (a payment) is for that payment alone and opens no session.
    if (authorisation.purpose === 'account-access') this.openSession(tppId, authorisation.tppSessionId, customerNumber);
    const psuId = this.psuIds.issue(tppId, customerNumber);
    const params: [string, string][] = this.faults.on(redirectDropsPsuId, tppId) ? [] : [['psu-id', psuId]];
    if (psuCorporateId !== undefined) {
      if (!this.faults.on(redirectDropsCorporateId, tppId)) params.push(['psu-corporate-id', psuCorporateId]);
    }
    else if (this.faults.on(corporateIdInPrivateContext, tppId)) params.push(['psu-corporate-id', randomUUID()]);
    if (!this.faults.on(redirectDropsTppSessionId, tppId)) params.push(['tpp-session-id', authorisation.tppSessionId]);
    if (!this.faults.on(redirectDropsContext, tppId)) params.push(['context', context.kind]);
    return withQuery(authorisation.redirectUri, params, this.faults.on(redirectDropsTppQuery, tppId));
  }

  private openSession(tppId: string, tppSessionId: string, customerNumber: string): void {
    const renewing = this.sessionState(tppId, tppSessionId, customerNumber) === 'expired';
    if (renewing && this.faults.on(expiredSessionNotRenewed, tppId)) return;
    this.sessions.set(`${tppId}\n${customerNumber}`, { tppSessionId, validUntil: this.clock.now().getTime() + SCA_SESSION_SECONDS * 1000 });
    this.sessionPsus.set(`${tppId}\n${tppSessionId}`, customerNumber);
  }

  /** Failed or cancelled SCA: returns the redirect carrying the error (Events, "After failed SCA"). A session in force stays. */
  fail(authorisation: Authorisation, status: number, code: ErrorCode, message: string): string {
    authorisation.status = 'FAILED';
    const { tppId, customerNumber } = authorisation;
    if (customerNumber !== undefined && this.faults.on(abortedScaEndsSession, tppId)) this.sessions.delete(`${tppId}\n${customerNumber}`);
    const on = (fault: Fault) => this.faults.on(fault, tppId);
    const serverError = on(failureServerErrorWithoutSystem);
    const params: [string, string][] = serverError ? [] : [['system', SYSTEM_NAME]];
    params.push(['status', on(failureStatusAsText) ? 'Bad Request' : String(serverError ? 500 : status)]);
    if (!on(failureWithoutCode)) params.push(['code', code]);
    if (!on(failureWithoutMessage)) params.push(['message', message]);
    return withQuery(authorisation.redirectUri, params);
  }

  clear(): void {
    this.authorisations.clear();
    this.unopened.clear();
    this.sessions.clear();
    this.sessionPsus.clear();
  }

  /** Forgets authorisations nobody can use any more, so the map does not grow without bound. */
  private prunedAt = 0;

  /** At most once a second: a full pass on every 401 made each answer cost as much as the authorisations kept. */
  private prune(now: Date): void {
    if (Math.abs(now.getTime() - this.prunedAt) < 1000) return;
    this.prunedAt = now.getTime();
    for (const [id, a] of [...this.authorisations]) {
      if (now.getTime() - a.createdAt.getTime() > 2 * AUTHORISATION_SECONDS * 1000) this.authorisations.delete(id);
    }
    for (const [key, a] of [...this.unopened]) {
      if (now.getTime() - a.createdAt.getTime() >= REPEAT_UNOPENED_SECONDS * 1000) this.unopened.delete(key);
    }
  }
}

/** What makes two requests ask for the same SCA: the TPP, its session and redirect address, the PSU and the context. */
function unopenedKey(asked: Pick<ChallengeRequest, 'tppId' | 'tppSessionId' | 'redirectUri' | 'expectedCustomer' | 'requestedContext'>): string {
  return [asked.tppId, asked.tppSessionId, asked.redirectUri, asked.expectedCustomer ?? '', asked.requestedContext ? contextKey(asked.requestedContext) : ''].join('\n');
}

/**
 * Appends parameters to the TPP's redirect address, keeping its own query and
 * fragment. Values are percent-encoded (a space is %20, never '+').
 */
export function withQuery(address: string, params: [string, string][], replaceQuery = false): string {
  const url = new URL(address);
  const added = params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  url.search = url.search.length > 1 && !replaceQuery ? `${url.search.slice(1)}&${added}` : added;
  return url.toString();
}
