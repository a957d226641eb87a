/**
 * The bank in another data centre that scripts/remote-speed.ts measures a run against (issue 37, item 5): the
 * reference bank behind test/cli/delay-proxy.ts answers as itself (its own TLS certificate, its links through
 * the proxy) and every answer is as late as asked. What a remote run's default is made of: workers for the
 * network, not for the cores (test/targets/timeouts.test.ts).
 */
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { after, before, test } from 'node:test';
import { generateCertificateAuthority, generateTppCertificate } from '../../lib/pki/index.js';
import { loadTppIdentity, TppClient } from '../../lib/tpp/index.js';
import { startReferenceBank, type ReferenceBank } from '../../reference/server.js';
import { startDelayProxy, type DelayProxy } from './delay-proxy.js';

const DELAY_MS = 150;
let proxy: DelayProxy;
let bank: ReferenceBank;

before(async () => {
  proxy = await startDelayProxy(DELAY_MS);
  bank = await startReferenceBank({ publicBaseUrl: proxy.baseUrl });
  proxy.upstream = { host: '127.0.0.1', port: bank.port };
});
after(async () => {
  await proxy.close();
  await bank.close();
});

test('every answer comes through the proxy as the bank sent it, and as late as asked', async () => {
  const issuer = generateCertificateAuthority({ commonName: 'Delay test issuer' });
  const tpp = generateTppCertificate(issuer, {
    organizationName: 'Delay TPP',
    organizationIdentifier: 'PSDNO-FSA-DELAY',
    roles: ['PSP_AI'],
  });
  const client = new TppClient({
    baseUrl: proxy.baseUrl,
    ca: bank.caPem,
    identity: loadTppIdentity({ certificatePem: tpp.certificatePem, privateKeyPem: tpp.privateKeyPem }),
    safety: { environment: 'sandbox' },
    defaultHeaders: {
      'TPP-Redirect-URI': 'https://tpp.example/cb',
      'TPP-Session-ID': '5b4f5c1e-2f3a-4c5d-8e9f-0a1b2c3d4e5f',
      'PSU-IP-Address': '192.0.2.10',
    },
  });
  try {
    await client.get('/v1/accounts'); // the connection, its handshake late too
    const started = performance.now();
    const answer = await client.get('/v1/accounts');
    const took = performance.now() - started;
    assert.equal(answer.status, 401);
    assert.ok(took >= DELAY_MS, `${took} ms`);
    assert.ok(answer.bodyText.includes(`"href":"${proxy.baseUrl}/sca/`), 'its links lead through the proxy');
  } finally {
    await client.close();
  }
});
