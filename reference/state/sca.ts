// SCA by redirect: authorisations (one per 401 that asked for SCA), the SCA
// sessions of the specification's state table, and the redirects back to the TPP.
//
// Session rules (specification, "SCA session"): a completed SCA makes its
// TPP-Session-ID valid for 1 hour for that TPP and PSU; a completed SCA under a new
// TPP-Session-ID replaces the old session; a failed or aborted one leaves it alone.
// A valid session spares the PSU the login step of a new authorisation.
import { randomUUID } from 'node:crypto';
import { errorBody, ScaRequired, SYSTEM_NAME, type ErrorCode } from '../errors.js';
import { defineFault, type Faults } from '../faults.js';
import type { TestClock } from './clock.js';
import type { PsuContext } from './customers.js';
import type { PsuDirectory } from './psu-ids.js';

const noScaRedirect = defineFault('no-sca-redirect', {
  description: 'the 401 for a request that needs SCA is an error body without the scaRedirect link',
  breaks: ['SCA-10', 'END-10'],
});
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

export const SCA_SESSION_SECONDS = 3600;
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
}

interface Session {
  tppSessionId: string;
  validUntil: number;
}

export class ScaService {
  private readonly authorisations = new Map<string, Authorisation>();
  private readonly sessions = new Map<string, Session>();

  constructor(
    private readonly clock: TestClock,
    private readonly psuIds: PsuDirectory,
    private readonly faults: Faults,
    private readonly baseUrl: () => string,
  ) {}

  /** Starts an authorisation and returns the 401 that sends the PSU to it. */
  challenge(request: ChallengeRequest): ScaRequired {
    const now = this.clock.now();
    this.prune(now);
    const authorisation: Authorisation = { id: randomUUID(), purpose: request.paymentIds ? 'payment' : 'account-access', createdAt: now, status: 'RECEIVED', failedLogins: 0, ...request };
    this.authorisations.set(authorisation.id, authorisation);
    const tppId = request.tppId;
    if (this.faults.on(noScaRedirect, tppId)) return new ScaRequired(errorBody(this.faults, tppId, 401, 'CONSENT_INVALID', 'No consent for this PSU'));
    const base = this.faults.on(scaRedirectOverHttp, tppId) ? this.baseUrl().replace(/^https:/, 'http:') : this.baseUrl();
    const href = `${base}/sca/${authorisation.id}`;
    const scaRedirect = this.faults.on(scaRedirectWithoutVerbs, tppId) ? { href } : { href, verbs: ['GET'] };
    return new ScaRequired({ _links: { scaRedirect } }, authorisation.id);
  }

  /** Any authorisation still remembered, whatever its status (the authorisation status resource). */
  find(id: string): Authorisation | undefined {
    return this.authorisations.get(id);
  }

  /** A pending authorisation, or undefined when unknown or already finished. */
  pending(id: string): Authorisation | undefined {
    const authorisation = this.authorisations.get(id);
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
    this.sessions.set(`${authorisation.tppId}\n${customerNumber}`, {
      tppSessionId: authorisation.tppSessionId,
      validUntil: this.clock.now().getTime() + SCA_SESSION_SECONDS * 1000,
    });
    const tppId = authorisation.tppId;
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

  /** Failed or cancelled SCA: returns the redirect carrying the error (Events, "After failed SCA"). */
  fail(authorisation: Authorisation, status: number, code: ErrorCode, message: string): string {
    authorisation.status = 'FAILED';
    return withQuery(authorisation.redirectUri, [
      ['system', SYSTEM_NAME],
      ['status', String(status)],
      ['code', code],
      ['message', message],
    ]);
  }

  clear(): void {
    this.authorisations.clear();
    this.sessions.clear();
  }

  /** Forgets authorisations nobody can use any more, so the map does not grow without bound. */
  private prunedAt = 0;

  /** At most once a second: a full pass on every 401 made each answer cost as much as the authorisations kept. */
  private prune(now: Date): void {
    if (Math.abs(now.getTime() - this.prunedAt) < 1000) return;
    this.prunedAt = now.getTime();
    for (const [id, a] of this.authorisations) {
      if (now.getTime() - a.createdAt.getTime() > 2 * AUTHORISATION_SECONDS * 1000) this.authorisations.delete(id);
    }
  }
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
