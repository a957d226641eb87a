/**
 * The judge on exchanges made here, for what the TPPs under test cannot pin down alone: each way of counting
 * the unattended reads, a clock the bank moved, a Date nothing reads, identifiers held to what the bank gave
 * and not to the session's last redirect, header bytes, and the hint of every rule.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatHttpDate } from '../../lib/httpsig/index.js';
import { TPP_REQUIREMENTS } from '../../lib/spec/requirements.js';
import {
  JUDGED_RULE_IDS,
  TppJudge,
  tppRuleCard,
  type JudgeOptions,
  type ObservedExchange,
  type RuleCheck,
} from '../../lib/tpp-judge/index.js';
import { HeaderFields, signRequest } from '../../lib/tpp/index.js';
import { SandboxJudging } from '../../lib/traffic/sandbox-judging.js';
import { testPki } from '../pki/test-pki.js';
import { REDIRECT_URI } from './sloppy-client.js';

const BANK = 'https://bank.example';
const { identity } = testPki();
let sequence = 0;

interface Made {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** When the TPP sent it (its Date), and when the recorder saw it. */
  at: Date;
  /** The Date the TPP writes, when it is not `at`. */
  date?: string;
  status?: number;
  /** The Date of the bank's answer (none: no Date). */
  answeredAt?: Date | null;
  answer?: unknown;
}

/** A request signed as the careful client signs, and the bank's answer. */
function exchange({ method = 'GET', path, headers = {}, body, at, date, status = 200, answeredAt = at, answer }: Made): ObservedExchange {
  const bytes = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  const fields = new HeaderFields({ 'TPP-Redirect-URI': REDIRECT_URI, ...(date === undefined ? {} : { Date: date }), ...headers });
  const signed = signRequest({ headers: fields, body: bytes, identity, now: at, digestAlgorithm: 'SHA-256', defects: [] });
  const lower = Object.fromEntries(Object.entries(signed.headers.toRecord()).map(([name, value]) => [name.toLowerCase(), value]));
  return {
    id: `made ${++sequence}`,
    startedAt: at,
    durationMs: 20,
    request: { method, url: `${BANK}${path}`, headers: lower, body: bytes ?? new Uint8Array(0) },
    response: {
      status,
      headers: answeredAt === null ? {} : { date: formatHttpDate(answeredAt) },
      body: Buffer.from(answer === undefined ? '' : JSON.stringify(answer)),
    },
  };
}

/** The PSU's browser at the redirect after SCA. */
function redirect(at: Date, parameters: Record<string, string>): ObservedExchange {
  return {
    id: `made ${++sequence}`,
    startedAt: at,
    durationMs: 5,
    request: { method: 'GET', url: `${REDIRECT_URI}?${new URLSearchParams(parameters).toString()}`, headers: {}, body: new Uint8Array(0) },
  };
}

/** The checks of a rule over the exchanges, in order (redirects judged as they come). */
function checksOf(rule: string, exchanges: readonly ObservedExchange[], options: JudgeOptions = {}): RuleCheck[] {
  const judge = new TppJudge({ basePath: '', ...options });
  return exchanges.flatMap((made) => judge.judge(made).checks.filter((check) => check.rule === rule));
}

const verdicts = (checks: readonly RuleCheck[]) => checks.map((check) => check.verdict);
const at = (iso: string) => new Date(iso);
const second = (base: Date, seconds: number) => new Date(base.getTime() + seconds * 1000);

describe('one breach, one rule', () => {
  test('a Date nothing reads fails TPP-06 alone: the keyId, the coverage and the signature of a request signed right still pass', () => {
    const judge = new TppJudge({ basePath: '' });
    const checks = judge.judge(exchange({ path: '/v1/accounts', at: new Date(), date: 'garbage' })).checks;
    assert.deepEqual(
      checks.filter((check) => check.verdict === 'FAIL').map((check) => `${check.rule}: ${check.actual ?? ''}`),
      ['TPP-06: Date: garbage'],
    );
    for (const rule of ['TPP-10', 'TPP-14', 'TPP-15']) assert.equal(checks.find((check) => check.rule === rule)?.verdict, 'PASS', rule);
  });
});

