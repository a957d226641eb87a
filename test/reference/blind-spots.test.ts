// The reference bank against the twelve blind spots a client written from the specification alone found
// (issue [blind-spots]), against the bank directly: each rule holds in every payment service, and each of
// the bank's faults that brings a defect back is seen by its TPP alone.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { consent, makeTpp, runSca, send, TestClient, withBank, type Response } from './helpers.js';

type Body = Record<string, unknown>;

const PRIVATE_PSU = '13039319955';
const CORPORATE_PSU = '18129215603';
const HEADERS = { 'x-accept-fix': 'amount-as-string', 'x-psu-identity': PRIVATE_PSU };
let serial = 0;

/** A payment meeting every rule, in NOK from `debtor` (a fresh amount each time: no logical duplicates). */
function payment(debtor: { iban: string; currency: string }, changes: Body = {}): Body {
  serial += 1;
  const body: Body = {
    instructedAmount: { amount: `${serial}.00`, currency: debtor.currency },
    creditorName: 'Kari Nordmann',
    creditorAccount: { iban: 'NO9386011117947', currency: debtor.currency },
    creditorAgent: 'DNBANOKKXXX',
    creditorAddress: { townName: 'Oslo', country: 'NO' },
    debtorAccount: debtor,
    ...changes,
  };
  for (const [key, value] of Object.entries(body)) if (value === undefined) delete body[key];
  return body;
}

function bulk(debtor: { iban: string; currency: string }, first: Body = {}, changes: Body = {}): Body {
  const entry = (c: Body) => {
    const { debtorAccount: _debtor, ...rest } = payment(debtor);
    return { ...rest, ...c };
  };
  return { debtorAccount: debtor, payments: [entry(first), entry({})], ...changes };
}

const json = (res: Response) => res.json() as Record<string, unknown>;
const href = (res: Response) => String((json(res)._links as { scaRedirect: { href: string } }).scaRedirect.href);

