// Sandbox customers, corporate agreements, accounts and card accounts.
//
// A customer is a person who logs in at the SCA page with a national identity
// number. A corporate customer is such a person who is also a member of one or
// more corporate agreements; the agreement (its UUID is the psu-corporate-id) holds
// the company's accounts. Private accounts belong to the customer directly.
import { uuidV5 } from '../ids.js';
import { bbanFrom, norwegianIban } from '../../lib/identifiers/index.js';
import { BankError } from '../bank-errors.js';

export type CustomerType = 'private' | 'corporate';

export interface Customer {
  customerNumber: string;
  name: string;
  type: CustomerType;
}

export interface Agreement {
  id: string;
  name: string;
  /** Customer numbers of the persons acting under this agreement. */
  members: string[];
}

/** The Berlin Group 1.3 balance types. */
export const BALANCE_TYPES = ['closingBooked', 'expected', 'openingBooked', 'interimAvailable', 'interimBooked', 'forwardAvailable', 'nonInvoiced'] as const;
export type BalanceType = (typeof BALANCE_TYPES)[number];

/** Amounts are kept in minor units (øre) and formatted only at the edge. */
export interface StoredBalance {
  balanceType: BalanceType;
  amountMinor: number;
}

interface StoredAccountBase {
  resourceId: string;
  /** Holder: a customer (private) or a corporate agreement, never both. */
  holder: { customerNumber: string } | { agreementId: string };
  ownerName: string;
  currency: string;
  name: string;
  product: string;
  status: 'enabled' | 'deleted' | 'blocked';
  balances: StoredBalance[];
  /** Set by the mock-data operation that gives an account a long history: it replaces the simulated one. */
  history?: MockHistory;
}

/** `count` booked transactions spread evenly over the `days` days before `until` (a date, so ids stay stable). */
export interface MockHistory {
  count: number;
  days: number;
  until: string;
}

export interface StoredAccount extends StoredAccountBase {
  kind: 'account';
  bban: string;
  iban: string;
  cashAccountType: string;
}

export interface StoredCardAccount extends StoredAccountBase {
  kind: 'card';
  maskedPan: string;
  creditLimitMinor: number;
}

export type AnyAccount = StoredAccount | StoredCardAccount;

/** The context a PSU acts in; CORPORATE names one agreement. */
export type PsuContext = { kind: 'PRIVATE' } | { kind: 'CORPORATE'; agreementId: string };

export const PRIVATE: PsuContext = { kind: 'PRIVATE' };

export function contextKey(context: PsuContext): string {
  return context.kind === 'PRIVATE' ? 'PRIVATE' : `CORPORATE:${context.agreementId}`;
}

/** Fictitious bank code of the reference bank's account numbers. */
const BANK_CODE = '1810';

interface SeedPerson {
  customerNumber: string;
  name: string;
  /** Private customers: checking, savings, card. Corporate: the agreement and its two accounts. */
  agreement?: string;
  amounts: [number, number, number];
}

// The known state of the specification: three private customers with 2 accounts
// and one card account each, two corporate customers with 2 accounts each.
const SEED: SeedPerson[] = [
  { customerNumber: '13039319955', name: 'Kari Nordmann', amounts: [1_234_567, 25_000_000, -345_678] },
  { customerNumber: '12085592767', name: 'Ola Nordmann', amounts: [98_765, 5_012_050, -12_990] },
  { customerNumber: '01078900497', name: 'Ingrid Hansen', amounts: [4_321_000, 0, 0] },
  { customerNumber: '18129215603', name: 'Per Olsen', agreement: 'Olsen Rørleggerservice AS', amounts: [87_654_321, 12_500_000, 0] },
  { customerNumber: '20079518612', name: 'Lise Berg', agreement: 'Berg Regnskap og Rådgivning AS', amounts: [15_000_075, 4_400_000, 0] },
];

function accountBalances(amountMinor: number): StoredBalance[] {
  // The expected balance differs from the booked one by a few pending card purchases.
  return [
    { balanceType: 'closingBooked', amountMinor },
    { balanceType: 'expected', amountMinor: amountMinor - 24_550 },
  ];
}

function account(
  holder: StoredAccount['holder'],
  ownerName: string,
  serial: number,
  name: string,
  product: string,
  cashAccountType: string,
  amountMinor: number,
): StoredAccount {
  const bban = bbanFrom(BANK_CODE, serial);
  return {
    kind: 'account',
    resourceId: uuidV5(`account:${bban}`),
    holder,
    ownerName,
    bban,
    iban: norwegianIban(bban),
    currency: 'NOK',
    name,
    product,
    cashAccountType,
    status: 'enabled',
    balances: accountBalances(amountMinor),
  };
}

