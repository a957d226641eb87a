// The faults declared as changes of an answer's body (reference/switches.ts, `alters`): the bank builds its own
// body, one function applies the changes, and a change's fault is asked (so counted by a census) only where its
// `when` holds of the answer.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { sharedServerCertificate } from '../../lib/pki/index.js';
import { buildReferenceApp } from '../../reference/app.js';
import { ERROR_BODY } from '../../reference/bank-errors.js';
import { knownFaults } from '../../reference/server.js';
import { CHALLENGES, REDIRECTS } from '../../reference/services/sca-answers.js';
import { applyBodyChanges, BehaviourSwitches, bodyChangesOf, type JsonAnswer } from '../../reference/switches.js';
import { testPki } from '../pki/test-pki.js';
import { startTestBank, TestClient, testTpp, withBank } from './helpers.js';

const ERROR_FAULTS = [
  'error-body-missing-fields',
  'error-status-as-text',
  'error-body-without-code',
  'error-message-not-text',
  'misleading-error-codes',
];

/** What a TPP's census handle was asked while one body went through the changes of `route`. */
function askedFor(route: string, body: JsonAnswer, faults: string[] = []): { asked: string[]; changed: unknown } {
  const switches = new BehaviourSwitches({ faults, census: true });
  const changed = applyBodyChanges(switches.forTpp('PSDNO-FSA-ASKED'), route, body, 400);
  return { asked: switches.asked().get('PSDNO-FSA-ASKED') ?? [], changed };
}

describe('faults declared as body changes', () => {
  test('the changes of a route are the declared ones, in the order declared; the declarations are faults like any other', () => {
    const names = bodyChangesOf('the error body').map(({ fault }) => fault.name);
    assert.deepEqual([...names].sort(), [...ERROR_FAULTS].sort());
    const declared = knownFaults().filter((f) => f.alters !== undefined);
    assert.ok(declared.length > 50, `${declared.length} faults declared as body changes`);
    assert.ok(declared.every((f) => f.breaks.length > 0));
  });

  test('a fault is asked only where its when holds of the body', () => {
    // No message, and a code that names no malformed request: neither of their faults is asked.
    const plain = askedFor('the error body', { id: 'x', system: 'reference-aspsp', status: 404, code: 'RESOURCE_UNKNOWN' });
    assert.deepEqual(plain.asked, ['error-body-missing-fields', 'error-body-without-code', 'error-status-as-text']);
    const malformed = askedFor('the error body', { id: 'x', system: 'reference-aspsp', status: 400, code: 'FORMAT_ERROR', message: 'bad' });
    assert.deepEqual(malformed.asked, [...ERROR_FAULTS].sort());
  });

  test('a change applies while its fault is on, to the body as the changes before it left it', () => {
    const { changed } = askedFor(
      'the error body',
      { id: 'x', system: 'reference-aspsp', status: 400, code: 'FORMAT_ERROR', message: 'bad' },
      ['misleading-error-codes', 'error-message-not-text'],
    );
    assert.deepEqual(changed, { id: 'x', system: 'reference-aspsp', status: 400, code: 'RESOURCE_UNKNOWN', message: { text: 'bad' } });
    // Once the code is gone, the fault that rewrites it is not asked.
    const withoutCode = askedFor('the error body', { id: 'x', system: 'reference-aspsp', status: 400, code: 'FORMAT_ERROR' }, [
      'error-body-without-code',
    ]);
    assert.ok(!withoutCode.asked.includes('misleading-error-codes'));
    assert.deepEqual(withoutCode.changed, { id: 'x', system: 'reference-aspsp', status: 400 });
  });
});

