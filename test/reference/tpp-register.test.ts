// The reference bank's copy of the TPP register (Authentication 2, capability tpp-register): a TPP whose
// authorisation is withdrawn is refused on every interface request, and only that TPP; the sandbox
// operations stay open to it, so that it can restore itself; a sandbox reset restores everyone.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { makeTpp, TestClient, withBank, type Response } from './helpers.js';

type Bank = Awaited<ReturnType<typeof withBank>>;

const AUTHORISATION = '/v1/sandbox/tpp-register/authorisation';

function bodyOf(res: Response): { status?: unknown; code?: unknown } {
  return res.json() as { status?: unknown; code?: unknown };
}

describe('TPP register sandbox operations', () => {
  let bank: Bank;
  let client: TestClient;
  let other: TestClient;
  before(async () => {
    bank = await withBank();
    client = bank.client;
    other = new TestClient(bank.bank, makeTpp('PSDNO-FSA-900077', 'Other TPP AS'));
  });
  after(async () => {
    await other.close();
    await bank.close();
  });

  const accounts = (tpp: TestClient) => tpp.request({ path: '/v1/accounts' });

  test('a withdrawn TPP is refused with 403 FORBIDDEN and the error body; another TPP is not touched', async () => {
    assert.equal((await accounts(client)).status, 401, 'asked for SCA before the withdrawal');
    const withdrawn = await client.request({ method: 'DELETE', path: AUTHORISATION });
    assert.equal(withdrawn.status, 204, withdrawn.text);
    const refused = await accounts(client);
    assert.equal(refused.status, 403, refused.text);
    assert.deepEqual([bodyOf(refused).status, bodyOf(refused).code], [403, 'FORBIDDEN']);
    const payment = await client.request({ method: 'POST', path: '/v1/payments/sepa-credit-transfers', json: {} });
    assert.equal(payment.status, 403, 'refused before the body is read');
    assert.equal((await accounts(other)).status, 401, 'the other TPP still asks for SCA');
  });

  test('the withdrawn TPP can still restore itself; it is served again', async () => {
    const restored = await client.request({ method: 'PUT', path: AUTHORISATION });
    assert.equal(restored.status, 204, restored.text);
    assert.equal((await accounts(client)).status, 401);
  });

  test("a sandbox reset restores the caller's authorisation; another TPP's reset does not touch it (a world each)", async () => {
    await client.request({ method: 'DELETE', path: AUTHORISATION });
    const othersReset = await other.request({ method: 'POST', path: '/v1/sandbox/initialize' });
    assert.equal(othersReset.status, 204, othersReset.text);
    assert.equal((await accounts(client)).status, 403, "another TPP's reset restored this TPP's authorisation");
    const reset = await client.request({ method: 'POST', path: '/v1/sandbox/initialize' });
    assert.equal(reset.status, 204, reset.text);
    assert.equal((await accounts(client)).status, 401);
  });

  test('an unsigned withdrawal is refused like any unsigned request', async () => {
    const res = await client.request({ method: 'DELETE', path: AUTHORISATION, unsigned: true });
    assert.equal(res.status, 400, res.text);
  });
});
