// The reference bank's payments and signing baskets, against the bank directly: every rule of the
// payment request table, the structured-address rule, the 201 answer, status, details, cancellation,
// logical duplicates, SCA with the confirmation page, batch runs, baskets, and 50 payments at once.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { nextBatchRun } from '../../reference/state/payment-store.js';
import { consent, runSca, withBank, type Response, type TestClient } from './helpers.js';

type Bank = Awaited<ReturnType<typeof withBank>>;
type Body = Record<string, unknown>;

const PRIVATE_PSU = '13039319955';
const DEBTOR = { iban: 'NO9386011117947', currency: 'NOK' };
let creditorSerial = 0;

function payment(changes: Body = {}): Body {
  creditorSerial += 1;
  const body: Body = {
    instructedAmount: { amount: '12.50', currency: 'EUR' },
    creditorName: 'Kari Nordmann',
    // A different creditor (amount) per payment: no logical duplicates between tests.
    creditorAccount: { iban: 'NO9386011117947', currency: 'EUR' },
    creditorAgent: 'DNBANOKKXXX',
    creditorAddress: { townName: 'Oslo', country: 'NO' },
    debtorAccount: DEBTOR,
    remittanceInformationUnstructured: `Invoice ${creditorSerial}`,
    ...changes,
  };
  if (!('instructedAmount' in changes)) body.instructedAmount = { amount: `${creditorSerial}.00`, currency: 'EUR' };
  for (const [key, value] of Object.entries(body)) if (value === undefined) delete body[key];
  return body;
}

/** Headers of payment initiation (and of the start of a basket authorisation) beyond the TPP's own: the PSU named by X-PSU-IDENTITY. */
const PAYMENT_HEADERS = { 'x-accept-fix': 'amount-as-string', 'psu-ip-address': '192.0.2.10', 'x-psu-identity': PRIVATE_PSU };

function initiate(
  client: TestClient,
  body: unknown,
  path = '/v1/payments/sepa-credit-transfers',
  headers: Record<string, string> = {},
): Promise<Response> {
  return client.request({ method: 'POST', path, json: body, headers: { ...PAYMENT_HEADERS, ...headers } });
}

function json(res: Response): Record<string, unknown> {
  return res.json() as Record<string, unknown>;
}

function scaHref(res: Response): string {
  const href = (json(res)._links as { scaRedirect?: { href?: string } } | undefined)?.scaRedirect?.href;
  assert.ok(href, `no scaRedirect in ${res.text}`);
  return href;
}

async function statusOf(client: TestClient, id: string, product = 'sepa-credit-transfers'): Promise<Record<string, unknown>> {
  const res = await client.request({ path: `/v1/payments/${product}/${id}/status` });
  assert.equal(res.status, 200, res.text);
  return json(res);
}

