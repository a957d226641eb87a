// Independent verification: requests signed by TppClient, as a server received
// them, verified by Joyent's http-signature, an implementation this project did not write.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TppClient } from '../../lib/tpp/index.js';
import type { SigningDefect } from '../../lib/tpp/index.js';
import { joyent } from '../httpsig/joyent.js';
import { testPki } from '../pki/test-pki.js';
import { startTestServer } from './https-test-server.js';
import type { TestServer } from './https-test-server.js';

const { ca, identity } = testPki();
const publicKeyPem = identity.certificate.publicKey.export({ type: 'spki', format: 'pem' }).toString();
let server: TestServer;
let client: TppClient;
before(async () => {
  server = await startTestServer(ca);
  client = new TppClient({
    baseUrl: server.baseUrl,
    ca: ca.certificatePem,
    identity,
    safety: { environment: 'sandbox' },
    defaultHeaders: { 'TPP-Redirect-URI': 'https://tpp.example/callback?x=1', 'PSU-ID': '7d3a36a1-2c53-4ed1-8c0c-0c3b4a4cf36e' },
  });
});
after(async () => {
  await client.close();
  await server.close();
});

/** Joyent's verdict on the last request the server received, requiring the XS2A always-signed headers. */
function joyentVerifies(): boolean {
  const captured = server.requests.at(-1);
  assert.ok(captured);
  const parsed = joyent.parseRequest(captured, { headers: ['date', 'digest', 'x-request-id'], clockSkew: 60 });
  assert.equal(parsed.params.keyId, identity.keyId);
  return joyent.verifySignature(parsed, publicKeyPem);
}

describe("Joyent's http-signature verifies what TppClient sends", () => {
  it('a GET', async () => {
    await client.get('/v1/accounts');
    assert.equal(joyentVerifies(), true);
  });

  it('a POST with a JSON body, PSU-ID, PSU-Corporate-ID and TPP-Redirect-URI signed', async () => {
    await client.post('/v1/payments/sepa-credit-transfers', { creditorName: 'Ærlig' }, { headers: { 'PSU-Corporate-ID': 'c0ffee' } });
    assert.equal(joyentVerifies(), true);
  });

  it('a SHA-512 Digest', async () => {
    await client.request({ method: 'PUT', path: '/v1/x', json: [1, 2, 3], digestAlgorithm: 'SHA-512' });
    assert.equal(joyentVerifies(), true);
  });

  it('headers listed in another order', async () => {
    await client.get('/v1/accounts', { signingDefects: [{ kind: 'headers-out-of-order' }] });
    assert.equal(joyentVerifies(), true);
  });

  it('and does not verify a signature made with another key', async () => {
    const signingDefects: SigningDefect[] = [{ kind: 'wrong-key' }];
    await client.get('/v1/accounts', { signingDefects });
    assert.equal(joyentVerifies(), false);
  });
});
