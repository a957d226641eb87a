// Account information (AIS) with the bank-offered consent: a TPP sees only the
// accounts the PSU ticked during SCA (Authentication items 9-14). Without PSU-ID,
// or without a consent in force for that PSU and context, the answer is 401 with an
// scaRedirect link.
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { BankError } from '../errors.js';
import { defineFault, defineVariant, type Fault, type TppBank } from '../switches.js';
import { scaRequired } from '../sca-answers.js';
import { UNATTENDED_READS_PER_DAY, type UnattendedRead } from '../state/limits.js';
import { amount, DAY_MS, dateTime, day, reportedAmount, reportedAmountsUnbound, resourceLink } from '../format.js';
import { isNationalIdentityNumber, isUuid } from '../ids.js';
import type { BankState } from '../state/bank.js';
import type { PsuIdLookup } from '../state/psu-ids.js';
import { PRIVATE, type AnyAccount, type PsuContext, type StoredAccount, type StoredBalance, type StoredCardAccount } from '../state/customers.js';
import { header, readsPaymentHeaders, tppOf } from './shared.js';
import { consentInForce, resolvePsuId } from './sca-access.js';
import type { ChallengeReason } from '../state/sca.js';
import type { Consent } from '../state/consents.js';

const corporatePsuIdAloneReadAsPrivate = defineVariant('corporate-psu-id-alone-read-as-private', {
  description: 'an account read with the PSU-ID of a PSU whose SCA ended in corporate context, and neither PSU-Context nor PSU-CORPORATE-ID, is a private request of that PSU (401 with scaRedirect for a private consent), not a corporate one refused with 400',
  allowedBy: 'Authentication 13: "A corporate user request without PSU-CORPORATE-ID gets 400." What makes a request corporate is not said: a request that names no corporate context may be read as a private one of the same person',
  source: 'Specification, Authentication 13 and Errors rule 4',
});
const corporateIdIgnored = defineFault('corporate-id-ignored', {
  description: 'PSU-CORPORATE-ID is ignored: corporate calls are served as private ones, so they get 401 with an scaRedirect',
  breaks: ['SCA-14', 'HDR-18'],
});

const unattendedBalancesUnlimited = defineFault('unattended-balance-reads-unlimited', {
  description: 'balance reads without PSU-IP-Address are not limited to 4 per account in 24 hours',
  breaks: ['LIM-03'],
});
const unattendedTransactionsUnlimited = defineFault('unattended-transaction-reads-unlimited', {
  description: 'transaction reads without PSU-IP-Address are not limited to 4 per account in 24 hours',
  breaks: ['LIM-04'],
});
const psuPresentReadsCounted = defineFault('psu-present-reads-counted', {
  description: 'reads with PSU-IP-Address count against the unattended quota too, and are refused once it is used up',
  breaks: ['LIM-18'],
});
const unattendedLimitAsForbidden = defineFault('unattended-limit-as-forbidden', {
  description: 'a read past the unattended quota is refused with 403 FORBIDDEN instead of 429 ACCESS_EXCEEDED',
  breaks: ['ERR-27'],
});
const UNLIMITED_BY: Record<UnattendedRead, Fault> = { balances: unattendedBalancesUnlimited, transactions: unattendedTransactionsUnlimited };
const quotaNeverResets = defineFault('unattended-quota-never-resets', {
  description: 'reads without PSU-IP-Address refused once the quota is used up stay refused a day later: the 24-hour window never moves on',
  breaks: ['LIM-04'],
});

/** Whether the PSU takes part in this request: the TPP forwards the PSU's address only then (Limits). */
export function psuPresent(request: FastifyRequest): boolean {
  return header(request, 'psu-ip-address') !== undefined;
}

/** A read without the PSU counts against the account's daily quota; past it the answer is 429 ACCESS_EXCEEDED. */
export function countUnattendedRead(bank: BankState, request: FastifyRequest, accountId: string, kind: UnattendedRead): void {
  if ((psuPresent(request) && !request.bank.breaks(psuPresentReadsCounted)) || request.bank.breaks(UNLIMITED_BY[kind])) return;
  if (!bank.unattendedReads.take(tppOf(request).id, accountId, kind, bank.clock.now(), () => request.bank.breaks(quotaNeverResets))) {
    if (request.bank.breaks(unattendedLimitAsForbidden)) throw new BankError(403, 'FORBIDDEN', `The ${kind} quota is used up`);
    throw new BankError(429, 'ACCESS_EXCEEDED', `At most ${UNATTENDED_READS_PER_DAY} ${kind} reads per account in 24 hours without PSU-IP-Address`);
  }
}

