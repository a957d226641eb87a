// Faults in signature, date and error handling: each one breaks exactly its rule,
// and the rest of the bank keeps behaving. (The conforming behaviour is asserted in
// transport.test.ts.)
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { withBank, type Response } from './helpers.js';

const GARBAGE_SIGNATURE = 'keyId="SN=1,CA=CN=Nobody",algorithm="rsa-sha256",headers="date",signature="AAAA"';
const secondsAgo = (s: number) => new Date(Date.now() - s * 1000);
const code = (res: Response) => (res.json() as { code?: string }).code;

async function withFault<T>(fault: string, body: (b: Awaited<ReturnType<typeof withBank>>) => Promise<T>): Promise<T> {
  const b = await withBank([fault]);
  try {
    assert.deepEqual(b.bank.faults, [fault]);
    return await body(b);
  } finally {
    await b.close();
  }
}

describe('faults: signature, date, errors', () => {
  test('signature-check-off: no signature and a Date an hour old are accepted; a garbage signature is still refused', () =>
    withFault('signature-check-off', async ({ client }) => {
      assert.equal((await client.request({ path: '/v1/sandbox/customers', unsigned: true })).status, 200);
      assert.equal((await client.request({ path: '/v1/sandbox/customers', date: secondsAgo(3600) })).status, 200);
      assert.equal(
        (await client.request({ path: '/v1/sandbox/customers', unsigned: true, headers: { signature: GARBAGE_SIGNATURE } })).status,
        400,
      );
      // Still a bank: required TPP headers are still required.
      assert.equal(
        code(await client.request({ path: '/v1/accounts', unsigned: true, headers: { 'tpp-session-id': '' } })),
        'HTTP_HEADER_REQUIRED',
      );
    }));

  test('accept-missing-signature: no Signature is accepted, a bad one is still rejected', () =>
    withFault('accept-missing-signature', async ({ client }) => {
      assert.equal((await client.request({ path: '/v1/sandbox/customers', unsigned: true })).status, 200);
      const bad = await client.request({ path: '/v1/sandbox/customers', unsigned: true, headers: { signature: GARBAGE_SIGNATURE } });
      assert.equal(bad.status, 400);
      assert.equal(code(bad), 'KID_INVALID');
      assert.equal((await client.request({ path: '/v1/sandbox/customers' })).status, 200);
    }));

  test('date-check-off: a Date an hour old is accepted; the signature is still checked', () =>
    withFault('date-check-off', async ({ client }) => {
      assert.equal((await client.request({ path: '/v1/sandbox/customers', date: secondsAgo(3600) })).status, 200);
      assert.equal(code(await client.request({ path: '/v1/sandbox/customers', unsigned: true })), 'HTTP_HEADER_REQUIRED');
    }));

  test('date-tolerance-120: 90 s off is accepted, 130 s off is not', () =>
    withFault('date-tolerance-120', async ({ client }) => {
      assert.equal((await client.request({ path: '/v1/sandbox/customers', date: secondsAgo(90) })).status, 200);
      assert.equal(code(await client.request({ path: '/v1/sandbox/customers', date: secondsAgo(130) })), 'FORMAT_ERROR');
    }));

  test('date-tolerance-30: 45 s off is rejected, 20 s off is accepted', () =>
    withFault('date-tolerance-30', async ({ client }) => {
      assert.equal(code(await client.request({ path: '/v1/sandbox/customers', date: secondsAgo(45) })), 'FORMAT_ERROR');
      assert.equal((await client.request({ path: '/v1/sandbox/customers', date: secondsAgo(20) })).status, 200);
    }));

  test('error-body-missing-fields: error bodies lack id and system, keep status, code and message', () =>
    withFault('error-body-missing-fields', async ({ client }) => {
      const res = await client.request({ path: '/v1/nothing' });
      assert.equal(res.status, 404);
      const body = res.json() as Record<string, unknown>;
      assert.deepEqual(Object.keys(body).sort(), ['code', 'message', 'status']);
      assert.equal(body.code, 'NOT_FOUND');
    }));

  test('a fault switched on for one TPP is not seen by another', async () => {
    const b = await withBank([{ name: 'date-check-off', tpps: ['PSDNO-FSA-NOBODY'] }]);
    try {
      assert.equal(code(await b.client.request({ path: '/v1/sandbox/customers', date: secondsAgo(3600) })), 'FORMAT_ERROR');
    } finally {
      await b.close();
    }
  });

  test("variant berlin-group-error-codes: the verifier's Berlin Group codes reach the TPP, still with 400", async () => {
    const b = await withBank([], ['berlin-group-error-codes']);
    try {
      assert.deepEqual(b.bank.variants, ['berlin-group-error-codes']);
      const missing = await b.client.request({ path: '/v1/sandbox/customers', unsigned: true });
      assert.equal(missing.status, 400);
      assert.equal(code(missing), 'SIGNATURE_MISSING');
      assert.equal(code(await b.client.request({ path: '/v1/sandbox/customers', date: secondsAgo(130) })), 'TIMESTAMP_INVALID');
    } finally {
      await b.close();
    }
  });

  test('invented-signature-codes: signature failures carry codes of neither list', () =>
    withFault('invented-signature-codes', async ({ client }) => {
      assert.equal(code(await client.request({ path: '/v1/sandbox/customers', unsigned: true })), 'SIGNATURE_REQUIRED');
      assert.equal(code(await client.request({ path: '/v1/sandbox/customers', date: secondsAgo(130) })), 'DATE_OUT_OF_RANGE');
    }));

  test('server-error-on-bad-json: malformed JSON gives 500 SYSTEM_ERROR; good JSON still works', () =>
    withFault('server-error-on-bad-json', async ({ client }) => {
      const res = await client.request({
        method: 'POST',
        path: '/v1/sandbox/customers',
        body: '{oops',
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(res.status, 500);
      assert.equal(code(res), 'SYSTEM_ERROR');
      const ok = await client.request({
        method: 'POST',
        path: '/v1/sandbox/customers',
        json: { customerNumber: '31125461118', name: 'Test', type: 'private' },
      });
      assert.equal(ok.status, 201);
    }));
});
