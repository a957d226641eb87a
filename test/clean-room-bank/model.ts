// The data of one sandbox world. Every TPP (identified by the public key of its certificate)
// has its own world: customers, accounts, agreements, payments, consents, SCA sessions and clock.

import { osloDate } from './clock.js';

export type TxStatus = 'ACCP' | 'ACSC' | 'ACSP' | 'ACTC' | 'ACWC' | 'ACWP' | 'RCVD' | 'PDNG' | 'RJCT' | 'CANC' | 'PART';
export const TX_STATUSES: readonly TxStatus[] = ['ACCP', 'ACSC', 'ACSP', 'ACTC', 'ACWC', 'ACWP', 'RCVD', 'PDNG', 'RJCT', 'CANC', 'PART'];

export type ScaStatus =
  'RECEIVED' | 'PSU_IDENTIFIED' | 'PSU_AUTHENTICATED' | 'SCA_METHOD_SELECTED' | 'STARTED' | 'FINALISED' | 'FAILED' | 'EXEMPTED';

type CustomerType = 'private' | 'corporate';

export interface Customer {
  customerNumber: string;
  name: string;
  type: CustomerType;
  townName: string;
  country: string;
  manual: boolean;
}

export interface Balance {
  balanceType: string;
  amount: bigint;
  currency: string;
  creditLimitIncluded?: boolean;
  referenceDate?: string;
  lastChangeDateTime?: string;
  lastCommittedTransaction?: string;
}

export interface AccountReference {
  iban?: string;
  bban?: string;
}

export interface Transaction {
  transactionId: string;
  entryReference?: string;
  endToEndId?: string;
  bookingDate?: string; // absent: pending
  valueDate?: string;
  amount: bigint;
  currency: string;
  creditorId?: string;
  creditorName?: string;
  creditorAccount?: AccountReference;
  ultimateCreditor?: string;
  debtorName?: string;
  debtorAccount?: AccountReference;
  ultimateDebtor?: string;
  remittance: string[];
  purposeCode?: string;
  bankTransactionCode?: string;
  proprietaryBankTransactionCode?: string;
  additionalInformation?: string;
  proprietary: Record<string, string>;
  seq: number;
}

export type AccountStatus = 'enabled' | 'blocked' | 'deleted';

export interface Account {
  resourceId: string;
  customerNumber: string;
  iban: string | undefined;
  bban: string | undefined;
  bic: string;
  currency: string;
  name: string;
  product: string;
  cashAccountType: string;
  status: AccountStatus;
  usage: 'PRIV' | 'ORGA';
  ownerName: string | undefined;
  creditLine: bigint;
  balances: Balance[];
  transactions: Transaction[];
  paymentsAllowed: boolean;
  manual: boolean;
}

export interface MoneyAmount {
  amount: bigint;
  currency: string;
}

export interface CardTransaction {
  cardTransactionId: string;
  terminalId?: string;
  transactionDate?: string;
  bookingDate?: string; // absent: pending
  transactionAmount: MoneyAmount;
  originalAmount?: MoneyAmount;
  markupFee?: MoneyAmount;
  markupFeePercentage?: string;
  merchantCategoryCode?: string;
  cardAcceptorId?: string;
  cardAcceptorAddress?: Record<string, string>;
  maskedPan?: string;
  transactionDetails?: string;
  invoiced?: boolean;
  proprietaryBankTransactionCode?: string;
  seq: number;
}

export interface CardAccount {
  resourceId: string;
  customerNumber: string;
  maskedPan: string;
  currency: string;
  name: string;
  product: string;
  status: AccountStatus;
  usage: 'PRIV' | 'ORGA';
  ownerName: string | undefined;
  creditLimit: MoneyAmount | undefined;
  balances: Balance[];
  cardId: string | undefined;
  accountNumber: string | undefined;
  expiry: string | undefined;
  transactions: CardTransaction[];
  manual: boolean;
}

type AgreementRole = 'VIEW' | 'REGISTER';

export interface Engagement {
  customer: string;
  accountId: string;
  roles: AgreementRole[];
}

export interface Agreement {
  agreementId: string;
  owner: string;
  name: string;
  engagements: Engagement[];
  manual: boolean;
}

/** 'PRIVATE' or 'CORPORATE:<agreementId>' */
export type ContextKey = string;

export interface Authorisation {
  authorisationId: string;
  scaStatus: ScaStatus;
  flowId: string | undefined;
  createdAt: number;
}