describe('the reference bank closes the blind spots', () => {
  let bank: Awaited<ReturnType<typeof withBank>>;
  let client: TestClient;
  let psuId: string;
  let account: { iban: string; currency: string };
  const initiate = (body: unknown, path = '/v1/payments/sepa-credit-transfers', headers: Record<string, string> = {}) =>
    client.request({ method: 'POST', path, json: body, headers: { ...HEADERS, ...headers } });
  const status = async (id: string, path = '/v1/payments/sepa-credit-transfers') =>
    json(await client.request({ path: `${path}/${id}/status` }));

  before(async () => {
    bank = await withBank();
    client = bank.client;
    psuId = (await consent(client, { nationalId: PRIVATE_PSU })).psuId;
    const accounts = json(await client.request({ path: '/v1/accounts', headers: { 'psu-id': psuId } })).accounts as {
      iban?: string;
      currency: string;
    }[];
    const first = accounts.find((a) => a.iban !== undefined);
    assert.ok(first?.iban);
    account = { iban: first.iban, currency: first.currency };
  });
  after(() => bank.close());

  test('the structured-address rule holds for every payment of a bulk, and an empty or blank name or town is missing (ADR-14 to 16)', async () => {
    const refusals: [string, Body][] = [
      ['a bulk payment without town', bulk(account, { creditorAddress: { country: 'NO' } })],
      ['a bulk payment with an empty town', bulk(account, { creditorAddress: { townName: '', country: 'NO' } })],
      ['an empty creditorName', payment(account, { creditorName: '' })],
      ['a creditorName of spaces', payment(account, { creditorName: '   ' })],
      ['an empty townName', payment(account, { creditorAddress: { townName: '', country: 'NO' } })],
      ['a townName of spaces', payment(account, { creditorAddress: { townName: ' ', country: 'NO' } })],
      ['a bulk of no payments (PAY-51)', bulk(account, {}, { payments: [] })],
      ['a bulk payment with a debtorAccount of its own (PAY-52)', bulk(account, { debtorAccount: account })],
    ];
    for (const [what, body] of refusals) {
      const path = 'payments' in body ? '/v1/bulk-payments/sepa-credit-transfers' : '/v1/payments/sepa-credit-transfers';
      const res = await initiate(body, path);
      assert.deepEqual([res.status, json(res).code], [400, 'FORMAT_ERROR'], `${what}: ${res.text}`);
    }
    // A city that names the town stands for an empty townName (the deprecated field, ADR-05).
    assert.equal((await initiate(payment(account, { creditorAddress: { townName: '', city: 'Oslo', country: 'NO' } }))).status, 201);
  });

  test('a payment names its PSU: neither PSU-ID nor X-PSU-IDENTITY is 400 HTTP_HEADER_REQUIRED (HDR-32)', async () => {
    const res = await initiate(payment(account), undefined, { 'x-psu-identity': '' });
    assert.deepEqual([res.status, json(res).code], [400, 'HTTP_HEADER_REQUIRED']);
  });

  test('a link is used up by its SCA, and closed once its payment is cancelled (SCA-24, SCA-25)', async () => {
    const used = await initiate(payment(account));
    assert.equal((await runSca(client, href(used), { nationalId: PRIVATE_PSU })).params['psu-id'], psuId);
    assert.equal((await send(client.agent, href(used), 'GET', {})).status, 404);
    const cancelled = await initiate(payment(account));
    assert.equal(
      (await client.request({ method: 'DELETE', path: `/v1/payments/sepa-credit-transfers/${String(json(cancelled).paymentId)}` })).status,
      204,
    );
    const outcome = await runSca(client, href(cancelled), { nationalId: PRIVATE_PSU });
    assert.deepEqual([outcome.params.status, outcome.params.code], ['409', 'CONFLICT']);
    assert.deepEqual(await status(String(json(cancelled).paymentId)), { transactionStatus: 'CANC' });
  });

  test("after its basket's SCA, a payment's own link is closed; the basket reports a lack of funds and its authorisation read STARTED (SCA-25, BSK-15, STA-08)", async () => {
    const payable = await initiate(payment(account));
    const unpayable = await initiate(payment(account, { instructedAmount: { amount: '99999999.00', currency: account.currency } }));
    const ids = [payable, unpayable].map((res) => String(json(res).paymentId));
    const basketId = String(
      json(await client.request({ method: 'POST', path: '/v1/signing-baskets', json: { paymentIds: ids } })).basketId,
    );
    const start = await client.request({ method: 'POST', path: `/v1/signing-baskets/${basketId}/authorisations`, headers: HEADERS });
    const authorisationId = String(json(start).authorisationId);
    assert.deepEqual(json(await client.request({ path: `/v1/signing-baskets/${basketId}/authorisations/${authorisationId}` })), {
      scaStatus: 'STARTED',
    });
    await runSca(client, href(start), { nationalId: PRIVATE_PSU });
    assert.deepEqual(json(await client.request({ path: `/v1/signing-baskets/${basketId}/status` })), { transactionStatus: 'ACCP' });
    const own = await runSca(client, href(payable), { nationalId: PRIVATE_PSU, decision: 'reject' });
    assert.deepEqual([own.params.status, own.params.code], ['409', 'CONFLICT']);
    assert.deepEqual(await status(ids[0] ?? ''), { transactionStatus: 'ACTC' });
  });

  test("a corporate PSU who picks PRIVATE cannot pay from the agreement's account (GEN-15)", async () => {
    const person = await consent(client, { nationalId: CORPORATE_PSU });
    const agreements = json(await client.request({ path: '/v1/agreements', headers: { 'psu-id': person.psuId } })).agreements as {
      psuCorporateId: string;
    }[];
    const agreementId = agreements[0]?.psuCorporateId ?? '';
    const corporate = await consent(
      client,
      { nationalId: CORPORATE_PSU, context: `CORPORATE:${agreementId}` },
      { 'psu-id': person.psuId, 'psu-corporate-id': agreementId },
    );
    const corporateId = corporate.params['psu-corporate-id'] ?? '';
    assert.equal(corporateId, agreementId);
    const headers = { 'psu-id': corporate.psuId, 'psu-corporate-id': corporateId };
    const agreementAccount = (
      json(await client.request({ path: '/v1/accounts', headers })).accounts as { iban: string; currency: string }[]
    )[0];
    assert.ok(agreementAccount);
    const res = await initiate(payment({ iban: agreementAccount.iban, currency: agreementAccount.currency }), undefined, {
      ...headers,
      'psu-context': 'CORPORATE',
    });
    const outcome = await runSca(client, href(res), { nationalId: CORPORATE_PSU, context: 'PRIVATE' });
    assert.equal(outcome.params.code, 'PAYMENT_FAILED');
    assert.deepEqual(await status(String(json(res).paymentId)), { transactionStatus: 'RJCT' });
  });

  test('a payment dated ahead is not settled before its day, by a batch run or instantly to self (SBX-11)', async () => {
    const ahead = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const accounts = json(await client.request({ path: '/v1/accounts', headers: { 'psu-id': psuId } })).accounts as {
      iban?: string;
      currency: string;
    }[];
    const other = accounts.find((a) => a.iban !== undefined && a.iban !== account.iban);
    assert.ok(other?.iban);
    const dated = [
      ['/v1/payments/sepa-credit-transfers', payment(account, { requestedExecutionDate: ahead })],
      ['/v1/bulk-payments/sepa-credit-transfers', bulk(account, {}, { requestedExecutionDate: ahead })],
      [
        '/v1/payments/norwegian-domestic-payment-to-self',
        payment(account, { requestedExecutionDate: ahead, creditorAccount: { iban: other.iban, currency: other.currency } }),
      ],
    ] as const;
    const ids: string[] = [];
    for (const [path, body] of dated) {
      const res = await initiate(body, path, { 'psu-id': psuId });
      await runSca(client, href(res), { nationalId: PRIVATE_PSU });
      ids.push(String(json(res).paymentId));
    }
    assert.equal((await client.shiftBankClock(26 * 3600)).status, 200);
    try {
      for (const [i, [path]] of dated.entries()) assert.equal((await status(ids[i] ?? '', path)).transactionStatus, 'ACTC', path);
      assert.equal((await client.shiftBankClock((4 * 86_400_000) / 1000)).status, 200);
      for (const [i, [path]] of dated.entries()) assert.equal((await status(ids[i] ?? '', path)).transactionStatus, 'ACSC', path);
    } finally {
      await client.resetBankClock();
    }
  });

  test('each fault brings its blind spot back for its own TPP only', async () => {
    const faulty = await withBank([{ name: 'payment-without-psu-accepted', tpps: ['PSDNO-FSA-900077'] }]);
    const other = new TestClient(faulty.bank, makeTpp('PSDNO-FSA-900077', 'Faulty TPP AS'));
    try {
      // Neither PSU-ID nor X-PSU-IDENTITY: created for the TPP the fault is on for, refused for the other.
      const request = (c: TestClient) =>
        c.request({
          method: 'POST',
          path: '/v1/payments/sepa-credit-transfers',
          json: payment({ iban: 'NO9386011117947', currency: 'NOK' }),
          headers: { 'x-accept-fix': 'amount-as-string' },
        });
      assert.equal((await request(other)).status, 201);
      assert.equal((await request(faulty.client)).status, 400);
    } finally {
      await other.close();
      await faulty.close();
    }
  });
});
