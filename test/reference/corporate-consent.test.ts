// psu-id per TPP, the context the PSU picks, consent per context and the pre-selected consent page,
// in the reference bank, driven with plain HTTP.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { accountsOf, consent, makeTpp, TestClient, withBank } from './helpers.js';

const KARI = '13039319955';
const OLA = '12085592767';
const PER = '18129215603';
const PER_AGREEMENT = 'CORPORATE:';

type Bank = Awaited<ReturnType<typeof withBank>>;

describe('corporate context, psu-ids and consents', () => {
  let b: Bank;
  let other: TestClient;
  before(async () => {
    b = await withBank();
    other = new TestClient(b.bank, makeTpp('PSDNO-FSA-900002', 'Other TPP AS'));
  });
  after(async () => {
    await other.close();
    await b.close();
  });
  beforeEach(async () => {
    assert.equal((await b.client.initialize()).status, 204);
  });

  const accounts = (client: TestClient, psuId: string, headers: Record<string, string> = {}) =>
    client.request({ path: '/v1/accounts', headers: { 'psu-id': psuId, ...headers } });

  test("two TPPs get different psu-ids for one PSU, and one TPP's psu-id names nobody for the other", async () => {
    const mine = await consent(b.client, { nationalId: KARI });
    const theirs = await consent(other, { nationalId: KARI });
    assert.notEqual(mine.psuId, theirs.psuId);
    assert.equal((await accounts(b.client, theirs.psuId)).status, 401);
    assert.equal((await accounts(b.client, mine.psuId)).status, 200);
  });

  test('the context the PSU picks wins over the one the TPP asked for', async () => {
    const first = await consent(b.client, { nationalId: PER, context: 'PRIVATE' });
    assert.equal(first.params.context, 'PRIVATE');
    const agreements = (await b.client.request({ path: '/v1/agreements', headers: { 'psu-id': first.psuId } })).json() as {
      agreements: { psuCorporateId: string }[];
    };
    const corporateId = agreements.agreements[0]!.psuCorporateId;
    // A corporate context without a consent of its own: a new consent flow, where the PSU picks the agreement.
    const corporate = await accounts(b.client, first.psuId, { 'psu-context': 'CORPORATE', 'psu-corporate-id': corporateId });
    assert.equal(corporate.status, 401);
    const picked = await consent(b.client, { nationalId: PER, context: `${PER_AGREEMENT}${corporateId}` }, { 'psu-context': 'PRIVATE' });
    assert.equal(picked.params.context, 'CORPORATE');
    assert.equal(picked.params['psu-corporate-id'], corporateId);
    assert.equal(accountsOf(await accounts(b.client, picked.psuId, { 'psu-corporate-id': corporateId })).length, 2);
  });

  test("a consent narrowed to one account; another PSU's account is 404 RESOURCE_UNKNOWN", async () => {
    const all = accountsOf(await accounts(b.client, (await consent(b.client, { nationalId: KARI })).psuId));
    const one = await consent(b.client, { nationalId: KARI, accounts: [all[1]!.resourceId] });
    assert.deepEqual(
      accountsOf(await accounts(b.client, one.psuId)).map((a) => a.resourceId),
      [all[1]!.resourceId],
    );
    const olaAccounts = accountsOf(await accounts(b.client, (await consent(b.client, { nationalId: OLA })).psuId));
    const foreign = await b.client.request({ path: `/v1/accounts/${olaAccounts[0]!.resourceId}`, headers: { 'psu-id': one.psuId } });
    assert.equal(foreign.status, 404);
    assert.equal((foreign.json() as { code: string }).code, 'RESOURCE_UNKNOWN');
  });
});
