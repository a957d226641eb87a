// The alternative SCA page set of the embedded bank (`embedded: { pages: alternative }`): other ids and
// labels, and a one-time code after login that the sandbox shows on its page. Driven with plain HTTP here;
// test/sca/reference-alt.e2e.test.ts drives it with the suite and the target's declarative steps.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startReferenceBank, type ReferenceBank } from '../../reference/server.js';
import { scaHrefFor, send, startTestBank, TestClient, testTpp, type Response } from '../reference/helpers.js';

const KARI = '13039319955';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('the alternative SCA pages', () => {
  let bank: ReferenceBank;
  let client: TestClient;
  before(async () => {
    bank = await startTestBank({ scaPages: 'alternative' });
    client = new TestClient(bank, testTpp());
  });
  after(async () => {
    await client.close();
    await bank.close();
  });

  const post = (url: string, form: Record<string, string>) => send(client.agent, url, 'POST', FORM, new URLSearchParams(form).toString());
  const location = (res: Response, base: string) => new URL(String(res.headers.location), base);
  const shownCode = (page: Response) => /<output id="sandbox-otp">(\d{6})<\/output>/.exec(page.text)?.[1];

  test('login has its own ids and labels, not the reference bank’s', async () => {
    const page = await send(client.agent, await scaHrefFor(client), 'GET', {});
    assert.equal(page.status, 200);
    for (const fragment of [
      'id="psu-identifier" name="nationalId"',
      '<label for="psu-identifier">Personal number</label>',
      'id="next-step"',
      'id="abort"',
    ]) {
      assert.ok(page.text.includes(fragment), fragment);
    }
    assert.ok(!page.text.includes('id="nationalId"'));
  });

  test('after login the PSU types the one-time code; a wrong one is refused, the right one goes on to the consent', async () => {
    const href = await scaHrefFor(client);
    const loggedIn = await post(href, { nationalId: KARI });
    assert.equal(loggedIn.status, 303);
    const codeUrl = location(loggedIn, href).toString();
    assert.match(codeUrl, /\/sca\/[^/]+\/code$/);

    const codePage = await send(client.agent, codeUrl, 'GET', {});
    const code = shownCode(codePage);
    assert.ok(code, 'the sandbox shows the code on the page');
    // The consent page cannot be skipped to before the code.
    const early = await send(client.agent, `${href}/consent`, 'GET', {});
    assert.equal(early.status, 303);
    assert.equal(location(early, href).toString(), codeUrl);

    const wrong = await post(codeUrl, { code: code === '000000' ? '111111' : '000000' });
    assert.equal(wrong.status, 200);
    assert.match(wrong.text, /role="alert"/);

    const right = await post(codeUrl, { code });
    assert.equal(right.status, 303);
    const consentUrl = location(right, href).toString();
    assert.match(consentUrl, /\/consent$/);
    const consentPage = await send(client.agent, consentUrl, 'GET', {});
    const offered = [...consentPage.text.matchAll(/class="share-toggle" name="account" value="([^"]+)"/g)].map((m) => m[1] ?? '');
    assert.ok(offered.length > 0);
    const done = await send(client.agent, consentUrl, 'POST', FORM, offered.map((id) => `account=${id}`).join('&'));
    assert.equal(done.status, 303);
    assert.match(location(done, href).searchParams.get('psu-id') ?? '', /^[0-9a-f-]{36}$/);
  });

  test('three wrong codes end in the failure redirect', async () => {
    const href = await scaHrefFor(client);
    const codeUrl = location(await post(href, { nationalId: KARI }), href).toString();
    const code = shownCode(await send(client.agent, codeUrl, 'GET', {}));
    const wrong = code === '000000' ? '111111' : '000000';
    assert.equal((await post(codeUrl, { code: wrong })).status, 200);
    assert.equal((await post(codeUrl, { code: wrong })).status, 200);
    const third = await post(codeUrl, { code: wrong });
    assert.equal(third.status, 303);
    assert.equal(location(third, href).searchParams.get('code'), 'PSU_CREDENTIALS_INVALID');
  });

  test('Abort on the code page ends in the failure redirect', async () => {
    const href = await scaHrefFor(client);
    const codeUrl = location(await post(href, { nationalId: KARI }), href).toString();
    const aborted = await post(codeUrl, { action: 'cancel' });
    assert.equal(aborted.status, 303);
    const redirect = location(aborted, href);
    assert.equal(redirect.hostname, 'tpp.example');
    assert.ok(redirect.searchParams.get('code'));
  });

  test('an unknown page set is refused at start, naming the known ones', async () => {
    await assert.rejects(startReferenceBank({ scaPages: 'fancy' }), /unknown SCA page set "fancy"; known: reference, alternative/);
  });
});
