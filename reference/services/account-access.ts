// Which accounts a request may see (Authentication items 9-14): the PSU it names (PSU-ID, or X-PSU-IDENTITY),
// the context it asks for (PSU-Context, PSU-CORPORATE-ID), and the consent in force for that PSU and context;
// else the 401 with an scaRedirect link that starts SCA to get one. The account and transaction routes both
// read accounts only through `psuAccess` and `pick`.
import { BankError } from '../bank-errors.js';
import { header, tppOf, type BankContext } from '../http/bank-context.js';
import { isNationalIdentityNumber, isUuid } from '../ids.js';
import type { Consent } from '../state/consent-store.js';
import { PRIVATE, type AnyAccount, type PsuContext, type StoredAccount, type StoredCardAccount } from '../state/sandbox-data.js';
import type { PsuIdLookup } from '../state/psu-directory.js';
import type { ChallengeReason } from '../state/sca-state.js';
import { defineFault, defineVariant } from '../switches.js';
import { consentInForce } from './consent-in-force.js';
import { readsPaymentHeaders } from './payment-headers.js';
import { resolvePsuId } from './psu-id-lookup.js';
import { scaChallenge } from './sca-answers.js';

const corporatePsuIdAloneReadAsPrivate = defineVariant('corporate-psu-id-alone-read-as-private', {
  description:
    'an account read with the PSU-ID of a PSU whose SCA ended in corporate context, and neither PSU-Context nor PSU-CORPORATE-ID, is a private request of that PSU (401 with scaRedirect for a private consent), not a corporate one refused with 400',
  allowedBy:
    'Authentication 13: "A corporate user request without PSU-CORPORATE-ID gets 400." What makes a request corporate is not said: a request that names no corporate context may be read as a private one of the same person',
  source: 'Specification, Authentication 13 and Errors rule 4',
});
// A bank that ignores PSU-CORPORATE-ID cannot tell a new corporate context: a PSU with a private consent asked
// for in one gets the private accounts, where Authentication 13 says "a new corporate context triggers a new
// consent flow" (SCA-16).
const corporateIdIgnored = defineFault('corporate-id-ignored', {
  description:
    "PSU-CORPORATE-ID is ignored: corporate calls are served as private ones, under the PSU's private consent when there is one, else with 401 and an scaRedirect",
  breaks: ['SCA-14', 'HDR-18', 'SCA-16'],
});
const unknownPsuIdServed = defineFault('unknown-psu-id-served', {
  description: 'a well-formed PSU-ID the bank never issued is answered 200 (with an empty account list) instead of a 4xx',
  // A psu-id issued to another TPP is one this TPP was never issued: it is answered 200 too (PSU-06).
  breaks: ['PSU-07', 'PSU-06'],
});
const unknownPsuIdAsFormatError = defineFault('unknown-psu-id-as-format-error', {
  description: 'a well-formed PSU-ID the bank never issued gets 400 FORMAT_ERROR instead of PSU_CREDENTIALS_INVALID (or a fresh SCA)',
  breaks: ['ERR-23'],
});
const psuIdentityOnPaymentsOnly = defineVariant('x-psu-identity-on-payments-only', {
  description:
    'X-PSU-IDENTITY is not read on account reads: a read that names the PSU with it alone is answered as one without a PSU (401 with scaRedirect)',
  allowedBy:
    'X-PSU-IDENTITY ("alternative to PSU-ID") is a row of the header table of payment initiation; no header set is shown for the account endpoints',
  source: 'Specification, Endpoints > POST /v1/payments/sepa-credit-transfers > Headers',
});
const psuIdentityFormUnchecked = defineFault('x-psu-identity-form-unchecked', {
  description: 'an X-PSU-IDENTITY that is not 11 digits is served (200, an empty account list)',
  breaks: ['HDR-17'],
});

// [sandbox] closed accounts (END-11).
const closedAccountsListed = defineFault('closed-accounts-listed', {
  description: 'consented accounts that were closed stay in the account lists (with status deleted)',
  breaks: ['END-11'],
});
const servedBeforeConsent = defineFault('accounts-served-before-consent', {
  description: "a known PSU's accounts are served before the PSU consented to any",
  breaks: ['GEN-08'],
});

