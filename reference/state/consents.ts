// Bank-offered consents: per TPP, customer and context, the set of accounts the PSU
// ticked on the consent page. Consent must be renewed with SCA every 180 days.
import { BankError } from '../errors.js';
import { defineFault, type Faults } from '../faults.js';
import { BoundedStore, textBytes } from './bounded-store.js';
import { contextKey, PRIVATE, type AnyAccount, type PsuContext, type SandboxData } from './customers.js';
import { DEFAULT_STORE_BOUNDS, type Bounds } from './store-bounds.js';

const consentNotStored = defineFault('consent-not-stored', {
  description: 'the consent the PSU confirms during SCA is not stored, so PSU-ID calls keep answering 401',
  breaks: ['SCA-13', 'PSU-05'],
});
const consentStoredEmpty = defineFault('consent-stored-empty', {
  description: 'the consent is stored without the accounts the PSU ticked, so the TPP sees none',
  breaks: ['SCA-05', 'SCA-19', 'END-09'],
});
const accountsIgnoreConsent = defineFault('accounts-ignore-consent', {
  description: 'account endpoints return all accounts of the PSU, not only the consented ones',
  breaks: ['SCA-19', 'END-09'],
});

const contextChosenByTpp = defineFault('context-chosen-by-tpp', {
  description: "the PSU's choice on the context page is ignored: SCA ends in the context the TPP asked for (PRIVATE when it asked none)",
  breaks: ['GEN-11'],
});
const corporateContextSharesConsent = defineFault('corporate-context-shares-consent', {
  description: "a corporate context the PSU never consented to is served under the PSU's private consent instead of starting a new consent flow",
  breaks: ['SCA-16'],
});
const corporateContextShowsOtherAgreements = defineFault('corporate-context-shows-other-agreements', {
  description: 'in CORPORATE context the TPP also gets the accounts of every other corporate agreement',
  breaks: ['GEN-10'],
});
const consentPageNotPreselected = defineFault('consent-page-not-preselected', {
  description: 'the consent page shows every account unticked, the consented ones too',
  breaks: ['SCA-18'],
});
const unconsentedAccountAsFormatError = defineFault('unconsented-account-as-format-error', {
  description: 'a read of an account the PSU has not consented to gets 400 FORMAT_ERROR instead of RESOURCE_UNKNOWN (or CONSENT_INVALID)',
  breaks: ['ERR-25'],
});

export const CONSENT_RENEWAL_DAYS = 180;
const DAY_MS = 86_400_000;

export interface Consent {
  tppId: string;
  customerNumber: string;
  context: PsuContext;
  accountIds: ReadonlySet<string>;
  grantedAt: Date;
}

export class Consents {
  /** Bounded: a TPP's oldest consents go first (store-bounds.ts). */
  private readonly byKey: BoundedStore<string, Consent>;

  constructor(
    private readonly data: SandboxData,
    private readonly faults: Faults,
    bounds: Bounds = DEFAULT_STORE_BOUNDS.consents,
  ) {
    this.byKey = new BoundedStore({ ...bounds, tppOf: (consent) => consent.tppId, sizeOf: (consent) => textBytes(consent.customerNumber, ...consent.accountIds) });
  }

  private key(tppId: string, customerNumber: string, context: PsuContext): string {
    return `${tppId}\n${customerNumber}\n${contextKey(context)}`;
  }

  /** The consent in force, or undefined when there is none or it needs renewal. */
  current(tppId: string, customerNumber: string, context: PsuContext, now: Date): Consent | undefined {
    const shared = context.kind === 'CORPORATE' && this.faults.on(corporateContextSharesConsent, tppId);
    const consent = this.byKey.get(this.key(tppId, customerNumber, context)) ?? (shared ? this.byKey.get(this.key(tppId, customerNumber, PRIVATE)) : undefined);
    if (consent === undefined) return undefined;
    return now.getTime() - consent.grantedAt.getTime() > CONSENT_RENEWAL_DAYS * DAY_MS ? undefined : consent;
  }

