// SCA by redirect: authorisations (one per 401 that asked for SCA), the SCA
// sessions of the specification's state table, and the redirects back to the TPP.
//
// Session rules (specification, "SCA session"): a completed SCA makes its
// TPP-Session-ID valid for 1 hour for that TPP and PSU; a completed SCA under a new
// TPP-Session-ID replaces the old session; a failed or aborted one leaves it alone.
// A valid session spares the PSU the login step of a new authorisation.
import { randomUUID } from 'node:crypto';
import type { ErrorCode } from '../bank-errors.js';
import type { TestClock } from './test-clock.js';
import { contextKey, type PsuContext } from './sandbox-data.js';
import { BoundedStore, textBytes, tppOfKey } from './bounded-store.js';
import { DEFAULT_STORE_BOUNDS, type StoreBoundsConfig } from './store-bounds.js';

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

export class ScaState {
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
    bounds: Pick<StoreBoundsConfig, 'authorisations' | 'sessions'> = DEFAULT_STORE_BOUNDS,
  ) {
    const authorisationSize = (a: Authorisation) => textBytes(a.redirectUri, a.tppSessionId, a.tppName);
    this.authorisations = new BoundedStore({ ...bounds.authorisations, tppOf: (a) => a.tppId, sizeOf: authorisationSize });
    this.unopened = new BoundedStore({ ...bounds.authorisations, tppOf: (a) => a.tppId, sizeOf: authorisationSize });
    this.sessions = new BoundedStore<string, Session>({
      ...bounds.sessions,
      tppOf: tppOfKey,
      sizeOf: (session) => textBytes(session.tppSessionId),
    });
    this.sessionPsus = new BoundedStore<string, string>({
      ...bounds.sessions,
      tppOf: tppOfKey,
      sizeOf: (customerNumber) => textBytes(customerNumber),
    });
  }

  /**
   * Starts an authorisation for a request that needs SCA, or repeats the pending one it already started (reference/services/sca-answers.ts
   * words the 401).
   */
  authorisationFor(request: ChallengeRequest): Authorisation {
    const now = this.clock.now();
    this.prune(now);
    return this.unopenedFor(request, now) ?? this.start(request, now);
  }

  /**
   * Where this TPP-Session-ID stands for this PSU: valid within the hour after the SCA completed under it,
   * then expired; replaced once an SCA under another id completed; 'none' when no SCA completed under it.
   */
  sessionState(tppId: string, tppSessionId: string, customerNumber: string, lengthMs = SCA_SESSION_SECONDS * 1000): SessionState {
    if (this.sessionPsus.get(`${tppId}\n${tppSessionId}`) !== customerNumber) return 'none';
    const current = this.sessions.get(`${tppId}\n${customerNumber}`);
    if (current === undefined) return 'replaced';
    if (current.tppSessionId !== tppSessionId) return 'replaced';
    // `lengthMs`: a session shorter than the hour (a fault), counted from the same completion.
    return current.validUntil - SCA_SESSION_SECONDS * 1000 + lengthMs < this.clock.now().getTime() ? 'expired' : 'valid';
  }

  private start(request: ChallengeRequest, now: Date): Authorisation {
    const authorisation: Authorisation = {
      id: randomUUID(),
      purpose: request.paymentIds ? 'payment' : 'account-access',
      createdAt: now,
      status: 'RECEIVED',
      failedLogins: 0,
      ...request,
    };
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
    return pending && pending.status === 'RECEIVED' && now.getTime() - pending.createdAt.getTime() < REPEAT_UNOPENED_SECONDS * 1000
      ? pending
      : undefined;
  }

  /** Any authorisation still remembered, whatever its status (the authorisation status resource). */
  find(id: string): Authorisation | undefined {
    return this.authorisations.get(id);
  }

  /** A pending authorisation, or undefined when unknown or already finished. Its link is now opened: no later 401 repeats it. */
  pending(id: string): Authorisation | undefined {
    const authorisation = this.authorisations.get(id);
    if (authorisation?.purpose === 'account-access') this.unopened.delete(unopenedKey(authorisation));
    return authorisation && (authorisation.status === 'RECEIVED' || authorisation.status === 'PSU_AUTHENTICATED')
      ? authorisation
      : undefined;
  }

  isExpired(authorisation: Authorisation): boolean {
    return this.clock.now().getTime() - authorisation.createdAt.getTime() > AUTHORISATION_SECONDS * 1000;
  }

  authenticated(authorisation: Authorisation, customerNumber: string): void {
    authorisation.status = 'PSU_AUTHENTICATED';
    authorisation.customerNumber = customerNumber;
  }

  /**
   * Successful SCA: an account-access SCA opens its session (Authentication 10: an SCA with dynamic linking,
   * a payment, is for that payment alone and opens none). `keepExpiredSession`: a session whose hour has
   * passed is not renewed by it. The redirect is worded by reference/services/sca-answers.ts.
   */
  complete(authorisation: Authorisation, customerNumber: string, options: { keepExpiredSession?: () => boolean } = {}): void {
    authorisation.status = 'FINALISED';
    if (authorisation.purpose !== 'account-access') return;
    const { tppId, tppSessionId } = authorisation;
    if (this.sessionState(tppId, tppSessionId, customerNumber) === 'expired' && options.keepExpiredSession?.()) return;
    this.sessions.set(`${tppId}\n${customerNumber}`, { tppSessionId, validUntil: this.clock.now().getTime() + SCA_SESSION_SECONDS * 1000 });
    this.sessionPsus.set(`${tppId}\n${tppSessionId}`, customerNumber);
  }

  /**
   * Failed or cancelled SCA: a session in force stays, unless `endSession` says otherwise. The redirect is worded by
   * reference/services/sca-answers.ts.
   */
  fail(authorisation: Authorisation, options: { endSession?: () => boolean } = {}): void {
    authorisation.status = 'FAILED';
    const { tppId, customerNumber } = authorisation;
    const session = `${tppId}\n${customerNumber}`;
    if (customerNumber !== undefined && this.sessions.has(session) && options.endSession?.()) this.sessions.delete(session);
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
function unopenedKey(
  asked: Pick<ChallengeRequest, 'tppId' | 'tppSessionId' | 'redirectUri' | 'expectedCustomer' | 'requestedContext'>,
): string {
  return [
    asked.tppId,
    asked.tppSessionId,
    asked.redirectUri,
    asked.expectedCustomer ?? '',
    asked.requestedContext ? contextKey(asked.requestedContext) : '',
  ].join('\n');
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
