// The SCA driver without a browser (lib/sca/http-flow.ts), against pages of its own: it must send what a browser
// sends for a plain form (the HTML entry list, the submitter, cookies, redirects), go through the target's page
// rules in order, and stop, saying why, where a browser would do something it cannot.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { Agent } from 'undici';
import { ScaFlowError } from '../../lib/sca/flow.js';
import { ProductionRefusal } from '../../lib/tpp/index.js';
import { openOverHttp, runScaFlowOverHttp, type HttpScaFlowOptions } from '../../lib/sca/http-flow.js';
import type { ScaPageRule } from '../../lib/targets/target-types.js';

const REDIRECT = 'https://tpp.example/callback';

/** What each POST carried, by path: the body as the server read it. */
const received = new Map<string, string>();

const page = (body: string) => `<!doctype html><html><body>${body}</body></html>`;

const PAGES: Record<
  string,
  (request: IncomingMessage, body: string) => { status: number; headers?: Record<string, string>; html?: string }
> = {
  '/start': () => ({ status: 302, headers: { location: '/login', 'set-cookie': 'session=abc; Path=/; HttpOnly' } }),
  '/login': (request) =>
    request.headers.cookie === 'session=abc'
      ? {
          status: 200,
          html: page(`<form method="post" action="/login-done">
            <input type="text" id="id" name="nationalId">
            <input type="hidden" name="csrf" value="t0k">
            <input type="text" name="untouched" value="kept">
            <input type="text" name="off" value="x" disabled>
            <select name="lang"><option value="nb">Norsk</option><option value="en">English</option></select>
            <select name="channel"><option>App</option><option>Code</option></select>
            <textarea name="note">as is</textarea>
            <button type="submit" id="login" name="action" value="login">Log in</button>
            <button type="submit" id="cancel" name="action" value="cancel">Cancel</button>
          </form>`),
        }
      : { status: 403, html: page('<p role="alert">no session cookie</p>') },
  '/login-done': () => ({ status: 303, headers: { location: '/choose' } }),
  // One address for every step, as some banks have it: each form is posted back to it, and the page says which step it is.
  '/flow': (request, body) => {
    if (request.method === 'GET')
      return {
        status: 200,
        html: page(
          `<main data-step="login"><form method="post"><input name="id" id="id"><button id="next" name="step" value="login">Next</button></form></main>`,
        ),
      };
    if (body.includes('step=login'))
      return {
        status: 200,
        html: page(
          `<main data-step="consent"><form method="post"><input type="checkbox" name="account" value="a1"><button id="next" name="step" value="consent">Next</button></form></main>`,
        ),
      };
    return { status: 303, headers: { location: `${REDIRECT}?psu-id=p-2&context=PRIVATE&accounts=${encodeURIComponent(body)}` } };
  },
  '/choose': () => ({
    status: 200,
    html: page(`<form method="post" action="/chosen">
      <label><input type="radio" name="context" value="PRIVATE" checked> Private</label>
      <label><input type="radio" name="context" value="CORPORATE-1"> Company 1</label>
      <label><input type="radio" name="context" value="CORPORATE-2"> Company 2</label>
      <input type="checkbox" name="account" value="a1" checked>
      <input type="checkbox" name="account" value="a2">
      <input type="checkbox" name="account" value="a3">
      <input type="checkbox" name="remember">
      <p id="summary"> Pay 10.00 EUR to Kari </p>
      <button id="go">Go</button>
      <button type="button" id="script-only">Needs script</button>
      <a id="back" href="/login">Back</a>
    </form>`),
  }),
  '/chosen': () => ({ status: 307, headers: { location: '/chosen-again' } }),
  '/chosen-again': () => ({ status: 302, headers: { location: `${REDIRECT}?psu-id=p-1&context=PRIVATE` } }),
  '/refuse': () => ({ status: 410, html: page('<form method="post"><button id="go">Go</button></form>') }),
  '/loop': () => ({ status: 302, headers: { location: '/loop' } }),
};

