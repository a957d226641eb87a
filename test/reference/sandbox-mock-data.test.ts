// Sandbox mock-data operations: customers update, card accounts, balances, owner name, transactions,
// closing, and what initialisation brings back; bad bodies are 400 FORMAT_ERROR with the error body.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { consent, withBank } from './helpers.js';

type Bank = Awaited<ReturnType<typeof withBank>>;

const PERSON = '31125461118';

describe('sandbox mock-data operations', () => {
  let b: Bank;
  before(async () => {
    b = await withBank();
  });
  after(async () => {
    await b.close();
  });
  beforeEach(async () => {
    await b.client.initialize();
  });

  const post = (path: string, json: unknown) => b.client.request({ method: 'POST', path, json });
  const put = (path: string, json: unknown) => b.client.request({ method: 'PUT', path, json });
  const read = (path: string, psuId: string) => b.client.request({ path, headers: { 'psu-id': psuId } });

  async function person(): Promise<{ accountId: string; cardId: string }> {
    assert.equal((await post('/v1/sandbox/customers', { customerNumber: PERSON, name: 'Test Testesen', type: 'private' })).status, 201);
    const account = await post('/v1/sandbox/accounts', {
      customerNumber: PERSON,
      accountName: 'Brukskonto',
      currency: 'NOK',
      balances: [{ balanceType: 'EXPECTED', balanceAmount: { amount: 1234.5, currency: 'NOK' } }],
    });
    assert.equal(account.status, 201, account.text);
    const card = await post('/v1/sandbox/card-accounts', {
      customerNumber: PERSON,
      currency: 'NOK',
      maskedPan: '492500******1234',
      creditLimit: { amount: '10000.00', currency: 'NOK' },
    });
    assert.equal(card.status, 201, card.text);
    return { accountId: (account.json() as { resourceId: string }).resourceId, cardId: (card.json() as { resourceId: string }).resourceId };
  }

  test('customers update, card accounts, balances (numbers or strings) and owner name are seen through the AIS endpoints', async () => {
    const { accountId, cardId } = await person();
    const renamed = await put(`/v1/sandbox/customers/${PERSON}`, { name: 'Test Omdøpt' });
    assert.equal(renamed.status, 200, renamed.text);
    const listed = (await b.client.request({ path: '/v1/sandbox/customers' })).json() as {
      customers: { customerNumber: string; name: string }[];
    };
    assert.equal(listed.customers.find((c) => c.customerNumber === PERSON)?.name, 'Test Omdøpt');

    assert.equal(
      (
        await put(`/v1/sandbox/card-accounts/${cardId}/balances`, {
          balances: [{ balanceType: 'interimBooked', balanceAmount: { amount: '-99.90', currency: 'NOK' } }],
        })
      ).status,
      200,
    );
    assert.equal((await put(`/v1/sandbox/accounts/${accountId}/owner-name`, { ownerName: 'Eier Etternavn' })).status, 200);

    const { psuId } = await consent(b.client, { nationalId: PERSON });
    const balances = read(`/v1/accounts/${accountId}/balances`, psuId);
    assert.deepEqual(
      ((await balances).json() as { balances: unknown[] }).balances.map((x) => (x as { balanceAmount: unknown }).balanceAmount),
      [{ amount: '1234.50', currency: 'NOK' }],
    );
    const cardBalances = (await read(`/v1/card-accounts/${cardId}/balances`, psuId)).json() as {
      balances: { balanceType: string; balanceAmount: { amount: string } }[];
    };
    assert.deepEqual(
      cardBalances.balances.map((x) => [x.balanceType, x.balanceAmount.amount]),
      [['interimBooked', '-99.90']],
    );
    const details = (await read(`/v1/accounts/${accountId}`, psuId)).json() as { account: { ownerName: string } };
    assert.equal(details.account.ownerName, 'Eier Etternavn');
    const card = (await read(`/v1/card-accounts/${cardId}`, psuId)).json() as {
      cardAccount: { maskedPan: string; creditLimit: { amount: string } };
    };
    assert.equal(card.cardAccount.maskedPan, '492500******1234');
    assert.equal(card.cardAccount.creditLimit.amount, '10000.00');
  });

  test('mock transactions: booked ones with a bookingDate, pending ones without; dates and limit filter both', async () => {
    const { accountId, cardId } = await person();
    const added = await post(`/v1/sandbox/accounts/${accountId}/transactions`, [
      {
        amount: '-10.00',
        currency: 'NOK',
        valueDate: '2026-01-05',
        bookingDate: '2026-01-05',
        creditorName: 'Butikk',
        remittanceInformationUnstructured: 'Kjøp',
      },
      { amount: 20, currency: 'NOK', valueDate: '2026-01-06', bookingDate: '2026-01-06', debtorName: 'Arbeidsgiver' },
      { amount: '-5.00', currency: 'NOK', valueDate: '2026-01-04' },
      { amount: '-6.00', currency: 'NOK', valueDate: '2026-01-07' },
    ]);
    assert.equal(added.status, 201, added.text);
    const ids = (added.json() as { transactionIds: string[] }).transactionIds;
    assert.equal(ids.length, 2);
    const cardAdded = await post(`/v1/sandbox/card-accounts/${cardId}/transactions`, [
      { transactionDate: '2026-01-04', transactionAmount: { amount: '-1.00', currency: 'NOK' } },
      { transactionDate: '2026-01-07', transactionAmount: { amount: -2, currency: 'NOK' } },
    ]);
    assert.equal(cardAdded.status, 201, cardAdded.text);

    const { psuId } = await consent(b.client, { nationalId: PERSON });
    type Report = {
      booked?: { transactionId: string; bookingDate: string; remittanceInformationUnstructured: string[] }[];
      pending?: { valueDate?: string; transactionDate?: string }[];
    };
    const report = async (path: string) => {
      const res = await read(path, psuId);
      assert.equal(res.status, 200, res.text);
      const body = res.json() as { transactions?: Report; cardTransactions?: Report };
      return body.transactions ?? body.cardTransactions ?? {};
    };
    const period = 'dateFrom=2026-01-05&dateTo=2026-01-06';
    const booked = await report(`/v1/accounts/${accountId}/transactions?bookingStatus=booked&${period}`);
    // The simulated history has its own transactions on these days too: only the mock ones are compared.
    const mock = booked.booked?.filter((t) => ids.includes(t.transactionId));
    assert.deepEqual(
      mock?.map((t) => t.bookingDate),
      ['2026-01-06', '2026-01-05'],
    );
    assert.deepEqual(mock?.[1]?.remittanceInformationUnstructured, ['Kjøp']);
    assert.ok(booked.booked?.every((t) => t.bookingDate >= '2026-01-05' && t.bookingDate <= '2026-01-06'));
    assert.deepEqual((await report(`/v1/accounts/${accountId}/transactions?bookingStatus=pending&${period}`)).pending, []);
    const early = await report(`/v1/accounts/${accountId}/transactions?bookingStatus=pending&dateTo=2026-01-04`);
    assert.deepEqual(
      early.pending?.map((t) => t.valueDate),
      ['2026-01-04'],
    );
    assert.equal((await report(`/v1/accounts/${accountId}/transactions?bookingStatus=pending&limit=1`)).pending?.length, 1);
    const cardEarly = await report(`/v1/card-accounts/${cardId}/transactions?bookingStatus=pending&dateTo=2026-01-04`);
    assert.deepEqual(
      cardEarly.pending?.map((t) => t.transactionDate),
      ['2026-01-04'],
    );
    // The Berlin Group card account report requires booked, even when only pending ones are asked for.
    assert.deepEqual(cardEarly.booked, []);
  });

  test('closed accounts and card accounts leave the lists; with all closed the list is empty', async () => {
    const { accountId, cardId } = await person();
    const { psuId } = await consent(b.client, { nationalId: PERSON });
    assert.equal((await b.client.request({ method: 'DELETE', path: `/v1/sandbox/accounts/${accountId}` })).status, 204);
    assert.equal((await b.client.request({ method: 'DELETE', path: `/v1/sandbox/card-accounts/${cardId}` })).status, 204);
    assert.deepEqual((await read('/v1/accounts', psuId)).json(), { accounts: [] });
    assert.deepEqual((await read('/v1/card-accounts', psuId)).json(), { cardAccounts: [] });
  });

  test('initialisation removes accounts created for known customers and brings back their names', async () => {
    const known = '13039319955';
    const created = await post('/v1/sandbox/accounts', { customerNumber: known, accountName: 'Ekstra', currency: 'NOK' });
    assert.equal(created.status, 201);
    assert.equal((await put(`/v1/sandbox/customers/${known}`, { name: 'Endret Navn' })).status, 200);
    await b.client.initialize();
    const listed = (await b.client.request({ path: '/v1/sandbox/customers' })).json() as {
      customers: { customerNumber: string; name: string }[];
    };
    assert.equal(listed.customers.find((c) => c.customerNumber === known)?.name, 'Kari Nordmann');
    const { psuId } = await consent(b.client, { nationalId: known });
    const accounts = ((await read('/v1/accounts', psuId)).json() as { accounts: { resourceId: string }[] }).accounts.map(
      (a) => a.resourceId,
    );
    assert.equal(accounts.length, 2);
    assert.ok(!accounts.includes((created.json() as { resourceId: string }).resourceId));
  });

  test("an agreement links a person to a corporate customer's account: the person sees it in that corporate context", async () => {
    const company = '987654321';
    assert.equal((await post('/v1/sandbox/customers', { customerNumber: company, name: 'Firma AS', type: 'corporate' })).status, 201);
    const account = await post('/v1/sandbox/accounts', { customerNumber: company, accountName: 'Driftskonto', currency: 'NOK' });
    const { iban, resourceId } = account.json() as { iban: string; resourceId: string };
    assert.equal((await post('/v1/sandbox/customers', { customerNumber: PERSON, name: 'Test Testesen', type: 'private' })).status, 201);
    const created = await post('/v1/sandbox/agreements', {
      owner: company,
      name: 'Firma AS avtale',
      engagements: [{ customer: PERSON, account: { iban }, roles: ['VIEW', 'REGISTER'] }],
    });
    assert.equal(created.status, 201, created.text);
    const { agreementId, members } = created.json() as { agreementId: string; members: string[] };
    assert.deepEqual(members, [company, PERSON]);
    const outcome = await consent(b.client, { nationalId: PERSON, context: `CORPORATE:${agreementId}` });
    assert.equal(outcome.params['psu-corporate-id'], agreementId);
    const listed = await b.client.request({ path: '/v1/accounts', headers: { 'psu-id': outcome.psuId, 'psu-corporate-id': agreementId } });
    assert.deepEqual(
      (listed.json() as { accounts: { resourceId: string; ownerName: string }[] }).accounts.map((a) => [a.resourceId, a.ownerName]),
      [[resourceId, 'Firma AS avtale']],
    );
    for (const json of [
      { owner: PERSON, name: 'x', engagements: [] },
      { owner: company, name: 'x', engagements: [{ customer: '99999999999', account: { iban } }] },
      { owner: company, name: 'x', engagements: [{ customer: PERSON, account: { iban: 'NO9386011117947' } }] },
      { owner: company, name: 'x', engagements: [{ customer: PERSON }] },
    ]) {
      const res = await post('/v1/sandbox/agreements', json);
      assert.equal(res.status, 400, `${JSON.stringify(json)}: ${res.text}`);
      assert.equal((res.json() as { code: string }).code, 'FORMAT_ERROR');
    }
  });

  test('bad mock-data bodies are 400 FORMAT_ERROR with the error body; unknown resources 404', async () => {
    const { accountId, cardId } = await person();
    const cases: [string, string, unknown][] = [
      ['PUT', `/v1/sandbox/customers/${PERSON}`, { name: '' }],
      ['PUT', `/v1/sandbox/customers/${PERSON}`, { name: 'x', type: 'corporate' }],
      ['POST', '/v1/sandbox/card-accounts', { customerNumber: PERSON }],
      ['POST', '/v1/sandbox/card-accounts', { customerNumber: '18129215603', currency: 'NOK' }],
      ['POST', '/v1/sandbox/card-accounts', { customerNumber: PERSON, currency: 'NOK', creditLimit: { amount: '1.234', currency: 'NOK' } }],
      [
        'POST',
        '/v1/sandbox/accounts',
        {
          customerNumber: PERSON,
          accountName: 'A',
          currency: 'NOK',
          balances: [{ balanceType: 'pretend', balanceAmount: { amount: '1', currency: 'NOK' } }],
        },
      ],
      [
        'POST',
        '/v1/sandbox/accounts',
        {
          customerNumber: PERSON,
          accountName: 'A',
          currency: 'NOK',
          balances: [{ balanceType: 'expected', balanceAmount: { amount: '1', currency: 'EUR' } }],
        },
      ],
      ['POST', `/v1/sandbox/accounts/${accountId}/transactions`, [{ amount: 'ten', currency: 'NOK', valueDate: '2026-01-01' }]],
      ['POST', `/v1/sandbox/accounts/${accountId}/transactions`, [{ amount: '1', currency: 'NOK', valueDate: '2026-02-30' }]],
      ['POST', `/v1/sandbox/accounts/${accountId}/transactions`, []],
      ['POST', `/v1/sandbox/card-accounts/${cardId}/transactions`, [{ transactionDate: '2026-01-01' }]],
      ['PUT', `/v1/sandbox/accounts/${accountId}/balances`, { balances: [] }],
      ['PUT', `/v1/sandbox/accounts/${accountId}/balances`, [{ balanceType: 'expected' }]],
      ['PUT', `/v1/sandbox/accounts/${accountId}/owner-name`, { ownerName: 7 }],
      ['PUT', `/v1/sandbox/card-accounts/${cardId}/owner-name`, { ownerName: 'x'.repeat(141) }],
    ];
    for (const [method, path, json] of cases) {
      const res = await b.client.request({ method, path, json });
      assert.equal(res.status, 400, `${method} ${path} ${JSON.stringify(json)}: ${res.text}`);
      const body = res.json() as { id?: string; system?: string; status?: number; code?: string };
      assert.equal(body.code, 'FORMAT_ERROR');
      assert.equal(body.status, 400);
      assert.ok(body.id && body.system);
    }
    for (const [method, path, json] of [
      ['PUT', '/v1/sandbox/customers/99999999999', { name: 'Nobody' }],
      [
        'PUT',
        `/v1/sandbox/accounts/${cardId}/balances`,
        { balances: [{ balanceType: 'expected', balanceAmount: { amount: '1', currency: 'NOK' } }] },
      ],
      [
        'POST',
        `/v1/sandbox/card-accounts/${accountId}/transactions`,
        [{ transactionDate: '2026-01-01', transactionAmount: { amount: '1', currency: 'NOK' } }],
      ],
    ] as const) {
      const res = await b.client.request({ method, path, json });
      assert.equal(res.status, 404, `${method} ${path}: ${res.text}`);
      assert.equal((res.json() as { code: string }).code, 'RESOURCE_UNKNOWN');
    }
  });
});
