// Sandbox operations: the known state, creating customers, initialisation, the test clock.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { isValidBBAN, isValidIBAN } from 'ibantools';
import { consent, withBank } from './helpers.js';
import { SandboxData } from '../../reference/state/sandbox-data.js';
import { startReferenceBank, UnknownSwitchError } from '../../reference/server.js';

type Bank = Awaited<ReturnType<typeof withBank>>;

interface Customer {
  customerNumber: string;
  name: string;
  type: string;
}

describe('sandbox data (no server)', () => {
  test('the known state: 3 private customers with 2 accounts and a card account, 2 corporate with 2 accounts', () => {
    const data = new SandboxData();
    const customers = [...data.customers.values()];
    assert.deepEqual(
      customers.filter((c) => c.type === 'private').map((c) => c.customerNumber),
      ['13039319955', '12085592767', '01078900497'],
    );
    assert.deepEqual(
      customers.filter((c) => c.type === 'corporate').map((c) => c.customerNumber),
      ['18129215603', '20079518612'],
    );
    for (const c of customers) {
      if (c.type === 'private') {
        const mine = data.accountsIn(c.customerNumber, { kind: 'PRIVATE' });
        assert.deepEqual(
          mine.map((a) => a.kind),
          ['account', 'account', 'card'],
        );
      } else {
        const [agreement, ...more] = data.agreementsOf(c.customerNumber);
        assert.ok(agreement);
        assert.equal(more.length, 0);
        assert.equal(data.accountsIn(c.customerNumber, { kind: 'CORPORATE', agreementId: agreement.id }).length, 2);
        assert.equal(data.accountsIn(c.customerNumber, { kind: 'PRIVATE' }).length, 0);
      }
    }
  });

  test('every IBAN is valid (mod-97), every BBAN passes mod-11, names are at most 70 characters', () => {
    const data = new SandboxData();
    for (const a of data.accounts.values()) {
      assert.ok(a.name.length <= 70);
      if (a.kind === 'account') {
        assert.ok(isValidIBAN(a.iban), a.iban);
        assert.ok(isValidBBAN(a.bban, 'NO'), a.bban);
        assert.equal(a.iban.length, 15);
      }
    }
  });

  test('the data is deterministic: same ids in every instance', () => {
    assert.deepEqual([...new SandboxData().accounts.keys()], [...new SandboxData().accounts.keys()]);
  });

  test('an unknown switch is refused, naming the nearest declared one rather than listing them all', async () => {
    await assert.rejects(startReferenceBank({ faults: ['signature-check-of'] }), (error: Error) => {
      assert.ok(error instanceof UnknownSwitchError);
      assert.equal(error.suggestion, 'signature-check-off');
      assert.match(error.message, /unknown fault "signature-check-of"; did you mean "signature-check-off"\?/);
      assert.ok(error.message.length < 200);
      return true;
    });
    await assert.rejects(startReferenceBank({ variants: ['signature-check-off'] }), /unknown variant "signature-check-off"/);
    await assert.rejects(
      startReferenceBank({ faults: ['zzzzzzzz-qqqqqqq'] }),
      (error: Error) => error instanceof UnknownSwitchError && error.suggestion === undefined,
    );
  });
});