const accountsIgnoreConsent = defineFault('accounts-ignore-consent', {
  description: 'account endpoints return all accounts of the PSU, not only the consented ones',
  breaks: ['SCA-19', 'END-09'],
});
const corporateContextShowsOtherAgreements = defineFault('corporate-context-shows-other-agreements', {
  description: 'in CORPORATE context the TPP also gets the accounts of every other corporate agreement',
  breaks: ['GEN-10'],
});
const unconsentedAccountAsFormatError = defineFault('unconsented-account-as-format-error', {
  description: 'a read of an account the PSU has not consented to gets 400 FORMAT_ERROR instead of RESOURCE_UNKNOWN (or CONSENT_INVALID)',
  breaks: ['ERR-25'],
});

export interface PsuAccess {
  customerNumber: string;
  context: PsuContext;
  accounts: AnyAccount[];
  /** [corporate] The answer to a read of an account outside the consent. */
  unconsented?: (accountId: string) => Error;
}

const corporateIdRequired = () => new BankError(400, 'FORMAT_ERROR', 'Header PSU-CORPORATE-ID is required in corporate context');

/**
 * The context a request is made in, from PSU-Context and PSU-CORPORATE-ID (Authentication item 13, Errors rule 4);
 * undefined when it says PSU-Context CORPORATE without PSU-CORPORATE-ID.
 */
function requestedContext(ctx: BankContext): PsuContext | undefined {
  const psuContext = readsPaymentHeaders(ctx) ? header(ctx, 'psu-context') : undefined;
  const corporateId = header(ctx, 'psu-corporate-id');
  if (psuContext !== undefined && psuContext !== 'PRIVATE' && psuContext !== 'CORPORATE') {
    throw new BankError(400, 'FORMAT_ERROR', 'Header PSU-Context must be PRIVATE or CORPORATE');
  }
  if (corporateId === undefined) return psuContext === 'CORPORATE' ? undefined : PRIVATE;
  if (ctx.switches.breaks(corporateIdIgnored)) return PRIVATE;
  if (psuContext === 'PRIVATE') throw new BankError(400, 'FORMAT_ERROR', 'Header PSU-CORPORATE-ID is not allowed in private context');
  if (!isUuid(corporateId)) throw new BankError(400, 'FORMAT_ERROR', 'Header PSU-CORPORATE-ID must be a UUID');
  return { kind: 'CORPORATE', agreementId: corporateId.toLowerCase() };
}