// Faults in the shape of what is returned (each breaks one rule of the account resources).
const accountNameTooLong = defineFault('account-name-71', {
  description: 'account names are 71 characters long',
  breaks: ['AIS-09'],
});
const cashAccountTypeProprietary = defineFault('cash-account-type-proprietary', {
  description: 'cashAccountType is a proprietary word (CURRENT) instead of an ISO 20022 code',
  breaks: ['AIS-08', 'VER-15'],
});
const accountWithoutCurrency = defineFault('account-without-currency', {
  description: 'account entries carry no currency',
  breaks: ['AIS-11'],
});
const balanceTypeUnknown = defineFault('balance-type-unknown', {
  description: 'account balances carry a balanceType outside the Berlin Group list (available)',
  breaks: ['AIS-12'],
});
const cardBalancesWithoutInterimBooked = defineFault('card-balances-without-interim-booked', {
  description: 'card account balances leave out interimBooked (only interimAvailable)',
  breaks: ['AIS-07'],
});
const cardAccountNameTooLong = defineFault('card-account-name-71', {
  description: 'card account names are 71 characters long',
  breaks: ['AIS-10'],
});
const cardAccountWithoutCurrency = defineFault('card-account-without-currency', {
  description: 'card account entries carry no currency',
  breaks: ['AIS-14'],
});
const unknownPsuIdServed = defineFault('unknown-psu-id-served', {
  description: 'a well-formed PSU-ID the bank never issued is answered 200 (with an empty account list) instead of a 4xx',
  breaks: ['PSU-07'],
});
const unknownPsuIdAsFormatError = defineFault('unknown-psu-id-as-format-error', {
  description: 'a well-formed PSU-ID the bank never issued gets 400 FORMAT_ERROR instead of PSU_CREDENTIALS_INVALID (or a fresh SCA)',
  breaks: ['ERR-23'],
});
const psuIdentityOnPaymentsOnly = defineVariant('x-psu-identity-on-payments-only', {
  description: 'X-PSU-IDENTITY is not read on account reads: a read that names the PSU with it alone is answered as one without a PSU (401 with scaRedirect)',
  allowedBy: 'X-PSU-IDENTITY ("alternative to PSU-ID") is a row of the header table of payment initiation; no header set is shown for the account endpoints',
  source: 'Specification, Endpoints > POST /v1/payments/sepa-credit-transfers > Headers',
});
const psuIdentityFormUnchecked = defineFault('x-psu-identity-form-unchecked', {
  description: 'an X-PSU-IDENTITY that is not 11 digits is served (200, an empty account list)',
  breaks: ['HDR-17'],
});
const balancesRefused = defineFault('balances-refused', {
  description: 'account balances answer 404',
  breaks: ['END-12'],
});
const cardAccountsRefused = defineFault('card-accounts-refused', {
  description: 'card account endpoints answer 404',
  breaks: ['END-26'],
});

// [sandbox] closed accounts (END-11).
const closedAccountsListed = defineFault('closed-accounts-listed', {
  description: 'consented accounts that were closed stay in the account lists (with status deleted)',
  breaks: ['END-11'],
});

// [sandbox] the known state as a TPP sees it (SBX-03, SBX-04).
const knownPrivateCardHidden = defineFault('known-private-card-account-hidden', {
  description: 'the card accounts of the known private customers are not listed (as if the known state had none)',
  breaks: ['SBX-03'],
});
const knownCorporateAccountHidden = defineFault('known-corporate-account-hidden', {
  description: "only the first account of a known corporate customer's agreement is listed (as if the known state had one)",
  breaks: ['SBX-04'],
});