describe('sandbox operations', () => {
  let b: Bank;
  before(async () => {
    b = await withBank();
  });
  after(async () => {
    await b.close();
  });
  beforeEach(async () => {
    await b.client.initialize();
  });

  const customers = async () => ((await b.client.request({ path: '/v1/sandbox/customers' })).json() as { customers: Customer[] }).customers;
  const create = (json: unknown) => b.client.request({ method: 'POST', path: '/v1/sandbox/customers', json });

  test('GET /v1/sandbox/customers lists the known customers', async () => {
    const list = await customers();
    assert.equal(list.length, 5);
    assert.deepEqual(list[0], { customerNumber: '13039319955', name: 'Kari Nordmann', type: 'private' });
  });

  test('POST /v1/sandbox/customers creates a customer who can log in; initialize removes it', async () => {
    const created = await create({ customerNumber: '31125461118', name: 'Test Testesen', type: 'private' });
    assert.equal(created.status, 201);
    assert.deepEqual(created.json(), { customerNumber: '31125461118', name: 'Test Testesen', type: 'private' });
    assert.equal((await customers()).length, 6);
    const { psuId } = await consent(b.client, { nationalId: '31125461118' });
    assert.deepEqual((await b.client.request({ path: '/v1/accounts', headers: { 'psu-id': psuId } })).json(), { accounts: [] });

    assert.equal((await b.client.initialize()).status, 204);
    assert.equal((await customers()).length, 5);
    assert.equal((await b.client.request({ path: '/v1/accounts', headers: { 'psu-id': psuId } })).status, 401);
  });

  test('a created corporate customer gets an agreement and the context page', async () => {
    assert.equal((await create({ customerNumber: '31125453913', name: 'Nytt Firma AS', type: 'corporate' })).status, 201);
    const outcome = await consent(b.client, { nationalId: '31125453913' });
    assert.ok(outcome.pages.some((p) => p.endsWith('/context')));
  });

  test('invalid or duplicate customers: 400 FORMAT_ERROR with a clear message', async () => {
    const cases: [unknown, RegExp][] = [
      [{ customerNumber: '1303931995', name: 'Ten Digits', type: 'private' }, /customerNumber/],
      [{ customerNumber: '13039319955', name: 'Again', type: 'private' }, /already exists/],
      [{ customerNumber: '31125461118', name: 'X', type: 'business' }, /type/],
      [{ customerNumber: '31125461118', type: 'private' }, /name/],
      [{ customerNumber: '31125461118', name: 'x'.repeat(71), type: 'private' }, /name/],
      [[], /object/],
    ];
    for (const [json, message] of cases) {
      const res = await create(json);
      assert.equal(res.status, 400, JSON.stringify(json));
      const body = res.json() as { code: string; message: string };
      assert.equal(body.code, 'FORMAT_ERROR');
      assert.match(body.message, message);
    }
  });

  test('clock: GET, freeze, offset, back to system; bank time drives the Date check', async () => {
    const system = (await b.client.request({ path: '/v1/sandbox/clock' })).json() as { now: string; mode: string };
    assert.equal(system.mode, 'system');
    assert.ok(Math.abs(Date.parse(system.now) - Date.now()) < 5000);

    const frozenAt = new Date(Math.floor(Date.now() / 1000) * 1000 + 30_000).toISOString();
    const frozen = await b.client.request({ method: 'PUT', path: '/v1/sandbox/clock', json: { frozenAt } });
    assert.deepEqual(frozen.json(), { now: frozenAt, mode: 'frozen' });

    // Forward, not back: the TPP certificate is not valid before it was issued.
    const shifted = await b.client.shiftBankClock(3600);
    const body = shifted.json() as { now: string; mode: string };
    assert.equal(body.mode, 'offset');
    assert.ok(Math.abs(Date.parse(body.now) - (Date.now() + 3_600_000)) < 5000);
    // The Date header must now match the bank's clock, not ours.
    const withOurTime = await b.client.request({ path: '/v1/sandbox/clock', date: new Date() });
    assert.equal((withOurTime.json() as { code: string }).code, 'FORMAT_ERROR');

    const back = await b.client.resetBankClock();
    assert.equal((back.json() as { mode: string }).mode, 'system');
  });

  test('clock: bad settings are 400 FORMAT_ERROR', async () => {
    for (const json of [
      {},
      { frozenAt: 'yesterday' },
      { frozenAt: '2025-01-01T00:00:00' },
      { offsetSeconds: '10' },
      { frozenAt: '2025-01-01T00:00:00Z', offsetSeconds: 1 },
    ]) {
      const res = await b.client.request({ method: 'PUT', path: '/v1/sandbox/clock', json });
      assert.equal(res.status, 400, JSON.stringify(json));
      assert.equal((res.json() as { code: string }).code, 'FORMAT_ERROR');
    }
  });

  test('closing an unknown account is 404 RESOURCE_UNKNOWN', async () => {
    const res = await b.client.request({ method: 'DELETE', path: '/v1/sandbox/accounts/00000000-0000-4000-8000-000000000000' });
    assert.equal(res.status, 404);
  });
});
