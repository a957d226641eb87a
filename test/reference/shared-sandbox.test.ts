// One sandbox of PSUs, many TPPs (issue 34, item 3; `serve`): every TPP sees the same PSUs, agreements and
// accounts, the ones another TPP made included, and gets its own psu-id for them (PSU-02); a psu-id of one TPP
// is no other's (PSU-06); and no TPP reads or changes another's consents, payments, sessions, quota or clock,
// nor removes by its initialisation what another made.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SandboxJudging } from '../../lib/traffic/sandbox-judging.js';
import type { ReferenceBank } from '../../reference/server.js';
import { accountsOf, consent, makeTpp, send, startTestBank, TestClient, type Response } from './helpers.js';

const CREATED = '24048512345';
const customersOf = async (client: TestClient) =>
  ((await client.request({ path: '/v1/sandbox/customers' })).json() as { customers: { customerNumber: string }[] }).customers.map(
    (c) => c.customerNumber,
  );
const status = (res: Response) => `${res.status} ${res.text.slice(0, 200)}`;

describe('a sandbox whose PSUs every TPP shares (tenancy shared-psus)', () => {
  let bank: ReferenceBank;
  let first: TestClient;
  let second: TestClient;
  let firstPsuId: string;

  before(async () => {
    bank = await startTestBank({ tenancy: 'shared-psus' });
    first = new TestClient(bank, makeTpp('PSDNO-FSA-910001', 'First TPP AS'));
    second = new TestClient(bank, makeTpp('PSDNO-FSA-910002', 'Second TPP AS'));
    assert.equal(
      (
        await first.request({
          method: 'POST',
          path: '/v1/sandbox/customers',
          json: { customerNumber: CREATED, name: 'Shared Person', type: 'private' },
        })
      ).status,
      201,
    );
    assert.equal(
      (
        await first.request({
          method: 'POST',
          path: '/v1/sandbox/accounts',
          json: { customerNumber: CREATED, accountName: 'Delt konto', currency: 'NOK' },
        })
      ).status,
      201,
    );
    ({ psuId: firstPsuId } = await consent(first, { nationalId: CREATED }));
  });
  after(async () => {
    await Promise.all([first.close(), second.close()]);
    await bank.close();
  });

  test('the second TPP sees the PSU the first made, logs it in, and gets a psu-id of its own for it (PSU-02)', async () => {
    assert.ok((await customersOf(second)).includes(CREATED));
    const { psuId } = await consent(second, { nationalId: CREATED });
    assert.notEqual(psuId, firstPsuId);
    const listed = await second.request({ path: '/v1/accounts', headers: { 'psu-id': psuId } });
    assert.equal(listed.status, 200, status(listed));
    assert.equal(accountsOf(listed).length, 1, 'the account the first TPP made, under the second TPP’s own consent');
  });

  test("a psu-id of one TPP is no other's, and one TPP's consent serves no other (PSU-06)", async () => {
    const borrowed = await second.request({ path: '/v1/accounts', headers: { 'psu-id': firstPsuId } });
    assert.equal(borrowed.status, 401, status(borrowed));
    assert.doesNotMatch(borrowed.text, /Delt konto/);
  });

  test("one TPP's payment, clock and initialisation leave the other's alone; its own creations go with its initialisation", async () => {
    const headers = { 'x-accept-fix': 'amount-as-string', 'psu-ip-address': '192.0.2.10', 'x-psu-identity': '13039319955' };
    const made = await first.request({
      method: 'POST',
      path: '/v1/payments/sepa-credit-transfers',
      headers,
      json: {
        instructedAmount: { amount: '1.00', currency: 'EUR' },
        creditorName: 'Kari Nordmann',
        creditorAccount: { iban: 'NO9386011117947', currency: 'EUR' },
        creditorAgent: 'DNBANOKKXXX',
        creditorAddress: { townName: 'Oslo', country: 'NO' },
        debtorAccount: { iban: 'NO9386011117947', currency: 'NOK' },
      },
    });
    assert.equal(made.status, 201, status(made));
    const paymentId = (made.json() as { paymentId: string }).paymentId;
    assert.equal(
      (await second.request({ path: `/v1/payments/sepa-credit-transfers/${paymentId}/status`, headers })).status,
      404,
      "another TPP's payment",
    );
    assert.equal((await second.shiftBankClock(7200)).status, 200);
    const clock = (await first.request({ path: '/v1/sandbox/clock' })).json() as { mode: string };
    assert.equal(clock.mode, 'system', "another TPP's clock moved this one's");
    assert.equal((await second.initialize()).status, 204);
    assert.ok((await customersOf(first)).includes(CREATED), "another TPP's initialisation removed what this one made");
    assert.equal(
      (await first.request({ path: `/v1/payments/sepa-credit-transfers/${paymentId}/status`, headers })).status,
      200,
      'the payment survives another TPP’s initialisation',
    );
    assert.equal((await first.initialize()).status, 204);
    assert.ok(!(await customersOf(second)).includes(CREATED), 'its own initialisation removes what it made, for everyone');
  });
});