function cardAccount(customerNumber: string, ownerName: string, serial: number, amountMinor: number): StoredCardAccount {
  const maskedPan = `492500******${String(1000 + serial * 37).slice(-4)}`;
  const creditLimitMinor = 5_000_000;
  return {
    kind: 'card',
    resourceId: uuidV5(`card:${customerNumber}:${maskedPan}`),
    holder: { customerNumber },
    ownerName,
    maskedPan,
    currency: 'NOK',
    name: 'Visa Kredittkort',
    product: 'Visa Classic',
    status: 'enabled',
    creditLimitMinor,
    balances: [
      { balanceType: 'interimBooked', amountMinor },
      { balanceType: 'interimAvailable', amountMinor: creditLimitMinor + amountMinor },
    ],
  };
}

/** What the mock-data operation POST /v1/sandbox/accounts takes. */
export interface NewAccount {
  customerNumber: string;
  accountName: string;
  currency: string;
  product?: string;
  cashAccountType?: string;
  /** Balance of the account in minor units. */
  amountMinor?: number;
  /** Balances to set instead of the default pair (closingBooked and expected of `amountMinor`). */
  balances?: StoredBalance[];
}

/** What the mock-data operation POST /v1/sandbox/card-accounts takes. */
export interface NewCardAccount {
  customerNumber: string;
  currency: string;
  name?: string;
  product?: string;
  maskedPan?: string;
  creditLimitMinor?: number;
  balances?: StoredBalance[];
}

/** Account numbers of accounts created through the mock-data operations start here. */
const CREATED_SERIAL = 500_000;

/**
 * How much mock data one sandbox world holds, whatever its TPP sends (with the store bounds, store-bounds.ts,
 * what bounds a world's memory). Created customers beyond the first bound push out the oldest created one, with
 * its accounts and agreements (a long gauntlet makes a PSU per scenario run and forgets it); the others are
 * refused with 429 ACCESS_EXCEEDED until a reset. 5,000 created customers with two accounts each took
 * 12.6 MiB of heap (test/reference/store-bounds.test.ts).
 */
export const MOCK_DATA_BOUNDS = {
  createdCustomers: 5_000,
  accountsPerCustomer: 20,
  agreementsPerOwner: 20,
  /** Transactions added by the mock-data operations, and booked ones of mock histories, in the whole world. */
  mockTransactions: 50_000,
};

export class SandboxData {
  readonly customers = new Map<string, Customer>();
  readonly agreements = new Map<string, Agreement>();
  readonly accounts = new Map<string, AnyAccount>();
  /** Accounts created so far (never reset, so a created account's number is never given twice). */
  private created = 0;
  /** Customer numbers of the known state: initialisation brings back their data as it was. */
  private readonly known = new Set(SEED.map((person) => person.customerNumber));
  /** Accounts and card accounts made by the mock-data operations. */
  private readonly createdIds = new Set<string>();
  /** Customers made by the mock-data operations, oldest first. */
  private readonly createdCustomers = new Set<string>();
  /** Mock transactions (added, or of a mock history) by account: what they spend of the world's bound. */
  private readonly mockTransactionsOf = new Map<string, number>();
  private mockTransactionTotal = 0;

  constructor() {
    this.reset();
  }

  /**
   * Back to the known state: created customers and everything else are removed. `keep` is what a fault leaves
   * as it was (the names of known customers, the accounts created for them).
   */
  reset(keep: { names?: boolean; createdAccountsOfKnown?: boolean } = {}): void {
    const names = new Map([...this.customers].map(([number, customer]) => [number, customer.name]));
    const createdOfKnown = [...this.accounts.values()].filter((a) => this.isCreated(a) && 'customerNumber' in a.holder && this.known.has(a.holder.customerNumber));
    this.customers.clear();
    this.agreements.clear();
    this.accounts.clear();
    this.createdIds.clear();
    this.createdCustomers.clear();
    this.mockTransactionsOf.clear();
    this.mockTransactionTotal = 0;
    SEED.forEach((person, i) => {
      const serial = 100_000 + i * 1_000;
      const [first, second, card] = person.amounts;
      if (person.agreement === undefined) {
        this.addCustomer({ customerNumber: person.customerNumber, name: person.name, type: 'private' });
        const holder = { customerNumber: person.customerNumber };
        this.addAccount(account(holder, person.name, serial, 'Brukskonto', 'Brukskonto', 'CACC', first));
        this.addAccount(account(holder, person.name, serial + 100, 'Sparekonto', 'Høyrentekonto', 'SVGS', second));
        this.addAccount(cardAccount(person.customerNumber, person.name, i + 1, card));
      } else {
        const agreement = this.addCorporateCustomer({ customerNumber: person.customerNumber, name: person.name, type: 'corporate' }, person.agreement);
        const holder = { agreementId: agreement.id };
        this.addAccount(account(holder, person.agreement, serial, 'Driftskonto', 'Bedriftskonto', 'CACC', first));
        this.addAccount(account(holder, person.agreement, serial + 100, 'Skattetrekkskonto', 'Skattetrekkskonto', 'TAXE', second));
      }
    });
    if (keep.names) for (const customer of this.customers.values()) customer.name = names.get(customer.customerNumber) ?? customer.name;
    if (keep.createdAccountsOfKnown) createdOfKnown.forEach((a) => this.addCreated(a));
  }

