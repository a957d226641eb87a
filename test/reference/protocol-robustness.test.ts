// The reference bank under 3,000 robustness probes (the generator of suites/
// robustness), in process through fastify's inject: every malformed request gets a
// 4xx with the error body or a success, never a 5xx, and the bank keeps serving.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { sharedServerCertificate } from '../../lib/pki/index.js';
import { HeaderFields, describeProbe, signRequest, type ProbeOutcome, type ProbeRequest } from '../../lib/tpp/index.js';
import { runProbes } from '../../lib/tpp/malformed-requests.js';
import { buildReferenceApp } from '../../reference/app.js';
import { BehaviourSwitches } from '../../reference/switches.js';
import { testPki } from '../pki/test-pki.js';
import { makeTpp, REDIRECT_URI } from './helpers.js';

// Seeded, so every run sends the same 3,000; a third of what it was, to keep the fast tier fast (test-tiers.ts).
const PROBES = 3_000;

describe('reference bank: robustness probes', () => {
  let app: FastifyInstance;
  const identity = makeTpp('PSDNO-FSA-900777', 'Probe TPP AS');

  before(async () => {
    // Any certificate will do: the probes reach the app through inject, never through TLS.
    const server = sharedServerCertificate(testPki().ca, { hostnames: ['localhost'], ipAddresses: ['127.0.0.1'] });
    ({ app } = await buildReferenceApp({
      switches: new BehaviourSwitches(),
      tls: { key: server.privateKeyPem, cert: server.certificatePem },
    }));
    await app.ready();
  });
  after(() => app.close());

  async function send(probe: ProbeRequest): Promise<ProbeOutcome> {
    const headers = new HeaderFields({
      Accept: 'application/json',
      'TPP-Redirect-URI': REDIRECT_URI,
      'TPP-Session-ID': 'probe-session',
      'PSU-IP-Address': '192.0.2.10',
    });
    for (const [name, value] of Object.entries(probe.headers)) headers.set(name, value);
    for (const name of probe.omitHeaders) headers.delete(name);
    const signed = signRequest({
      headers,
      body: probe.rawBody,
      identity,
      now: new Date(),
      digestAlgorithm: 'SHA-256',
      defects: probe.signingDefects,
      omitHeaders: probe.omitHeaders,
      requestTarget: { method: probe.method, path: probe.path, host: 'localhost' },
    });
    const response = await app.inject({
      method: probe.method as 'GET',
      url: probe.path,
      headers: signed.headers.toRecord(),
      ...(signed.body ? { payload: Buffer.from(signed.body) } : {}),
    });
    return { status: response.statusCode, contentType: response.headers['content-type'] as string | undefined, body: response.body };
  }

  test(`${PROBES} malformed requests: no 5xx, every refusal with the error body`, async () => {
    const result = await runProbes(send, { runs: PROBES, seed: 7 });
    const found = result.counterexample;
    assert.equal(found, undefined, found ? `${found.failure} for ${describeProbe(found.request)}` : '');
    assert.equal(result.runs, PROBES);
  });

  test('the bank still serves a well-formed request afterwards', async () => {
    const outcome = await send({
      method: 'GET',
      path: '/v1/sandbox/customers',
      headers: {},
      omitHeaders: [],
      signingDefects: [],
      defects: [],
    });
    assert.ok(!('error' in outcome) && outcome.status === 200);
  });
});
