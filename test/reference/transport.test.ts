// Transport, signature enforcement and the error body: the bank answers every
// malformed request with a 4xx and the specification's error body, never a 500.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { connect, type ConnectionOptions } from 'node:tls';
import { startReferenceBank } from '../../reference/server.js';
import { send, withBank, type Response } from './helpers.js';

type Bank = Awaited<ReturnType<typeof withBank>>;

function assertErrorBody(res: Response, status: number, code: string): Record<string, unknown> {
  assert.equal(res.status, status, res.text);
  assert.match(String(res.headers['content-type']), /^application\/json; charset=utf-8$/);
  const body = res.json() as Record<string, unknown>;
  assert.equal(typeof body.id, 'string');
  assert.equal(body.system, 'reference-aspsp');
  assert.equal(body.status, status);
  assert.equal(body.code, code);
  assert.equal(typeof body.message, 'string');
  return body;
}

function tlsProbe(
  port: number,
  options: ConnectionOptions,
): Promise<{ ok: true; protocol: string | null } | { ok: false; error: NodeJS.ErrnoException }> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, rejectUnauthorized: false, ...options }, () => {
      const protocol = socket.getProtocol();
      socket.end();
      resolve({ ok: true, protocol });
    });
    socket.on('error', (error: NodeJS.ErrnoException) => resolve({ ok: false, error }));
  });
}