  /** Whether the customer belongs to the known state (not created through the mock-data operations). */
  isKnown(customerNumber: string): boolean {
    return this.known.has(customerNumber);
  }

  private isCreated(a: AnyAccount): boolean {
    return this.createdIds.has(a.resourceId);
  }

  /** Adds a customer; a corporate one gets a corporate agreement named after it, with no accounts yet. */
  addCustomer(customer: Customer): void {
    if (customer.type === 'corporate') this.addCorporateCustomer(customer, customer.name);
    else this.customers.set(customer.customerNumber, customer);
  }

  /** A customer of the mock-data operations; past the bound, the oldest created customer goes, with its accounts and agreements. */
  createCustomer(customer: Customer): void {
    if (this.createdCustomers.size >= MOCK_DATA_BOUNDS.createdCustomers) {
      const oldest = this.createdCustomers.values().next().value as string;
      this.removeCustomer(oldest);
    }
    this.createdCustomers.add(customer.customerNumber);
    this.addCustomer(customer);
  }

  private removeCustomer(customerNumber: string): void {
    this.createdCustomers.delete(customerNumber);
    this.customers.delete(customerNumber);
    const owned = new Set(this.agreementsOf(customerNumber).filter((a) => a.members[0] === customerNumber).map((a) => a.id));
    for (const agreement of this.agreements.values()) agreement.members = agreement.members.filter((member) => member !== customerNumber);
    for (const id of owned) this.agreements.delete(id);
    for (const [id, a] of this.accounts) {
      const held = 'customerNumber' in a.holder ? a.holder.customerNumber === customerNumber : owned.has(a.holder.agreementId);
      if (!held) continue;
      this.accounts.delete(id);
      this.createdIds.delete(id);
      this.spendMockTransactions(a, -(this.mockTransactionsOf.get(id) ?? 0));
    }
  }

  /**
   * Counts mock transactions an account gets (negative: gives back) against the world's bound; a 429
   * ACCESS_EXCEEDED when they would pass it.
   */
  spendMockTransactions(account: AnyAccount, count: number): void {
    if (count > 0 && this.mockTransactionTotal + count > MOCK_DATA_BOUNDS.mockTransactions) {
      throw new BankError(429, 'ACCESS_EXCEEDED', `this sandbox world holds ${this.mockTransactionTotal} mock transactions of at most ${MOCK_DATA_BOUNDS.mockTransactions}: initialise it to start again`);
    }
    this.mockTransactionTotal += count;
    this.mockTransactionsOf.set(account.resourceId, (this.mockTransactionsOf.get(account.resourceId) ?? 0) + count);
  }

  /** A 429 ACCESS_EXCEEDED when the customer (or the agreement it acts under) holds as many accounts as a customer may. */
  private admitAccount(holder: AnyAccount['holder']): void {
    const held = [...this.accounts.values()].filter((a) => ('customerNumber' in holder ? 'customerNumber' in a.holder && a.holder.customerNumber === holder.customerNumber : 'agreementId' in a.holder && a.holder.agreementId === holder.agreementId)).length;
    if (held >= MOCK_DATA_BOUNDS.accountsPerCustomer) {
      throw new BankError(429, 'ACCESS_EXCEEDED', `this sandbox customer holds ${held} accounts, as many as one may`);
    }
  }

  /** A corporate customer and the agreement the person acts under (its id is the psu-corporate-id). */
  private addCorporateCustomer(customer: Customer, agreementName: string): Agreement {
    this.customers.set(customer.customerNumber, customer);
    const agreement: Agreement = {
      id: uuidV5(`agreement:${customer.customerNumber}:${agreementName}`),
      name: agreementName,
      members: [customer.customerNumber],
    };
    this.agreements.set(agreement.id, agreement);
    return agreement;
  }

  addAccount(stored: AnyAccount): void {
    this.accounts.set(stored.resourceId, stored);
  }

