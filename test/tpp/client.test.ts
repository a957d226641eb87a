// TppClient against a real local HTTPS server: what goes over the wire verifies,
// exchanges are recorded, network failures are told apart from HTTP answers.
import assert from 'node:assert/strict';
import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { computeDigest, decodeRfc2047, formatHttpDate, verifySignedRequest } from '../../lib/httpsig/index.js';
import {
  fixedClock,
  loadTppIdentity,
  loadTppIdentityFromFiles,
  ResponseNotJsonError,
  TargetUnreachableError,
  TppClient,
} from '../../lib/tpp/index.js';
import type { RecordedExchange, TppClientOptions } from '../../lib/tpp/index.js';
import { testPki } from '../pki/test-pki.js';
import { scratchDir } from '../support/scratch.js';
import { startTestServer, toIncomingRequest } from './https-test-server.js';
import type { TestServer } from './https-test-server.js';

// A CA name that is not ASCII makes every keyId non-ASCII, so every Signature
// header here travels RFC 2047-encoded (Authentication item 7).
const { ca, tpp, identity } = testPki({ organizationName: 'Bank Ø Test AS' });
let server: TestServer;
const clients: TppClient[] = [];
before(async () => {
  server = await startTestServer(ca);
});
after(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await server.close();
});

function client(options: Partial<TppClientOptions> = {}): TppClient {
  const created = new TppClient({
    baseUrl: server.baseUrl,
    ca: ca.certificatePem,
    identity,
    safety: { environment: 'sandbox' },
    ...options,
  });
  clients.push(created);
  return created;
}

function lastRequest() {
  const captured = server.requests.at(-1);
  assert.ok(captured, 'the server received a request');
  return captured;
}

function assertVerifies(now = new Date()) {
  const result = verifySignedRequest(toIncomingRequest(lastRequest()), {
    now,
    maxClockSkewSeconds: 60,
    trustedCaPems: [ca.certificatePem],
  });
  assert.ok(result.ok, result.ok ? '' : `${result.failure.code}: ${result.failure.message}`);
  return result;
}