describe("answers other than a route's object", () => {
  const LISTING = 'GET /v1/sandbox/customers';
  const customers = [
    { customerNumber: '13039319955', name: 'Kari Nordmann', type: 'private' },
    { customerNumber: '910000001', name: 'Fjord AS', type: 'corporate' },
  ];
  const untyped = customers.map(({ type: _, ...customer }) => customer);

  test('the customer listing loses its types in either shape, the object and the bare array (a variant)', () => {
    const asObject = askedFor(LISTING, { customers }, ['sandbox-customers-without-type']);
    assert.deepEqual(asObject.changed, { customers: untyped });
    const asArray = askedFor(LISTING, customers, ['sandbox-customers-without-type']);
    assert.deepEqual(asArray.changed, untyped);
    assert.deepEqual(askedFor(LISTING, customers).changed, customers, "off: the bank's own listing");
    // An empty listing has no type to leave out: the fault is not asked.
    assert.deepEqual(askedFor(LISTING, { customers: [] }).asked, []);
    assert.deepEqual(askedFor(LISTING, []).asked, []);
  });

  const [oneAccount, other] = CHALLENGES as [string, string];
  const link = { scaRedirect: { href: 'https://bank.example/sca/a1' } };
  const expired = { id: 'x', system: 'reference-aspsp', status: 401, code: 'SCA_EXPIRED', message: 'expired' };

  test("the 401 that asks for SCA: its code and its link change apart, and one account's read alone loses its link to its own fault", () => {
    const both = askedFor(other, { ...expired, _links: link }, ['expired-session-code-consent-invalid', 'no-sca-redirect']);
    assert.deepEqual(both.changed, { ...expired, code: 'CONSENT_INVALID' });
    assert.deepEqual(askedFor(other, { _links: link }).asked, ['no-sca-redirect']);
    assert.deepEqual(askedFor(oneAccount, { _links: link }).asked, ['no-sca-redirect', 'resource-challenge-without-link']);
    // Without a reason, the 401 without its link still says why: CONSENT_INVALID, in the error body.
    const bare = askedFor(oneAccount, { _links: link }, ['resource-challenge-without-link']).changed as Record<string, unknown>;
    assert.deepEqual(
      { ...bare, id: 'x' },
      { id: 'x', system: 'reference-aspsp', status: 401, code: 'CONSENT_INVALID', message: 'No consent for this PSU' },
    );
    assert.deepEqual(askedFor(other, { _links: link }, ['resource-challenge-without-link']).changed, { _links: link });
  });
});

describe('a payment answer through the one hook (plugins/body-changes.ts)', () => {
  const PAYMENT_HEADERS = { 'x-accept-fix': 'amount-as-string', 'psu-ip-address': '192.0.2.10', 'x-psu-identity': '13039319955' };
  const payment = (amount: string, address: object) => ({
    instructedAmount: { amount, currency: 'EUR' },
    creditorName: 'Kari Nordmann',
    creditorAccount: { iban: 'NO9386011117947', currency: 'EUR' },
    creditorAgent: 'DNBANOKKXXX',
    creditorAddress: address,
    debtorAccount: { iban: 'NO9386011117947', currency: 'NOK' },
  });
  let faulty: Awaited<ReturnType<typeof withBank>>;
  before(async () => {
    faulty = await withBank(['payment-tpp-messages-not-array']);
  });
  after(async () => {
    await faulty.close();
  });

  test('the tppMessages faults are asked of an answer with a tppMessages only; the bank answers its own body', async () => {
    const bank = await startTestBank({ census: true });
    const client = new TestClient(bank, testTpp());
    try {
      const asked = () => new Set(bank.asked().get('PSDNO-FSA-900001') ?? []);
      const townName = await client.request({
        method: 'POST',
        path: '/v1/payments/sepa-credit-transfers',
        json: payment('31.00', { townName: 'Oslo', country: 'NO' }),
        headers: PAYMENT_HEADERS,
      });
      assert.equal(townName.status, 201, townName.text);
      assert.equal((townName.json() as { tppMessages?: unknown }).tppMessages, undefined);
      assert.ok(asked().has('payment-without-sca-redirect') && asked().has('payment-links-not-a-map'));
      assert.ok(!asked().has('tpp-message-category-lower-case') && !asked().has('payment-tpp-messages-not-array'));
      const city = await client.request({
        method: 'POST',
        path: '/v1/payments/sepa-credit-transfers',
        json: payment('32.00', { city: 'Oslo', country: 'NO' }),
        headers: PAYMENT_HEADERS,
      });
      assert.equal(city.status, 201, city.text);
      assert.ok(Array.isArray((city.json() as { tppMessages?: unknown }).tppMessages));
      assert.ok(asked().has('tpp-message-category-lower-case') && asked().has('payment-tpp-messages-not-array'));
    } finally {
      await client.close();
      await bank.close();
    }
  });

  test('under its fault, the answer is the changed body, with the Digest of what is sent', async () => {
    const res = await faulty.client.request({
      method: 'POST',
      path: '/v1/payments/sepa-credit-transfers',
      json: payment('33.00', { city: 'Oslo', country: 'NO' }),
      headers: PAYMENT_HEADERS,
    });
    assert.equal(res.status, 201, res.text);
    const body = res.json() as { tppMessages?: unknown; paymentId?: string };
    assert.ok(typeof body.tppMessages === 'object' && body.tppMessages !== null && !Array.isArray(body.tppMessages));
    assert.ok(body.paymentId);
    assert.equal(res.headers.digest, `SHA-256=${createHash('sha256').update(res.text).digest('base64')}`);
  });
});

