// Payments of the reference bank: one record per initiation, its transactionStatus
// machine, and the sandbox batch processing (specification, "Sandbox mock data":
// every payment except periodic ones is processed 5 times a day).
//
// transactionStatus machine (the specification shows the states, not the moves; this
// bank documents its own):
//   RCVD --PSU approves in SCA--> ACTC (funds cover it) | ACCP + fundsAvailable false (they do not)
//   RCVD --PSU rejects, or the TPP cancels--> RJCT | CANC
//   ACTC --next batch run--> ACSC (booked: the balance moves, a booked transaction appears)
//   ACCP (no funds) --next batch run--> RJCT
//   periodic payments stay ACTC: the batch runs leave them alone.
//   a payment with a requestedExecutionDate ahead takes part only in the runs from that day on.
//   norwegian-domestic-payment-to-self between the PSU's own accounts: ACSC at once (instant).
import { randomUUID } from 'node:crypto';
import type { TestClock } from './test-clock.js';
import { INSTANT_TO_SELF, type PaymentProduct, type PaymentService } from '../../lib/spec/payment-products.js';
import { day } from '../serialisation.js';
import { BoundedStore, textBytes } from './bounded-store.js';
import type { PsuContext, SandboxData, StoredAccount } from './sandbox-data.js';
import { DEFAULT_STORE_BOUNDS, type Bounds } from './store-bounds.js';

/** Hours (UTC) of the 5 daily sandbox batch runs. */
export const BATCH_HOURS = [6, 9, 12, 15, 18] as const;

export type TransactionStatus = 'RCVD' | 'ACTC' | 'ACCP' | 'ACSC' | 'RJCT' | 'CANC';

interface AmountValue {
  amount: string;
  currency: string;
}

/** The parts of a payment body the bank acts on (validated before). */
export interface PaymentBody {
  instructedAmount?: AmountValue;
  debtorAccount?: { iban: string; currency: string };
  creditorAccount?: { iban: string };
  creditorName?: string;
  requestedExecutionDate?: string;
  payments?: { instructedAmount: AmountValue; creditorAccount: { iban: string }; creditorName: string }[];
  [field: string]: unknown;
}

export interface Payment {
  id: string;
  tppId: string;
  service: PaymentService;
  product: PaymentProduct;
  body: PaymentBody;
  status: TransactionStatus;
  /** Set when the PSU approved without the funds to cover it. */
  fundsAvailable?: boolean;
  createdAt: Date;
  approvedAt?: Date;
  /** The PSU who approved it. */
  customerNumber?: string;
  /** Key of a logical duplicate (debtor, creditor, amount, execution date). */
  duplicateKey: string;
  /** The day (YYYY-MM-DD) before which it is not executed: its requestedExecutionDate, when it asks for one. */
  executeOn?: string;
}

/**
 * Total of a payment in minor units of its currency (bulk: the sum of its entries); with `inCurrency`, of
 * the entries in that currency alone (a bulk may mix currencies, which cannot be added up).
 */
export function totalMinor(
  body: Pick<PaymentBody, 'instructedAmount' | 'payments' | 'debtorAccount'>,
  inCurrency?: string,
): { minor: bigint; currency: string } {
  const entries = body.payments ?? (body.instructedAmount ? [{ instructedAmount: body.instructedAmount }] : []);
  let minor = 0n;
  let currency = inCurrency ?? body.debtorAccount?.currency ?? '';
  for (const { instructedAmount } of entries) {
    if (inCurrency !== undefined && instructedAmount?.currency !== inCurrency) continue;
    currency = instructedAmount?.currency ?? currency;
    const [whole = '0', fraction = ''] = String(instructedAmount?.amount ?? '0')
      .replace('-', '')
      .split('.');
    if (!/^\d+$/.test(whole) || !/^\d*$/.test(fraction)) continue;
    minor += BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0').slice(0, 2));
  }
  return { minor, currency };
}