// [sandbox] what the service does (GEN-03, GEN-08, GEN-09, GEN-14).
const aispRoleNotServed = defineFault('aisp-role-not-served', {
  description: 'account lists answer 403 FORBIDDEN to a consented PSU: the interface serves this TPP as a PISP only',
  breaks: ['GEN-03'],
});
const contactRegistrationRequired = defineFault('contact-registration-required', {
  description: 'account lists answer 403 FORBIDDEN until the TPP registers a contact e-mail address',
  breaks: ['GEN-14'],
});
const servedBeforeConsent = defineFault('accounts-served-before-consent', {
  description: "a known PSU's accounts are served before the PSU consented to any",
  breaks: ['GEN-08'],
});
const privateContextFirstOnly = defineFault('private-context-first-account-only', {
  description: "in PRIVATE context only the first of the PSU's consented accounts is listed",
  breaks: ['GEN-09'],
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

const TOO_LONG_NAME = 'N'.repeat(71);

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
function requestedContext(request: FastifyRequest): PsuContext | undefined {
  const psuContext = readsPaymentHeaders(request) ? header(request, 'psu-context') : undefined;
  const corporateId = header(request, 'psu-corporate-id');
  if (psuContext !== undefined && psuContext !== 'PRIVATE' && psuContext !== 'CORPORATE') {
    throw new BankError(400, 'FORMAT_ERROR', 'Header PSU-Context must be PRIVATE or CORPORATE');
  }
  if (corporateId === undefined) return psuContext === 'CORPORATE' ? undefined : PRIVATE;
  if (request.bank.breaks(corporateIdIgnored)) return PRIVATE;
  if (psuContext === 'PRIVATE') throw new BankError(400, 'FORMAT_ERROR', 'Header PSU-CORPORATE-ID is not allowed in private context');
  if (!isUuid(corporateId)) throw new BankError(400, 'FORMAT_ERROR', 'Header PSU-CORPORATE-ID must be a UUID');
  return { kind: 'CORPORATE', agreementId: corporateId.toLowerCase() };
}

/** The 401 with an scaRedirect link that starts SCA (and the consent) for this request's TPP and session. */
export function scaChallenge(request: FastifyRequest, expectedCustomer?: string, context?: PsuContext, reason?: ChallengeReason): Error {
  const tpp = tppOf(request);
  return scaRequired(
    request,
    {
      tppId: tpp.id,
      tppName: tpp.name,
      tppSessionId: header(request, 'tpp-session-id') ?? '',
      redirectUri: header(request, 'tpp-redirect-uri') ?? '',
      ...(expectedCustomer === undefined ? {} : { expectedCustomer }),
      ...(context === undefined ? {} : { requestedContext: context }),
    },
    reason,
  );
}

/** The accounts this request may see, or the 401 that starts SCA to get a consent. */
export function psuAccess(bank: BankState, request: FastifyRequest): PsuAccess {
  const tpp = tppOf(request);
  const challenge = (expectedCustomer?: string, context?: PsuContext, reason?: ChallengeReason) => scaChallenge(request, expectedCustomer, context, reason);

  const psuId = header(request, 'psu-id');
  // X-PSU-IDENTITY (a national identity number or D-number) is the alternative to PSU-ID.
  const identity = psuId === undefined && header(request, 'x-psu-identity') !== undefined && !request.bank.reads(psuIdentityOnPaymentsOnly) ? header(request, 'x-psu-identity') : undefined;
  if (psuId === undefined && identity === undefined) throw challenge();
  if (identity !== undefined && !isNationalIdentityNumber(identity)) {
    if (request.bank.breaks(psuIdentityFormUnchecked)) return { customerNumber: '', context: PRIVATE, accounts: [] };
    throw new BankError(400, 'FORMAT_ERROR', 'Header X-PSU-IDENTITY must be a national identity number or D-number (11 digits)');
  }
  const lookup: PsuIdLookup =
    psuId !== undefined ? resolvePsuId(request, psuId) : bank.data.customers.has(identity ?? '') ? { kind: 'known', customerNumber: identity ?? '' } : { kind: 'unknown' };
  if (lookup.kind === 'malformed') throw new BankError(400, 'FORMAT_ERROR', 'Header PSU-ID must be a UUID');
  const requested = requestedContext(request);
  if (requested === undefined) throw corporateIdRequired();
  const context = requested ?? PRIVATE;
  if (lookup.kind === 'unknown') {
    if (request.bank.breaks(unknownPsuIdServed)) return { customerNumber: '', context, accounts: [] };
    if (request.bank.breaks(unknownPsuIdAsFormatError)) throw new BankError(400, 'FORMAT_ERROR', 'PSU-ID is not known');
    throw challenge(undefined, context);
  }

  const { customerNumber } = lookup;
  const now = bank.clock.now();
  // A PSU-ID whose SCA ended in corporate context, sent without PSU-CORPORATE-ID, is a corporate request too.
  if (requested === PRIVATE && !header(request, 'psu-context') && bank.consents.onlyCorporate(tpp.id, customerNumber, now) && !request.bank.reads(corporatePsuIdAloneReadAsPrivate)) {
    throw corporateIdRequired();
  }
  if (bank.consents.stored(tpp.id, customerNumber, context) === undefined && request.bank.breaks(servedBeforeConsent)) {
    return { customerNumber, context, accounts: bank.data.accountsIn(customerNumber, context).filter((a) => a.status !== 'deleted') };
  }
  // The SCA session and the 180-day renewal (reference/plugins/sca-access.ts).
  const consent = consentInForce(bank, request, customerNumber, context, challenge);
  const closedOnes = [...consent.accountIds].flatMap((id) => bank.data.accounts.get(id) ?? []).filter((a) => a.status === 'deleted');
  const closed = closedOnes.length > 0 && request.bank.breaks(closedAccountsListed) ? closedOnes : [];
  return { customerNumber, context, accounts: [...visibleAccounts(bank, request, consent), ...closed], unconsented: (accountId) => unconsentedAccount(request, accountId) };
}

/** What the TPP may see under a consent: the consented accounts still open. */
function visibleAccounts(bank: BankState, request: FastifyRequest, consent: Consent): AnyAccount[] {
  const { context } = consent;
  const consented = bank.consents.visibleAccounts(consent);
  const reachable = bank.data.accountsIn(consent.customerNumber, context).filter((a) => a.status !== 'deleted');
  const granted = reachable.length > consented.length && request.bank.breaks(accountsIgnoreConsent) ? reachable : consented;
  const others =
    context.kind === 'CORPORATE' && request.bank.breaks(corporateContextShowsOtherAgreements)
      ? [...bank.data.accounts.values()].filter((a) => 'agreementId' in a.holder && a.holder.agreementId !== context.agreementId && a.status !== 'deleted')
      : [];
  return [...granted, ...others];
}

/** The answer to a read of an account outside the consent (the Berlin Group's RESOURCE_UNKNOWN). */
function unconsentedAccount(request: FastifyRequest, accountId: string): BankError {
  if (request.bank.breaks(unconsentedAccountAsFormatError)) return new BankError(400, 'FORMAT_ERROR', `Account ${accountId} is not valid here`);
  return new BankError(404, 'RESOURCE_UNKNOWN', `No consented account ${accountId}`);
}

function balances(bank: BankState, request: FastifyRequest, stored: StoredBalance[], currency: string): object[] {
  const now = bank.clock.now();
  const yesterday = new Date(now.getTime() - DAY_MS);
  const shown = request.bank.breaks(cardBalancesWithoutInterimBooked) ? stored.filter((b) => b.balanceType !== 'interimBooked') : stored;
  const unbound = request.bank.reads(reportedAmountsUnbound) ? [{ balanceAmount: { amount: '1500.00', currency: 'JPY' }, balanceType: 'interimAvailable', lastChangeDateTime: dateTime(now) }] : [];
  return [...shown.map((b) => ({
    balanceAmount: reportedAmount(request.bank, b.amountMinor, currency),
    balanceType: b.balanceType !== 'interimBooked' && b.balanceType !== 'interimAvailable' && request.bank.breaks(balanceTypeUnknown) ? 'available' : b.balanceType,
    // A closing balance is as of the end of the previous business day; the others are live.
    ...(b.balanceType === 'closingBooked' ? { referenceDate: day(yesterday) } : { lastChangeDateTime: dateTime(now) }),
  })), ...unbound];
}

const accountLinksOutsideV1 = defineFault('account-links-outside-v1', {
  description: 'the balances and transactions links of an account lead to paths without the /v1 prefix',
  breaks: ['VER-01'],
});

function links(bank: TppBank, base: string): object {
  const at = bank.breaks(accountLinksOutsideV1) ? base.replace(/^\/v1\//, '/') : base;
  return { balances: resourceLink(bank, `${at}/balances`), transactions: resourceLink(bank, `${at}/transactions`) };
}

/** PRIV for a person's own account, ORGA for one held under a corporate agreement. */
function usageOf(a: StoredAccount | StoredCardAccount): 'PRIV' | 'ORGA' {
  return 'customerNumber' in a.holder ? 'PRIV' : 'ORGA';
}

function accountDetails(a: StoredAccount, bank: TppBank): object {
  return {
    resourceId: a.resourceId,
    iban: a.iban,
    bban: a.bban,
    ...(bank.breaks(accountWithoutCurrency) ? {} : { currency: a.currency }),
    name: bank.breaks(accountNameTooLong) ? TOO_LONG_NAME : a.name,
    ownerName: a.ownerName,
    product: a.product,
    cashAccountType: bank.breaks(cashAccountTypeProprietary) ? 'CURRENT' : a.cashAccountType,
    status: a.status,
    usage: usageOf(a),
    _links: links(bank, `/v1/accounts/${a.resourceId}`),
  };
}

function cardAccountDetails(a: StoredCardAccount, bank: TppBank): object {
  return {
    resourceId: a.resourceId,
    maskedPan: a.maskedPan,
    ...(bank.breaks(cardAccountWithoutCurrency) ? {} : { currency: a.currency }),
    name: bank.breaks(cardAccountNameTooLong) ? TOO_LONG_NAME : a.name,
    ownerName: a.ownerName,
    product: a.product,
    status: a.status,
    usage: usageOf(a),
    creditLimit: amount(a.creditLimitMinor, a.currency),
    _links: links(bank, `/v1/card-accounts/${a.resourceId}`),
  };
}

export const isAccount = (a: AnyAccount): a is StoredAccount => a.kind === 'account';
export const isCard = (a: AnyAccount): a is StoredCardAccount => a.kind === 'card';

export function pick<T extends AnyAccount>(access: PsuAccess, accountId: string, isKind: (a: AnyAccount) => a is T): T {
  const found = access.accounts.filter(isKind).find((a) => a.resourceId === accountId);
  if (found === undefined) throw access.unconsented?.(accountId) ?? new BankError(404, 'RESOURCE_UNKNOWN', `No consented account ${accountId}`);
  return found;
}

interface AccountParams {
  Params: { accountId: string };
}

export const accountsPlugin = fp(
  (api, _options, done) => {

    api.get('/accounts', (request) => {
      const access = psuAccess(request.world, request);
      const listed = access.accounts.filter(isAccount);
      if (request.bank.breaks(aispRoleNotServed)) throw new BankError(403, 'FORBIDDEN', 'This interface serves payment initiation only');
      if (request.bank.breaks(contactRegistrationRequired)) throw new BankError(403, 'FORBIDDEN', 'Register a contact e-mail address first');
      const hidden =
        listed.length > 1 &&
        (access.context.kind === 'CORPORATE' ? request.world.data.isKnown(access.customerNumber) && request.bank.breaks(knownCorporateAccountHidden) : request.bank.breaks(privateContextFirstOnly));
      return { accounts: (hidden ? listed.slice(0, 1) : listed).map((a) => accountDetails(a, request.bank)) };
    });

    api.get<AccountParams>('/accounts/:accountId', (request) => ({
      account: accountDetails(pick(psuAccess(request.world, request), request.params.accountId, isAccount), request.bank),
    }));

    api.get<AccountParams>('/accounts/:accountId/balances', (request) => {
      const a = pick(psuAccess(request.world, request), request.params.accountId, isAccount);
      if (request.bank.breaks(balancesRefused)) throw new BankError(404, 'RESOURCE_UNKNOWN', 'No balances');
      countUnattendedRead(request.world, request, a.resourceId, 'balances');
      return { account: { iban: a.iban, currency: a.currency }, balances: balances(request.world, request, a.balances, a.currency) };
    });

    api.addHook('preHandler', (request, _reply, next) => {
      if (request.url.startsWith('/v1/card-accounts') && request.bank.breaks(cardAccountsRefused)) {
        next(new BankError(404, 'RESOURCE_UNKNOWN', 'No card accounts'));
        return;
      }
      next();
    });

    api.get('/card-accounts', (request) => {
      const access = psuAccess(request.world, request);
      const cards = access.accounts.filter(isCard);
      const hidden = cards.length > 0 && request.world.data.isKnown(access.customerNumber) && request.bank.breaks(knownPrivateCardHidden);
      return { cardAccounts: hidden ? [] : cards.map((a) => cardAccountDetails(a, request.bank)) };
    });

    api.get<AccountParams>('/card-accounts/:accountId', (request) => ({
      cardAccount: cardAccountDetails(pick(psuAccess(request.world, request), request.params.accountId, isCard), request.bank),
    }));

    api.get<AccountParams>('/card-accounts/:accountId/balances', (request) => {
      const a = pick(psuAccess(request.world, request), request.params.accountId, isCard);
      countUnattendedRead(request.world, request, a.resourceId, 'balances');
      return { cardAccount: { maskedPan: a.maskedPan, currency: a.currency }, balances: balances(request.world, request, a.balances, a.currency) };
    });
    done();
  },
  { name: 'accounts', encapsulate: true, decorators: { request: ['world'] }, dependencies: ['signature', 'json-body'] },
);