export type PaymentService = 'payments' | 'bulk-payments' | 'periodic-payments';

export interface PaymentItem {
  amount: bigint;
  currency: string;
  creditorName: string;
  creditorIban: string | undefined;
  creditorBban: string | undefined;
  remittance: string | undefined;
  endToEndId: string | undefined;
  executed?: boolean;
}

export interface Payment {
  paymentId: string;
  service: PaymentService;
  /** canonical product name */
  product: string;
  /** product path segment as used at initiation */
  productPath: string;
  customerNumber: string;
  contextKey: ContextKey;
  debtorAccountId: string;
  debtorIban: string | undefined;
  debtorBban: string | undefined;
  /** the request body as accepted, returned by the details endpoint */
  request: Record<string, unknown>;
  items: PaymentItem[];
  executionDate: string | undefined;
  status: TxStatus;
  fundsAvailable: boolean | undefined;
  psuMessage: string | undefined;
  approved: boolean;
  basketId: string | undefined;
  authorisations: Authorisation[];
  fee: MoneyAmount | undefined;
  duplicateKey: string;
  createdAt: number;
  tppSessionId: string;
}

export interface Basket {
  basketId: string;
  paymentIds: string[];
  customerNumber: string;
  authorisations: Authorisation[];
  finalised: boolean;
  createdAt: number;
}

export type ConsentStatus = 'received' | 'rejected' | 'valid' | 'revokedByPsu' | 'expired' | 'terminatedByTpp';

export interface ConsentResource {
  consentId: string;
  status: ConsentStatus;
  customerNumber: string | undefined;
  contextKey: ContextKey | undefined;
  authorisations: Authorisation[];
  createdAt: number;
  lastActionDate: string;
}

export interface Grant {
  customerNumber: string;
  contextKey: ContextKey;
  accountIds: Set<string>;
  grantedAt: number;
  lastScaAt: number;
}

export interface ScaSession {
  tppSessionId: string;
  customerNumber: string;
  contextKey: ContextKey;
  validUntil: number;
  invalidated: boolean;
}

export const LIMITS = {
  customers: 500,
  accounts: 2000,
  cardAccounts: 1000,
  agreements: 500,
  transactionsPerAccount: 5000,
  transactionsPerWorld: 20000,
  payments: 5000,
  baskets: 1000,
  consents: 2000,
  sessions: 2000,
  requestIds: 20000,
  paymentsPerBasket: 100,
  bulkItems: 100,
} as const;

export const CONTEXT_PRIVATE = 'PRIVATE';

export function corporateContext(agreementId: string): ContextKey {
  return `CORPORATE:${agreementId}`;
}

export function agreementIdOf(contextKey: ContextKey): string | undefined {
  return contextKey.startsWith('CORPORATE:') ? contextKey.slice('CORPORATE:'.length) : undefined;
}

/** Inserts into a Map and drops the oldest entries beyond `max`. */
export function boundedSet<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > max) {
    const first = map.keys().next();
    if (first.done) break;
    map.delete(first.value);
  }
}

export class World {
  readonly tppKey: string;
  private readonly derive: (label: string) => string;
  clockOffsetMs = 0;
  customers = new Map<string, Customer>();
  accounts = new Map<string, Account>();
  cardAccounts = new Map<string, CardAccount>();
  agreements = new Map<string, Agreement>();
  payments = new Map<string, Payment>();
  baskets = new Map<string, Basket>();
  consents = new Map<string, ConsentResource>();
  grants = new Map<string, Grant>();
  sessions = new Map<string, ScaSession>();
  /** unattended-access counters: key → instants of served calls */
  quotas = new Map<string, number[]>();
  requestIds = new Map<string, number>();
  contactEmail: string | undefined;
  lastBatchCheck = 0;
  nextBatchAt: number | undefined;
  seq = 0;
  private psuIndex = new Map<string, string>();
  private corpIndex = new Map<string, string>();

  constructor(tppKey: string, derive: (label: string) => string) {
    this.tppKey = tppKey;
    this.derive = derive;
  }

  now(): number {
    return Date.now() + this.clockOffsetMs;
  }

  today(): string {
    return osloDate(this.now());
  }

  nextSeq(): number {
    this.seq += 1;
    return this.seq;
  }

  /** psu-id: a UUID unique per TPP and customer, stable across initialisation and restarts. */
  psuIdOf(customerNumber: string): string {
    const id = this.derive(`psu|${this.tppKey}|${customerNumber}`);
    this.psuIndex.set(id.toLowerCase(), customerNumber);
    return id;
  }