function duplicateKeyOf(tppId: string, body: PaymentBody): string {
  const entries = body.payments ?? [body];
  // A body let through by a fault may lack any part: the key never fails.
  return [
    tppId,
    body.debtorAccount?.iban,
    body.requestedExecutionDate ?? '',
    ...entries.map((p) => `${p.creditorAccount?.iban}|${p.instructedAmount?.amount}|${p.instructedAmount?.currency}`),
  ].join('\n');
}

/** The next batch run strictly after `time`, the runs at `hours` (UTC) every day. */
export function nextBatchRun(time: Date, hours: readonly number[] = BATCH_HOURS): Date {
  const day = new Date(Date.UTC(time.getUTCFullYear(), time.getUTCMonth(), time.getUTCDate()));
  for (let d = 0; d < 2; d++) {
    for (const hour of hours) {
      const run = new Date(day.getTime() + d * 86_400_000 + hour * 3_600_000);
      if (run > time) return run;
    }
  }
  throw new Error('unreachable: a batch run happens every day');
}

/** Whether the sandbox batch runs take up this approved payment. */
export type BatchSelection = (payment: Payment) => boolean;

/** The specification's sandbox: "batch processing for all payments except periodic ones". */
export const SANDBOX_BATCH: BatchSelection = (payment) => payment.service !== 'periodic-payments';

export class Payments {
  /** Bounded: a TPP's oldest payments go first (store-bounds.ts); a body is counted at its JSON size. */
  private readonly byId: BoundedStore<string, Payment>;
  /**
   * The stored payments by duplicate key, and the approved ones a batch run has yet to settle with the time of
   * that run: every request settles what is due (settleAll) and every initiation looks for a duplicate, so
   * neither may go through all payments (a gauntlet's shared world holds thousands). Both follow the store:
   * a payment leaves them when it leaves it.
   */
  private readonly byDuplicateKey = new Map<string, Set<Payment>>();
  private readonly awaitingBatch = new Map<Payment, number>();
  /** The earliest batch run an awaiting payment waits for (ms): until then settleAll has nothing to do. */
  private nextBatchDue = Number.POSITIVE_INFINITY;

  constructor(
    private readonly clock: TestClock,
    private readonly data: SandboxData,
    /** Books a settled payment on the debtor account (the transactions hook). */
    private readonly book: (payment: Payment, account: StoredAccount, bookedAt: Date) => void = () => undefined,
    /** Which approved payments a batch run takes up: every one but periodic ones (the specification's sandbox). */
    private readonly batchTakes: BatchSelection = SANDBOX_BATCH,
    /** The hours (UTC) of the batch runs that settle this payment. */
    private readonly batchHoursOf: (payment: Payment) => readonly number[] = () => BATCH_HOURS,
    bounds: Bounds = DEFAULT_STORE_BOUNDS.payments,
  ) {
    this.byId = new BoundedStore({
      ...bounds,
      tppOf: (payment) => payment.tppId,
      sizeOf: (payment) => textBytes(JSON.stringify(payment.body)),
      removed: (payment) => {
        this.unindex(payment);
        this.awaitingBatch.delete(payment);
      },
    });
  }

  /** An active payment with the same debtor, creditor, amount and date, if any. */
  duplicateOf(tppId: string, body: PaymentBody): Payment | undefined {
    for (const payment of this.byDuplicateKey.get(duplicateKeyOf(tppId, body)) ?? [])
      if (payment.status !== 'CANC' && payment.status !== 'RJCT') return payment;
    return undefined;
  }

  /** A payment received; `executeOn` is the day it may be executed from (none: at once). */
  create(tppId: string, service: PaymentService, product: PaymentProduct, body: PaymentBody, executeOn?: string): Payment {
    const payment: Payment = {
      id: randomUUID(),
      tppId,
      service,
      product,
      body,
      status: 'RCVD',
      createdAt: this.clock.now(),
      duplicateKey: duplicateKeyOf(tppId, body),
      ...(executeOn === undefined ? {} : { executeOn }),
    };
    this.byId.set(payment.id, payment);
    if (this.byId.has(payment.id)) this.index(payment);
    return payment;
  }

