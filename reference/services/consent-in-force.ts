// Whether an SCA is in force for a known PSU's account request: the SCA session of the
// request's TPP-Session-ID (specification, "SCA session": 1 hour, replaced by a newer
// completed one) and the 180-day renewal of consent access (Authentication 11, Limits).
//
// Sessions are judged on calls with the PSU present (PSU-IP-Address) under a TPP-Session-ID
// an SCA was completed under: once its hour has passed (401 SCA_EXPIRED) or a newer session
// replaced it, a new SCA is required. A TPP-Session-ID no SCA was completed under leaves it to
// the consent, as do calls without the PSU (they belong to no PSU session). A session in force
// also spares the PSU the login of a new SCA under its TPP-Session-ID (sessionSparingLogin).
// The other readings of the table ("prevents new SCA prompts", Authentication 10) are variants.
import type { Authorisation, ChallengeReason, SessionState } from '../state/sca-state.js';
import type { Consent } from '../state/consent-store.js';
import { PRIVATE, type PsuContext } from '../state/sandbox-data.js';
import { defineFault, defineVariant, type TppSwitches } from '../switches.js';
import { header, psuPresent, tppOf, type BankContext } from '../http/bank-context.js';

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

const sessionNeverExpires = defineFault('session-never-expires', {
  description: 'an SCA session stays valid after its hour: calls under its TPP-Session-ID keep being served without a new SCA',
  breaks: ['SES-04', 'LIM-02'],
});
const sessionNotKept = defineFault('session-not-kept', {
  description: 'a completed SCA opens no session: the next PSU-present call under its TPP-Session-ID asks for SCA again at once',
  breaks: ['SES-02', 'SCA-06', 'PSU-10'],
});
const sessionShortened = defineFault('sca-session-30-minutes', {
  description: 'an SCA session ends 30 minutes after the SCA: a PSU-present call under it later in the hour asks for SCA again',
  breaks: ['SES-07'],
});
const SHORTENED_SESSION_MS = 30 * 60 * 1000;
const newSessionKeepsOld = defineFault('new-session-keeps-old', {
  description: 'a completed SCA under a new TPP-Session-ID leaves the old session valid instead of invalidating it',
  breaks: ['SES-05', 'PSU-10'],
});
const corporateContextSharesConsent = defineFault('corporate-context-shares-consent', {
  description:
    "a corporate context the PSU never consented to is served under the PSU's private consent instead of starting a new consent flow",
  breaks: ['SCA-16'],
});

const promptsOnly = defineVariant('session-governs-sca-prompts-only', {
  description:
    "a present PSU's reads are served from the consent whatever TPP-Session-ID they carry, an expired or invalidated session's too: a session only spares the PSU's login in a new SCA under it",
  allowedBy:
    'Authentication 10: "within one session an SCA lasts up to 1 hour and prevents new SCA prompts in that window"; Authentication 11 and Limits: SCA for consent access is renewed every 180 days',
  source: 'Specification, Authentication 10 and 11; Limits > SCA renewal',
  excludes: ['unknown-session-asks-for-sca'],
});
const unknownSessionAsksForSca = defineVariant('unknown-session-asks-for-sca', {
  description:
    "a present PSU's read under a TPP-Session-ID no SCA of that PSU was completed under asks for SCA (401 with scaRedirect) instead of being served from the consent",
  allowedBy:
    'SCA session table: "none | request requiring SCA | no valid SCA | SCA pending | response carries scaRedirect"; TPP-Session-ID "governs the SCA session"',
  source: 'Specification, States > SCA session; Resources > Identifiers of the PSU',
});
const invalidatedServed = defineVariant('invalidated-session-served-from-consent', {
  description:
    "a present PSU's read under a TPP-Session-ID that a newer completed SCA invalidated is served from the consent; the old session no longer spares the PSU's login",
  allowedBy:
    'SCA session table: "a new TPP-Session-ID is used before expiry, SCA completed | new session valid | the old session is invalidated", which invalidates the session, not the consent (Authentication 11: renewed every 180 days)',
  source: 'Specification, States > SCA session; Authentication 11',
});

