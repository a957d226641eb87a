/**
 * The reference bank's stores are bounded, whatever TPPs send: payments, baskets, authorisations, sessions
 * and consents, per TPP (its oldest go first) and overall (entries and bytes). Each bound is measured: how
 * many records a flood leaves, that another TPP's records survive it, and the memory 20,000 payments take.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { after, before, describe, test } from 'node:test';
import type { ReferenceBank } from '../../reference/server.js';
import { World } from '../../reference/state/world.js';
import { BoundedStore } from '../../reference/state/bounded-store.js';
import { DEFAULT_STORE_BOUNDS } from '../../reference/state/store-bounds.js';
import { MOCK_DATA_BOUNDS } from '../../reference/state/sandbox-data.js';
import type { BankError } from '../../reference/bank-errors.js';
import { startTestBank, TestClient, testTpp } from './helpers.js';

const body = (n: number) => ({
  instructedAmount: { amount: `${n}.00`, currency: 'EUR' },
  creditorName: 'Kari Nordmann',
  creditorAccount: { iban: 'NO9386011117947', currency: 'EUR' },
  debtorAccount: { iban: 'NO9386011117947', currency: 'NOK' },
  remittanceInformationUnstructured: `Invoice ${n}`,
});

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const MiB = 1024 * 1024;

/** Heap growth (MiB) of a bank while `fill` runs. */
function heapGrowth(fill: (world: World) => void): number {
  const settle = () => [1, 2, 3, 4].forEach(() => gc());
  const world = new World();
  settle();
  const before = process.memoryUsage().heapUsed;
  fill(world);
  settle();
  const grown = (process.memoryUsage().heapUsed - before) / MiB;
  assert.ok(world.payments);
  return grown;
}

describe('a bounded store', () => {
  const store = () =>
    new BoundedStore<string, { tpp: string; size: number }>({
      perTpp: 3,
      total: 5,
      maxBytes: 100,
      tppOf: (v) => v.tpp,
      sizeOf: (v) => v.size,
    });

  test("keeps a TPP's newest records, up to its bound", () => {
    const s = store();
    for (const id of ['a1', 'a2', 'a3', 'a4']) s.set(id, { tpp: 'a', size: 1 });
    assert.deepEqual([...s.keys()].sort(), ['a2', 'a3', 'a4']);
    assert.equal(s.countOf('a'), 3);
  });

  test("a TPP's flood does not push out another TPP's records before its own", () => {
    const s = store();
    s.set('b1', { tpp: 'b', size: 1 });
    for (let i = 0; i < 50; i++) s.set(`a${i}`, { tpp: 'a', size: 1 });
    assert.ok(s.has('b1'));
    assert.equal(s.countOf('a'), 3);
  });

  test('keeps at most `total` records and `maxBytes` bytes overall', () => {
    const s = store();
    for (const tpp of ['a', 'b', 'c']) for (let i = 0; i < 3; i++) s.set(`${tpp}${i}`, { tpp, size: 1 });
    assert.equal(s.size, 5);
    const heavy = store();
    for (let i = 0; i < 3; i++) heavy.set(`x${i}`, { tpp: `t${i}`, size: 40 });
    assert.equal(heavy.size, 2, 'three records of 40 bytes exceed 100');
  });
});