  /** The consent last granted, whether or not it is still in force (its age is for the caller to judge). */
  stored(tppId: string, customerNumber: string, context: PsuContext): Consent | undefined {
    return this.byKey.get(this.key(tppId, customerNumber, context));
  }

  /** Whether this PSU's consents with this TPP are all in corporate context (so a request without PSU-CORPORATE-ID is malformed). */
  onlyCorporate(tppId: string, customerNumber: string, now: Date): boolean {
    if (this.current(tppId, customerNumber, PRIVATE, now) !== undefined) return false;
    return [...this.byKey.values()].some((c) => c.tppId === tppId && c.customerNumber === customerNumber && c.context.kind === 'CORPORATE');
  }

  /** Account ids already consented (for pre-ticking the checkboxes), expired or not. */
  consentedIds(tppId: string, customerNumber: string, context: PsuContext): ReadonlySet<string> {
    if (this.faults.on(consentPageNotPreselected, tppId)) return new Set();
    return this.byKey.get(this.key(tppId, customerNumber, context))?.accountIds ?? new Set();
  }

  /**
   * Replaces the consent with what the PSU confirmed. Unticked accounts are revoked;
   * with nothing ticked the consent stays, empty, so the TPP gets an empty list
   * rather than an endless series of SCA redirects.
   */
  grant(tppId: string, customerNumber: string, context: PsuContext, accountIds: Iterable<string>, now: Date): void {
    if (this.faults.on(consentNotStored, tppId)) return;
    const granted = this.faults.on(consentStoredEmpty, tppId) ? [] : accountIds;
    this.byKey.set(this.key(tppId, customerNumber, context), { tppId, customerNumber, context, accountIds: new Set(granted), grantedAt: now });
  }

  /** What the TPP may see under a consent: consented accounts still open. */
  visibleAccounts(consent: Consent): AnyAccount[] {
    const reachable = this.data.accountsIn(consent.customerNumber, consent.context);
    const granted = this.faults.on(accountsIgnoreConsent, consent.tppId) ? reachable : reachable.filter((a) => consent.accountIds.has(a.resourceId));
    return [...granted, ...this.otherAgreementsAccounts(consent)].filter((a) => a.status !== 'deleted');
  }

  /** Only under a fault: the accounts of the corporate agreements other than the consent's. */
  private otherAgreementsAccounts(consent: Consent): AnyAccount[] {
    const { context } = consent;
    if (context.kind !== 'CORPORATE' || !this.faults.on(corporateContextShowsOtherAgreements, consent.tppId)) return [];
    return [...this.data.accounts.values()].filter((a) => 'agreementId' in a.holder && a.holder.agreementId !== context.agreementId);
  }

  /** The context an SCA proceeds in: the one the PSU picked on the context page (the TPP's wish only pre-selects it). */
  chosenContext(tppId: string, picked: PsuContext, requested: PsuContext | undefined): PsuContext {
    return this.faults.on(contextChosenByTpp, tppId) ? (requested ?? PRIVATE) : picked;
  }

  /** The answer to a read of an account outside the consent (the Berlin Group's RESOURCE_UNKNOWN). */
  unconsentedAccount(tppId: string, accountId: string): BankError {
    if (this.faults.on(unconsentedAccountAsFormatError, tppId)) return new BankError(400, 'FORMAT_ERROR', `Account ${accountId} is not valid here`);
    return new BankError(404, 'RESOURCE_UNKNOWN', `No consented account ${accountId}`);
  }

  /** The PSU revoked, directly with the bank, every consent given to this TPP (capability bank-channel). */
  revoke(tppId: string, customerNumber: string): number {
    const revoked = [...this.byKey].filter(([, c]) => c.tppId === tppId && c.customerNumber === customerNumber);
    for (const [key] of revoked) this.byKey.delete(key);
    return revoked.length;
  }

  clear(): void {
    this.byKey.clear();
  }
}
