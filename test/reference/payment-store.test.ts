// The payment store's two indexes (reference/state/payment-store.ts): the approved payments awaiting a batch
// run, and the payments by duplicate key. Every request settles what is due and every initiation looks for a
// duplicate, so neither may go through every stored payment (a gauntlet's shared world holds thousands); and
// both must follow the store, so that a payment it no longer holds is never booked nor taken for a duplicate.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TestClock } from '../../reference/state/test-clock.js';
import { SandboxData } from '../../reference/state/sandbox-data.js';
import { BATCH_HOURS, Payments, SANDBOX_BATCH, type Payment, type PaymentBody } from '../../reference/state/payment-store.js';

/** A sandbox customer and one of their accounts (reference/state/sandbox-data.ts), which covers every amount here. */
const CUSTOMER = '13039319955';
const body = (n: number): PaymentBody => ({
  instructedAmount: { amount: `${n}.00`, currency: 'NOK' },
  creditorName: 'Kari Nordmann',
  creditorAccount: { iban: 'NO9386011117947' },
  debtorAccount: { iban: 'NO2518101001004', currency: 'NOK' },
});

const APPROVED_AT = new Date('2026-03-02T08:00:00Z');
/** Long after every batch run of the approval's day and the next. */
const DAYS_LATER = new Date('2026-03-05T12:00:00Z');

function store(perTpp = 1_000) {
  const clock = new TestClock();
  clock.freeze(APPROVED_AT);
  const booked: string[] = [];
  let batchHourQuestions = 0;
  const payments = new Payments(
    clock,
    new SandboxData(),
    (payment) => booked.push(payment.id),
    SANDBOX_BATCH,
    () => {
      batchHourQuestions += 1;
      return BATCH_HOURS;
    },
    { perTpp, total: 10_000, maxBytes: 32 * 1024 * 1024 },
  );
  const approved = (n: number): Payment => {
    const payment = payments.create('tpp', 'payments', 'sepa-credit-transfers', body(n));
    payments.approve(payment, CUSTOMER);
    return payment;
  };
  return { clock, payments, booked, approved, questions: () => batchHourQuestions };
}

describe('the payment store', () => {
  test('settling asks only the payments awaiting a batch run, and only once its time has come', () => {
    const { clock, payments, booked, approved, questions } = store();
    for (let n = 0; n < 2_000; n++) payments.create('tpp', 'payments', 'sepa-credit-transfers', body(n));
    const waiting = Array.from({ length: 10 }, (_, n) => approved(5_000 + n));
    assert.ok(waiting.every((p) => p.status === 'ACTC'));
    const atApproval = questions();
    for (let request = 0; request < 100; request++) payments.settleAll();
    // Going through every payment on each request asked the 10 approved ones 100 times each.
    assert.equal(questions(), atApproval, 'settleAll before any batch run is due');
    clock.freeze(DAYS_LATER);
    payments.settleAll();
    assert.deepEqual(
      waiting.map((p) => p.status),
      waiting.map(() => 'ACSC'),
    );
    assert.deepEqual(booked.sort(), waiting.map((p) => p.id).sort());
    payments.settleAll();
    assert.equal(booked.length, 10, 'a payment is booked once');
  });

  test('an approved payment the store no longer holds is never booked, nor taken for a duplicate', () => {
    const { clock, payments, booked, approved } = store(2);
    const first = approved(1);
    approved(2);
    approved(3);
    assert.equal(payments.get('tpp', first.id), undefined, "the TPP's oldest payment went first");
    assert.equal(payments.duplicateOf('tpp', body(1)), undefined);
    assert.ok(payments.duplicateOf('tpp', body(3)));
    clock.freeze(DAYS_LATER);
    payments.settleAll();
    assert.equal(booked.length, 2);
    assert.ok(!booked.includes(first.id));
  });

  test('a payment reissued by another channel waits for its batch run under its new id, as the duplicate of its new body', () => {
    const { clock, payments, booked, approved } = store();
    const payment = approved(1);
    const oldId = payment.id;
    payments.changeElsewhere(payment, { instructedAmount: { amount: '2.00', currency: 'NOK' } }, true);
    assert.notEqual(payment.id, oldId);
    assert.equal(payments.duplicateOf('tpp', body(1)), undefined);
    assert.equal(payments.duplicateOf('tpp', body(2)), payment);
    clock.freeze(DAYS_LATER);
    payments.settleAll();
    assert.equal(payment.status, 'ACSC');
    assert.deepEqual(booked, [payment.id]);
  });

  test('a cancelled or rejected payment is nobody’s duplicate, and a cancelled one is never booked', () => {
    const { clock, payments, booked, approved } = store();
    const cancelled = approved(1);
    assert.equal(payments.duplicateOf('tpp', body(1)), cancelled);
    assert.ok(payments.cancel(cancelled));
    assert.equal(payments.duplicateOf('tpp', body(1)), undefined);
    const rejected = payments.create('tpp', 'payments', 'sepa-credit-transfers', body(2));
    payments.reject(rejected);
    assert.equal(payments.duplicateOf('tpp', body(2)), undefined);
    clock.freeze(DAYS_LATER);
    payments.settleAll();
    assert.deepEqual(booked, []);
  });
});