describe('TppClient round trips', () => {
  it('signs a GET so that the server side verifies it: empty-body Digest, Accept, no Content-Type', async () => {
    const response = await client().get('/v1/accounts?withBalance=true');
    assert.equal(response.status, 201);
    const captured = lastRequest();
    assert.equal(captured.url, '/v1/accounts?withBalance=true');
    assert.equal(captured.headers.digest, computeDigest(''));
    assert.equal(captured.headers.accept, 'application/json');
    assert.equal(captured.headers['content-type'], undefined);
    assert.deepEqual(assertVerifies().signedHeaders, ['date', 'digest', 'x-request-id']);
  });

  it('sends a JSON body byte for byte with a SHA-256 Digest and Content-Type', async () => {
    const body = { creditorName: 'Ærlig Østby', instructedAmount: { currency: 'NOK', amount: '100.00' } };
    await client({ defaultHeaders: { 'TPP-Redirect-URI': 'https://tpp.example/cb', 'PSU-ID': 'a1b2' } }).post(
      '/v1/payments/sepa-credit-transfers',
      body,
    );
    const captured = lastRequest();
    assert.equal(captured.body.toString('utf8'), JSON.stringify(body));
    assert.equal(captured.headers['content-type'], 'application/json');
    assert.equal(captured.headers.digest, computeDigest(JSON.stringify(body)));
    assert.deepEqual(assertVerifies().signedHeaders, ['date', 'digest', 'x-request-id', 'psu-id', 'tpp-redirect-uri']);
  });

  it('uses SHA-512 when the client or the request asks for it', async () => {
    await client({ digestAlgorithm: 'SHA-512' }).put('/v1/x', { a: 1 });
    assert.match(String(lastRequest().headers.digest), /^SHA-512=/);
    assertVerifies();
    await client().request({ method: 'POST', path: '/v1/x', rawBody: new Uint8Array([0x7b, 0x7d]), digestAlgorithm: 'SHA-512' });
    assert.equal(lastRequest().headers.digest, computeDigest('{}', 'SHA-512'));
    assertVerifies();
  });

  it('RFC 2047-encodes a Signature header that is not ASCII (item 7)', async () => {
    await client().delete('/v1/payments/sepa-credit-transfers/123');
    const sent = String(lastRequest().headers.signature);
    assert.match(sent, /^=\?utf-8\?B\?/);
    assert.match(decodeRfc2047(sent), /keyId="SN=[0-9A-F]+,CA=CN=xs2a-conformance Test CA,O=Bank Ø Test AS,C=NO"/);
    assertVerifies();
  });

  it('dates requests by the injected clock plus the client skew, in IMF-fixdate', async () => {
    const at = new Date('2026-03-01T12:00:00.000Z');
    await client({ clock: fixedClock(at), clockSkewSeconds: 30 }).get('/v1/accounts');
    assert.equal(lastRequest().headers.date, formatHttpDate(new Date(at.getTime() + 30_000)));
    assert.equal(lastRequest().headers.date, 'Sun, 01 Mar 2026 12:00:30 GMT');
  });

  it('sends default headers, which request headers override whatever their case', async () => {
    await client({ defaultHeaders: { 'TPP-Session-ID': 'default', 'X-Extra': 'kept' } }).get('/v1/accounts', {
      headers: { 'tpp-session-id': 'chosen' },
    });
    assert.equal(lastRequest().headers['tpp-session-id'], 'chosen');
    assert.equal(lastRequest().headers['x-extra'], 'kept');
  });

  it('joins request paths to a base URL with a path prefix', async () => {
    await client({ baseUrl: `${server.baseUrl}/psd2/` }).get('/v1/accounts');
    assert.equal(lastRequest().url, '/psd2/v1/accounts');
  });

  it('reuses connections between requests (keep-alive)', async () => {
    const tppClient = client();
    const ports = new Set<number | undefined>();
    for (let i = 0; i < 4; i++) {
      await tppClient.get(`/v1/keep-alive/${i}`);
      ports.add(lastRequest().remotePort);
    }
    // undici may open a second connection while the first is being released, but not one per request.
    assert.ok(ports.size < 4, `4 requests used ${ports.size} connections`);
  });

  it('carries signingDefects to the wire: the body sent differs from the one digested', async () => {
    await client().post('/v1/x', { a: 1 }, { signingDefects: [{ kind: 'body-changed-after-signing' }] });
    assert.equal(lastRequest().body.toString(), '{"a":1} ');
    const result = verifySignedRequest(toIncomingRequest(lastRequest()), { now: new Date(), maxClockSkewSeconds: 60 });
    assert.equal(result.ok ? 'OK' : result.failure.code, 'SIGNATURE_INVALID');
  });
});

describe("a bank's rate limit (issue 37)", () => {
  it('a 429 with a short Retry-After is waited out and the request made again, freshly signed; both exchanges recorded', async () => {
    const exchanges: RecordedExchange[] = [];
    const started = Date.now();
    const response = await client({ onExchange: (exchange) => exchanges.push(exchange) }).get('/limited?after=1');
    assert.equal(response.status, 201);
    assert.ok(Date.now() - started >= 900, 'it waited what the bank asked');
    assert.deepEqual(
      exchanges.map((e) => e.response?.status),
      [429, 201],
    );
    assert.notEqual(exchanges[0]?.request.headers['X-Request-ID'], exchanges[1]?.request.headers['X-Request-ID']);
  });

  it('a 429 with a long Retry-After (a daily quota) is the answer as it is', async () => {
    const response = await client().get('/limited?after=3600');
    assert.equal(response.status, 429);
  });
});

