// Bank-offered consents: per TPP, customer and context, the set of accounts the PSU
// ticked on the consent page. Consent must be renewed with SCA every 180 days.
import { BoundedStore, textBytes, tppOfKey } from './bounded-store.js';
import { contextKey, PRIVATE, type AnyAccount, type PsuContext, type SandboxData } from './sandbox-data.js';
import { DEFAULT_STORE_BOUNDS, type Bounds } from './store-bounds.js';

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
  /**
   * Who ever consented to a TPP, by TPP and PSU: what became of the consent since (revoked, expired) does not undo it. Bounded like the
   * consents.
   */
  private readonly consentedOnce: BoundedStore<string, string>;

  constructor(
    private readonly data: SandboxData,
    bounds: Bounds = DEFAULT_STORE_BOUNDS.consents,
  ) {
    this.byKey = new BoundedStore({
      ...bounds,
      tppOf: (consent) => consent.tppId,
      sizeOf: (consent) => textBytes(consent.customerNumber, ...consent.accountIds),
    });
    this.consentedOnce = new BoundedStore<string, string>({
      ...bounds,
      tppOf: tppOfKey,
      sizeOf: (customerNumber) => textBytes(customerNumber),
    });
  }

  private key(tppId: string, customerNumber: string, context: PsuContext): string {
    return `${tppId}\n${customerNumber}\n${contextKey(context)}`;
  }

  /** The consent in force, or undefined when there is none or it needs renewal. */
  current(tppId: string, customerNumber: string, context: PsuContext, now: Date): Consent | undefined {
    const consent = this.byKey.get(this.key(tppId, customerNumber, context));
    if (consent === undefined) return undefined;
    return now.getTime() - consent.grantedAt.getTime() > CONSENT_RENEWAL_DAYS * DAY_MS ? undefined : consent;
  }

  /** The consent last granted, whether or not it is still in force (its age is for the caller to judge). */
  stored(tppId: string, customerNumber: string, context: PsuContext): Consent | undefined {
    return this.byKey.get(this.key(tppId, customerNumber, context));
  }

  /** Whether this PSU ever consented to this TPP, in any context, whether or not the consent was revoked since or is still in force. */
  everConsented(tppId: string, customerNumber: string): boolean {
    return this.consentedOnce.has(`${tppId}\n${customerNumber}`);
  }

  /** Whether this PSU's consents with this TPP are all in corporate context (so a request without PSU-CORPORATE-ID is malformed). */
  onlyCorporate(tppId: string, customerNumber: string, now: Date): boolean {
    if (this.current(tppId, customerNumber, PRIVATE, now) !== undefined) return false;
    return [...this.byKey.values()].some((c) => c.tppId === tppId && c.customerNumber === customerNumber && c.context.kind === 'CORPORATE');
  }

  /** Account ids already consented (for pre-ticking the checkboxes), expired or not. */
  consentedIds(tppId: string, customerNumber: string, context: PsuContext): ReadonlySet<string> {
    return this.byKey.get(this.key(tppId, customerNumber, context))?.accountIds ?? new Set();
  }

  /**
   * Replaces the consent with what the PSU confirmed. Unticked accounts are revoked;
   * with nothing ticked the consent stays, empty, so the TPP gets an empty list
   * rather than an endless series of SCA redirects.
   */
  grant(tppId: string, customerNumber: string, context: PsuContext, accountIds: Iterable<string>, now: Date): void {
    this.byKey.set(this.key(tppId, customerNumber, context), {
      tppId,
      customerNumber,
      context,
      accountIds: new Set(accountIds),
      grantedAt: now,
    });
    this.consentedOnce.set(`${tppId}\n${customerNumber}`, customerNumber);
  }

  /** What the TPP may see under a consent: consented accounts still open. */
  visibleAccounts(consent: Consent): AnyAccount[] {
    return this.data
      .accountsIn(consent.customerNumber, consent.context)
      .filter((a) => consent.accountIds.has(a.resourceId) && a.status !== 'deleted');
  }

  /** The PSU revoked, directly with the bank, every consent given to this TPP (capability bank-channel). */
  revoke(tppId: string, customerNumber: string): number {
    const revoked = [...this.byKey].filter(([, c]) => c.tppId === tppId && c.customerNumber === customerNumber);
    for (const [key] of revoked) this.byKey.delete(key);
    return revoked.length;
  }

  clear(): void {
    this.byKey.clear();
    this.consentedOnce.clear();
  }
}