describe("the bank's stores under a flood", () => {
  test('20,000 payments of one TPP keep 1,000; another TPP keeps its own', () => {
    const world = new World();
    const other = world.payments.create('other', 'payments', 'sepa-credit-transfers', body(0));
    const ids = Array.from(
      { length: 20_000 },
      (_, n) => world.payments.create('flood', 'payments', 'sepa-credit-transfers', body(n + 1)).id,
    );
    const kept = ids.map((id) => world.payments.get('flood', id) !== undefined);
    assert.equal(kept.filter(Boolean).length, DEFAULT_STORE_BOUNDS.payments.perTpp);
    assert.ok(kept.slice(-DEFAULT_STORE_BOUNDS.payments.perTpp).every(Boolean), 'the newest are kept, the oldest went first');
    assert.ok(world.payments.get('other', other.id));
  });

  test('20,000 payments take a bounded amount of memory (one TPP, and twenty)', () => {
    const oneTpp = heapGrowth((world) => {
      for (let n = 0; n < 20_000; n++) world.payments.create('flood', 'payments', 'sepa-credit-transfers', body(n));
    });
    const twentyTpps = heapGrowth((world) => {
      for (let n = 0; n < 20_000; n++) world.payments.create(`tpp-${n % 20}`, 'payments', 'sepa-credit-transfers', body(n));
    });
    console.log(`heap for 20,000 payments: one TPP ${oneTpp.toFixed(1)} MiB, twenty TPPs ${twentyTpps.toFixed(1)} MiB`);
    // Unbounded, the same 20,000 payments took 20.8 MiB of heap, one TPP or twenty (37 MiB of the process through serve).
    assert.ok(oneTpp < 4, `one TPP: ${oneTpp.toFixed(1)} MiB`);
    assert.ok(twentyTpps < 16, `twenty TPPs: ${twentyTpps.toFixed(1)} MiB`);
  });

  test('a world costs little before its first record (a gauntlet makes one per TPP)', () => {
    const worlds: World[] = [];
    const settle = () => [1, 2, 3, 4].forEach(() => gc());
    settle();
    const before = process.memoryUsage().heapUsed;
    for (let n = 0; n < 20; n++) worlds.push(new World());
    settle();
    const perWorld = (process.memoryUsage().heapUsed - before) / MiB / worlds.length;
    // With its stores' capacity allocated up front (lru-cache's `max`), an empty world took 7.8 MiB.
    assert.ok(perWorld < 1, `an empty world: ${perWorld.toFixed(2)} MiB`);
  });

  test('payments with large bodies are bounded by bytes', () => {
    const world = new World({}, { ...DEFAULT_STORE_BOUNDS, payments: { perTpp: 1_000, total: 10_000, maxBytes: 4 * MiB } });
    const large = { ...body(1), remittanceInformationUnstructured: 'x'.repeat(100_000) };
    const ids = Array.from(
      { length: 100 },
      (_, n) => world.payments.create(`tpp-${n}`, 'payments', 'sepa-credit-transfers', { ...large, n }).id,
    );
    const kept = ids.filter((id, n) => world.payments.get(`tpp-${n}`, id) !== undefined).length;
    assert.ok(kept > 0 && kept <= (4 * MiB) / 200_000, `${kept} payments of 200 KB kept under 4 MiB`);
  });

  test('authorisations, sessions, consents and baskets are bounded per TPP', () => {
    const bounds = { perTpp: 10, total: 100, maxBytes: MiB };
    const world = new World(
      {},
      { payments: bounds, baskets: bounds, authorisations: bounds, sessions: { ...bounds, perTpp: 5 }, consents: bounds },
    );
    const challenges = Array.from({ length: 50 }, () =>
      world.sca.authorisationFor({ tppId: 'flood', tppName: 'Flood', tppSessionId: randomUUID(), redirectUri: 'https://tpp.example/cb' }),
    );
    assert.equal(challenges.filter((a) => world.sca.find(a.id) !== undefined).length, 10);
    for (let n = 0; n < 50; n++) world.consents.grant('flood', `customer-${n}`, { kind: 'PRIVATE' }, ['a'], new Date());
    assert.equal(
      Array.from({ length: 50 }, (_, n) => world.consents.stored('flood', `customer-${n}`, { kind: 'PRIVATE' })).filter(Boolean).length,
      10,
    );
    const baskets = Array.from({ length: 50 }, () => world.baskets.create('flood', [randomUUID()], new Date()));
    assert.equal(baskets.filter((b) => world.baskets.get('flood', b.id) !== undefined).length, 10);
    // Sessions: the 10 authorisations left completed, each for a PSU of its own; the newest 5 sessions are kept.
    const sessions = challenges.map((challenge, n) => {
      const authorisation = world.sca.find(challenge.id);
      if (authorisation) world.sca.complete(authorisation, `customer-${n}`);
      return authorisation;
    });
    const valid = sessions.filter(
      (a, n) => a !== undefined && world.sca.sessionState('flood', a.tppSessionId, `customer-${n}`) === 'valid',
    );
    assert.equal(valid.length, 5);
  });
});

