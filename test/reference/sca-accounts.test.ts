// The SCA redirect flow and account information with the bank-offered consent,
// driven with plain HTTP: GET the login page, POST the forms, read the 303s.
import { randomUUID } from 'node:crypto';
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { isValidIBAN } from 'ibantools';
import { accountsOf, consent, makeTpp, REDIRECT_URI, runSca, scaHrefFor, send, TestClient, withBank } from './helpers.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const KARI = '13039319955';
const PER = '18129215603';

type Bank = Awaited<ReturnType<typeof withBank>>;

describe('SCA and accounts', () => {
  let b: Bank;
  before(async () => {
    b = await withBank();
  });
  after(async () => {
    await b.close();
  });
  beforeEach(async () => {
    assert.equal((await b.client.initialize()).status, 204);
  });

  const accounts = (psuId: string, headers: Record<string, string> = {}) =>
    b.client.request({ path: '/v1/accounts', headers: { 'psu-id': psuId, ...headers } });

  test('GET /v1/accounts without PSU-ID: 401 with an scaRedirect link (href and verbs) to the bank', async () => {
    const res = await b.client.request({ path: '/v1/accounts' });
    assert.equal(res.status, 401);
    assert.match(String(res.headers['content-type']), /^application\/json; charset=utf-8$/);
    const body = res.json() as { _links: { scaRedirect: { href: string; verbs: string[] } } };
    assert.deepEqual(Object.keys(body), ['_links']);
    assert.ok(body._links.scaRedirect.href.startsWith(`${b.bank.baseUrl}/sca/`));
    assert.deepEqual(body._links.scaRedirect.verbs, ['GET']);
  });

  test('SCA pending: 401s of one session repeat the link nobody opened yet; once it is opened, the next 401 starts a new one', async () => {
    const first = await scaHrefFor(b.client);
    assert.equal(await scaHrefFor(b.client), first);
    assert.notEqual(
      await scaHrefFor(b.client, { 'tpp-redirect-uri': 'https://tpp.example/other' }),
      first,
      'another redirect address: another SCA',
    );
    assert.equal((await send(b.client.agent, first, 'GET', {})).status, 200);
    const next = await scaHrefFor(b.client);
    assert.notEqual(next, first);
    assert.equal((await send(b.client.agent, next, 'GET', {})).status, 200);
  });

  test('the login page has the form, #nationalId, #login and #cancel', async () => {
    const page = await send(b.client.agent, await scaHrefFor(b.client), 'GET', {});
    assert.equal(page.status, 200);
    assert.match(String(page.headers['content-type']), /^text\/html; charset=utf-8$/);
    for (const fragment of [
      '<form method="post">',
      'id="nationalId" name="nationalId"',
      'type="submit" id="login"',
      'id="cancel"',
      '<html lang="en">',
      '<label for="nationalId">',
    ]) {
      assert.ok(page.text.includes(fragment), fragment);
    }
  });

  test('SCA yields a UUID psu-id; GET /v1/accounts with it returns exactly the consented accounts', async () => {
    const all = await consent(b.client, { nationalId: KARI });
    assert.match(all.psuId, UUID);
    assert.equal(all.params['tpp-session-id'], b.client.sessionId);
    assert.equal(all.params.context, 'PRIVATE');
    assert.equal(all.params.state, 'abc', 'the query already in TPP-Redirect-URI is kept');
    assert.equal(`${all.location.origin}${all.location.pathname}`, REDIRECT_URI.split('?')[0]);
    const listed = accountsOf(await accounts(all.psuId));
    assert.equal(listed.length, 2);
    for (const a of listed) assert.ok(isValidIBAN(a.iban), a.iban);

    // Second SCA: untick one account; the list shrinks to the other one; the psu-id is stable.
    const one = await consent(b.client, { nationalId: KARI, accounts: [listed[1]!.resourceId] });
    assert.equal(one.psuId, all.psuId);
    assert.deepEqual(
      accountsOf(await accounts(one.psuId)).map((a) => a.resourceId),
      [listed[1]!.resourceId],
    );
  });

  test('account details follow Berlin Group 1.3 and the specification', async () => {
    const { psuId } = await consent(b.client, { nationalId: KARI });
    const body = (await accounts(psuId)).json() as { accounts: Record<string, unknown>[] };
    const first = body.accounts[0]!;
    assert.equal(first.currency, 'NOK');
    assert.equal(first.status, 'enabled');
    assert.equal(first.usage, 'PRIV');
    assert.ok(['CACC', 'SVGS'].includes(String(first.cashAccountType)));
    assert.ok(String(first.name).length <= 70);
    assert.match(String(first.bban), /^\d{11}$/);
    assert.equal(String(first.iban).slice(4), first.bban);
    assert.deepEqual((first._links as Record<string, unknown>).balances, {
      href: `/v1/accounts/${String(first.resourceId)}/balances`,
      verbs: ['GET'],
    });

    const balances = await b.client.request({ path: `/v1/accounts/${String(first.resourceId)}/balances`, headers: { 'psu-id': psuId } });
    assert.equal(balances.status, 200);
    const bal = balances.json() as {
      account: unknown;
      balances: { balanceAmount: { amount: string; currency: string }; balanceType: string }[];
    };
    assert.deepEqual(bal.account, { iban: first.iban, currency: 'NOK' });
    assert.deepEqual(
      bal.balances.map((x) => x.balanceType),
      ['closingBooked', 'expected'],
    );
    for (const x of bal.balances) assert.match(x.balanceAmount.amount, /^-?\d+\.\d{2}$/);

    const single = await b.client.request({ path: `/v1/accounts/${String(first.resourceId)}`, headers: { 'psu-id': psuId } });
    assert.deepEqual((single.json() as { account: unknown }).account, first);
  });

  test('card accounts: listed when consented, with interimBooked balances', async () => {
    const { psuId } = await consent(b.client, { nationalId: KARI });
    const res = await b.client.request({ path: '/v1/card-accounts', headers: { 'psu-id': psuId } });
    const cards = (res.json() as { cardAccounts: { resourceId: string; maskedPan: string }[] }).cardAccounts;
    assert.equal(cards.length, 1);
    const balances = await b.client.request({ path: `/v1/card-accounts/${cards[0]!.resourceId}/balances`, headers: { 'psu-id': psuId } });
    const types = (balances.json() as { balances: { balanceType: string }[] }).balances.map((x) => x.balanceType);
    assert.ok(types.includes('interimBooked'));
  });

  test('an account outside the consent is 404 RESOURCE_UNKNOWN; a card account id on /accounts too', async () => {
    const first = await consent(b.client, { nationalId: KARI });
    const [kept, dropped] = accountsOf(await accounts(first.psuId));
    await consent(b.client, { nationalId: KARI, accounts: [kept!.resourceId] });
    const res = await b.client.request({ path: `/v1/accounts/${dropped!.resourceId}/balances`, headers: { 'psu-id': first.psuId } });
    assert.equal(res.status, 404);
    assert.equal((res.json() as { code: string }).code, 'RESOURCE_UNKNOWN');
  });

  test('PSU-ID that is not a UUID: 400 FORMAT_ERROR; an unknown UUID: 401 scaRedirect', async () => {
    const bad = await accounts('13039319955');
    assert.equal(bad.status, 400);
    assert.equal((bad.json() as { code: string }).code, 'FORMAT_ERROR');
    assert.equal((await accounts('00000000-0000-4000-8000-000000000000')).status, 401);
  });

  test('psu-id is unique per TPP: another TPP gets another psu-id for the same customer, and cannot use the first', async () => {
    const mine = await consent(b.client, { nationalId: KARI });
    const other = new TestClient(b.bank, makeTpp('PSDNO-FSA-900002', 'Other TPP AS'));
    try {
      const theirs = await consent(other, { nationalId: KARI });
      assert.notEqual(theirs.psuId, mine.psuId);
      const res = await other.request({ path: '/v1/accounts', headers: { 'psu-id': mine.psuId } });
      assert.equal(res.status, 401);
    } finally {
      await other.close();
    }
  });

  test('the psu-id survives a sandbox reset (same customer, same TPP: same psu-id), the consent does not', async () => {
    const before = await consent(b.client, { nationalId: KARI });
    await b.client.initialize();
    assert.equal((await accounts(before.psuId)).status, 401);
    const afterReset = await consent(b.client, { nationalId: KARI });
    assert.equal(afterReset.psuId, before.psuId);
  });

  test('corporate: context page, then psu-corporate-id; calls need PSU-CORPORATE-ID in corporate context', async () => {
    const href = await scaHrefFor(b.client);
    const login = await send(b.client.agent, href, 'POST', { 'content-type': 'application/x-www-form-urlencoded' }, `nationalId=${PER}`);
    assert.equal(login.status, 303);
    const contextUrl = new URL(String(login.headers.location), href).toString();
    const contextPage = await send(b.client.agent, contextUrl, 'GET', {});
    assert.match(contextPage.text, /name="context" value="PRIVATE"/);
    assert.match(contextPage.text, /id="context-private"/);
    assert.match(contextPage.text, /id="continue"/);
    const agreementId = /value="CORPORATE:([0-9a-f-]+)"/.exec(contextPage.text)?.[1];
    assert.ok(agreementId);
    assert.match(contextPage.text, new RegExp(`id="context-${agreementId}"`));

    const corporate = await runSca(b.client, contextUrl, { nationalId: PER, context: `CORPORATE:${agreementId}` });
    assert.equal(corporate.params.context, 'CORPORATE');
    assert.equal(corporate.params['psu-corporate-id'], agreementId);
    const psuId = corporate.params['psu-id']!;
    assert.match(psuId, UUID);

    const ok = await accounts(psuId, { 'psu-corporate-id': agreementId, 'psu-context': 'CORPORATE' });
    const listed = ok.json() as { accounts: { usage: string; cashAccountType: string }[] };
    assert.equal(listed.accounts.length, 2);
    assert.ok(listed.accounts.every((a) => a.usage === 'ORGA'));

    const missing = await accounts(psuId, { 'psu-context': 'CORPORATE' });
    assert.equal(missing.status, 400);
    assert.match((missing.json() as { message: string }).message, /PSU-CORPORATE-ID/);

    // Neither header: still a corporate request (its SCA ended in corporate context), so 400 as well.
    assert.equal((await accounts(psuId)).status, 400);
    // The private context of the same PSU, asked for explicitly, has no consent yet: a new consent flow.
    assert.equal((await accounts(psuId, { 'psu-context': 'PRIVATE' })).status, 401);
  });

  test('login: an unknown national id ends in the failure redirect with PSU_CREDENTIALS_INVALID', async () => {
    const href = await scaHrefFor(b.client);
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const failed = await send(b.client.agent, href, 'POST', form, 'nationalId=00000000000');
    assert.equal(failed.status, 303);
    const location = new URL(String(failed.headers.location));
    assert.equal(location.searchParams.get('code'), 'PSU_CREDENTIALS_INVALID');
    assert.equal(location.searchParams.get('status'), '401');
    assert.equal(location.searchParams.get('system'), 'reference-aspsp');
    assert.ok(location.searchParams.get('message'));
    assert.ok(!location.search.includes('+'), 'message is percent-encoded');
    // The authorisation is finished: its page is gone.
    assert.equal((await send(b.client.agent, href, 'GET', {})).status, 404);
  });

  test('cancel redirects with SCA_INVALID and leaves the previous session and consent valid', async () => {
    const done = await consent(b.client, { nationalId: KARI });
    b.client.sessionId = 'aborted-session';
    const href = await scaHrefFor(b.client);
    const cancelled = await send(b.client.agent, href, 'POST', { 'content-type': 'application/x-www-form-urlencoded' }, 'action=cancel');
    assert.equal(cancelled.status, 303);
    assert.equal(new URL(String(cancelled.headers.location)).searchParams.get('code'), 'SCA_INVALID');
    assert.equal((await accounts(done.psuId)).status, 200);
  });

  test('SCA session: within 1 hour the same TPP-Session-ID skips the login; after it, or after a newer session, login again', async () => {
    b.client.sessionId = 'session-1';
    const { psuId } = await consent(b.client, { nationalId: KARI });
    // A PSU-ID with a context it has no consent for starts a new SCA for that known PSU.
    const newScaPage = async () => {
      const res = await accounts(psuId, { 'psu-corporate-id': '00000000-0000-4000-8000-000000000000' });
      assert.equal(res.status, 401);
      const href = (res.json() as { _links: { scaRedirect: { href: string } } })._links.scaRedirect.href;
      return send(b.client.agent, href, 'GET', {});
    };
    const skipped = await newScaPage();
    assert.equal(skipped.status, 303, 'no login page within the session');
    assert.match(String(skipped.headers.location), /\/consent$/);

    // An aborted SCA under session-3 leaves session-1 valid.
    b.client.sessionId = 'session-3';
    const cancelled = await send(
      b.client.agent,
      await scaHrefFor(b.client),
      'POST',
      { 'content-type': 'application/x-www-form-urlencoded' },
      'action=cancel',
    );
    assert.equal(new URL(String(cancelled.headers.location)).searchParams.get('code'), 'SCA_INVALID');
    b.client.sessionId = 'session-1';
    assert.equal((await newScaPage()).status, 303, 'session-1 still valid after an aborted SCA');

    // A completed SCA under session-2 invalidates session-1.
    b.client.sessionId = 'session-2';
    await consent(b.client, { nationalId: KARI });
    b.client.sessionId = 'session-1';
    assert.equal((await newScaPage()).status, 200, 'login page: session-1 was replaced');

    // session-2 is valid, until one hour of bank time has passed.
    b.client.sessionId = 'session-2';
    assert.equal((await newScaPage()).status, 303);
    await b.client.shiftBankClock(3601);
    assert.equal((await newScaPage()).status, 200, 'login page after the hour');
  });

  test('a consent older than 180 days (bank clock) asks for SCA again, with CONSENT_EXPIRED, with or without the PSU', async () => {
    const { psuId } = await consent(b.client, { nationalId: KARI });
    const day = 86_400;
    // Not the SCA's own TPP-Session-ID: its hour is long over (that is the session's rule, not the consent's).
    b.client.sessionId = randomUUID();
    await b.client.shiftBankClock(179 * day);
    assert.equal((await accounts(psuId)).status, 200);
    await b.client.shiftBankClock(181 * day);
    for (const present of [{}, { 'psu-ip-address': '' }] as Record<string, string>[]) {
      const refused = await accounts(psuId, present);
      assert.equal(refused.status, 401);
      assert.equal((refused.json() as { code?: string }).code, 'CONSENT_EXPIRED');
      assert.ok((refused.json() as { _links?: { scaRedirect?: object } })._links?.scaRedirect);
    }
  });

  test('SCA session: PSU-present calls under its TPP-Session-ID need a new SCA once its hour passed (SCA_EXPIRED) or a newer session replaced it', async () => {
    b.client.sessionId = 'reads-1';
    const { psuId } = await consent(b.client, { nationalId: KARI });
    assert.equal((await accounts(psuId)).status, 200);
    b.client.sessionId = 'reads-2';
    await consent(b.client, { nationalId: KARI });
    b.client.sessionId = 'reads-1';
    const replaced = await accounts(psuId);
    assert.equal(replaced.status, 401);
    assert.ok((replaced.json() as { _links?: { scaRedirect?: object } })._links?.scaRedirect);
    // Without the PSU the call belongs to no session: the consent decides.
    assert.equal((await accounts(psuId, { 'psu-ip-address': '' })).status, 200);
    b.client.sessionId = 'reads-2';
    await b.client.shiftBankClock(3599);
    assert.equal((await accounts(psuId)).status, 200);
    await b.client.shiftBankClock(3601);
    const expired = await accounts(psuId);
    assert.equal(expired.status, 401);
    assert.equal((expired.json() as { code?: string }).code, 'SCA_EXPIRED');
    // A TPP-Session-ID no SCA completed under is left to the consent.
    b.client.sessionId = randomUUID();
    assert.equal((await accounts(psuId)).status, 200);
    // A new SCA under the expired TPP-Session-ID renews it.
    b.client.sessionId = 'reads-2';
    const renewed = await runSca(
      b.client,
      String((expired.json() as { _links: { scaRedirect: { href: string } } })._links.scaRedirect.href),
      { nationalId: KARI },
    );
    assert.equal(renewed.params['psu-id'], psuId);
    assert.equal((await accounts(psuId)).status, 200);
  });

  test('consented accounts that were closed are left out: an empty list is possible', async () => {
    const { psuId } = await consent(b.client, { nationalId: KARI });
    for (const a of accountsOf(await accounts(psuId))) {
      assert.equal((await b.client.request({ method: 'DELETE', path: `/v1/sandbox/accounts/${a.resourceId}` })).status, 204);
    }
    const res = await accounts(psuId);
    assert.equal(res.status, 200);
    assert.deepEqual(res.json(), { accounts: [] });
  });
});
