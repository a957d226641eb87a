// Simulated batch processing of payments, 5 times a day (06, 09, 12, 15, 18 Oslo time),
// for all payments except periodic ones. Runs lazily when a request reaches a world, so that
// moving the sandbox clock forward runs the batches that fall in between.

import { randomUUID } from 'node:crypto';
import { DAY_MS, addDays, isoDateTime, osloDate, osloLocalToUtc } from './clock.js';
import { convert } from './money.js';
import { LIMITS, type Account, type Payment, type World } from './model.js';
import { NCBCT, SEPA } from './payment-rules.js';

export const BATCH_HOURS = [6, 9, 12, 15, 18];
const MAX_CATCH_UP_RUNS = 20;

/** Batch run instants in (from, to]. */
function runsBetween(from: number, to: number): number[] {
  const start = Math.max(from, to - 10 * DAY_MS);
  const out: number[] = [];
  let date = osloDate(start - DAY_MS);
  const last = osloDate(to + DAY_MS);
  while (date <= last) {
    for (const h of BATCH_HOURS) {
      const t = osloLocalToUtc(date, h);
      if (t > from && t <= to) out.push(t);
    }
    date = addDays(date, 1);
  }
  return out.slice(-MAX_CATCH_UP_RUNS);
}

/** The first batch run strictly after `t`. */
export function nextRunAfter(t: number): number {
  let date = osloDate(t - DAY_MS);
  for (let i = 0; i < 4; i++) {
    for (const h of BATCH_HOURS) {
      const run = osloLocalToUtc(date, h);
      if (run > t) return run;
    }
    date = addDays(date, 1);
  }
  return t + DAY_MS;
}

/** Runs the batches due since the last look at this world. */
export function catchUp(world: World): void {
  const now = world.now();
  if (now >= world.lastBatchCheck && world.nextBatchAt !== undefined && now < world.nextBatchAt) {
    world.lastBatchCheck = now;
    return;
  }
  if (now >= world.lastBatchCheck) {
    for (const t of runsBetween(world.lastBatchCheck, now)) runBatch(world, t);
  }
  // (a clock moved back just restarts the bookkeeping)
  world.lastBatchCheck = now;
  world.nextBatchAt = nextRunAfter(now);
}

/** Funds available for payments on an account. */
export function availableFunds(a: Account): bigint {
  const avail = a.balances.find((b) => b.balanceType === 'interimAvailable');
  if (avail) return convert(avail.amount, avail.currency, a.currency);
  const first = a.balances[0];
  return (first ? convert(first.amount, first.currency, a.currency) : 0n) + a.creditLine;
}

function postToAccount(world: World, a: Account, amount: bigint, at: number, fill: (t: Account['transactions'][number]) => void): void {
  const date = osloDate(at);
  for (const b of a.balances) {
    b.amount += convert(amount, a.currency, b.currency);
    b.lastChangeDateTime = isoDateTime(at);
  }
  const t = {
    transactionId: randomUUID(),
    entryReference: `E${String(world.nextSeq()).padStart(8, '0')}`,
    bookingDate: date,
    valueDate: date,
    amount,
    currency: a.currency,
    remittance: [],
    proprietary: {},
    seq: world.nextSeq(),
  };
  fill(t);
  a.transactions.push(t);
  if (a.transactions.length > LIMITS.transactionsPerAccount)
    a.transactions.splice(0, a.transactions.length - LIMITS.transactionsPerAccount);
}

/** Executes a payment: debits the debtor account per item when funds suffice. */
function execute(world: World, p: Payment, at: number): void {
  const debtor = world.accounts.get(p.debtorAccountId);
  const debtorCustomer = debtor ? world.customers.get(debtor.customerNumber) : undefined;
  let executed = 0;
  let feeCharged = false;
  for (const item of p.items) {
    if (item.executed) {
      executed++;
      continue;
    }
    if (!debtor || debtor.status !== 'enabled') continue;
    let debit = convert(item.amount, item.currency, debtor.currency);
    if (!feeCharged && p.fee) debit += convert(p.fee.amount, p.fee.currency, debtor.currency);
    if (debit > availableFunds(debtor)) continue;
    feeCharged = true;
    postToAccount(world, debtor, -debit, at, (t) => {
      t.creditorName = item.creditorName;
      t.creditorAccount = item.creditorIban ? { iban: item.creditorIban } : { bban: item.creditorBban ?? '' };
      if (item.remittance) t.remittance = [item.remittance];
      if (item.endToEndId) t.endToEndId = item.endToEndId;
      t.bankTransactionCode = 'PMNT-ICDT-DMCT';
      t.proprietary['1'] = p.paymentId;
    });
    const creditor = item.creditorIban
      ? world.accountByIban(item.creditorIban)
      : item.creditorBban
        ? world.accountByBban(item.creditorBban)
        : undefined;
    if (creditor && creditor.status === 'enabled') {
      postToAccount(world, creditor, convert(item.amount, item.currency, creditor.currency), at, (t) => {
        t.debtorName = debtorCustomer?.name ?? '';
        t.debtorAccount = debtor.iban ? { iban: debtor.iban } : { bban: debtor.bban ?? '' };
        if (item.remittance) t.remittance = [item.remittance];
        if (item.endToEndId) t.endToEndId = item.endToEndId;
        t.bankTransactionCode = 'PMNT-RCDT-DMCT';
      });
    }
    item.executed = true;
    executed++;
  }
  const settledStatus = p.product === SEPA || p.product === NCBCT ? 'ACSP' : 'ACSC';
  if (executed === p.items.length) {
    p.status = settledStatus;
    p.fundsAvailable = true;
    p.psuMessage = undefined;
  } else if (executed > 0) {
    p.status = 'PART';
    p.fundsAvailable = false;
    p.psuMessage = 'Some payments of the bulk were rejected for lack of funds';
  } else {
    p.status = 'ACCP';
    p.fundsAvailable = false;
    p.psuMessage = 'The payment was rejected for lack of funds';
  }
}

export function runBatch(world: World, at: number): number {
  const today = osloDate(at);
  let touched = 0;
  for (const p of world.payments.values()) {
    if (p.service === 'periodic-payments') continue;
    switch (p.status) {
      case 'RCVD': {
        // never authorised: rejected once its execution date has passed
        const due = p.executionDate ?? osloDate(p.createdAt);
        if (due < today) {
          p.status = 'RJCT';
          p.psuMessage = 'The payment was not authorised before its execution date';
          touched++;
        }
        break;
      }
      case 'ACTC':
      case 'ACWC':
        if ((p.executionDate ?? today) <= today) {
          execute(world, p, at);
          touched++;
        }
        break;
      case 'ACSP':
        p.status = 'ACSC';
        touched++;
        break;
      default:
        break;
    }
  }
  return touched;
}