  /** The TPP's payment, brought up to date with the batch runs since it was approved. */
  get(tppId: string, id: string): Payment | undefined {
    const payment = this.byId.get(id);
    if (payment === undefined || payment.tppId !== tppId) return undefined;
    this.settle(payment);
    return payment;
  }

  /** The debtor account of a payment, when it belongs to this PSU (in `context`, when given). */
  debtorAccountOf(payment: Payment, customerNumber: string, context?: PsuContext): StoredAccount | undefined {
    return this.ownAccount(payment.body.debtorAccount?.iban, customerNumber, context);
  }

  /**
   * The account with this IBAN, when it belongs to this PSU: held by the PSU or granted under one of the
   * PSU's agreements; in a context, only those of the context (What the service does > PSU contexts).
   */
  ownAccount(iban: string | undefined, customerNumber: string, context?: PsuContext): StoredAccount | undefined {
    const account = [...this.data.accounts.values()].find((a): a is StoredAccount => 'iban' in a && a.iban === iban);
    if (account === undefined) return undefined;
    const { holder } = account;
    if ('customerNumber' in holder) return holder.customerNumber === customerNumber && context?.kind !== 'CORPORATE' ? account : undefined;
    const member = this.data.agreements.get(holder.agreementId)?.members.includes(customerNumber) ?? false;
    const inContext = context === undefined || (context.kind === 'CORPORATE' && context.agreementId === holder.agreementId);
    return member && inContext ? account : undefined;
  }

  /** Whether the body pays more than its debtor account (a sandbox account, in its currency) holds. */
  lacksFunds(body: PaymentBody): boolean {
    const account = [...this.data.accounts.values()].find((a): a is StoredAccount => 'iban' in a && a.iban === body.debtorAccount?.iban);
    return account !== undefined && !coveredBy({ body }, account);
  }

  /** The PSU approved the payment in SCA: accepted, or accepted without funds. */
  approve(payment: Payment, customerNumber: string): void {
    if (payment.status !== 'RCVD') return;
    payment.customerNumber = customerNumber;
    payment.approvedAt = this.clock.now();
    const account = this.debtorAccountOf(payment, customerNumber);
    const covered = account === undefined || coveredBy(payment, account);
    payment.status = covered ? 'ACTC' : 'ACCP';
    if (!covered) payment.fundsAvailable = false;
    this.awaitBatch(payment);
    // Release 1.21.8: a transfer between the PSU's own accounts is instant, booked at once (on its day, when it asks for one ahead).
    const creditor = this.ownAccount(payment.body.creditorAccount?.iban, customerNumber);
    const due = payment.executeOn === undefined || payment.executeOn <= day(payment.approvedAt);
    if (covered && due && account !== undefined && payment.product === INSTANT_TO_SELF && creditor !== undefined) {
      payment.status = 'ACSC';
      this.awaitingBatch.delete(payment);
      this.book(payment, account, payment.approvedAt);
    }
  }

  /** An approved payment treated as lacking funds (used to model an atomic basket). */
  withoutFunds(payment: Payment): void {
    if (payment.status !== 'ACTC' && payment.status !== 'ACCP') return;
    payment.status = 'ACCP';
    payment.fundsAvailable = false;
  }

  reject(payment: Payment): void {
    if (payment.status === 'RCVD') payment.status = 'RJCT';
  }

  /** Cancellation by the TPP: possible until the payment is booked. */
  cancel(payment: Payment): boolean {
    if (payment.status === 'ACSC' || payment.status === 'RJCT' || payment.status === 'CANC') return false;
    payment.status = 'CANC';
    this.awaitingBatch.delete(payment);
    return true;
  }

