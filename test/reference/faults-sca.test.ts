// Faults in the SCA flow and consent handling: each one breaks exactly its rule.
// (The conforming behaviour is asserted in sca-accounts.test.ts.)
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { accountsOf, consent, withBank } from './helpers.js';

const KARI = '13039319955';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function withFault<T>(fault: string, body: (b: Awaited<ReturnType<typeof withBank>>) => Promise<T>): Promise<T> {
  const b = await withBank([fault]);
  try {
    return await body(b);
  } finally {
    await b.close();
  }
}

describe('faults: SCA and consent', () => {
  test('psu-id-not-uuid: the redirect carries a psu-id that is not a UUID (and the bank accepts it back)', () =>
    withFault('psu-id-not-uuid', async ({ client }) => {
      const { psuId, params } = await consent(client, { nationalId: KARI });
      assert.doesNotMatch(psuId, UUID);
      assert.equal(params.context, 'PRIVATE');
      assert.equal((await client.request({ path: '/v1/accounts', headers: { 'psu-id': psuId } })).status, 200);
    }));

  test('psu-id-unstable: every SCA gives a new psu-id, each a UUID that works', () =>
    withFault('psu-id-unstable', async ({ client }) => {
      const first = await consent(client, { nationalId: KARI });
      const second = await consent(client, { nationalId: KARI });
      assert.match(first.psuId, UUID);
      assert.match(second.psuId, UUID);
      assert.notEqual(first.psuId, second.psuId);
      assert.equal((await client.request({ path: '/v1/accounts', headers: { 'psu-id': second.psuId } })).status, 200);
    }));

  test('no-sca-redirect: the 401 is an error body without scaRedirect link', () =>
    withFault('no-sca-redirect', async ({ client }) => {
      const res = await client.request({ path: '/v1/accounts' });
      assert.equal(res.status, 401);
      const body = res.json() as Record<string, unknown>;
      assert.equal(body._links, undefined);
      assert.equal(body.code, 'CONSENT_INVALID');
    }));

  test('variant account-links-without-verbs: the scaRedirect of an account read has an href and no verbs; the flow still works', async () => {
    const b = await withBank([], ['account-links-without-verbs']);
    try {
      const res = await b.client.request({ path: '/v1/accounts' });
      const link = (res.json() as { _links: { scaRedirect: Record<string, unknown> } })._links.scaRedirect;
      assert.deepEqual(Object.keys(link), ['href']);
      assert.ok(String(link.href).startsWith(`${b.bank.baseUrl}/sca/`));
      assert.match((await consent(b.client, { nationalId: KARI })).psuId, UUID);
    } finally {
      await b.close();
    }
  });

  test('redirect-drops-tpp-session-id: psu-id and context are there, tpp-session-id is not', () =>
    withFault('redirect-drops-tpp-session-id', async ({ client }) => {
      const { params } = await consent(client, { nationalId: KARI });
      assert.deepEqual(Object.keys(params).sort(), ['context', 'psu-id', 'state']);
    }));

  test('redirect-drops-context: psu-id and tpp-session-id are there, context is not', () =>
    withFault('redirect-drops-context', async ({ client }) => {
      const { params } = await consent(client, { nationalId: KARI });
      assert.deepEqual(Object.keys(params).sort(), ['psu-id', 'state', 'tpp-session-id']);
    }));

  test('accounts-ignore-consent: consent to one account, see both', () =>
    withFault('accounts-ignore-consent', async ({ client }) => {
      const first = await consent(client, { nationalId: KARI });
      const all = accountsOf(await client.request({ path: '/v1/accounts', headers: { 'psu-id': first.psuId } }));
      assert.equal(all.length, 2);
      await consent(client, { nationalId: KARI, accounts: [all[0]!.resourceId] });
      const after = accountsOf(await client.request({ path: '/v1/accounts', headers: { 'psu-id': first.psuId } }));
      assert.equal(after.length, 2);
    }));
});