describe("a world's mock data under a flood (issue 35, M5)", () => {
  test('created customers past the bound push out the oldest created one, with its accounts; the known state stays', () => {
    const world = new World();
    const known = world.data.customers.size;
    for (let n = 0; n <= MOCK_DATA_BOUNDS.createdCustomers; n++) {
      const customerNumber = String(30_000_000_000 + n);
      world.data.createCustomer({ customerNumber, name: `Flood ${n}`, type: 'private' });
      if (n < 2) world.data.createAccount({ customerNumber, accountName: 'Konto', currency: 'NOK' });
    }
    assert.equal(world.data.customers.size, known + MOCK_DATA_BOUNDS.createdCustomers);
    assert.ok(!world.data.customers.has('30000000000'), 'the oldest created customer went first');
    assert.ok(world.data.customers.has('30000000001') && world.data.customers.has('13039319955'));
    assert.equal(world.data.accountsIn('30000000000', { kind: 'PRIVATE' }).length, 0, 'its account went with it');
    assert.equal(world.data.accountsIn('30000000001', { kind: 'PRIVATE' }).length, 1);
  });

  test('mock transactions past the world’s bound are refused with 429 ACCESS_EXCEEDED; a reset gives them back', () => {
    const world = new World();
    const account = [...world.data.accounts.values()][0]!;
    world.data.spendMockTransactions(account, MOCK_DATA_BOUNDS.mockTransactions);
    assert.throws(
      () => world.data.spendMockTransactions(account, 1),
      (error: BankError) => error.status === 429 && error.code === 'ACCESS_EXCEEDED',
    );
    world.reset();
    assert.doesNotThrow(() => world.data.spendMockTransactions([...world.data.accounts.values()][0]!, 1));
  });

  test('a world full of mock data takes a bounded amount of memory', () => {
    const grown = heapGrowth((world) => {
      for (let n = 0; n < MOCK_DATA_BOUNDS.createdCustomers; n++) {
        const customerNumber = String(40_000_000_000 + n);
        world.data.createCustomer({ customerNumber, name: 'N'.repeat(70), type: 'private' });
        for (let a = 0; a < 2; a++)
          world.data.createAccount({ customerNumber, accountName: 'A'.repeat(70), currency: 'NOK', product: 'P'.repeat(35) });
      }
    });
    console.log(`heap for ${MOCK_DATA_BOUNDS.createdCustomers} created customers with 2 accounts each: ${grown.toFixed(1)} MiB`);
    assert.ok(grown < 40, `${grown.toFixed(1)} MiB`);
  });

  test('a customer holds at most the bound of accounts: the next is refused over HTTP with the error body', async () => {
    const bank = await startTestBank();
    const client = new TestClient(bank, testTpp());
    try {
      const customerNumber = '33333333333';
      assert.equal(
        (
          await client.request({
            method: 'POST',
            path: '/v1/sandbox/customers',
            json: { customerNumber, name: 'Many Accounts', type: 'private' },
          })
        ).status,
        201,
      );
      for (let n = 0; n < MOCK_DATA_BOUNDS.accountsPerCustomer; n++) {
        assert.equal(
          (
            await client.request({
              method: 'POST',
              path: '/v1/sandbox/accounts',
              json: { customerNumber, accountName: `Konto ${n}`, currency: 'NOK' },
            })
          ).status,
          201,
        );
      }
      const refused = await client.request({
        method: 'POST',
        path: '/v1/sandbox/accounts',
        json: { customerNumber, accountName: 'One too many', currency: 'NOK' },
      });
      assert.equal(refused.status, 429, refused.text);
      assert.equal((refused.json() as { code: string }).code, 'ACCESS_EXCEEDED');
    } finally {
      await client.close();
      await bank.close();
    }
  });
});

describe('the bounds reach the running bank', () => {
  let bank: ReferenceBank;
  let client: TestClient;
  before(async () => {
    bank = await startTestBank({ storeBounds: { payments: { perTpp: 3, total: 100, maxBytes: MiB } } });
    client = new TestClient(bank, testTpp());
  });
  after(async () => {
    await client.close();
    await bank.close();
  });

  test("a TPP's fourth payment pushes out its first (404 RESOURCE_UNKNOWN), and the newest answer", async () => {
    // A payment names its PSU (PSU-ID, or X-PSU-IDENTITY: a sandbox PSU's national identity number).
    const headers = { 'x-accept-fix': 'amount-as-string', 'psu-ip-address': '192.0.2.10', 'x-psu-identity': '13039319955' };
    const ids: string[] = [];
    for (let n = 1; n <= 4; n++) {
      const created = await client.request({
        method: 'POST',
        path: '/v1/payments/sepa-credit-transfers',
        json: { ...body(n), creditorAgent: 'DNBANOKKXXX', creditorAddress: { townName: 'Oslo', country: 'NO' } },
        headers,
      });
      assert.equal(created.status, 201, created.text);
      ids.push((created.json() as { paymentId: string }).paymentId);
    }
    const status = (id: string) => client.request({ path: `/v1/payments/sepa-credit-transfers/${id}/status`, headers });
    assert.equal((await status(ids[0] ?? '')).status, 404);
    assert.equal((await status(ids[3] ?? '')).status, 200);
  });
});