describe('an array answer through the one hook', () => {
  test('under sandbox-customers-as-array, the customer listing is an array and sandbox-customers-without-type still changes it', async () => {
    const both = await withBank(['sandbox-customers-without-type'], ['sandbox-customers-as-array']);
    const variantOnly = await withBank([], ['sandbox-customers-as-array']);
    try {
      const listing = await both.client.request({ path: '/v1/sandbox/customers' });
      assert.equal(listing.status, 200, listing.text);
      const customers = listing.json() as Record<string, unknown>[];
      assert.ok(Array.isArray(customers) && customers.length > 0, listing.text);
      assert.ok(
        customers.every((customer) => customer.customerNumber !== undefined && !('type' in customer)),
        listing.text,
      );
      assert.equal(listing.headers.digest, `SHA-256=${createHash('sha256').update(listing.text).digest('base64')}`);
      const own = (await variantOnly.client.request({ path: '/v1/sandbox/customers' })).json() as Record<string, unknown>[];
      assert.ok(own.every((customer) => customer.type === 'private' || customer.type === 'corporate'));
    } finally {
      await both.close();
      await variantOnly.close();
    }
  });
});

/**
 * Whether the bank declares this route, its parameters named as the hook sees them (`routeOptions.url`): fastify's
 * hasRoute takes `/v1/accounts/:resourceId` for `/v1/accounts/:accountId`, which the hook would never meet.
 */
function declares(app: FastifyInstance, method: string, url: string): boolean {
  const found = app.findRoute({ method, url });
  if (found === null) return false;
  const named = [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map(([, name = '']) => name);
  const params = found.params as Record<string, string>;
  return Object.keys(params).length === named.length && named.every((name) => params[name] === `:${name}`);
}

describe('the routes the body changes name', () => {
  let app: FastifyInstance;
  before(async () => {
    const server = sharedServerCertificate(testPki().ca, { hostnames: ['localhost'], ipAddresses: ['127.0.0.1'] });
    ({ app } = await buildReferenceApp({
      switches: new BehaviourSwitches(),
      tls: { key: server.privateKeyPem, cert: server.certificatePem },
    }));
    await app.ready();
  });
  after(() => app.close());

  test('every route a fault alters is one the bank answers under the hook (/v1), or an answer of no route it changes by name', () => {
    // The hook (plugins/body-changes.ts) is registered under /v1; the error body and the redirects after SCA apply their own.
    const unrouted = new Set([ERROR_BODY, ...CHALLENGES, ...REDIRECTS]);
    const altered = knownFaults().flatMap((fault) => [fault.alters?.route ?? []].flat().map((route) => ({ fault: fault.name, route })));
    assert.ok(altered.length > 50, `${altered.length} routes altered`);
    const unknown = altered.filter(({ route }) => {
      if (unrouted.has(route)) return false;
      const [method = '', url = ''] = route.split(' ');
      return !(url.startsWith('/v1/') && declares(app, method, url));
    });
    assert.deepEqual(unknown, []);
  });

  test('a route is told apart from one the bank does not declare: another path, method or parameter name', () => {
    assert.ok(declares(app, 'GET', '/v1/agreements'));
    assert.ok(declares(app, 'GET', '/v1/accounts/:accountId'));
    assert.ok(!declares(app, 'GET', '/v1/agreement'));
    assert.ok(!declares(app, 'POST', '/v1/agreements'));
    assert.ok(!declares(app, 'GET', '/v1/accounts/:resourceId'));
    assert.ok(!declares(app, 'GET', '/v1/accounts/accountId'));
  });
});