describe('TppClient responses and recording', () => {
  it('records request and response, and hands the exchange to onExchange', async () => {
    const exchanges: RecordedExchange[] = [];
    const response = await client({ onExchange: (exchange) => exchanges.push(exchange) }).post('/v1/echo', { hello: 'world' });
    assert.equal(exchanges.length, 1);
    const [exchange] = exchanges;
    assert.equal(exchange, response.exchange);
    assert.match(exchange?.id ?? '', /^[0-9a-f-]{36}$/);
    assert.ok(!Number.isNaN(Date.parse(exchange?.startedAt ?? '')));
    assert.ok((exchange?.durationMs ?? -1) >= 0);
    assert.equal(exchange?.request.method, 'POST');
    assert.equal(exchange?.request.url, `${server.baseUrl}/v1/echo`);
    assert.equal(exchange?.request.body, '{"hello":"world"}');
    assert.equal(exchange?.request.headers['X-Request-ID'], lastRequest().headers['x-request-id']);
    assert.equal(exchange?.request.headers.Signature, lastRequest().headers.signature);
    assert.deepEqual(exchange?.response, { status: 201, headers: response.headers, body: response.bodyText });
    assert.equal(response.headers['x-answer'], 'a, b');
    assert.deepEqual(response.json(), { received: '/v1/echo', bytes: 17 });
  });

  it('json() on a body that is not JSON throws an error naming the request', async () => {
    const response = await client().get('/text');
    assert.equal(response.status, 502);
    assert.throws(
      () => response.json(),
      (error: unknown) => {
        assert.ok(error instanceof ResponseNotJsonError);
        assert.match(
          error.message,
          new RegExp(`GET ${server.baseUrl}/text answered HTTP 502 \\(Content-Type text/html\\) with a body that is not JSON`),
        );
        return true;
      },
    );
  });

  it('a closed port raises TargetUnreachableError with the cause, and is recorded', async () => {
    const exchanges: RecordedExchange[] = [];
    const closed = new TppClient({
      baseUrl: 'https://127.0.0.1:1',
      ca: ca.certificatePem,
      identity,
      safety: { environment: 'sandbox' },
      onExchange: (e) => exchanges.push(e),
    });
    clients.push(closed);
    await assert.rejects(closed.get('/v1/accounts'), (error: unknown) => {
      assert.ok(error instanceof TargetUnreachableError);
      assert.match(error.message, /ECONNREFUSED/);
      assert.ok(error.cause instanceof Error);
      return true;
    });
    assert.equal(exchanges.length, 1);
    assert.match(exchanges[0]?.error ?? '', /ECONNREFUSED/);
    assert.equal(exchanges[0]?.response, undefined);
  });

  it('a server certificate from an untrusted CA is TargetUnreachableError, not an HTTP error', async () => {
    await assert.rejects(client({ ca: tpp.certificatePem }).get('/v1/accounts'), TargetUnreachableError);
  });

  it('no answer within timeoutMs is TargetUnreachableError', async () => {
    const started = Date.now();
    await assert.rejects(client({ timeoutMs: 300 }).get('/hang'), (error: unknown) => {
      assert.ok(error instanceof TargetUnreachableError);
      assert.match(error.message, /\/hang: no complete response within 300 ms \(The operation was aborted due to timeout\)$/);
      return true;
    });
    assert.ok(Date.now() - started < 5000);
  });
});

describe('TppIdentity', () => {
  it('holds keyId and TPP-Signature-Certificate, and never shows the private key', () => {
    assert.equal(identity.signatureCertificate, identity.certificate.raw.toString('base64'));
    assert.doesNotMatch(identity.signatureCertificate, /\s/);
    const shown = [
      JSON.stringify(identity),
      inspect(identity),
      inspect({ nested: { identity } }, { depth: 5 }),
      String(Object.keys(identity)),
    ];
    const keyBody = tpp.privateKeyPem.split('\n')[1] ?? 'unreachable';
    for (const text of shown) {
      assert.doesNotMatch(text, /PRIVATE KEY/);
      assert.equal(text.includes(keyBody), false);
    }
    assert.deepEqual(JSON.parse(JSON.stringify(identity)), { keyId: identity.keyId, certificatePem: identity.certificatePem });
  });

  it('refuses a private key that does not belong to the certificate', () => {
    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    assert.throws(() => loadTppIdentity({ certificatePem: tpp.certificatePem, privateKeyPem: other }), /RSA key/);
    const otherRsa = createPrivateKey(ca.privateKeyPem).export({ type: 'pkcs8', format: 'pem' }).toString();
    assert.throws(
      () => loadTppIdentity({ certificatePem: tpp.certificatePem, privateKeyPem: otherRsa }),
      /does not belong to the TPP certificate/,
    );
  });

  it('loads from files', async () => {
    const directory = scratchDir('tpp-identity-');
    try {
      writeFileSync(join(directory, 'tpp.pem'), tpp.certificatePem);
      writeFileSync(join(directory, 'tpp.key'), tpp.privateKeyPem);
      const loaded = await loadTppIdentityFromFiles({
        certificateFile: join(directory, 'tpp.pem'),
        privateKeyFile: join(directory, 'tpp.key'),
      });
      assert.equal(loaded.keyId, identity.keyId);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