/** The accounts this request may see, or the 401 that starts SCA to get a consent. */
export function psuAccess(ctx: BankContext): PsuAccess {
  const { world } = ctx;
  const tpp = tppOf(ctx);
  const challenge = (expectedCustomer?: string, context?: PsuContext, reason?: ChallengeReason) =>
    scaChallenge(
      ctx,
      { ...(expectedCustomer === undefined ? {} : { expectedCustomer }), ...(context === undefined ? {} : { requestedContext: context }) },
      reason,
    );

  const psuId = header(ctx, 'psu-id');
  // X-PSU-IDENTITY (a national identity number or D-number) is the alternative to PSU-ID.
  const identity =
    psuId === undefined && header(ctx, 'x-psu-identity') !== undefined && !ctx.switches.reads(psuIdentityOnPaymentsOnly)
      ? header(ctx, 'x-psu-identity')
      : undefined;
  if (psuId === undefined && identity === undefined) throw challenge();
  if (identity !== undefined && !isNationalIdentityNumber(identity)) {
    if (ctx.switches.breaks(psuIdentityFormUnchecked)) return { customerNumber: '', context: PRIVATE, accounts: [] };
    throw new BankError(400, 'FORMAT_ERROR', 'Header X-PSU-IDENTITY must be a national identity number or D-number (11 digits)');
  }
  const lookup: PsuIdLookup =
    psuId !== undefined
      ? resolvePsuId(ctx, psuId)
      : world.data.customers.has(identity ?? '')
        ? { kind: 'known', customerNumber: identity ?? '' }
        : { kind: 'unknown' };
  if (lookup.kind === 'malformed') throw new BankError(400, 'FORMAT_ERROR', 'Header PSU-ID must be a UUID');
  const requested = requestedContext(ctx);
  if (requested === undefined) throw corporateIdRequired();
  const context = requested ?? PRIVATE;
  if (lookup.kind === 'unknown') {
    if (ctx.switches.breaks(unknownPsuIdServed)) return { customerNumber: '', context, accounts: [] };
    if (ctx.switches.breaks(unknownPsuIdAsFormatError)) throw new BankError(400, 'FORMAT_ERROR', 'PSU-ID is not known');
    throw challenge(undefined, context);
  }

  const { customerNumber } = lookup;
  const now = world.clock.now();
  // A PSU-ID whose SCA ended in corporate context, sent without PSU-CORPORATE-ID, is a corporate request too.
  if (
    requested === PRIVATE &&
    !header(ctx, 'psu-context') &&
    world.consents.onlyCorporate(tpp.id, customerNumber, now) &&
    !ctx.switches.reads(corporatePsuIdAloneReadAsPrivate)
  ) {
    throw corporateIdRequired();
  }
  // Before any consent of the PSU: a context not consented yet besides one that is is SCA-16's, a consent revoked SCA-20's.
  if (!world.consents.everConsented(tpp.id, customerNumber) && ctx.switches.breaks(servedBeforeConsent)) {
    return { customerNumber, context, accounts: world.data.accountsIn(customerNumber, context).filter((a) => a.status !== 'deleted') };
  }
  // The SCA session and the 180-day renewal (consent-in-force.ts).
  const consent = consentInForce(ctx, customerNumber, context, challenge);
  const closedOnes = [...consent.accountIds].flatMap((id) => world.data.accounts.get(id) ?? []).filter((a) => a.status === 'deleted');
  const closed = closedOnes.length > 0 && ctx.switches.breaks(closedAccountsListed) ? closedOnes : [];
  return {
    customerNumber,
    context,
    accounts: [...visibleAccounts(ctx, consent), ...closed],
    unconsented: (accountId) => unconsentedAccount(ctx, accountId),
  };
}

/** What the TPP may see under a consent: the consented accounts still open. */
function visibleAccounts(ctx: BankContext, consent: Consent): AnyAccount[] {
  const { world } = ctx;
  const { context } = consent;
  const consented = world.consents.visibleAccounts(consent);
  const reachable = world.data.accountsIn(consent.customerNumber, context).filter((a) => a.status !== 'deleted');
  const granted = reachable.length > consented.length && ctx.switches.breaks(accountsIgnoreConsent) ? reachable : consented;
  const others =
    context.kind === 'CORPORATE' && ctx.switches.breaks(corporateContextShowsOtherAgreements)
      ? [...world.data.accounts.values()].filter(
          (a) => 'agreementId' in a.holder && a.holder.agreementId !== context.agreementId && a.status !== 'deleted',
        )
      : [];
  return [...granted, ...others];
}

/**
 * The answer to a read of an account outside the consent (the Berlin Group's RESOURCE_UNKNOWN); an id of no account at all is answered
 * alike.
 */
function unconsentedAccount(ctx: BankContext, accountId: string): BankError {
  const { world } = ctx;
  if (world.data.accounts.has(accountId) && ctx.switches.breaks(unconsentedAccountAsFormatError))
    return new BankError(400, 'FORMAT_ERROR', `Account ${accountId} is not valid here`);
  return new BankError(404, 'RESOURCE_UNKNOWN', `No consented account ${accountId}`);
}

export const isAccount = (a: AnyAccount): a is StoredAccount => a.kind === 'account';
export const isCard = (a: AnyAccount): a is StoredCardAccount => a.kind === 'card';

export function pick<T extends AnyAccount>(access: PsuAccess, accountId: string, isKind: (a: AnyAccount) => a is T): T {
  const found = access.accounts.filter(isKind).find((a) => a.resourceId === accountId);
  if (found === undefined)
    throw access.unconsented?.(accountId) ?? new BankError(404, 'RESOURCE_UNKNOWN', `No consented account ${accountId}`);
  return found;
}
