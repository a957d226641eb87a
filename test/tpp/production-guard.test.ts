// The TPP client's own production safety: against a target declared production, anything but a plain read
// is refused before a byte leaves, with the sender and the request named; other environments are untouched.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ProductionRefusal, productionRefusal, TppClient } from '../../lib/tpp/index.js';
import { testPki } from '../pki/test-pki.js';
import { startTestServer, type TestServer } from './https-test-server.js';

const { ca, identity } = testPki();
let server: TestServer;
before(async () => {
  server = await startTestServer(ca);
});
after(() => server.close());

const PSU_PRESENT = { 'PSU-IP-Address': '192.0.2.10' };

describe('productionRefusal', () => {
  const production = { environment: 'production', sender: 'AIS-01.a' } as const;

  it('lets reads through, and refuses every other method, naming the sender and the request', () => {
    assert.equal(productionRefusal(production, 'GET', '/v1/accounts', PSU_PRESENT), undefined);
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'post']) {
      assert.match(
        productionRefusal(production, method, '/v1/accounts', PSU_PRESENT) ?? '',
        new RegExp(`^not run against production: AIS-01\\.a would send ${method.toUpperCase()} /v1/accounts`),
      );
    }
  });

  it('refuses sandbox operations, reads included, at their default or overridden paths', () => {
    assert.match(
      productionRefusal(production, 'GET', '/v1/sandbox/customers', PSU_PRESENT) ?? '',
      /sandbox operation GET \/v1\/sandbox\/customers/,
    );
    const moved = { ...production, paths: { sandboxCustomers: '/mock/people' } };
    assert.match(productionRefusal(moved, 'GET', '/mock/people/123', PSU_PRESENT) ?? '', /sandbox operation/);
  });

  it('refuses reads that burn the unattended quota (no PSU-IP-Address), and only those', () => {
    for (const path of [
      '/v1/accounts/a1/balances',
      '/v1/accounts/a1/transactions',
      '/v1/card-accounts/c1/transactions',
      '/v1/accounts/a1/transactions/t1',
    ]) {
      assert.match(
        productionRefusal(production, 'GET', path, {}) ?? '',
        /without PSU-IP-Address, which uses up the account's unattended quota/,
        path,
      );
      assert.equal(productionRefusal(production, 'GET', path, { 'psu-ip-address': '192.0.2.10' }), undefined, path);
    }
    assert.equal(productionRefusal(production, 'GET', '/v1/accounts', {}), undefined, 'the list burns no quota');
  });

  it('leaves sandbox and staging targets alone', () => {
    for (const environment of ['sandbox', 'staging'] as const) {
      assert.equal(productionRefusal({ environment }, 'POST', '/v1/sandbox/initialize', {}), undefined);
    }
  });
});

describe('TppClient against a production target', () => {
  it('refuses a write before a byte leaves, tells onRefused, and throws ProductionRefusal', async () => {
    const told: string[] = [];
    const client = new TppClient({
      baseUrl: server.baseUrl,
      ca: ca.certificatePem,
      identity,
      safety: { environment: 'production', sender: 'PAY-01.a' },
      onRefused: (reason) => told.push(reason),
    });
    try {
      const before = server.requests.length;
      await assert.rejects(client.post('/v1/payments/sepa-credit-transfers', { x: 1 }), (error: unknown) => {
        assert.ok(error instanceof ProductionRefusal);
        assert.match(error.message, /PAY-01\.a would send POST \/v1\/payments\/sepa-credit-transfers/);
        return true;
      });
      await assert.rejects(client.delete('/v1/accounts'), ProductionRefusal);
      assert.equal(server.requests.length, before, 'nothing reached the server');
      assert.equal(told.length, 2);
      const read = await client.get('/v1/accounts', { headers: PSU_PRESENT });
      assert.equal(read.status, 201, 'reads go through');
    } finally {
      await client.close();
    }
  });

  it('judges the path relative to the base URL (a bank under a path prefix)', async () => {
    const client = new TppClient({
      baseUrl: `${server.baseUrl}/psd2`,
      ca: ca.certificatePem,
      identity,
      safety: { environment: 'production' },
    });
    try {
      await assert.rejects(client.get('/v1/sandbox/customers'), /sandbox operation GET \/v1\/sandbox\/customers/);
    } finally {
      await client.close();
    }
  });
});