/** Where a TPP-Session-ID stands for this PSU, as this TPP meets the bank (faults bend the session table). */
function sessionState(
  { world, switches }: Pick<BankContext, 'world' | 'switches'>,
  tppId: string,
  tppSessionId: string,
  customerNumber: string,
): SessionState {
  const shortened = switches.breaks(sessionShortened) ? SHORTENED_SESSION_MS : undefined;
  const state = world.sca.sessionState(tppId, tppSessionId, customerNumber, shortened);
  if (state === 'replaced' && switches.breaks(newSessionKeepsOld)) return 'valid';
  if (state === 'valid' && switches.breaks(sessionNotKept)) return 'expired';
  if (state === 'expired' && switches.breaks(sessionNeverExpires)) return 'valid';
  return state;
}

/**
 * The PSU whose session in force under the authorisation's TPP-Session-ID spares the login of this new SCA, if
 * any: the PSU the TPP named (PSU-ID), never one the bank guesses from the session. Authentication 10: a session
 * does not cover SCA with dynamic linking (payments).
 */
export function sessionSparingLogin(ctx: Pick<BankContext, 'world' | 'switches'>, authorisation: Authorisation): string | undefined {
  const { tppId, tppSessionId, expectedCustomer } = authorisation;
  if (authorisation.status !== 'RECEIVED' || authorisation.purpose === 'payment' || expectedCustomer === undefined) return undefined;
  return sessionState(ctx, tppId, tppSessionId, expectedCustomer) === 'valid' ? expectedCustomer : undefined;
}

/** Whether a read under a session no longer in force is served from the consent all the same (a reading of the table). */
function consentServesLapsedSession(switches: TppSwitches, state: 'expired' | 'replaced'): boolean {
  return switches.reads(promptsOnly) || (state === 'replaced' && switches.reads(invalidatedServed));
}

const SESSION_EXPIRED: ChallengeReason = {
  code: 'SCA_EXPIRED',
  message: 'The SCA session of this TPP-Session-ID has expired: a new SCA is required',
};

/** The 401 that starts a new SCA for this PSU and context, with the reason when there is one. */
export type Challenge = (expectedCustomer: string, context: PsuContext, reason?: ChallengeReason) => Error;

/** The consent a known PSU's request is served under, or the 401 (thrown) that asks for a new SCA. */
export function consentInForce(ctx: BankContext, customerNumber: string, context: PsuContext, challenge: Challenge): Consent {
  const { world } = ctx;
  const tppId = tppOf(ctx).id;
  const now = world.clock.now();
  const present = psuPresent(ctx);
  if (present) {
    const session = sessionState(ctx, tppId, header(ctx, 'tpp-session-id') ?? '', customerNumber);
    if (session === 'expired' && !consentServesLapsedSession(ctx.switches, session))
      throw challenge(customerNumber, context, SESSION_EXPIRED);
    if (session === 'replaced' && !consentServesLapsedSession(ctx.switches, session)) throw challenge(customerNumber, context);
    if (session === 'none' && ctx.switches.reads(unknownSessionAsksForSca)) throw challenge(customerNumber, context);
  }
  const consent = world.consents.current(tppId, customerNumber, context, now);
  if (consent !== undefined) return consent;
  const stale = world.consents.stored(tppId, customerNumber, context);
  if (stale === undefined && context.kind === 'CORPORATE' && ctx.switches.breaks(corporateContextSharesConsent)) {
    const shared = world.consents.current(tppId, customerNumber, PRIVATE, now);
    if (shared !== undefined) return shared;
  }
  if (stale !== undefined) {
    const unattendedTransactions = !present && ctx.url.includes('/transactions');
    if (ctx.switches.breaks(consentNeverExpires) || (unattendedTransactions && ctx.switches.breaks(unattendedReadsIgnoreScaAge)))
      return stale;
    const code = ctx.switches.breaks(consentExpiredCodeInvalid) ? 'CONSENT_INVALID' : 'CONSENT_EXPIRED';
    throw challenge(customerNumber, context, {
      code,
      message: 'The SCA for this consent is more than 180 days old: a new SCA is required',
    });
  }
  // No consent yet, or a corporate context not consented yet: a new consent flow.
  throw challenge(customerNumber, context);
}
