// Versioning in the reference bank: x-accept-fix read (several values, unknown ones ignored), every
// published fix a default, the API only under /v1, and the faults that bring back the old behaviour.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { consent, withBank } from './helpers.js';

const KARI = '13039319955';

type Bank = Awaited<ReturnType<typeof withBank>>;

describe('versioning', () => {
  let b: Bank;
  let psuId: string;
  before(async () => {
    b = await withBank();
    psuId = (await consent(b.client, { nationalId: KARI })).psuId;
  });
  after(async () => {
    await b.close();
  });

  const accounts = (headers: Record<string, string> = {}, path = '/v1/accounts') =>
    b.client.request({ path, headers: { 'psu-id': psuId, ...headers } });

  test('x-accept-fix with several values, unknown ones among them, changes nothing', async () => {
    const plain = await accounts();
    assert.equal(plain.status, 200);
    for (const fix of ['amount-as-string, cash-account-type-iso', 'longer-names,some-future-fix', 'nobody-knows-this']) {
      const res = await accounts({ 'x-accept-fix': fix });
      assert.equal(res.status, 200, fix);
      assert.deepEqual(res.json(), plain.json(), fix);
    }
  });

  test('the API is not served without /v1', async () => {
    const res = await accounts({}, '/accounts');
    assert.equal(res.status, 404);
    assert.equal((res.json() as { code?: string }).code, 'NOT_FOUND');
  });

  test('card transactions of purchases abroad: transactionAmount in the card currency, originalAmount in the purchase currency', async () => {
    const cards = (await b.client.request({ path: '/v1/card-accounts', headers: { 'psu-id': psuId } })).json() as {
      cardAccounts: { resourceId: string }[];
    };
    const card = cards.cardAccounts[0]!.resourceId;
    const listing = (
      await b.client.request({
        path: `/v1/card-accounts/${card}/transactions`,
        headers: { 'psu-id': psuId, 'psu-ip-address': '192.0.2.10' },
      })
    ).json() as {
      cardTransactions: { booked: { transactionAmount: { currency: string }; originalAmount: { currency: string } }[] };
    };
    const booked = listing.cardTransactions.booked;
    assert.ok(booked.every((t) => t.transactionAmount.currency === 'NOK'));
    assert.ok(
      booked.some((t) => t.originalAmount.currency === 'EUR'),
      'some purchases abroad',
    );
  });
});

describe('versioning faults', () => {
  let b: Bank;
  let psuId: string;
  before(async () => {
    b = await withBank(['amount-as-string-not-default', 'cash-account-type-iso-not-default', 'x-accept-fix-unknown-refused']);
    psuId = (await consent(b.client, { nationalId: KARI })).psuId;
  });
  after(async () => {
    await b.close();
  });

  test('without the fix, the behaviour from before it was made default; with it, the fixed one', async () => {
    const account = (headers: Record<string, string>) =>
      b.client.request({ path: '/v1/accounts', headers: { 'psu-id': psuId, ...headers } });
    const types = async (headers: Record<string, string>) =>
      ((await account(headers)).json() as { accounts: { cashAccountType: string }[] }).accounts.map((a) => a.cashAccountType);
    assert.deepEqual(await types({}), ['CURRENT', 'SAVINGS']);
    assert.deepEqual(await types({ 'x-accept-fix': 'cash-account-type-iso' }), ['CACC', 'SVGS']);
    assert.equal((await account({ 'x-accept-fix': 'not-published' })).status, 400);
  });

  test('the rewrite leaves the bank state alone: a faulted answer is a copy', async () => {
    const read = async () =>
      (
        (
          await b.client.request({ path: '/v1/accounts', headers: { 'psu-id': psuId, 'x-accept-fix': 'cash-account-type-iso' } })
        ).json() as { accounts: { cashAccountType: string }[] }
      ).accounts;
    await b.client.request({ path: '/v1/accounts', headers: { 'psu-id': psuId } });
    assert.deepEqual(
      (await read()).map((a) => a.cashAccountType),
      ['CACC', 'SVGS'],
    );
  });
});
