// The reference bank's sandbox operations for what happens outside the interface: a consent the PSU revokes
// in the online bank, a payment the PSU changes there, and an internal failure on demand. Against the bank
// directly, every answer of each operation, bad input included.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { consent, withBank, type Response, type TestClient } from './helpers.js';

type Bank = Awaited<ReturnType<typeof withBank>>;

const PSU = '12085592767';
const PAYMENT_HEADERS = { 'x-accept-fix': 'amount-as-string', 'psu-ip-address': '192.0.2.10', 'x-psu-identity': PSU };
let serial = 0;

function codeOf(res: Response): unknown {
  return (res.json() as { code?: unknown }).code;
}

async function initiate(client: TestClient): Promise<string> {
  serial += 1;
  const res = await client.request({
    method: 'POST',
    path: '/v1/payments/sepa-credit-transfers',
    headers: PAYMENT_HEADERS,
    json: {
      instructedAmount: { amount: `${serial}.00`, currency: 'EUR' },
      creditorName: 'Kari Nordmann',
      creditorAccount: { iban: 'NO9386011117947', currency: 'EUR' },
      creditorAgent: 'DNBANOKKXXX',
      creditorAddress: { townName: 'Oslo', country: 'NO' },
      debtorAccount: { iban: 'NO9386011117947', currency: 'NOK' },
    },
  });
  assert.equal(res.status, 201, res.text);
  return (res.json() as { paymentId: string }).paymentId;
}

describe('bank-channel and fault-injection sandbox operations', () => {
  let bank: Bank;
  let client: TestClient;
  before(async () => {
    bank = await withBank();
    client = bank.client;
  });
  after(() => bank.close());

  test('a revoked consent gives no more access; the next read asks for SCA again', async () => {
    const { psuId } = await consent(client, { nationalId: PSU });
    const read = () => client.request({ path: '/v1/accounts', headers: { 'psu-id': psuId } });
    assert.equal((await read()).status, 200);
    const revoked = await client.request({ method: 'DELETE', path: `/v1/sandbox/customers/${PSU}/consents` });
    assert.equal(revoked.status, 204, revoked.text);
    const after = await read();
    assert.equal(after.status, 401, after.text);
    assert.ok((after.json() as { _links?: { scaRedirect?: unknown } })._links?.scaRedirect);
  });

  test('revoking for an unknown customer is 404 RESOURCE_UNKNOWN', async () => {
    const res = await client.request({ method: 'DELETE', path: '/v1/sandbox/customers/99999999999/consents' });
    assert.equal(res.status, 404);
    assert.equal(codeOf(res), 'RESOURCE_UNKNOWN');
  });

  test('a changed payment keeps its paymentId and shows the change', async () => {
    const id = await initiate(client);
    const changed = await client.request({
      method: 'PATCH',
      path: `/v1/sandbox/payments/${id}`,
      json: { requestedExecutionDate: '2099-12-31', instructedAmount: { amount: '99.10', currency: 'EUR' } },
    });
    assert.equal(changed.status, 200, changed.text);
    assert.equal((changed.json() as { paymentId: string }).paymentId, id);
    const details = await client.request({ path: `/v1/payments/sepa-credit-transfers/${id}` });
    assert.equal(details.status, 200, details.text);
    assert.deepEqual((details.json() as { instructedAmount?: unknown }).instructedAmount, { amount: '99.10', currency: 'EUR' });
  });

  for (const [why, body] of [
    ['an empty change', {}],
    ['an amount as a number', { instructedAmount: { amount: 12, currency: 'EUR' } }],
    ['a field the online bank cannot change', { creditorName: 'Someone Else' }],
    ['a date that is not ISO', { requestedExecutionDate: '31.12.2099' }],
  ] as const) {
    test(`a payment change with ${why} is 400 FORMAT_ERROR, and changes nothing`, async () => {
      const id = await initiate(client);
      const res = await client.request({ method: 'PATCH', path: `/v1/sandbox/payments/${id}`, json: body });
      assert.equal(res.status, 400, res.text);
      assert.equal(codeOf(res), 'FORMAT_ERROR');
    });
  }

  test('a cancelled payment can no longer be changed (409 CONFLICT); an unknown one is 404', async () => {
    const id = await initiate(client);
    assert.equal((await client.request({ method: 'DELETE', path: `/v1/payments/sepa-credit-transfers/${id}` })).status < 300, true);
    const res = await client.request({
      method: 'PATCH',
      path: `/v1/sandbox/payments/${id}`,
      json: { requestedExecutionDate: '2099-12-31' },
    });
    assert.equal(res.status, 409, res.text);
    assert.equal(codeOf(res), 'CONFLICT');
    const unknown = await client.request({
      method: 'PATCH',
      path: '/v1/sandbox/payments/00000000-0000-4000-8000-000000000000',
      json: { requestedExecutionDate: '2099-12-31' },
    });
    assert.equal(unknown.status, 404);
  });

  test('an armed failure fails exactly one authorisation of its basket with 500 SYSTEM_ERROR', async () => {
    const basket = await client.request({
      method: 'POST',
      path: '/v1/signing-baskets',
      json: { paymentIds: [await initiate(client), await initiate(client)] },
    });
    assert.equal(basket.status, 201, basket.text);
    const basketId = (basket.json() as { basketId: string }).basketId;
    const path = `/v1/signing-baskets/${basketId}/authorisations`;
    const armed = await client.request({
      method: 'POST',
      path: '/v1/sandbox/failures',
      json: { operation: 'signing-basket-authorisation', resourceId: basketId },
    });
    assert.equal(armed.status, 201, armed.text);
    // Another basket of the same TPP (a test running beside this one) is not hit.
    const other = await client.request({ method: 'POST', path: '/v1/signing-baskets', json: { paymentIds: [await initiate(client)] } });
    const otherId = (other.json() as { basketId: string }).basketId;
    assert.equal(
      (await client.request({ method: 'POST', path: `/v1/signing-baskets/${otherId}/authorisations`, headers: PAYMENT_HEADERS })).status,
      201,
    );
    const failed = await client.request({ method: 'POST', path, headers: PAYMENT_HEADERS });
    assert.equal(failed.status, 500, failed.text);
    assert.equal(codeOf(failed), 'SYSTEM_ERROR');
    const next = await client.request({ method: 'POST', path, headers: PAYMENT_HEADERS });
    assert.equal(next.status, 201, next.text);
  });

  test('an unknown operation to fail is 400 FORMAT_ERROR', async () => {
    const res = await client.request({ method: 'POST', path: '/v1/sandbox/failures', json: { operation: 'everything', resourceId: 'x' } });
    assert.equal(res.status, 400, res.text);
    assert.equal(codeOf(res), 'FORMAT_ERROR');
  });
});