describe("the bank's clock, where a sandbox keeps one per TPP", () => {
  const real = at('2026-03-02T10:00:00Z');
  const moved = second(real, 7200);

  test('an answer of the world of no one, dated on the real time, does not measure a TPP whose clock was moved', () => {
    const checks = checksOf('TPP-07', [
      exchange({ path: '/v1/sandbox/customers', at: second(real, -1) }),
      // The move's answer is on the moved clock: its request is measured on the clock before.
      exchange({ method: 'PUT', path: '/v1/sandbox/clock', body: { offsetSeconds: 7200 }, at: real, answeredAt: moved }),
      exchange({
        path: '/v1/sandbox/customers',
        at: second(real, 1),
        date: formatHttpDate(second(moved, 1)),
        answeredAt: second(moved, 1),
      }),
      // Refused before the bank knew whose it was: answered on the real clock.
      exchange({
        path: '/v1/accounts',
        at: second(real, 2),
        date: formatHttpDate(second(moved, 2)),
        status: 400,
        answeredAt: second(real, 2),
      }),
      // The reset's answer is on the real clock; the request came in on the moved one.
      exchange({
        method: 'POST',
        path: '/v1/sandbox/initialize',
        body: {},
        at: second(real, 3),
        date: formatHttpDate(second(moved, 3)),
        status: 204,
        answeredAt: second(real, 3),
      }),
      exchange({ path: '/v1/sandbox/customers', at: second(real, 4), answeredAt: second(real, 4) }),
    ]);
    assert.deepEqual(verdicts(checks), ['PASS', 'PASS', 'PASS', 'PASS', 'PASS', 'PASS']);
  });

  test('a Date off the clock the TPP moved still fails, on the clock it moved to', () => {
    const [, , late] = checksOf('TPP-07', [
      exchange({ method: 'PUT', path: '/v1/sandbox/clock', body: { offsetSeconds: 7200 }, at: real, answeredAt: moved }),
      exchange({
        path: '/v1/sandbox/customers',
        at: second(real, 1),
        date: formatHttpDate(second(moved, 1)),
        answeredAt: second(moved, 1),
      }),
      exchange({
        path: '/v1/accounts',
        at: second(real, 2),
        date: formatHttpDate(second(real, 2)),
        status: 400,
        answeredAt: second(real, 2),
      }),
    ]);
    assert.equal(late?.verdict, 'FAIL');
    assert.match(late?.actual ?? '', /^Date: .* 71\d\d s behind the bank clock/);
  });
});

describe('unattended reads: a finding only where every way of counting is past the quota', () => {
  const account = '/v1/accounts/acc-1';
  const unattended = { 'PSU-ID': '8c5e4b36-8f1d-4a4e-9f4a-2b1d3c4e5f60' };
  const reads = (what: string, times: readonly Date[]) =>
    times.map((time) => exchange({ path: `${account}/${what}`, headers: unattended, at: time }));

  test('five balance reads in a minute: TPP-43 fails, saying so', () => {
    const base = at('2026-03-02T10:00:00Z');
    const checks = checksOf(
      'TPP-43',
      reads(
        'balances',
        [0, 10, 20, 30, 40].map((s) => second(base, s)),
      ),
    );
    assert.deepEqual(verdicts(checks), ['PASS', 'PASS', 'PASS', 'PASS', 'FAIL']);
    assert.equal(checks[4]?.actual, 'read 5 of account acc-1 in 24 hours and on one calendar day');
  });

  test('four before midnight (UTC) and one after: not judged, a day counted in UTC allows it', () => {
    const checks = checksOf(
      'TPP-43',
      reads(
        'balances',
        ['23:50:00', '23:51:00', '23:52:00', '23:53:00'].map((time) => at(`2026-03-02T${time}Z`)).concat(at('2026-03-03T00:10:00Z')),
      ),
    );
    assert.deepEqual(verdicts(checks), ['PASS', 'PASS', 'PASS', 'PASS', 'NOT_EVALUATED']);
    assert.match(
      checks[4]?.reason ?? '',
      /past the quota counted in any 24 hours, but within it counted on a calendar day \(UTC\), which the text allows/,
    );
  });

  test("four before the bank's midnight (Oslo) and one after: not judged either", () => {
    const checks = checksOf(
      'TPP-43',
      reads('balances', [
        at('2026-03-02T22:50:00Z'),
        at('2026-03-02T22:51:00Z'),
        at('2026-03-02T22:52:00Z'),
        at('2026-03-02T22:53:00Z'),
        at('2026-03-02T23:10:00Z'),
      ]),
    );
    assert.match(checks[4]?.reason ?? '', /within it counted on a calendar day \(Europe\/Oslo\)/);
  });

  test('transaction details count with the listings in one reading only: three listings and two details are not judged, five details never fail', () => {
    const base = at('2026-03-02T10:00:00Z');
    const mixed = [
      ...reads('transactions', [second(base, 0), second(base, 1), second(base, 2)]),
      ...reads('transactions/tx-1', [second(base, 3), second(base, 4)]),
    ];
    const checks = checksOf('TPP-44', mixed);
    assert.deepEqual(verdicts(checks), ['PASS', 'PASS', 'PASS', 'PASS', 'NOT_EVALUATED']);
    assert.match(checks[4]?.reason ?? '', /details counted with listings, but within it counted in any 24 hours, listings alone/);
    assert.ok(
      !verdicts(
        checksOf(
          'TPP-44',
          reads(
            'transactions/tx-1',
            [0, 1, 2, 3, 4, 5].map((s) => second(base, s)),
          ),
        ),
      ).includes('FAIL'),
    );
  });

  test('reads a day apart pass', () => {
    const base = at('2026-03-02T10:00:00Z');
    assert.deepEqual(
      verdicts(
        checksOf(
          'TPP-43',
          reads(
            'balances',
            [0, 1, 2, 3, 25].map((hours) => second(base, hours * 3600)),
          ),
        ),
      ),
      ['PASS', 'PASS', 'PASS', 'PASS', 'PASS'],
    );
  });
});

