// SCA redirect flows and the SCA session table (TPP-Session-ID).
//
// A flow is created when a response carries `scaRedirect`; the PSU then walks the pages of
// sca-pages.ts. A successful flow makes the session of its TPP-Session-ID valid for 1 hour and
// invalidates the other sessions of the same PSU at this TPP; a failed or aborted flow leaves
// existing sessions as they are.

import { randomBytes, randomUUID } from 'node:crypto';
import type { Bank } from './bank.js';
import { HOUR_MS } from './clock.js';
import {
  LIMITS,
  agreementIdOf,
  boundedSet,
  type Authorisation,
  type ContextKey,
  type ScaSession,
  type ScaStatus,
  type World,
} from './model.js';

export type FlowKind = 'consent' | 'user' | 'payment' | 'basket';
type FlowStep = 'login' | 'context' | 'consent' | 'payment' | 'basket' | 'done';

const SESSION_MS = HOUR_MS;
/** How long a PSU has to complete a flow once its link was handed out. */
const FLOW_MS = HOUR_MS;

export interface ScaFlow {
  id: string;
  world: World;
  kind: FlowKind;
  tppSessionId: string;
  redirectUri: string;
  thirdParty: string;
  expectedCustomer: string | undefined;
  fixedContext: ContextKey | undefined;
  createdAt: number;
  expiresAt: number;
  step: FlowStep;
  customer: string | undefined;
  contextKey: ContextKey | undefined;
  loginFailures: number;
  paymentId: string | undefined;
  basketId: string | undefined;
  consentId: string | undefined;
  authorisation: Authorisation | undefined;
  pageError: string | undefined;
  finalRedirect: string | undefined;
}

export interface FlowOptions {
  kind: FlowKind;
  tppSessionId: string;
  redirectUri: string;
  thirdParty: string;
  expectedCustomer?: string;
  fixedContext?: ContextKey;
  paymentId?: string;
  basketId?: string;
  consentId?: string;
  authorisation?: Authorisation;
}

export function newAuthorisation(world: World, scaStatus: ScaStatus = 'RECEIVED'): Authorisation {
  return { authorisationId: randomUUID(), scaStatus, flowId: undefined, createdAt: world.now() };
}

export function createFlow(bank: Bank, world: World, o: FlowOptions): ScaFlow {
  const now = world.now();
  const flow: ScaFlow = {
    id: randomBytes(18).toString('base64url'),
    world,
    kind: o.kind,
    tppSessionId: o.tppSessionId,
    redirectUri: o.redirectUri,
    thirdParty: o.thirdParty,
    expectedCustomer: o.expectedCustomer,
    fixedContext: o.fixedContext,
    createdAt: now,
    expiresAt: now + FLOW_MS,
    step: 'login',
    customer: undefined,
    contextKey: undefined,
    loginFailures: 0,
    paymentId: o.paymentId,
    basketId: o.basketId,
    consentId: o.consentId,
    authorisation: o.authorisation,
    pageError: undefined,
    finalRedirect: undefined,
  };
  if (o.authorisation) o.authorisation.flowId = flow.id;
  bank.addFlow(flow);
  return flow;
}

type SessionState = 'valid' | 'none' | 'expired' | 'invalid';

/** The state of the SCA session of a TPP-Session-ID for a PSU. */
export function sessionState(world: World, tppSessionId: string | undefined, customerNumber: string): SessionState {
  if (tppSessionId === undefined) return 'none';
  const s = world.sessions.get(tppSessionId);
  if (!s) return 'none';
  if (s.customerNumber !== customerNumber || s.invalidated) return 'invalid';
  if (world.now() >= s.validUntil) return 'expired';
  return 'valid';
}

export function validSession(world: World, tppSessionId: string | undefined): ScaSession | undefined {
  if (tppSessionId === undefined) return undefined;
  const s = world.sessions.get(tppSessionId);
  if (!s || s.invalidated || world.now() >= s.validUntil) return undefined;
  return s;
}

/** A completed SCA: this TPP-Session-ID becomes valid for 1 hour, the PSU's other sessions end. */
export function establishSession(world: World, tppSessionId: string, customerNumber: string, contextKey: ContextKey): void {
  for (const s of world.sessions.values()) {
    if (s.customerNumber === customerNumber && s.tppSessionId !== tppSessionId) s.invalidated = true;
  }
  boundedSet(
    world.sessions,
    tppSessionId,
    { tppSessionId, customerNumber, contextKey, validUntil: world.now() + SESSION_MS, invalidated: false },
    LIMITS.sessions,
  );
}

/** Query of the redirect after a successful SCA (Events part). */
export function successParams(world: World, flow: ScaFlow): [string, string][] {
  const customer = flow.customer ?? '';
  const params: [string, string][] = [['psu-id', world.psuIdOf(customer)]];
  const agreementId = flow.contextKey ? agreementIdOf(flow.contextKey) : undefined;
  if (agreementId !== undefined) params.push(['psu-corporate-id', world.corporateIdOf(agreementId)]);
  params.push(['tpp-session-id', flow.tppSessionId]);
  params.push(['context', agreementId !== undefined ? 'CORPORATE' : 'PRIVATE']);
  return params;
}

export function errorParams(system: string, status: number, code: string, message: string): [string, string][] {
  return [
    ['system', system],
    ['status', String(status)],
    ['code', code],
    ['message', message],
  ];
}

/** The TPP-Redirect-URI with the parameters appended to its query (percent-encoded). */
export function redirectTo(base: string, params: [string, string][]): string {
  const u = new URL(base);
  const extra = params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  const existing = u.search.length > 1 ? u.search.slice(1) + '&' : '';
  u.search = '?' + existing + extra;
  return u.toString();
}