  /**
   * A mock account for a customer: a private customer's own, or a corporate customer's agreement's. Undefined
   * when the customer does not exist.
   */
  createAccount(request: NewAccount): StoredAccount | undefined {
    const customer = this.customers.get(request.customerNumber);
    if (customer === undefined) return undefined;
    const agreement = customer.type === 'corporate' ? this.agreementsOf(customer.customerNumber)[0] : undefined;
    const holder = agreement ? { agreementId: agreement.id } : { customerNumber: customer.customerNumber };
    this.admitAccount(holder);
    this.created += 1;
    const stored = account(holder, agreement?.name ?? customer.name, CREATED_SERIAL + this.created * 10, request.accountName, request.product ?? request.accountName, request.cashAccountType ?? 'CACC', request.amountMinor ?? 0);
    stored.currency = request.currency;
    if (request.balances !== undefined) stored.balances = request.balances;
    this.addCreated(stored);
    return stored;
  }

  /** A mock card account of a private customer; undefined when there is no such private customer. */
  createCardAccount(request: NewCardAccount): StoredCardAccount | undefined {
    const customer = this.customers.get(request.customerNumber);
    if (customer?.type !== 'private') return undefined;
    this.admitAccount({ customerNumber: customer.customerNumber });
    this.created += 1;
    const stored = cardAccount(customer.customerNumber, customer.name, CREATED_SERIAL + this.created, 0);
    stored.maskedPan = request.maskedPan ?? stored.maskedPan;
    stored.resourceId = uuidV5(`card:${customer.customerNumber}:${stored.maskedPan}:${this.created}`);
    stored.currency = request.currency;
    stored.name = request.name ?? stored.name;
    stored.product = request.product ?? stored.product;
    if (request.creditLimitMinor !== undefined) stored.creditLimitMinor = request.creditLimitMinor;
    stored.balances = request.balances ?? [
      { balanceType: 'interimBooked', amountMinor: 0 },
      { balanceType: 'interimAvailable', amountMinor: stored.creditLimitMinor },
    ];
    this.addCreated(stored);
    return stored;
  }

  private addCreated(stored: AnyAccount): void {
    this.createdIds.add(stored.resourceId);
    this.addAccount(stored);
  }

  /**
   * A corporate agreement of a corporate customer (the mock-data operation POST /v1/sandbox/agreements): the
   * persons engaged in it become its members, and the owner's accounts they are engaged on move under it.
   * A string says what is wrong with the request.
   */
  createAgreement(request: { owner: string; name: string; engagements: { customer: string; iban: string }[] }): Agreement | string {
    const owner = this.customers.get(request.owner);
    if (owner?.type !== 'corporate') return `No corporate sandbox customer ${request.owner}`;
    if (this.agreementsOf(owner.customerNumber).length >= MOCK_DATA_BOUNDS.agreementsPerOwner) {
      throw new BankError(429, 'ACCESS_EXCEEDED', `the corporate customer ${owner.customerNumber} holds as many agreements as one may`);
    }
    const ownerAgreements = new Set(this.agreementsOf(owner.customerNumber).map((a) => a.id));
    const accounts: StoredAccount[] = [];
    for (const { customer, iban } of request.engagements) {
      if (!this.customers.has(customer)) return `No sandbox customer ${customer}`;
      const found = [...this.accounts.values()].find((a): a is StoredAccount => a.kind === 'account' && a.iban === iban);
      if (found === undefined || !('agreementId' in found.holder) || !ownerAgreements.has(found.holder.agreementId)) return `No account ${iban} of customer ${owner.customerNumber}`;
      accounts.push(found);
    }
    this.created += 1;
    const members = [...new Set([owner.customerNumber, ...request.engagements.map((e) => e.customer)])];
    const agreement: Agreement = { id: uuidV5(`agreement:${owner.customerNumber}:${request.name}:${this.created}`), name: request.name, members };
    this.agreements.set(agreement.id, agreement);
    for (const a of accounts) {
      a.holder = { agreementId: agreement.id };
      a.ownerName = request.name;
    }
    return agreement;
  }

  agreementsOf(customerNumber: string): Agreement[] {
    return [...this.agreements.values()].filter((a) => a.members.includes(customerNumber));
  }

  /** The agreement, if the customer may act under it. */
  agreementFor(customerNumber: string, agreementId: string): Agreement | undefined {
    const agreement = this.agreements.get(agreementId);
    return agreement?.members.includes(customerNumber) ? agreement : undefined;
  }

  /** Accounts and card accounts (open or not) the customer reaches in that context. */
  accountsIn(customerNumber: string, context: PsuContext): AnyAccount[] {
    return [...this.accounts.values()].filter((a) =>
      context.kind === 'PRIVATE'
        ? 'customerNumber' in a.holder && a.holder.customerNumber === customerNumber
        : 'agreementId' in a.holder && a.holder.agreementId === context.agreementId && this.agreementFor(customerNumber, context.agreementId) !== undefined,
    );
  }
}
