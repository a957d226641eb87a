// Tenants (issue 19): a sandbox that many TPPs share keeps each key holder in a world of its own. Two TPPs,
// two certificates with two keys, the second claiming the very organisation identifier of the first (anyone
// can write it into a self-made certificate): neither sees nor changes the other's world.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { generateCertificateAuthority, generateTppCertificate } from '../../lib/pki/index.js';
import { loadTppIdentity } from '../../lib/tpp/index.js';
import { accountsOf, consent, makeTpp, runSca, scaHrefFor, TestClient, withBank, type Response } from './helpers.js';

const KARI = '13039319955';
const CREATED = '11111111111';
const ORGANISATION = 'PSDNO-FSA-900001';

interface AccountBody {
  account: { ownerName?: string; name: string };
}
interface BalancesBody {
  balances: { balanceType: string; balanceAmount: { amount: string }; lastChangeDateTime?: string }[];
}

describe('tenants: every key holder has a sandbox world of its own', () => {
  let b: Awaited<ReturnType<typeof withBank>>;
  /** The TPP whose world the other one attacks. */
  let own: TestClient;
  /** Another key, the same claimed organisation. */
  let intruder: TestClient;
  let ownKey: string;
  let psuId: string;
  let accountId: string;

  const withPsu = (client: TestClient, path: string, id = psuId) => client.request({ path, headers: { 'psu-id': id } });
  const status = (res: Response) => `${res.status} ${res.text}`;

  before(async () => {
    b = await withBank();
    const ca = generateCertificateAuthority({ commonName: 'Tenants test CA', organizationName: 'Test QTSP', countryName: 'NO' });
    const issued = generateTppCertificate(ca, {
      organizationName: 'Test TPP AS',
      organizationIdentifier: ORGANISATION,
      roles: ['PSP_AI', 'PSP_PI'],
    });
    ownKey = issued.privateKeyPem;
    own = new TestClient(b.bank, loadTppIdentity(issued));
    intruder = new TestClient(b.bank, makeTpp(ORGANISATION, 'Test TPP AS'));
    assert.equal(
      (
        await own.request({
          method: 'POST',
          path: '/v1/sandbox/customers',
          json: { customerNumber: CREATED, name: 'Tenant Test', type: 'private' },
        })
      ).status,
      201,
    );
    ({ psuId } = await consent(own, { nationalId: KARI }));
    const listed = await withPsu(own, '/v1/accounts');
    assert.equal(listed.status, 200, listed.text);
    accountId = accountsOf(listed)[0]!.resourceId;
  });
  after(async () => {
    await Promise.all([own.close(), intruder.close()]);
    await b.close();
  });

  test('another TPP does not see the customers and accounts a TPP made, and its PSU cannot log in there', async () => {
    const made = await own.request({
      method: 'POST',
      path: '/v1/sandbox/accounts',
      json: { customerNumber: CREATED, accountName: 'Tenant account', currency: 'NOK' },
    });
    assert.equal(made.status, 201, made.text);
    const createdId = (made.json() as { resourceId: string }).resourceId;
    const customers = (await intruder.request({ path: '/v1/sandbox/customers' })).json() as { customers: { customerNumber: string }[] };
    assert.ok(customers.customers.length > 0);
    assert.ok(!customers.customers.some((c) => c.customerNumber === CREATED), 'the customer of another world is listed');
    for (const change of [
      { method: 'PUT', path: `/v1/sandbox/accounts/${createdId}/owner-name`, json: { ownerName: 'Mallory' } },
      {
        method: 'PUT',
        path: `/v1/sandbox/accounts/${createdId}/balances`,
        json: { balances: [{ balanceType: 'closingBooked', balanceAmount: { amount: '0.00', currency: 'NOK' } }] },
      },
      { method: 'DELETE', path: `/v1/sandbox/accounts/${createdId}` },
    ]) {
      const res = await intruder.request(change);
      assert.equal(res.status, 404, `${change.method} ${change.path}: ${status(res)}`);
    }
    const login = await runSca(intruder, await scaHrefFor(intruder), { nationalId: CREATED });
    assert.equal(login.params.code, 'PSU_CREDENTIALS_INVALID', `a PSU of another world logged in: ${login.location.toString()}`);
  });

  test("another TPP reads none of the accounts a PSU consented to, not even with the PSU's psu-id", async () => {
    for (const path of [
      '/v1/accounts',
      `/v1/accounts/${accountId}`,
      `/v1/accounts/${accountId}/balances`,
      `/v1/accounts/${accountId}/transactions`,
    ]) {
      const res = await withPsu(intruder, path);
      assert.equal(res.status, 401, `${path}: ${status(res)}`);
      assert.doesNotMatch(res.text, new RegExp(accountId), `${path} names the account`);
    }
  });

  test('renaming, rebalancing and closing the same account ids changes only the world of the TPP that does it', async () => {
    const details = async () => (await withPsu(own, `/v1/accounts/${accountId}`)).json() as AccountBody;
    // Without lastChangeDateTime: the bank stamps a balance that is not closingBooked with the time of the read, and the two reads may fall
    // in different seconds.
    const balances = async () => {
      const body = (await withPsu(own, `/v1/accounts/${accountId}/balances`)).json() as BalancesBody;
      return { ...body, balances: body.balances.map(({ lastChangeDateTime: _readAt, ...balance }) => balance) };
    };
    const [detailsBefore, balancesBefore] = [await details(), await balances()];
    for (const change of [
      { method: 'PUT', path: `/v1/sandbox/accounts/${accountId}/owner-name`, json: { ownerName: 'Mallory' } },
      {
        method: 'PUT',
        path: `/v1/sandbox/accounts/${accountId}/balances`,
        json: { balances: [{ balanceType: 'closingBooked', balanceAmount: { amount: '0.01', currency: 'NOK' } }] },
      },
      { method: 'DELETE', path: `/v1/sandbox/accounts/${accountId}` },
    ]) {
      const res = await intruder.request(change);
      assert.ok(res.status < 300, `its own copy of the known state: ${change.method} ${change.path}: ${status(res)}`);
    }
    assert.deepEqual(await details(), detailsBefore);
    assert.deepEqual(await balances(), balancesBefore);
    assert.ok(
      accountsOf(await withPsu(own, '/v1/accounts')).some((a) => a.resourceId === accountId),
      'the account was closed by another TPP',
    );
  });

  test('withdrawing the register entry of the same organisation withdraws only the caller’s', async () => {
    assert.equal((await intruder.request({ method: 'DELETE', path: '/v1/sandbox/tpp-register/authorisation' })).status, 204);
    assert.equal((await intruder.request({ path: '/v1/accounts' })).status, 403, 'the withdrawal did not reach its own world');
    const served = await withPsu(own, '/v1/accounts');
    assert.equal(served.status, 200, status(served));
    assert.equal((await intruder.request({ method: 'PUT', path: '/v1/sandbox/tpp-register/authorisation' })).status, 204);
  });

  test("another TPP's reset and clock leave the world alone, and the clock is not shown to it", async () => {
    assert.equal((await own.shiftBankClock(1800)).status, 200);
    // A request with the certificate of the world that does not prove its key (unsigned) learns nothing of it, its clock included.
    const unproven = await own.request({ path: '/v1/sandbox/clock', unsigned: true, date: new Date(Date.now() + 1800_000) });
    assert.equal(unproven.status, 400, status(unproven));
    const answeredAt = Date.parse(String(unproven.headers.date));
    assert.ok(
      Math.abs(answeredAt - Date.now()) < 300_000,
      `the answer is dated by the claimed world's clock: ${String(unproven.headers.date)}`,
    );
    const hisClock = (await intruder.request({ path: '/v1/sandbox/clock' })).json() as { mode: string };
    assert.equal(hisClock.mode, 'system', 'the clock of another world');
    assert.equal((await intruder.request({ method: 'POST', path: '/v1/sandbox/initialize' })).status, 204);
    assert.equal(
      (await intruder.request({ method: 'PUT', path: '/v1/sandbox/clock', json: { frozenAt: '9999-12-31T00:00:00Z' } })).status,
      200,
    );
    const clock = (await own.request({ path: '/v1/sandbox/clock' })).json() as { mode: string; now: string };
    assert.equal(clock.mode, 'offset');
    const customers = (await own.request({ path: '/v1/sandbox/customers' })).json() as { customers: { customerNumber: string }[] };
    assert.ok(
      customers.customers.some((c) => c.customerNumber === CREATED),
      "another TPP's reset removed this world's customer",
    );
    const served = await withPsu(own, '/v1/accounts');
    assert.equal(served.status, 200, `consent and certificate still good by this world's clock: ${status(served)}`);
    assert.equal((await own.resetBankClock()).status, 200);
  });

  test('psu-ids are keyed by the bank and the world: another key holder of the same organisation, or another bank, gets another one', async () => {
    const intruderFresh = new TestClient(b.bank, makeTpp(ORGANISATION, 'Test TPP AS'));
    const otherBank = await withBank();
    const sameCertificateElsewhere = new TestClient(otherBank.bank, own.tpp.identity);
    try {
      const theirs = await consent(intruderFresh, { nationalId: KARI });
      const elsewhere = await consent(sameCertificateElsewhere, { nationalId: KARI });
      assert.notEqual(theirs.psuId, psuId);
      assert.notEqual(elsewhere.psuId, psuId);
      assert.equal((await consent(own, { nationalId: KARI })).psuId, psuId, 'stable for the same TPP at the same bank');
    } finally {
      await Promise.all([intruderFresh.close(), sameCertificateElsewhere.close()]);
      await otherBank.close();
    }
  });

  test('certificates of one key share its world: its holder can sign as either', async () => {
    const ca = generateCertificateAuthority({ commonName: 'Tenants test CA 2', organizationName: 'Test QTSP', countryName: 'NO' });
    const second = generateTppCertificate(ca, {
      organizationName: 'Second TPP AS',
      organizationIdentifier: `${ORGANISATION}-2`,
      roles: ['PSP_AI'],
      privateKeyPem: ownKey,
    });
    const partner = new TestClient(b.bank, loadTppIdentity(second));
    try {
      const listed = await partner.request({ path: '/v1/sandbox/customers' });
      assert.equal(listed.status, 200, status(listed));
      const customers = listed.json() as { customers: { customerNumber: string }[] };
      assert.ok(customers.customers.some((c) => c.customerNumber === CREATED));
      // Still another TPP: the consent and the psu-id of the first are not its.
      assert.equal((await withPsu(partner, '/v1/accounts')).status, 401);
    } finally {
      await partner.close();
    }
  });
});
