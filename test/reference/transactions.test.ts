// Transactions of consented accounts: booked and pending, stable ids, filters,
// pagination links that carry the limit, details, card transactions.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { accountsOf, consent, withBank } from './helpers.js';

type Bank = Awaited<ReturnType<typeof withBank>>;

interface Entry {
  transactionId?: string;
  bookingDate?: string;
  valueDate: string;
  transactionAmount: { amount: string; currency: string };
  remittanceInformationUnstructured: string[];
  _links?: { transactionDetails: { href: string; verbs: string[] } };
}

interface Report {
  transactions: { booked?: Entry[]; pending?: Entry[]; _links: Record<string, { href: string; verbs: string[] }> };
}

describe('transactions', () => {
  let b: Bank;
  let psuId: string;
  let accountId: string;
  before(async () => {
    b = await withBank();
    psuId = (await consent(b.client, { nationalId: '13039319955' })).psuId;
    accountId = accountsOf(await b.client.request({ path: '/v1/accounts', headers: { 'psu-id': psuId } }))[0]!.resourceId;
  });
  after(async () => {
    await b.close();
  });

  const list = async (query = '') => {
    const res = await b.client.request({ path: `/v1/accounts/${accountId}/transactions${query}`, headers: { 'psu-id': psuId } });
    assert.equal(res.status, 200, res.text);
    return (res.json() as Report).transactions;
  };

  test('booked transactions have stable ids, string amounts and remittance as an array; pending ones come with both', async () => {
    const first = await list('?bookingStatus=both');
    const second = await list('?bookingStatus=both');
    assert.ok(first.booked!.length > 20);
    assert.equal(first.pending!.length, 2);
    assert.deepEqual(
      first.booked!.map((t) => t.transactionId),
      second.booked!.map((t) => t.transactionId),
    );
    for (const t of first.booked!) {
      assert.match(t.transactionAmount.amount, /^-?\d+\.\d{2}$/);
      assert.ok(Array.isArray(t.remittanceInformationUnstructured));
      assert.ok(t.transactionId);
    }
    assert.equal((await list()).pending, undefined, 'default bookingStatus is booked');
    assert.equal((await list('?bookingStatus=pending')).booked, undefined);
  });

  test('dateFrom and dateTo filter; bad values are 400 FORMAT_ERROR', async () => {
    const all = (await list()).booked!;
    const from = all[5]!.bookingDate!;
    const filtered = (await list(`?dateFrom=${from}`)).booked!;
    assert.ok(filtered.every((t) => t.bookingDate! >= from));
    assert.equal(filtered.length, 6);
    for (const query of [
      '?dateFrom=2025-02-30',
      '?dateFrom=2025-03-01&dateTo=2025-02-01',
      '?bookingStatus=information',
      '?limit=0',
      '?offset=-1',
    ]) {
      const res = await b.client.request({ path: `/v1/accounts/${accountId}/transactions${query}`, headers: { 'psu-id': psuId } });
      assert.equal(res.status, 400, query);
      assert.equal((res.json() as { code: string }).code, 'FORMAT_ERROR');
    }
  });

  test('pagination: limit and offset, with first/next/previous/last links that carry the limit', async () => {
    const all = (await list()).booked!;
    const pageOne = await list('?limit=10');
    assert.deepEqual(
      pageOne.booked!.map((t) => t.transactionId),
      all.slice(0, 10).map((t) => t.transactionId),
    );
    assert.ok(pageOne._links.next!.href.includes('limit=10'));
    assert.equal(pageOne._links.previous, undefined);
    const pageTwo = await list(new URL(pageOne._links.next!.href, b.bank.baseUrl).search);
    assert.deepEqual(
      pageTwo.booked!.map((t) => t.transactionId),
      all.slice(10, 20).map((t) => t.transactionId),
    );
    assert.ok(pageTwo._links.previous);
    assert.ok(pageTwo._links.last!.href.includes('limit=10'));
    assert.deepEqual(Object.keys((await list())._links), ['account'], 'one page: no paging links');
  });

  test('transaction details by the link of a booked transaction', async () => {
    const [t] = (await list()).booked!;
    const res = await b.client.request({ path: t!._links!.transactionDetails.href, headers: { 'psu-id': psuId } });
    assert.equal(res.status, 200);
    const details = (res.json() as { transactionsDetails: Entry & { endToEndId: string } }).transactionsDetails;
    assert.equal(details.transactionId, t!.transactionId);
    assert.ok(details.endToEndId.length <= 35);
    const unknown = await b.client.request({
      path: `/v1/accounts/${accountId}/transactions/00000000-0000-4000-8000-000000000000`,
      headers: { 'psu-id': psuId },
    });
    assert.equal(unknown.status, 404);
  });

  test('card account transactions', async () => {
    const cards = (await b.client.request({ path: '/v1/card-accounts', headers: { 'psu-id': psuId } })).json() as {
      cardAccounts: { resourceId: string }[];
    };
    const res = await b.client.request({
      path: `/v1/card-accounts/${cards.cardAccounts[0]!.resourceId}/transactions?bookingStatus=both`,
      headers: { 'psu-id': psuId },
    });
    assert.equal(res.status, 200);
    const body = res.json() as { cardTransactions: { booked: { cardTransactionId: string; maskedPan: string }[]; pending: unknown[] } };
    assert.ok(body.cardTransactions.booked.length > 0);
    assert.ok(body.cardTransactions.booked.every((t) => t.cardTransactionId && t.maskedPan));
  });

  test('cardTransactionId stays within Max35Text', async () => {
    const cards = await b.client.request({ path: '/v1/card-accounts', headers: { 'psu-id': psuId } });
    const cardId = (cards.json() as { cardAccounts: { resourceId: string }[] }).cardAccounts[0]!.resourceId;
    const res = await b.client.request({ path: `/v1/card-accounts/${cardId}/transactions`, headers: { 'psu-id': psuId } });
    const booked = (res.json() as { cardTransactions: { booked: { cardTransactionId: string }[] } }).cardTransactions.booked;
    assert.ok(booked.every((t) => t.cardTransactionId.length <= 35));
  });

  test('without PSU-IP-Address: the 5th balance read in 24 hours is 429 ACCESS_EXCEEDED, and no transaction is older than 90 days', async () => {
    const unattended = { 'psu-id': psuId, 'psu-ip-address': '' };
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await b.client.request({ path: `/v1/accounts/${accountId}/balances`, headers: unattended })).status);
    assert.deepEqual(statuses, [200, 200, 200, 200, 429]);
    const oldest = new Date(Date.now() - 91 * 86_400_000).toISOString().slice(0, 10);
    const res = await b.client.request({ path: `/v1/accounts/${accountId}/transactions`, headers: unattended });
    assert.equal(res.status, 200);
    assert.ok((res.json() as Report).transactions.booked!.every((t) => t.bookingDate! >= oldest));
  });

  test('the history follows the bank clock: a month on, the same booked transactions and the days since, up to yesterday', async () => {
    const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const since = `?dateFrom=${dayOf(Date.now() - 20 * 86_400_000)}`;
    const before = (await list(since)).booked!;
    assert.equal((await b.client.shiftBankClock(30 * 86_400)).status, 200);
    try {
      // Without the PSU (no PSU-IP-Address): a month on, the PSU's SCA session has long ended; the consent has not.
      const res = await b.client.request({
        path: `/v1/accounts/${accountId}/transactions${since}`,
        headers: { 'psu-id': psuId, 'psu-ip-address': '' },
      });
      assert.equal(res.status, 200, res.text);
      const later = (res.json() as Report).transactions.booked!;
      const ids = new Set(later.map((t) => t.transactionId));
      assert.ok(
        before.every((t) => ids.has(t.transactionId)),
        'every transaction booked before is still there, with its id',
      );
      const today = dayOf(Date.now());
      const newer = later.filter((t) => t.bookingDate! >= today);
      assert.ok(newer.length > 0, 'the thirty days since have transactions of their own');
      assert.ok(
        later.every((t) => t.bookingDate! < dayOf(Date.now() + 30 * 86_400_000)),
        "none booked on the bank's today or later",
      );
    } finally {
      assert.equal((await b.client.resetBankClock()).status, 200);
    }
  });

  test('the mock history: 460 booked transactions over 120 days, read in pages of 200', async () => {
    const made = await b.client.request({
      method: 'POST',
      path: `/v1/sandbox/accounts/${accountId}/transactions`,
      json: { count: 460, days: 120 },
    });
    assert.equal(made.status, 201, made.text);
    const first = await list();
    assert.equal(first.booked!.length, 200);
    assert.match(first._links.next!.href, /limit=200/);
  });
});
