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
export const BALANCE_TYPES = [
  'closingBooked',
  'expected',
  'openingBooked',
  'interimAvailable',
  'interimBooked',
  'forwardAvailable',
  'nonInvoiced',
] as const;
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
  /**
   * Customers made by the mock-data operations, by who made them (a tenant of a sandbox whose PSUs all TPPs
   * share: state/tenants.ts; '' in a world of one tenant), oldest first: each is bounded on its own.
   */
  private readonly createdCustomersBy = new Map<string, Set<string>>();
  /** Who made each created customer, account and agreement (its id): initialisation removes the caller's own. */
  private readonly creatorOf = new Map<string, string>();
  /** Mock transactions (added, or of a mock history) by account and by who added them: what they spend of the bound. */
  private readonly mockTransactionsOf = new Map<string, Map<string, number>>();
  private readonly mockTransactionTotalBy = new Map<string, number>();

  constructor() {
    this.reset();
  }

  /**
   * Back to the known state. With a `creator` (a sandbox whose PSUs all its TPPs share), what that tenant made
   * goes and the known customers come back as they were, while what other tenants made stays theirs;
   * without, everything created goes. `keep` is what a fault leaves as it was (the names of known customers,
   * the accounts created for them).
   */
  reset(keep: { names?: boolean; createdAccountsOfKnown?: boolean } = {}, creator?: string): void {
    if (creator !== undefined) return this.resetFor(creator, keep);
    const names = new Map([...this.customers].map(([number, customer]) => [number, customer.name]));
    const createdOfKnown = [...this.accounts.values()].filter(
      (a) => this.isCreated(a) && 'customerNumber' in a.holder && this.known.has(a.holder.customerNumber),
    );
    this.customers.clear();
    this.agreements.clear();
    this.accounts.clear();
    this.createdIds.clear();
    this.createdCustomersBy.clear();
    this.creatorOf.clear();
    this.mockTransactionsOf.clear();
    this.mockTransactionTotalBy.clear();
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
        const agreement = this.addCorporateCustomer(
          { customerNumber: person.customerNumber, name: person.name, type: 'corporate' },
          person.agreement,
        );
        const holder = { agreementId: agreement.id };
        this.addAccount(account(holder, person.agreement, serial, 'Driftskonto', 'Bedriftskonto', 'CACC', first));
        this.addAccount(account(holder, person.agreement, serial + 100, 'Skattetrekkskonto', 'Skattetrekkskonto', 'TAXE', second));
      }
    });
    if (keep.names) for (const customer of this.customers.values()) customer.name = names.get(customer.customerNumber) ?? customer.name;
    if (keep.createdAccountsOfKnown) createdOfKnown.forEach((a) => this.addCreated(a));
  }

  /** One tenant's initialisation of a shared sandbox: its creations removed, the known customers as they were. */
  private resetFor(creator: string, keep: { names?: boolean; createdAccountsOfKnown?: boolean }): void {
    for (const customerNumber of [...(this.createdCustomersBy.get(creator) ?? [])]) this.removeCustomer(customerNumber);
    for (const [id, by] of [...this.creatorOf]) {
      if (by !== creator) continue;
      const account = this.accounts.get(id);
      if (account !== undefined && !keep.createdAccountsOfKnown) this.removeAccount(account);
      if (this.agreements.has(id)) this.agreements.delete(id);
    }
    // The known state, made afresh: its customers, agreements and accounts (ids derived, so the same) replace theirs.
    const known = new SandboxData();
    for (const [number, customer] of known.customers)
      this.customers.set(number, keep.names ? { ...customer, name: this.customers.get(number)?.name ?? customer.name } : customer);
    for (const [id, agreement] of known.agreements) this.agreements.set(id, agreement);
    for (const [id, account] of known.accounts) {
      const replaced = this.accounts.get(id);
      if (replaced !== undefined) this.giveBackMockTransactions(replaced);
      this.accounts.set(id, account);
    }
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

  /**
   * A customer of the mock-data operations, made by `creator`; past the creator's bound, its oldest created
   * customer goes, with its accounts and agreements (never another creator's).
   */
  createCustomer(customer: Customer, creator = ''): void {
    const made = entryOf(this.createdCustomersBy, creator, () => new Set<string>());
    if (made.size >= MOCK_DATA_BOUNDS.createdCustomers) this.removeCustomer(made.values().next().value as string);
    made.add(customer.customerNumber);
    this.creatorOf.set(customer.customerNumber, creator);
    this.addCustomer(customer);
  }

  private removeCustomer(customerNumber: string): void {
    this.createdCustomersBy.get(this.creatorOf.get(customerNumber) ?? '')?.delete(customerNumber);
    this.creatorOf.delete(customerNumber);
    this.customers.delete(customerNumber);
    const owned = new Set(
      this.agreementsOf(customerNumber)
        .filter((a) => a.members[0] === customerNumber)
        .map((a) => a.id),
    );
    for (const agreement of this.agreements.values()) agreement.members = agreement.members.filter((member) => member !== customerNumber);
    for (const id of owned) this.agreements.delete(id);
    for (const a of [...this.accounts.values()]) {
      const held = 'customerNumber' in a.holder ? a.holder.customerNumber === customerNumber : owned.has(a.holder.agreementId);
      if (held) this.removeAccount(a);
    }
  }

  private removeAccount(account: AnyAccount): void {
    this.accounts.delete(account.resourceId);
    this.createdIds.delete(account.resourceId);
    this.creatorOf.delete(account.resourceId);
    this.giveBackMockTransactions(account);
  }

  /** What an account's mock transactions spent of their adders' bounds, given back (the account goes, or is made afresh). */
  private giveBackMockTransactions(account: AnyAccount): void {
    for (const [by, count] of this.mockTransactionsOf.get(account.resourceId) ?? [])
      this.mockTransactionTotalBy.set(by, (this.mockTransactionTotalBy.get(by) ?? 0) - count);
    this.mockTransactionsOf.delete(account.resourceId);
  }

  /**
   * Counts mock transactions `spender` gives an account (negative: gives back) against its bound; a 429
   * ACCESS_EXCEEDED when they would pass it.
   */
  spendMockTransactions(account: AnyAccount, count: number, spender = ''): void {
    const total = this.mockTransactionTotalBy.get(spender) ?? 0;
    if (count > 0 && total + count > MOCK_DATA_BOUNDS.mockTransactions) {
      throw new BankError(
        429,
        'ACCESS_EXCEEDED',
        `this sandbox holds ${total} mock transactions of yours, of at most ${MOCK_DATA_BOUNDS.mockTransactions}: initialise it to start again`,
      );
    }
    this.mockTransactionTotalBy.set(spender, total + count);
    const spent = entryOf(this.mockTransactionsOf, account.resourceId, () => new Map<string, number>());
    spent.set(spender, (spent.get(spender) ?? 0) + count);
  }

  /** A 429 ACCESS_EXCEEDED when the customer (or the agreement it acts under) holds as many accounts as a customer may. */
  private admitAccount(holder: AnyAccount['holder']): void {
    const held = [...this.accounts.values()].filter((a) =>
      'customerNumber' in holder
        ? 'customerNumber' in a.holder && a.holder.customerNumber === holder.customerNumber
        : 'agreementId' in a.holder && a.holder.agreementId === holder.agreementId,
    ).length;
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
  createAccount(request: NewAccount, creator = ''): StoredAccount | undefined {
    const customer = this.customers.get(request.customerNumber);
    if (customer === undefined) return undefined;
    const agreement = customer.type === 'corporate' ? this.agreementsOf(customer.customerNumber)[0] : undefined;
    const holder = agreement ? { agreementId: agreement.id } : { customerNumber: customer.customerNumber };
    this.admitAccount(holder);
    this.created += 1;
    const stored = account(
      holder,
      agreement?.name ?? customer.name,
      CREATED_SERIAL + this.created * 10,
      request.accountName,
      request.product ?? request.accountName,
      request.cashAccountType ?? 'CACC',
      request.amountMinor ?? 0,
    );
    stored.currency = request.currency;
    if (request.balances !== undefined) stored.balances = request.balances;
    this.addCreated(stored, creator);
    return stored;
  }

  /** A mock card account of a private customer; undefined when there is no such private customer. */
  createCardAccount(request: NewCardAccount, creator = ''): StoredCardAccount | undefined {
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
    this.addCreated(stored, creator);
    return stored;
  }

  private addCreated(stored: AnyAccount, creator?: string): void {
    this.createdIds.add(stored.resourceId);
    if (creator !== undefined) this.creatorOf.set(stored.resourceId, creator);
    this.addAccount(stored);
  }

  /**
   * A corporate agreement of a corporate customer (the mock-data operation POST /v1/sandbox/agreements): the
   * persons engaged in it become its members, and the owner's accounts they are engaged on move under it.
   * A string says what is wrong with the request.
   */
  createAgreement(
    request: { owner: string; name: string; engagements: { customer: string; iban: string }[] },
    creator = '',
  ): Agreement | string {
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
      if (found === undefined || !('agreementId' in found.holder) || !ownerAgreements.has(found.holder.agreementId))
        return `No account ${iban} of customer ${owner.customerNumber}`;
      accounts.push(found);
    }
    this.created += 1;
    const members = [...new Set([owner.customerNumber, ...request.engagements.map((e) => e.customer)])];
    const agreement: Agreement = {
      id: uuidV5(`agreement:${owner.customerNumber}:${request.name}:${this.created}`),
      name: request.name,
      members,
    };
    this.agreements.set(agreement.id, agreement);
    this.creatorOf.set(agreement.id, creator);
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
        : 'agreementId' in a.holder &&
          a.holder.agreementId === context.agreementId &&
          this.agreementFor(customerNumber, context.agreementId) !== undefined,
    );
  }
}

/** The entry of `key`, made the first time (a store of state: never cleared as a memo would be). */
function entryOf<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  const found = map.get(key);
  if (found !== undefined) return found;
  const made = make();
  map.set(key, made);
  return made;
}