describe('start', () => {
  test('a default start is fast, makes a fresh CA each time, and close() stops it', async () => {
    // CPU time, not wall time: parallel test files share the CPUs. Alone, a start takes about 0.5 s; the bound catches e.g. pure-JS key
    // generation.
    const started = process.cpuUsage();
    const one = await startReferenceBank();
    const used = process.cpuUsage(started);
    const elapsed = (used.user + used.system) / 1000;
    const two = await startReferenceBank();
    try {
      assert.ok(elapsed < 3000, `start took ${Math.round(elapsed)} ms of CPU`);
      assert.match(one.baseUrl, /^https:\/\/127\.0\.0\.1:\d+$/);
      assert.notEqual(one.caPem, two.caPem);
      assert.deepEqual(one.faults, []);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
    const refused = await tlsProbe(one.port, {});
    assert.equal(refused.ok, false);
  });
});

describe('transport and errors', () => {
  let b: Bank;
  before(async () => {
    b = await withBank();
  });
  after(async () => {
    await b.close();
  });

  test('TLS 1.1 is refused by the server with a protocol-version alert; TLS 1.2 is accepted', async () => {
    const old = await tlsProbe(b.bank.port, { minVersion: 'TLSv1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT@SECLEVEL=0' });
    assert.equal(old.ok, false);
    if (!old.ok) assert.match(`${old.error.code} ${old.error.message}`, /ALERT_PROTOCOL_VERSION|alert protocol version/i);
    const tls12 = await tlsProbe(b.bank.port, { minVersion: 'TLSv1', maxVersion: 'TLSv1.2', ciphers: 'DEFAULT@SECLEVEL=0' });
    assert.deepEqual(tls12, { ok: true, protocol: 'TLSv1.2' });
  });

  test('the server certificate is issued by the returned CA, for 127.0.0.1', async () => {
    const probe = await tlsProbe(b.bank.port, { rejectUnauthorized: true, ca: b.bank.caPem, servername: 'localhost' });
    assert.equal(probe.ok, true);
  });

  test("an unsigned request gets 400 HTTP_HEADER_REQUIRED (a code of the specification's list)", async () => {
    assertErrorBody(await b.client.request({ path: '/v1/accounts', unsigned: true }), 400, 'HTTP_HEADER_REQUIRED');
  });

  test('a Digest that does not match the body gets 400 FORMAT_ERROR', async () => {
    const digestOfX = 'SHA-256=LXEWQrcmsEQBYnyp+6wy9chTD7GQPMTbAiWHF5IaSIE=';
    assertErrorBody(await b.client.request({ path: '/v1/accounts', headers: { digest: digestOfX } }), 400, 'FORMAT_ERROR');
  });

  test('a Signature header without keyId gets 400 KID_MISSING', async () => {
    const signature = 'algorithm="rsa-sha256",headers="date",signature="AAAA"';
    assertErrorBody(await b.client.request({ path: '/v1/accounts', unsigned: true, headers: { signature } }), 400, 'KID_MISSING');
  });

  test('a Date 61 s off gets 400 FORMAT_ERROR; 59 s off is accepted', async () => {
    const off = (s: number) => new Date(Date.now() - s * 1000);
    assertErrorBody(await b.client.request({ path: '/v1/sandbox/clock', date: off(61) }), 400, 'FORMAT_ERROR');
    assert.equal((await b.client.request({ path: '/v1/sandbox/clock', date: off(59) })).status, 200);
  });

  test('malformed JSON gets 400 FORMAT_ERROR, never 500', async () => {
    const res = await b.client.request({
      method: 'POST',
      path: '/v1/sandbox/customers',
      body: '{"customerNumber": ',
      headers: { 'content-type': 'application/json' },
    });
    assertErrorBody(res, 400, 'FORMAT_ERROR');
  });

  test('a body that is not JSON gets 415 FORMAT_ERROR; invalid UTF-8 400 FORMAT_ERROR', async () => {
    const xml = await b.client.request({
      method: 'POST',
      path: '/v1/sandbox/customers',
      body: '<customer/>',
      headers: { 'content-type': 'application/xml' },
    });
    assertErrorBody(xml, 415, 'FORMAT_ERROR');
    const latin1 = await b.client.request({
      method: 'POST',
      path: '/v1/sandbox/customers',
      body: '{"name":"\udc00"}',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(latin1.status, 400);
  });

  test('a body failing the route schema gets 400 FORMAT_ERROR', async () => {
    const res = await b.client.request({
      method: 'POST',
      path: '/v1/sandbox/customers',
      json: { customerNumber: 13039319955, name: 'x', type: 'private' },
    });
    assertErrorBody(res, 400, 'FORMAT_ERROR');
  });

  test('an unknown path gets 404 NOT_FOUND; a known path with another method 405 BAD_REQUEST', async () => {
    assertErrorBody(await b.client.request({ path: '/v1/nothing-here' }), 404, 'NOT_FOUND');
    // Outside /v1 too (the root is the sandbox's home page: any other path is unknown).
    assertErrorBody(await b.client.request({ path: '/nothing-here' }), 404, 'NOT_FOUND');
    const res = await b.client.request({ method: 'DELETE', path: '/v1/accounts' });
    assertErrorBody(res, 405, 'BAD_REQUEST');
    assert.equal(res.headers.allow, 'GET, HEAD');
  });

  test('a malformed URL gets a 400 error body', async () => {
    const res = await send(b.client.agent, `${b.bank.baseUrl}/v1/accounts/%E0%A4%A`, 'GET', {});
    assert.equal(res.status, 400);
    assert.equal((res.json() as { code: string }).code, 'FORMAT_ERROR');
  });

  test('TPP-Redirect-URI and TPP-Session-ID are required, except on sandbox operations', async () => {
    const noRedirect = await b.client.request({ path: '/v1/accounts', headers: { 'tpp-redirect-uri': '' } });
    assert.match(String(assertErrorBody(noRedirect, 400, 'HTTP_HEADER_REQUIRED').message), /TPP-Redirect-URI/);
    const noSession = await b.client.request({ path: '/v1/accounts', headers: { 'tpp-session-id': '' } });
    assert.match(String(assertErrorBody(noSession, 400, 'HTTP_HEADER_REQUIRED').message), /TPP-Session-ID/);
    const relative = await b.client.request({ path: '/v1/accounts', headers: { 'tpp-redirect-uri': '/callback' } });
    assertErrorBody(relative, 400, 'FORMAT_ERROR');
    const sandbox = await b.client.request({ path: '/v1/sandbox/customers', headers: { 'tpp-redirect-uri': '', 'tpp-session-id': '' } });
    assert.equal(sandbox.status, 200);
  });

  test('the response echoes X-Request-ID; error ids are unique per occurrence', async () => {
    const first = await b.client.request({ path: '/v1/nothing', headers: { 'x-request-id': 'req-1' } });
    const second = await b.client.request({ path: '/v1/nothing' });
    assert.notEqual((first.json() as { id: string }).id, (second.json() as { id: string }).id);
    const ok = await b.client.request({ path: '/v1/sandbox/clock', headers: { 'x-request-id': 'req-2' } });
    assert.equal(ok.headers['x-request-id'], 'req-2');
  });
});
