// A World: all state of one sandbox, its customers, accounts, consents, payments, SCA, clock, quotas, register
// entries. A bank keeps one world per tenant (a key holder: reference/state/tenants.ts), and a request meets its TPP's
// world as `request.world`. Nothing is global, so several banks (and worlds) live side by side in one process.
// State knows nothing of the bank's behaviour switches (reference/switches.ts): where one changes a state
// rule, the method takes what it needs as an argument.
import { randomBytes } from 'node:crypto';
import { day } from '../serialisation.js';
import { uuidV5 } from '../ids.js';
import { Baskets } from './basket-store.js';
import { TestClock } from './test-clock.js';
import { Consents } from './consent-store.js';
import { SandboxData, type StoredAccount } from './sandbox-data.js';
import { UnattendedReads } from './unattended-reads.js';
import { Payments, SANDBOX_BATCH, totalMinor, type BatchSelection, type Payment } from './payment-store.js';
import { PsuDirectory } from './psu-directory.js';
import { ScaState } from './sca-state.js';
import { SimulatedFailures } from './simulated-failures.js';
import { DEFAULT_STORE_BOUNDS, type StoreBoundsConfig } from './store-bounds.js';
import { TppRegister } from './tpp-register.js';
import { bookedPayments, type StoredTransaction } from './transaction-history.js';

/** What every world of one bank shares: the address clients reach it at (known once it listens). */
export interface BankSite {
  baseUrl: string;
}

export interface WorldOptions {
  /** Which approved payments the sandbox batch runs take up (the specification's rule by default). */
  batchTakes?: BatchSelection;
  /** When the batch runs take a payment up (every day at the specification's hours by default). */
  batchHours?: (payment: Payment) => readonly number[];
  /** The key of this world's psu-ids; a random one by default. */
  psuIdSecret?: Buffer;
  /** The bank this world belongs to; a site of its own by default. */
  site?: BankSite;
  /**
   * The PSUs (customers, agreements, accounts) this world shares with the other tenants of its bank (a sandbox
   * of one world of PSUs seen by many TPPs: state/tenants.ts); its own by default.
   */
  sharedData?: SandboxData;
  /** Who this world's tenant is: what it makes in shared data is its own to remove. */
  tenant?: string;
}

export class World {
  readonly clock = new TestClock();
  readonly data: SandboxData;
  /** The tenant whose world this is; what it makes in shared data is recorded as its. */
  readonly tenant: string;
  /** Whether `data` is shared with other tenants (its initialisation then removes only what this one made). */
  private readonly sharesData: boolean;
  readonly consents: Consents;
  readonly psuIds: PsuDirectory;
  readonly sca: ScaState;
  readonly payments: Payments;
  readonly baskets: Baskets;
  readonly unattendedReads = new UnattendedReads();
  readonly simulatedFailures = new SimulatedFailures();
  readonly register = new TppRegister();

  private readonly site: BankSite;

  /** `bounds`: how much of each kind of record this world keeps (store-bounds.ts). */
  constructor(options: WorldOptions = {}, bounds: StoreBoundsConfig = DEFAULT_STORE_BOUNDS) {
    this.site = options.site ?? { baseUrl: '' };
    this.data = options.sharedData ?? new SandboxData();
    this.sharesData = options.sharedData !== undefined;
    this.tenant = options.tenant ?? '';
    this.consents = new Consents(this.data, bounds.consents);
    this.psuIds = new PsuDirectory(this.data, options.psuIdSecret ?? randomBytes(32));
    this.sca = new ScaState(this.clock, bounds);
    this.payments = new Payments(
      this.clock,
      this.data,
      (payment, account, at) => bookPayment(this.data, payment, account, at),
      options.batchTakes ?? SANDBOX_BATCH,
      options.batchHours,
      bounds.payments,
    );
    this.baskets = new Baskets(bounds.baskets);
  }

  /** The address clients reach the bank at: its links and scaRedirect point there. */
  get baseUrl(): string {
    return this.site.baseUrl;
  }

  /**
   * Sandbox initialisation: the known state, and nothing else (clock included); `keep` is what a fault leaves as
   * it was. In shared data, only what this tenant made goes, and the known customers come back as they were.
   */
  reset(keep: Parameters<SandboxData['reset']>[0] = {}): void {
    this.data.reset(keep, this.sharesData ? this.tenant : undefined);
    this.consents.clear();
    this.psuIds.clear();
    this.sca.clear();
    this.payments.clear();
    this.baskets.clear();
    this.unattendedReads.clear();
    this.simulatedFailures.clear();
    this.register.clear();
    this.clock.reset();
  }
}

/**
 * A settled payment moves the debtor account's balances and appears among its booked transactions, with a
 * transactionId derived from the paymentId (stable, like every booked transaction). A creditor account of
 * this bank is credited the same way.
 */
function bookPayment(data: SandboxData, payment: Payment, account: StoredAccount, bookedAt: Date): void {
  const entries = payment.body.payments ?? [payment.body];
  entries.forEach((entry, i) => {
    const minor = Number(totalMinor({ ...(entry.instructedAmount ? { instructedAmount: entry.instructedAmount } : {}) }).minor);
    const creditor = [...data.accounts.values()].find((a): a is StoredAccount => 'iban' in a && a.iban === entry.creditorAccount?.iban);
    const common = {
      status: 'booked' as const,
      bookingDate: day(bookedAt),
      valueDate: day(bookedAt),
      remittance: text((entry as { remittanceInformationUnstructured?: unknown }).remittanceInformationUnstructured),
      endToEndId: text((entry as { endToEndIdentification?: unknown }).endToEndIdentification) || 'NOTPROVIDED',
      merchantCategoryCode: '0000',
    };
    book(account, {
      ...common,
      transactionId: uuidV5(`payment:${payment.id}:${i}`),
      amountMinor: -minor,
      counterparty: { name: text(entry.creditorName), iban: text(entry.creditorAccount?.iban) },
    });
    if (creditor !== undefined) {
      book(creditor, {
        ...common,
        transactionId: uuidV5(`payment:${payment.id}:${i}:credit`),
        amountMinor: minor,
        counterparty: { name: account.name, iban: account.iban },
      });
    }
  });
}

/** Booked payments an account keeps: the newest, so that a TPP settling payments for ever does not grow the bank. */
const BOOKED_PAYMENTS_KEPT = 5_000;

/** One booked transaction on an account, its balances moved by its amount. */
function book(account: StoredAccount, transaction: StoredTransaction): void {
  for (const balance of account.balances) balance.amountMinor += transaction.amountMinor;
  bookedPayments.set(account, [...(bookedPayments.get(account) ?? []), transaction].slice(-BOOKED_PAYMENTS_KEPT));
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
