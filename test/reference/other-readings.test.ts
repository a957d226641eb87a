// The reference bank's other readings of the specification (issue 38): each variant does what it declares, for
// the TPP it is switched on for, and the default bank keeps its own reading.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { makeTpp, runSca, scaHrefFor, TestClient, withBank, type Response } from './helpers.js';

const KARI = '13039319955';
const ORG = {
  default: 'PSDNO-FSA-910001',
  promptsOnly: 'PSDNO-FSA-910002',
  unknownAsks: 'PSDNO-FSA-910003',
  invalidated: 'PSDNO-FSA-910004',
  offers: 'PSDNO-FSA-910005',
};
const VARIANTS = [
  { name: 'session-governs-sca-prompts-only', tpps: [ORG.promptsOnly] },
  { name: 'unknown-session-asks-for-sca', tpps: [ORG.unknownAsks] },
  { name: 'invalidated-session-served-from-consent', tpps: [ORG.invalidated] },
  ...[
    'gateway-error-pages',
    'empty-transaction-groups-omitted',
    'sepa-in-euro-only',
    'periodic-some-frequencies',
    'no-bulk-payments',
    'basket-read-and-delete-not-offered',
    'redirect-uri-only-where-sca',
  ].map((name) => ({ name, tpps: [ORG.offers] })),
];
const PAYMENT = { 'x-accept-fix': 'amount-as-string', 'x-psu-identity': KARI };

let bank: Awaited<ReturnType<typeof withBank>>;
const clients = new Map<string, TestClient>();
const client = (org: string) => clients.get(org) as TestClient;

before(async () => {
  bank = await withBank([], VARIANTS);
  for (const org of Object.values(ORG)) clients.set(org, new TestClient(bank.bank, makeTpp(org)));
});
after(async () => {
  await Promise.all([...clients.values()].map((c) => c.close()));
  await bank.close();
});

/** An SCA of Kari under the client's current TPP-Session-ID: its psu-id and the pages the PSU went through. */
async function session(c: TestClient): Promise<{ psuId: string; pages: number }> {
  const outcome = await runSca(c, await scaHrefFor(c), { nationalId: KARI });
  return { psuId: outcome.params['psu-id'] ?? '', pages: outcome.pages.length };
}

const read = (c: TestClient, psuId: string) => c.request({ path: '/v1/accounts', headers: { 'psu-id': psuId } });
/** The pages of a new SCA of the PSU under the client's TPP-Session-ID, started by a consent request naming it. */
async function promptPages(c: TestClient, psuId: string): Promise<number> {
  const res = await c.request({ method: 'POST', path: '/v1/bank-offered-consents', json: {}, headers: { 'psu-id': psuId } });
  const href = String((res.json() as { _links: { scaRedirect: { href: string } } })._links.scaRedirect.href);
  return (await runSca(c, href, { nationalId: KARI })).pages.length;
}

describe('the readings of the SCA session table', () => {
  test('a session in force spares the login of a new SCA of the PSU it names; a replaced one refuses reads', async () => {
    const c = client(ORG.default);
    const first = await session(c);
    assert.ok((await promptPages(c, first.psuId)) < first.pages, 'the valid session spares the login');
    const old = c.sessionId;
    c.sessionId = randomUUID();
    await session(c);
    c.sessionId = old;
    assert.equal((await read(c, first.psuId)).status, 401);
    assert.equal(await promptPages(c, first.psuId), first.pages, 'the replaced session no longer spares the login');
  });

  test('session-governs-sca-prompts-only: an expired session serves reads from the consent, and prompts the PSU again', async () => {
    const c = client(ORG.promptsOnly);
    const { psuId, pages } = await session(c);
    await c.shiftBankClock(3700);
    try {
      assert.equal((await read(c, psuId)).status, 200);
      assert.equal(await promptPages(c, psuId), pages);
    } finally {
      await c.resetBankClock();
    }
  });

  test('unknown-session-asks-for-sca: a TPP-Session-ID no SCA was completed under asks for SCA', async () => {
    const c = client(ORG.unknownAsks);
    const { psuId } = await session(c);
    assert.equal((await read(c, psuId)).status, 200);
    c.sessionId = randomUUID();
    const unseen = await read(c, psuId);
    assert.equal(unseen.status, 401);
    assert.ok((unseen.json() as { _links?: { scaRedirect?: unknown } })._links?.scaRedirect);
  });

  test('invalidated-session-served-from-consent: a replaced session serves reads, an expired one does not', async () => {
    const c = client(ORG.invalidated);
    const { psuId } = await session(c);
    const old = c.sessionId;
    c.sessionId = randomUUID();
    await session(c);
    c.sessionId = old;
    assert.equal((await read(c, psuId)).status, 200);
  });
});

const paymentBody = (currency: string, amount = '12.50') => ({
  instructedAmount: { amount, currency },
  creditorName: 'Kari Nordmann',
  creditorAccount: { iban: 'NO9386011117947', currency },
  creditorAgent: 'DNBANOKKXXX',
  creditorAddress: { townName: 'Oslo', country: 'NO' },
  debtorAccount: { iban: 'NO9386011117947', currency: 'NOK' },
});
const code = (res: Response) => (res.json() as { code?: string }).code;