describe('identifiers are held to what the bank gave the TPP, in any session', () => {
  const base = at('2026-03-02T10:00:00Z');
  const session = 'shared-session';
  const psu = (n: number) => `0b6a5c3e-0000-4000-8000-00000000000${n}`;
  /** Two PSUs' SCAs in one session, the second corporate: what a TPP sharing its session ids sees. */
  const twoScas = (): ObservedExchange[] => [
    exchange({
      path: '/v1/accounts',
      headers: { 'TPP-Session-ID': session },
      at: base,
      status: 401,
      answer: { _links: { scaRedirect: { href: `${BANK}/sca/1` } } },
    }),
    redirect(second(base, 1), { 'psu-id': psu(1), 'tpp-session-id': session, context: 'PRIVATE' }),
    exchange({
      path: '/v1/accounts',
      headers: { 'TPP-Session-ID': session, 'PSU-Context': 'CORPORATE' },
      at: second(base, 2),
      status: 401,
      answer: { _links: { scaRedirect: { href: `${BANK}/sca/2` } } },
    }),
    redirect(second(base, 3), { 'psu-id': psu(2), 'psu-corporate-id': 'corp-1', 'tpp-session-id': session, context: 'CORPORATE' }),
  ];

  test("the first PSU's psu-id, in private context, after the second PSU's corporate SCA in the same session: TPP-39 passes, TPP-40 does not concern it", () => {
    const request = exchange({ path: '/v1/accounts', headers: { 'TPP-Session-ID': session, 'PSU-ID': psu(1) }, at: second(base, 4) });
    assert.deepEqual(verdicts(checksOf('TPP-39', [...twoScas(), request])), ['PASS']);
    assert.deepEqual(verdicts(checksOf('TPP-40', [...twoScas(), request])), []);
  });

  test('a PSU-ID no redirect gave: a finding where the traffic begins with the bank, else not judged, saying why', () => {
    const request = () => exchange({ path: '/v1/accounts', headers: { 'PSU-ID': psu(9) }, at: second(base, 4) });
    const [fromStart] = checksOf('TPP-39', [...twoScas(), request()], { fromBankStart: true });
    assert.equal(fromStart?.verdict, 'FAIL');
    assert.equal(fromStart?.actual, `PSU-ID: ${psu(9)}, which no redirect gave it`);
    const [partial] = checksOf('TPP-39', [...twoScas(), request()]);
    assert.equal(partial?.verdict, 'NOT_EVALUATED');
    assert.match(partial?.reason ?? '', /may not begin with the bank/);
  });

  test('corporate context: without PSU-CORPORATE-ID fails; with one from GET /v1/agreements passes', () => {
    const corporate = (corporateId?: string) =>
      exchange({
        path: '/v1/accounts',
        headers: {
          'PSU-ID': psu(2),
          'PSU-Context': 'CORPORATE',
          ...(corporateId === undefined ? {} : { 'PSU-Corporate-ID': corporateId }),
        },
        at: second(base, 6),
      });
    const agreements = exchange({
      path: '/v1/agreements',
      headers: { 'PSU-ID': psu(2) },
      at: second(base, 5),
      answer: { agreements: [{ psuCorporateId: 'corp-2', name: 'Fjord AS' }] },
    });
    const [without] = checksOf('TPP-40', [...twoScas(), corporate()], { fromBankStart: true });
    assert.equal(without?.verdict, 'FAIL');
    assert.equal(without?.actual, 'PSU-Context: CORPORATE with PSU-ID and no PSU-CORPORATE-ID');
    assert.deepEqual(verdicts(checksOf('TPP-40', [...twoScas(), agreements, corporate('corp-2')], { fromBankStart: true })), ['PASS']);
    assert.deepEqual(verdicts(checksOf('TPP-40', [...twoScas(), corporate('corp-1')], { fromBankStart: true })), ['PASS']);
    const [unobtained] = checksOf('TPP-40', [...twoScas(), corporate('corp-9')], { fromBankStart: true });
    assert.equal(unobtained?.actual, 'PSU-CORPORATE-ID: corp-9, which the bank never gave this TPP');
  });
});

