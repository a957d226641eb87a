// Whether an SCA is in force for a known PSU's account request: the SCA session of the
// request's TPP-Session-ID (specification, "SCA session": 1 hour, replaced by a newer
// completed one) and the 180-day renewal of consent access (Authentication 11, Limits).
//
// Sessions are judged on calls with the PSU present (PSU-IP-Address) under a TPP-Session-ID
// an SCA was completed under: once its hour has passed (401 SCA_EXPIRED) or a newer session
// replaced it, a new SCA is required. A TPP-Session-ID no SCA was completed under leaves it to
// the consent, as do calls without the PSU (they belong to no PSU session).
import type { FastifyRequest } from 'fastify';
import type { ChallengeReason } from '../state/sca.js';
import type { BankState } from '../state/bank.js';
import type { Consent } from '../state/consents.js';
import type { PsuContext } from '../state/customers.js';
import { defineFault } from '../faults.js';
import { header, tppOf } from './shared.js';

const consentNeverExpires = defineFault('consent-never-expires', {
  description: 'consent access is served after the 180-day SCA renewal period, with or without the PSU',
  breaks: ['SCA-09', 'LIM-07', 'LIM-06'],
});
const unattendedReadsIgnoreScaAge = defineFault('unattended-reads-ignore-sca-age', {
  description: 'transaction reads without PSU-IP-Address are served for an account whose last SCA is more than 180 days old',
  breaks: ['LIM-06'],
});
const consentExpiredCodeInvalid = defineFault('consent-expired-code-consent-invalid', {
  description: 'the 401 for account access after the 180-day renewal period says CONSENT_INVALID instead of CONSENT_EXPIRED',
  breaks: ['ERR-26'],
});

const SESSION_EXPIRED: ChallengeReason = { code: 'SCA_EXPIRED', message: 'The SCA session of this TPP-Session-ID has expired: a new SCA is required' };

/** The 401 that starts a new SCA for this PSU and context, with the reason when there is one. */
export type Challenge = (expectedCustomer: string, context: PsuContext, reason?: ChallengeReason) => Error;

/** The consent a known PSU's request is served under, or the 401 (thrown) that asks for a new SCA. */
export function consentInForce(bank: BankState, request: FastifyRequest, customerNumber: string, context: PsuContext, challenge: Challenge): Consent {
  const tppId = tppOf(request).id;
  const now = bank.clock.now();
  const psuPresent = header(request, 'psu-ip-address') !== undefined;
  if (psuPresent) {
    const session = bank.sca.sessionState(tppId, header(request, 'tpp-session-id') ?? '', customerNumber);
    if (session === 'expired') throw challenge(customerNumber, context, SESSION_EXPIRED);
    if (session === 'replaced') throw challenge(customerNumber, context);
  }
  const consent = bank.consents.current(tppId, customerNumber, context, now);
  if (consent !== undefined) return consent;
  const stale = bank.consents.stored(tppId, customerNumber, context);
  if (stale !== undefined) {
    const unattendedTransactions = !psuPresent && request.url.includes('/transactions');
    if (bank.faults.on(consentNeverExpires, tppId) || (unattendedTransactions && bank.faults.on(unattendedReadsIgnoreScaAge, tppId))) return stale;
    const code = bank.faults.on(consentExpiredCodeInvalid, tppId) ? 'CONSENT_INVALID' : 'CONSENT_EXPIRED';
    throw challenge(customerNumber, context, { code, message: 'The SCA for this consent is more than 180 days old: a new SCA is required' });
  }
  // No consent yet, or a corporate context not consented yet: a new consent flow.
  throw challenge(customerNumber, context);
}