describe('what a bank may offer less of', () => {
  test("gateway-error-pages: an unknown path and a wrong method get the gateway's own page, an operation's refusal the error body", async () => {
    const c = client(ORG.offers);
    for (const [method, path, status] of [
      ['GET', '/v1/no-such-resource', 404],
      ['DELETE', '/v1/accounts', 405],
    ] as const) {
      const res = await c.request({ method, path });
      assert.equal(res.status, status);
      assert.match(String(res.headers['content-type']), /text\/html/);
    }
    assert.equal(code(await c.request({ path: '/v1/accounts', headers: { 'psu-id': 'not-a-uuid' } })), 'FORMAT_ERROR');
    assert.match(String((await client(ORG.default).request({ path: '/v1/no-such-resource' })).headers['content-type']), /json/);
  });

  test('sepa-in-euro-only, no-bulk-payments, periodic-some-frequencies: what is not offered is refused, the rest taken', async () => {
    const c = client(ORG.offers);
    const sepa = (body: object, service = 'payments') =>
      c.request({ method: 'POST', path: `/v1/${service}/sepa-credit-transfers`, json: body, headers: PAYMENT });
    assert.equal((await sepa(paymentBody('EUR'))).status, 201);
    assert.deepEqual(
      [(await sepa(paymentBody('BHD', '1.000'))).status, code(await sepa(paymentBody('NOK', '1.00')))],
      [400, 'FORMAT_ERROR'],
    );
    assert.equal(
      (await c.request({ method: 'POST', path: '/v1/bulk-payments/sepa-credit-transfers', json: {}, headers: PAYMENT })).status,
      404,
    );
    const start = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);
    assert.equal((await sepa({ ...paymentBody('EUR', '3.00'), startDate: start, frequency: 'Monthly' }, 'periodic-payments')).status, 201);
    assert.equal((await sepa({ ...paymentBody('EUR', '4.00'), startDate: start, frequency: 'Daily' }, 'periodic-payments')).status, 400);
    assert.equal(
      (
        await client(ORG.default).request({
          method: 'POST',
          path: '/v1/payments/sepa-credit-transfers',
          json: paymentBody('BHD', '1.000'),
          headers: PAYMENT,
        })
      ).status,
      201,
    );
  });

  test('basket-read-and-delete-not-offered: a basket is created and reported, not read or deleted', async () => {
    const c = client(ORG.offers);
    const paid = await c.request({
      method: 'POST',
      path: '/v1/payments/sepa-credit-transfers',
      json: paymentBody('EUR', '7.00'),
      headers: PAYMENT,
    });
    const basket = await c.request({
      method: 'POST',
      path: '/v1/signing-baskets',
      json: { paymentIds: [(paid.json() as { paymentId: string }).paymentId] },
    });
    const basketId = (basket.json() as { basketId: string }).basketId;
    assert.equal((await c.request({ path: `/v1/signing-baskets/${basketId}/status` })).status, 200);
    assert.deepEqual(
      [
        (await c.request({ path: `/v1/signing-baskets/${basketId}` })).status,
        (await c.request({ method: 'DELETE', path: `/v1/signing-baskets/${basketId}` })).status,
      ],
      [405, 405],
    );
  });

  test('redirect-uri-only-where-sca: a read without TPP-Redirect-URI is served where it needs no SCA, refused where it does', async () => {
    const c = client(ORG.offers);
    const { psuId } = await session(c);
    assert.equal((await c.request({ path: '/v1/accounts', headers: { 'psu-id': psuId, 'tpp-redirect-uri': '' } })).status, 200);
    const needsSca = await c.request({ path: '/v1/accounts', headers: { 'tpp-redirect-uri': '' } });
    assert.deepEqual([needsSca.status, code(needsSca)], [400, 'HTTP_HEADER_REQUIRED']);
    assert.equal(
      (await client(ORG.default).request({ path: '/v1/accounts', headers: { 'psu-id': psuId, 'tpp-redirect-uri': '' } })).status,
      400,
    );
  });

  test('empty-transaction-groups-omitted: an empty pending group is left out', async () => {
    const c = client(ORG.offers);
    const { psuId } = await session(c);
    const accountId = ((await read(c, psuId)).json() as { accounts: { resourceId: string }[] }).accounts[0]?.resourceId ?? '';
    const report = (
      (await c.request({ path: `/v1/accounts/${accountId}/transactions?bookingStatus=booked`, headers: { 'psu-id': psuId } })).json() as {
        transactions: Record<string, unknown>;
      }
    ).transactions;
    assert.ok(Array.isArray(report.booked));
    const pending = (
      (
        await c.request({
          path: `/v1/accounts/${accountId}/transactions?bookingStatus=pending&dateFrom=2999-01-01`,
          headers: { 'psu-id': psuId },
        })
      ).json() as { transactions: Record<string, unknown> }
    ).transactions;
    assert.equal('pending' in pending, false);
  });
});