describe('header values in UTF-8 (TPP-52)', () => {
  const request = (value: string) =>
    exchange({ path: '/v1/accounts', headers: { 'TPP-Brand-Logging-Information': value }, at: new Date() });

  test('UTF-8 bytes pass, latin1 bytes fail naming them, and ASCII is not judged', () => {
    assert.deepEqual(verdicts(checksOf('TPP-52', [request(Buffer.from('Blåbær AS', 'utf8').toString('latin1'))])), ['PASS']);
    const [latin1] = checksOf('TPP-52', [request('Bl\u00e5b\u00e6r AS')]);
    assert.equal(latin1?.actual, 'tpp-brand-logging-information: bytes that are not UTF-8 (0xE5 0xE6)');
    assert.deepEqual(verdicts(checksOf('TPP-52', [request('Blabaer AS')])), []);
  });

  test('a value its recorder decoded already (a character past U+00FF) was text', () => {
    assert.deepEqual(verdicts(checksOf('TPP-52', [request('Blåbær AS \u20ac')])), ['PASS']);
  });
});

describe('the hint of every rule', () => {
  test('every rule the judge judges has a card with the call that exercises it; the catalogue has a card for every TPP entry', () => {
    for (const id of JUDGED_RULE_IDS) {
      const card = tppRuleCard(id);
      assert.ok(card?.judged === true && card.hint.length > 15, `${id} has no hint`);
    }
    const automated = TPP_REQUIREMENTS.filter((entry) => entry.testedBy === 'automated').map((entry) => entry.id);
    assert.deepEqual(automated, [...JUDGED_RULE_IDS], 'the automated TPP entries are the rules the judge judges');
    assert.deepEqual(tppRuleCard('TPP-17'), {
      id: 'TPP-17',
      level: 'SHOULD',
      statement: TPP_REQUIREMENTS.find((e) => e.id === 'TPP-17')?.statement,
      section: 'Authentication 8',
      judged: false,
      hint: 'not judged on traffic: what a TPP does with an answer after receiving it is not in its traffic',
    });
    assert.equal(tppRuleCard('TPP-99'), undefined);
  });

  test("the judging sandbox hands the bank a rule's card, for its rule pages", () => {
    const judging = new SandboxJudging({
      tool: { name: 'xs2a-conformance', version: 'test' },
      baseUrl: () => BANK,
      maskPersonalData: true,
    });
    assert.deepEqual(judging.rule('TPP-07'), tppRuleCard('TPP-07'));
    assert.deepEqual(Object.keys(judging.rule('TPP-07') ?? {}).sort(), ['hint', 'id', 'judged', 'level', 'section', 'statement']);
  });
});