describe("the sandbox's home page", () => {
  test('GET / needs no certificate and shows the test customers with their accounts, the products, the endpoints, the headers and the commands', async () => {
    const bank = await startTestBank();
    const browser = new TestClient(bank, makeTpp());
    try {
      const page = await send(browser.agent, `${bank.baseUrl}/`, 'GET', {});
      assert.equal(page.status, 200, page.text.slice(0, 200));
      assert.match(String(page.headers['content-type']), /^text\/html/);
      for (const shown of [
        '13039319955',
        '18129215603',
        'Brukskonto',
        'norwegian-cross-border-credit-transfers',
        '/v1/accounts/{accountId}/transactions',
        'TPP-Redirect-URI',
        'npx xs2a-conformance cert',
        `${bank.baseUrl}/v1`,
      ]) {
        assert.ok(page.text.includes(shown), `the page shows ${shown}`);
      }
    } finally {
      await browser.close();
      await bank.close();
    }
  });
});

describe('the judging sandbox links each broken rule to its text', () => {
  test('X-TPP-Rules-Broken comes with a Link per rule; the link opens without a certificate, as JSON or a page', async () => {
    let baseUrl = '';
    const judge = new SandboxJudging({
      tool: { name: 'xs2a-conformance', version: 'test' },
      baseUrl: () => baseUrl,
      maskPersonalData: true,
    });
    const bank = await startTestBank({ judge });
    baseUrl = bank.baseUrl;
    const tpp = new TestClient(bank, makeTpp());
    try {
      const broken = await tpp.request({ path: '/v1/accounts', headers: { 'psu-ip-address': 'unknown' } });
      assert.match(String(broken.headers['x-tpp-rules-broken']), /TPP-30/);
      const link = String(broken.headers.link);
      assert.match(link, new RegExp(`^<${bank.baseUrl}/rules/TPP-30>; rel="describedby"; title="TPP-30"`));
      const href = /<([^>]+)>/.exec(link)?.[1] ?? '';
      const card = (await send(tpp.agent, href, 'GET', {})).json() as { id: string; level: string; statement: string; hint: string };
      assert.equal(card.id, 'TPP-30');
      assert.match(card.statement, /PSU-IP-Address/);
      assert.ok(card.hint.length > 0);
      const page = await send(tpp.agent, `${href}?format=html`, 'GET', {});
      assert.match(page.text, /<h1>TPP-30 <small>/);
      const unknown = await send(tpp.agent, `${bank.baseUrl}/rules/TPP-999`, 'GET', {});
      assert.equal(unknown.status, 404);
      assert.equal((unknown.json() as { code: string }).code, 'RESOURCE_UNKNOWN');
    } finally {
      await tpp.close();
      await bank.close();
    }
  });
});