  /**
   * The PSU changed the payment in another channel of the bank (sandbox operation, capability bank-channel).
   * Its paymentId stays valid (release 1.18.0); `reissued` is what a bank that breaks that does: a new id.
   */
  changeElsewhere(payment: Payment, change: Pick<PaymentBody, 'instructedAmount' | 'requestedExecutionDate'>, reissued = false): Payment {
    this.unindex(payment);
    payment.body = { ...payment.body, ...change };
    payment.duplicateKey = duplicateKeyOf(payment.tppId, payment.body);
    if (reissued) {
      const awaiting = this.awaitingBatch.get(payment);
      this.byId.delete(payment.id);
      payment.id = randomUUID();
      this.byId.set(payment.id, payment);
      if (awaiting !== undefined && this.byId.has(payment.id)) this.awaitingBatch.set(payment, awaiting);
    }
    if (this.byId.has(payment.id)) this.index(payment);
    return payment;
  }

  /** Runs the batch runs due for every payment (before any request reads balances or transactions). */
  settleAll(): void {
    const now = this.clock.now().getTime();
    if (now < this.nextBatchDue) return;
    let next = Number.POSITIVE_INFINITY;
    for (const [payment, due] of this.awaitingBatch) {
      if (due <= now) this.settle(payment);
      if (payment.status === 'ACTC' || payment.status === 'ACCP') next = Math.min(next, due);
      else this.awaitingBatch.delete(payment);
    }
    this.nextBatchDue = next;
  }

  clear(): void {
    this.byId.clear();
    this.byDuplicateKey.clear();
    this.awaitingBatch.clear();
    this.nextBatchDue = Number.POSITIVE_INFINITY;
  }

  private index(payment: Payment): void {
    let same = this.byDuplicateKey.get(payment.duplicateKey);
    if (same === undefined) this.byDuplicateKey.set(payment.duplicateKey, (same = new Set()));
    same.add(payment);
  }

  private unindex(payment: Payment): void {
    const same = this.byDuplicateKey.get(payment.duplicateKey);
    same?.delete(payment);
    if (same?.size === 0) this.byDuplicateKey.delete(payment.duplicateKey);
  }

  /** An approved payment (ACTC, ACCP) waits for the batch run that settles it, when batch runs take it up. */
  private awaitBatch(payment: Payment): void {
    const due = this.batchRunOf(payment);
    if (due === undefined || !this.byId.has(payment.id)) return;
    this.awaitingBatch.set(payment, due.getTime());
    this.nextBatchDue = Math.min(this.nextBatchDue, due.getTime());
  }

  /** The batch run that settles an approved payment (none for one the batch runs do not take up). */
  private batchRunOf(payment: Payment): Date | undefined {
    if (payment.approvedAt === undefined || !this.batchTakes(payment)) return undefined;
    // Not executed before its day: the first run it takes part in is its day's first, when that is later.
    const dayStart = payment.executeOn === undefined ? undefined : new Date(`${payment.executeOn}T00:00:00Z`);
    return nextBatchRun(
      dayStart !== undefined && dayStart > payment.approvedAt ? new Date(dayStart.getTime() - 1) : payment.approvedAt,
      this.batchHoursOf(payment),
    );
  }

  /** Runs the batch runs that happened since the approval (periodic payments are not batch-processed). */
  private settle(payment: Payment): void {
    if (payment.status !== 'ACTC' && payment.status !== 'ACCP') return;
    const run = this.batchRunOf(payment);
    if (run === undefined || run > this.clock.now()) return;
    const account = payment.customerNumber === undefined ? undefined : this.debtorAccountOf(payment, payment.customerNumber);
    if (payment.fundsAvailable === false || (account !== undefined && !coveredBy(payment, account))) {
      payment.status = 'RJCT';
      payment.fundsAvailable = false;
      return;
    }
    payment.status = 'ACSC';
    if (account !== undefined) this.book(payment, account, run);
  }
}

/** Whether the account's balance covers the payment: its amounts in the account's currency (others cannot be compared). */
function coveredBy(payment: Pick<Payment, 'body'>, account: StoredAccount): boolean {
  const { minor } = totalMinor(payment.body, account.currency);
  const available = account.balances.find((b) => b.balanceType === 'expected') ?? account.balances[0];
  return available === undefined || BigInt(available.amountMinor) >= minor;
}