describe('SCA over HTTP (no browser)', () => {
  let server: Server;
  let base: string;
  const dispatcher = new Agent();

  before(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const path = new URL(request.url ?? '/', 'http://x').pathname;
        const body = Buffer.concat(chunks).toString();
        if (request.method === 'POST') received.set(path, body);
        const answer = PAGES[path]?.(request, body) ?? { status: 404, html: page('not here') };
        response.writeHead(answer.status, { 'content-type': 'text/html', ...answer.headers });
        response.end(answer.html ?? '');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await dispatcher.close();
    server.close();
  });

  const options = (rules: ScaPageRule[], href = `${base}/start`): HttpScaFlowOptions => ({
    href,
    redirectUri: REDIRECT,
    rules,
    variables: { psu: { nationalId: '13039319955', context: 'CORPORATE' } },
    timeoutMs: 5_000,
    dispatcher,
    safety: { environment: 'sandbox' },
  });
  const LOGIN: ScaPageRule = {
    match: '**/login',
    steps: [{ fill: { selector: '#id', value: '{{psu.nationalId}}' } }, { click: { selector: '#login' } }],
  };

  test('goes through the pages by their rules and returns the redirect to TPP-Redirect-URI, never fetching it', async () => {
    const typed: string[] = [];
    const capture = await runScaFlowOverHttp({
      ...options([
        LOGIN,
        {
          match: '**/choose',
          steps: [
            { click: { selector: "input[name=context][value^='{{psu.context}}'] >> nth=0" } },
            { check: { selector: 'input[name=account]', all: true } },
            { uncheck: { selector: 'input[value=a2]' } },
            { read: { selector: '#summary', as: 'summary' } },
            { click: { selector: '#go' } },
          ],
        },
      ]),
      onTyped: (value) => typed.push(value),
    });
    assert.equal(capture.outcome, 'success');
    assert.deepEqual(capture.params, { 'psu-id': 'p-1', context: 'PRIVATE' });
    assert.deepEqual(capture.pages, [`${base}/login`, `${base}/choose`]);
    assert.deepEqual(capture.read, { summary: 'Pay 10.00 EUR to Kari' });
    assert.deepEqual(typed, ['13039319955']);
    // The browser's entry list: the filled field, hidden and untouched ones, no disabled one, the first option of
    // a list with none selected (its text where it has no value), the textarea, and the submitter alone.
    assert.equal(received.get('/login-done'), 'nationalId=13039319955&csrf=t0k&untouched=kept&lang=nb&channel=App&note=as+is&action=login');
    // One radio button of the group, the checked boxes only (an unchecked one with no value sends nothing); the
    // 307 resent the body to the next address.
    assert.equal(received.get('/chosen'), 'context=CORPORATE-1&account=a1&account=a3');
  });

  test('a redirect with error parameters is a failed SCA', async () => {
    const failing = { '/fail': () => ({ status: 303, headers: { location: `${REDIRECT}?status=ERROR&code=SCA_FAILED` } }) };
    Object.assign(PAGES, failing);
    const capture = await runScaFlowOverHttp(options([], `${base}/fail`));
    assert.equal(capture.outcome, 'failure');
    assert.equal(capture.params.code, 'SCA_FAILED');
  });

  test('stops where a browser would do what it cannot, and says so', async () => {
    const stuckAt = async (rules: ScaPageRule[], pattern: RegExp) => {
      await assert.rejects(runScaFlowOverHttp(options(rules)), (error: unknown) => {
        assert.ok(error instanceof ScaFlowError, String(error));
        assert.equal(error.kind, 'stuck');
        assert.match(error.message, pattern);
        return true;
      });
    };
    const choose = (steps: ScaPageRule['steps']): ScaPageRule[] => [LOGIN, { match: '**/choose', steps }];
    await stuckAt(choose([{ click: { selector: "role=button[name='Go']" } }]), /Playwright's, not CSS.*browser driver/);
    await stuckAt(choose([{ click: { selector: '#script-only' } }]), /does nothing without script/);
    await stuckAt(choose([{ click: { selector: 'input[name=account]' } }]), /matches 3 elements/);
    await stuckAt(choose([{ click: { selector: '#nowhere' } }]), /matches nothing/);
    await stuckAt(choose([{ check: { selector: 'input[name=remember]' } }]), /did not leave .*\/choose/);
    await stuckAt([LOGIN], /the PSU is at .*\/choose \(HTTP 200\); all page rules ran/);
    await stuckAt(
      [{ match: '**/elsewhere', steps: [] }],
      /the PSU is at .*\/login \(HTTP 200\); no configured page rule matches it \(waiting for: \*\*\/elsewhere\)/,
    );
  });

  test('a link is followed, and a page no rule is left for stops the flow', async () => {
    await assert.rejects(
      runScaFlowOverHttp(options([LOGIN, { match: '**/choose', steps: [{ click: { selector: '#back' } }] }])),
      /the PSU is at .*\/login \(HTTP 200\); all page rules ran/,
    );
  });

  test('an error page is `refused` when the flow may be stopped, a redirect loop and an unreachable site are named', async () => {
    const go: ScaPageRule[] = [{ match: '**/refuse', steps: [{ click: { selector: '#go' } }] }];
    await assert.rejects(
      runScaFlowOverHttp({ ...options(go, `${base}/refuse`), stopAtErrorPage: true }),
      (error: unknown) => error instanceof ScaFlowError && error.kind === 'refused' && /HTTP 410/.test(error.message),
    );
    await assert.rejects(runScaFlowOverHttp(options([], `${base}/loop`)), /more than 20 redirects/);
    await assert.rejects(
      runScaFlowOverHttp(options([], 'http://127.0.0.1:9/start')),
      (error: unknown) => error instanceof ScaFlowError && error.kind === 'network' && /ECONNREFUSED/.test(error.message),
    );
  });

  test('against a production target, the page opens (GET) but no form is posted: the gate refuses the login before it leaves (issue 35, I1)', async () => {
    received.clear();
    const production = { ...options([LOGIN]), safety: { environment: 'production' as const, sender: 'SCA-11.a' } };
    await assert.rejects(
      runScaFlowOverHttp(production),
      (error: unknown) =>
        error instanceof ProductionRefusal &&
        /SCA-11\.a would send POST .*\/login.* SCA login: production receives none/.test(error.message),
    );
    assert.deepEqual([...received.keys()], [], 'a form reached the bank');
    const opened = await openOverHttp(
      { dispatcher, timeoutMs: 5_000, redirectUri: REDIRECT, safety: { environment: 'production' } },
      `${base}/start`,
    );
    assert.ok(!('redirect' in opened) && opened.status === 200, 'the first page opens');
  });

  test('pages that share one URL are told apart by what they show (when), in whatever order their rules are written', async () => {
    const rules: ScaPageRule[] = [
      {
        match: '**/flow',
        when: 'main[data-step=consent]',
        steps: [{ check: { selector: 'input[name=account]', all: true } }, { click: { selector: '#next' } }],
      },
      {
        match: '**/flow',
        when: 'main[data-step=login]',
        steps: [{ fill: { selector: '#id', value: '{{psu.nationalId}}' } }, { click: { selector: '#next' } }],
      },
    ];
    const capture = await runScaFlowOverHttp(options(rules, `${base}/flow`));
    assert.equal(capture.outcome, 'success');
    assert.equal(capture.params.accounts, 'account=a1&step=consent');
    const stuck = await runScaFlowOverHttp(options([rules[1] as ScaPageRule], `${base}/flow`)).then(
      () => undefined,
      (error: unknown) => error,
    );
    assert.ok(
      stuck instanceof ScaFlowError && /waiting for: \*\*\/flow showing main\[data-step=consent\]|all page rules ran/.test(stuck.message),
      String(stuck),
    );
  });

  test('opens a link as an address bar would: the page it ends on, with its status and headers', async () => {
    const opened = await openOverHttp(
      { dispatcher, timeoutMs: 5_000, redirectUri: REDIRECT, safety: { environment: 'sandbox' } },
      `${base}/start`,
    );
    assert.ok(!('redirect' in opened));
    assert.equal(opened.url, `${base}/login`);
    assert.equal(opened.status, 200);
    assert.equal(opened.headers['content-type'], 'text/html');
  });
});