describe('payments of the reference bank', () => {
  let bank: Bank;
  let client: TestClient;
  let psuId: string;
  let psuAccount: { iban: string; currency: string };

  before(async () => {
    bank = await withBank();
    client = bank.client;
    psuId = (await consent(client, { nationalId: PRIVATE_PSU })).psuId;
    const accounts = json(await client.request({ path: '/v1/accounts', headers: { 'psu-id': psuId } })).accounts as {
      iban?: string;
      currency: string;
    }[];
    const account = accounts.find((a) => a.iban !== undefined);
    assert.ok(account?.iban);
    psuAccount = { iban: account.iban, currency: account.currency };
  });
  after(() => bank.close());

  const refused: [string, Body][] = [
    ['endToEndIdentification of 36 characters', { endToEndIdentification: 'E'.repeat(36) }],
    ['no instructedAmount', { instructedAmount: undefined }],
    ['an amount as a number', { instructedAmount: { amount: 12.5, currency: 'EUR' } }],
    ['19 digits', { instructedAmount: { amount: '12345678901234567.89', currency: 'EUR' } }],
    ['6 fraction digits', { instructedAmount: { amount: '1.123456', currency: 'EUR' } }],
    ['EUR 10.123', { instructedAmount: { amount: '10.123', currency: 'EUR' } }],
    ['an exponent', { instructedAmount: { amount: '1e3', currency: 'EUR' } }],
    ['BYN (not in the list)', { instructedAmount: { amount: '10.00', currency: 'BYN' } }],
    ['no creditorName', { creditorName: undefined }],
    ['a creditorName of 71', { creditorName: 'N'.repeat(71) }],
    ['a creditor IBAN with a wrong check', { creditorAccount: { iban: 'NO9486011117947', currency: 'EUR' } }],
    ['a street of 71', { creditorAddress: { street: 'S'.repeat(71), townName: 'Oslo', country: 'NO' } }],
    ['a country "NOR"', { creditorAddress: { townName: 'Oslo', country: 'NOR' } }],
    ['a country "XK"', { creditorAddress: { townName: 'Oslo', country: 'XK' } }],
    ['no debtorAccount', { debtorAccount: undefined }],
    ['an empty remittance', { remittanceInformationUnstructured: '' }],
    ['a remittance of 141', { remittanceInformationUnstructured: 'R'.repeat(141) }],
    ['an execution date that is not a date', { requestedExecutionDate: '24.12.2030' }],
    ['a zero amount', { instructedAmount: { amount: '0.00', currency: 'EUR' } }],
    ['no creditor town (structured-address rule)', { creditorAddress: { country: 'NO' } }],
    ['no creditor agent BIC (structured-address rule)', { creditorAgent: undefined }],
    ['an emoji', { remittanceInformationUnstructured: 'Takk \u{1F37D}' }],
  ];
  for (const [what, changes] of refused) {
    test(`a payment with ${what} is refused with 400 FORMAT_ERROR and no paymentId`, async () => {
      const res = await initiate(client, payment(changes));
      assert.equal(res.status, 400, res.text);
      assert.equal(json(res).code, 'FORMAT_ERROR');
      assert.equal(json(res).paymentId, undefined);
    });
  }

  test('an execution date in the past is EXECUTION_DATE_INVALID; an unknown product 404 PRODUCT_UNKNOWN', async () => {
    const past = await initiate(client, payment({ requestedExecutionDate: '2020-01-02' }));
    assert.deepEqual([past.status, json(past).code], [400, 'EXECUTION_DATE_INVALID']);
    const unknown = await initiate(client, payment(), '/v1/payments/moon-transfers');
    assert.deepEqual([unknown.status, json(unknown).code], [404, 'PRODUCT_UNKNOWN']);
  });

  test('the 201 answer carries every field of the response table, and a warning for the deprecated city', async () => {
    const res = await initiate(client, payment({ creditorAddress: { city: 'Oslo', townName: 'Oslo', country: 'NO' } }));
    assert.equal(res.status, 201, res.text);
    const body = json(res);
    assert.equal(body.transactionStatus, 'RCVD');
    assert.equal(typeof body.paymentId, 'string');
    assert.deepEqual(body.transactionFees, { amount: '0.00', currency: 'NOK' });
    assert.equal(body.transactionFeeIndicator, false);
    assert.deepEqual(body.tppMessages, [
      {
        category: 'WARNING',
        code: 'FORMAT_ERROR',
        path: 'creditorAddress.city',
        text: 'creditorAddress.city is deprecated: send townName',
      },
    ]);
    const links = body._links as Record<string, { href: string; verbs: string[] }>;
    assert.deepEqual(Object.keys(links).sort(), ['scaRedirect', 'self', 'status']);
    assert.deepEqual(links.scaRedirect?.verbs, ['GET']);
  });

  test('logical duplicates: 409 CONFLICT without allowLogicalDuplicate, 201 with it, 400 for another value', async () => {
    const body = payment();
    assert.equal((await initiate(client, body)).status, 201);
    const again = await initiate(client, body);
    assert.deepEqual([again.status, json(again).code], [409, 'CONFLICT']);
    assert.equal((await initiate(client, body, '/v1/payments/sepa-credit-transfers?allowLogicalDuplicate=true')).status, 201);
    assert.equal((await initiate(client, body, '/v1/payments/sepa-credit-transfers?allowLogicalDuplicate=yes')).status, 400);
  });

  test('status, details and cancellation; a domestic transfer shows nothing before approval', async () => {
    const id = String(json(await initiate(client, payment())).paymentId);
    assert.deepEqual(await statusOf(client, id), { transactionStatus: 'RCVD' });
    const details = await client.request({ path: `/v1/payments/sepa-credit-transfers/${id}` });
    assert.equal(json(details).transactionStatus, 'RCVD');
    assert.equal((await client.request({ method: 'DELETE', path: `/v1/payments/sepa-credit-transfers/${id}` })).status, 204);
    assert.deepEqual(await statusOf(client, id), { transactionStatus: 'CANC' });
    assert.equal((await client.request({ method: 'DELETE', path: `/v1/payments/sepa-credit-transfers/${id}` })).status, 409);
    assert.equal((await client.request({ path: `/v1/payments/domestic-norway-credit-transfers/${id}/status` })).status, 404);

    const domestic = String(json(await initiate(client, payment(), '/v1/payments/domestic-norway-credit-transfers')).paymentId);
    for (const path of [
      `/v1/payments/domestic-norway-credit-transfers/${domestic}`,
      `/v1/payments/domestic-norway-credit-transfers/${domestic}/status`,
    ]) {
      const res = await client.request({ path });
      assert.deepEqual([res.status, json(res).code], [403, 'FORBIDDEN']);
    }
  });

  test('every payment needs its own SCA: the PSU logs in and confirms amount and creditor, even within a valid session', async () => {
    const res = await initiate(
      client,
      payment({ debtorAccount: psuAccount, instructedAmount: { amount: '3.00', currency: psuAccount.currency } }),
      undefined,
      { 'psu-id': psuId },
    );
    const outcome = await runSca(client, scaHref(res), { nationalId: PRIVATE_PSU, decision: 'approve' });
    // /sca/{id} is the login page, /sca/{id}/confirm the confirmation: no session spares the login.
    assert.deepEqual(
      outcome.pages.map((p) => p.split('/')[3] ?? 'login'),
      ['login', 'confirm'],
    );
    assert.equal(outcome.params['psu-id'], psuId);
    assert.deepEqual(await statusOf(client, String(json(res).paymentId)), { transactionStatus: 'ACTC' });
  });

  test("a rejected payment, and one from an account that is not the PSU's, end RJCT with a failure redirect", async () => {
    for (const [debtor, decision] of [
      [psuAccount, 'reject'],
      [DEBTOR, 'approve'],
    ] as const) {
      const res = await initiate(
        client,
        payment({ debtorAccount: debtor, instructedAmount: { amount: '4.00', currency: debtor.currency } }),
      );
      const outcome = await runSca(client, scaHref(res), { nationalId: PRIVATE_PSU, decision });
      assert.equal(outcome.params.code, 'PAYMENT_FAILED');
      assert.deepEqual(await statusOf(client, String(json(res).paymentId)), { transactionStatus: 'RJCT' });
    }
  });

  test('the batch runs book an approved payment (ACSC, balance moved) and reject one lacking funds (ACCP, then RJCT)', async () => {
    const balance = async () => {
      const accounts = json(await client.request({ path: '/v1/accounts', headers: { 'psu-id': psuId } })).accounts as {
        iban?: string;
        resourceId: string;
      }[];
      const id = accounts.find((a) => a.iban === psuAccount.iban)?.resourceId;
      const balances = json(await client.request({ path: `/v1/accounts/${id}/balances`, headers: { 'psu-id': psuId } })).balances as {
        balanceAmount: { amount: string };
      }[];
      return balances[0]?.balanceAmount.amount;
    };
    const before = await balance();
    const ids: string[] = [];
    for (const amount of ['5.00', '99999999.00']) {
      const res = await initiate(
        client,
        payment({ debtorAccount: psuAccount, instructedAmount: { amount, currency: psuAccount.currency } }),
      );
      await runSca(client, scaHref(res), { nationalId: PRIVATE_PSU, decision: 'approve' });
      ids.push(String(json(res).paymentId));
    }
    assert.deepEqual(await statusOf(client, ids[1] ?? ''), { transactionStatus: 'ACCP', fundsAvailable: false });
    assert.equal((await client.shiftBankClock(13 * 3600)).status, 200);
    // The consent's SCA session has expired by then (SES-04): later calls come under a new TPP-Session-ID.
    client.sessionId = randomUUID();
    try {
      assert.deepEqual(await statusOf(client, ids[0] ?? ''), { transactionStatus: 'ACSC' });
      assert.deepEqual(await statusOf(client, ids[1] ?? ''), { transactionStatus: 'RJCT', fundsAvailable: false });
      // Earlier tests' approved payments are booked by the same run: at least these 5.00 left the account.
      assert.ok(Number(before) - Number(await balance()) >= 5);
      const accounts = json(await client.request({ path: '/v1/accounts', headers: { 'psu-id': psuId } })).accounts as {
        iban?: string;
        resourceId: string;
      }[];
      const accountId = accounts.find((a) => a.iban === psuAccount.iban)?.resourceId ?? '';
      const listing = async () => {
        const res = await client.request({
          path: `/v1/accounts/${accountId}/transactions?bookingStatus=booked`,
          headers: { 'psu-id': psuId },
        });
        return (
          (json(res).transactions as { booked: { transactionId?: string; transactionAmount: { amount: string } }[] }).booked ?? []
        ).filter((t) => t.transactionAmount.amount === '-5.00');
      };
      const [booked] = await listing();
      assert.ok(booked?.transactionId, 'the booked payment is a booked transaction');
      assert.equal((await listing())[0]?.transactionId, booked.transactionId, 'with a stable transactionId');
    } finally {
      await client.resetBankClock();
    }
  });

  test("a transfer between the PSU's own accounts (norwegian-domestic-payment-to-self) is booked at once on both", async () => {
    const accounts = json(await client.request({ path: '/v1/accounts', headers: { 'psu-id': psuId } })).accounts as {
      iban?: string;
      resourceId: string;
      currency: string;
    }[];
    const [from, to] = accounts.filter((a) => a.iban !== undefined);
    assert.ok(from?.iban && to?.iban);
    const balance = async (id: string) =>
      Number(
        (
          json(await client.request({ path: `/v1/accounts/${id}/balances`, headers: { 'psu-id': psuId } })).balances as {
            balanceAmount: { amount: string };
          }[]
        )[0]?.balanceAmount.amount,
      );
    const before = await balance(to.resourceId);
    const body = payment({
      debtorAccount: { iban: from.iban, currency: from.currency },
      creditorAccount: { iban: to.iban, currency: to.currency },
      instructedAmount: { amount: '25.00', currency: from.currency },
    });
    const res = await initiate(client, body, '/v1/payments/norwegian-domestic-payment-to-self');
    await runSca(client, scaHref(res), { nationalId: PRIVATE_PSU, decision: 'approve' });
    assert.deepEqual(await statusOf(client, String(json(res).paymentId), 'norwegian-domestic-payment-to-self'), {
      transactionStatus: 'ACSC',
    });
    assert.equal(await balance(to.resourceId), before + 25);
  });

  test('batch runs are 5 a day', () => {
    const runs: string[] = [];
    let t = new Date('2026-11-23T00:00:00Z');
    for (let i = 0; i < 6; i++) runs.push((t = nextBatchRun(t)).toISOString().slice(11, 16));
    assert.deepEqual(runs, ['06:00', '09:00', '12:00', '15:00', '18:00', '06:00']);
  });

  test('periodic payments take every frequency; a duplicate month is refused; bulk payments are taken', async () => {
    for (const frequency of ['Daily', 'Weekly', 'EveryTwoWeeks', 'Monthly', 'EveryTwoMonths', 'Quarterly', 'SemiAnnual', 'Annual']) {
      assert.equal(
        (await initiate(client, payment({ startDate: '2030-01-01', frequency }), '/v1/periodic-payments/sepa-credit-transfers')).status,
        201,
        frequency,
      );
    }
    const variable = (months: string[]) => payment({ startDate: '2030-01-01', frequency: 'MonthlyVariable', monthsOfExecution: months });
    assert.equal((await initiate(client, variable(['1', '6']), '/v1/periodic-payments/sepa-credit-transfers')).status, 201);
    assert.equal((await initiate(client, variable(['1', '1']), '/v1/periodic-payments/sepa-credit-transfers')).status, 400);
    const { debtorAccount: _d, ...entry } = payment();
    const bulk = { batchBookingPreferred: true, debtorAccount: DEBTOR, payments: [entry, { ...entry, creditorName: 'Ola' }] };
    assert.equal((await initiate(client, bulk, '/v1/bulk-payments/sepa-credit-transfers')).status, 201);
  });

  test('signing baskets: bulk or periodic refused with REFERENCE_MIX_INVALID; created, authorised, reported by the worst case', async () => {
    const periodic = String(
      json(
        await initiate(client, payment({ startDate: '2030-01-01', frequency: 'Monthly' }), '/v1/periodic-payments/sepa-credit-transfers'),
      ).paymentId,
    );
    const single = String(json(await initiate(client, payment())).paymentId);
    const mixed = await client.request({ method: 'POST', path: '/v1/signing-baskets', json: { paymentIds: [single, periodic] } });
    assert.deepEqual([mixed.status, json(mixed).code], [400, 'REFERENCE_MIX_INVALID']);
    const unknown = await client.request({ method: 'POST', path: '/v1/signing-baskets/nope/authorisations', headers: PAYMENT_HEADERS });
    assert.deepEqual([unknown.status, json(unknown).code], [404, 'RESOURCE_UNKNOWN']);

    const ids: string[] = [];
    for (const amount of ['6.00', '99999999.00']) {
      ids.push(
        String(
          json(await initiate(client, payment({ debtorAccount: psuAccount, instructedAmount: { amount, currency: psuAccount.currency } })))
            .paymentId,
        ),
      );
    }
    const created = await client.request({ method: 'POST', path: '/v1/signing-baskets', json: { paymentIds: ids } });
    assert.equal(created.status, 201, created.text);
    const basketId = String(json(created).basketId);
    const start = await client.request({
      method: 'POST',
      path: `/v1/signing-baskets/${basketId}/authorisations`,
      headers: PAYMENT_HEADERS,
    });
    assert.equal(start.status, 201, start.text);
    assert.equal(json(start).scaStatus, 'STARTED');
    const again = await client.request({
      method: 'POST',
      path: `/v1/signing-baskets/${basketId}/authorisations`,
      headers: PAYMENT_HEADERS,
    });
    assert.deepEqual([again.status, json(again).code], [400, 'RESOURCE_BLOCKED']);
    await runSca(client, scaHref(start), { nationalId: PRIVATE_PSU, decision: 'approve' });
    const authorisation = await client.request({
      path: `/v1/signing-baskets/${basketId}/authorisations/${String(json(start).authorisationId)}`,
    });
    assert.deepEqual(json(authorisation), { scaStatus: 'FINALISED' });
    assert.equal((await client.shiftBankClock(13 * 3600)).status, 200);
    try {
      assert.deepEqual(await statusOf(client, ids[0] ?? ''), { transactionStatus: 'ACSC' });
      assert.deepEqual(json(await client.request({ path: `/v1/signing-baskets/${basketId}/status` })), { transactionStatus: 'RJCT' });
    } finally {
      await client.resetBankClock();
    }
  });

  test('robustness: any value in any field of a payment body is answered below 500, and a refusal creates nothing', async () => {
    const fields = [
      'endToEndIdentification',
      'instructedAmount',
      'creditorName',
      'creditorAccount',
      'creditorAgent',
      'creditorAddress',
      'debtorAccount',
      'remittanceInformationUnstructured',
      'requestedExecutionDate',
    ];
    const value = fc.oneof(
      fc.string(),
      fc.string({ unit: 'binary' }),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.string(), { maxLength: 3 }),
      fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.string(), fc.integer()), { maxKeys: 3 }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...fields),
        value,
        fc.constantFrom('payments', 'periodic-payments', 'bulk-payments'),
        async (field, v, service) => {
          const res = await initiate(client, payment({ [field]: v }), `/v1/${service}/sepa-credit-transfers`);
          assert.ok(res.status < 500, `${service} ${field}=${JSON.stringify(v)}: ${res.status} ${res.text}`);
          if (res.status >= 400) assert.equal(json(res).paymentId, undefined);
        },
      ),
      { numRuns: 150 },
    );
  });

  test('payment initiation headers: x-accept-fix, PSU-IP-Address and PSU-ID or X-PSU-IDENTITY required (an empty value here leaves the header out), PSU-ID a UUID, PSU-Context PRIVATE or CORPORATE', async () => {
    const refusal = async (headers: Record<string, string>) => {
      const res = await initiate(client, payment(), undefined, headers);
      return [res.status, json(res).code];
    };
    assert.deepEqual(await refusal({ 'x-accept-fix': '' }), [400, 'HTTP_HEADER_REQUIRED']);
    assert.deepEqual(await refusal({ 'psu-ip-address': '' }), [400, 'HTTP_HEADER_REQUIRED']);
    assert.deepEqual(await refusal({ 'psu-ip-address': 'localhost' }), [400, 'FORMAT_ERROR']);
    assert.deepEqual(await refusal({ 'x-psu-identity': '' }), [400, 'HTTP_HEADER_REQUIRED']);
    assert.deepEqual(await refusal({ 'psu-id': 'kari' }), [400, 'FORMAT_ERROR']);
    assert.deepEqual(await refusal({ 'psu-context': 'BUSINESS' }), [400, 'FORMAT_ERROR']);
    assert.deepEqual(await refusal({ 'psu-context': 'CORPORATE' }), [400, 'FORMAT_ERROR']);
    const accepted: Record<string, string>[] = [
      { 'x-accept-fix': 'amount-as-string, longer-names' },
      { 'x-accept-fix': 'a-future-fix' },
      { 'psu-context': 'PRIVATE' },
      { 'x-psu-identity': '', 'psu-id': randomUUID() },
    ];
    for (const headers of accepted) {
      assert.equal((await initiate(client, payment(), undefined, headers)).status, 201, JSON.stringify(headers));
    }
  });

  test('50 payments initiated and approved at once: none lost, each approved once', async () => {
    const ids = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const res = await initiate(
          client,
          payment({
            debtorAccount: psuAccount,
            instructedAmount: { amount: `${100 + i}.00`, currency: psuAccount.currency },
            creditorName: `Parallel ${i}`,
          }),
        );
        assert.equal(res.status, 201, res.text);
        const outcome = await runSca(client, scaHref(res), { nationalId: PRIVATE_PSU, decision: 'approve' });
        assert.ok(outcome.params['psu-id']);
        return String(json(res).paymentId);
      }),
    );
    assert.equal(new Set(ids).size, 50);
    for (const id of ids) assert.equal((await statusOf(client, id)).transactionStatus, 'ACTC');
  });
});