  customerByPsuId(psuId: string): Customer | undefined {
    const key = psuId.toLowerCase();
    let number = this.psuIndex.get(key);
    if (number === undefined) {
      for (const c of this.customers.values()) {
        if (this.psuIdOf(c.customerNumber).toLowerCase() === key) {
          number = c.customerNumber;
          break;
        }
      }
    }
    return number === undefined ? undefined : this.customers.get(number);
  }

  /** psu-corporate-id: a UUID unique per TPP and agreement. */
  corporateIdOf(agreementId: string): string {
    const id = this.derive(`agreement|${this.tppKey}|${agreementId}`);
    this.corpIndex.set(id.toLowerCase(), agreementId);
    return id;
  }

  agreementByCorporateId(corporateId: string): Agreement | undefined {
    const key = corporateId.toLowerCase();
    let agreementId = this.corpIndex.get(key);
    if (agreementId === undefined) {
      for (const a of this.agreements.values()) {
        if (this.corporateIdOf(a.agreementId).toLowerCase() === key) {
          agreementId = a.agreementId;
          break;
        }
      }
    }
    return agreementId === undefined ? undefined : this.agreements.get(agreementId);
  }

  accountByIban(iban: string): Account | undefined {
    const up = iban.toUpperCase();
    for (const a of this.accounts.values()) if (a.iban === up) return a;
    return undefined;
  }

  accountByBban(bban: string): Account | undefined {
    for (const a of this.accounts.values()) if (a.bban === bban) return a;
    return undefined;
  }

  /** Agreements in which the customer is engaged, or which the customer owns. */
  agreementsOf(customerNumber: string): Agreement[] {
    return [...this.agreements.values()].filter(
      (a) => a.owner === customerNumber || a.engagements.some((e) => e.customer === customerNumber),
    );
  }

  /** Roles of the customer on an account within an agreement (the owner holds every role). */
  rolesIn(agreement: Agreement, customerNumber: string, accountId: string): Set<AgreementRole> {
    if (agreement.owner === customerNumber) {
      const inAgreement = agreement.engagements.some((e) => e.accountId === accountId);
      return new Set(inAgreement ? (['VIEW', 'REGISTER'] as AgreementRole[]) : []);
    }
    const roles = new Set<AgreementRole>();
    for (const e of agreement.engagements) {
      if (e.customer === customerNumber && e.accountId === accountId) for (const r of e.roles) roles.add(r);
    }
    return roles;
  }

  /** The open accounts and card accounts a customer sees in a context, for a role. */
  contextResources(customerNumber: string, contextKey: ContextKey, role: AgreementRole): { accounts: Account[]; cards: CardAccount[] } {
    const agreementId = agreementIdOf(contextKey);
    if (agreementId === undefined) {
      return {
        accounts: [...this.accounts.values()].filter((a) => a.customerNumber === customerNumber && a.status !== 'deleted'),
        cards: [...this.cardAccounts.values()].filter((c) => c.customerNumber === customerNumber && c.status !== 'deleted'),
      };
    }
    const agreement = this.agreements.get(agreementId);
    if (!agreement) return { accounts: [], cards: [] };
    const ids = new Set(agreement.engagements.map((e) => e.accountId));
    const accounts = [...ids]
      .map((id) => this.accounts.get(id))
      .filter(
        (a): a is Account => a !== undefined && a.status !== 'deleted' && this.rolesIn(agreement, customerNumber, a.resourceId).has(role),
      );
    const cards =
      agreement.owner === customerNumber
        ? [...this.cardAccounts.values()].filter((c) => c.customerNumber === agreement.owner && c.status !== 'deleted')
        : [];
    return { accounts, cards };
  }

  /** True when the customer may act in the context (private: a private customer; corporate: engaged or owner). */
  hasContext(customerNumber: string, contextKey: ContextKey): boolean {
    const customer = this.customers.get(customerNumber);
    if (!customer) return false;
    const agreementId = agreementIdOf(contextKey);
    if (agreementId === undefined) return customer.type === 'private';
    const a = this.agreements.get(agreementId);
    return a !== undefined && (a.owner === customerNumber || a.engagements.some((e) => e.customer === customerNumber));
  }

  grantKey(customerNumber: string, contextKey: ContextKey): string {
    return `${customerNumber}|${contextKey}`;
  }
}
