/**
 * The sloppy TPP against the judging sandbox (the reference bank with --judge and --trust-ca): every answer
 * to a request that broke a rule names it in a header, each case is caught on exactly its rule, the TPP
 * reads its own report at the sandbox path (signed), and every TPP's report is written when the sandbox
 * stops. Without the judge the bank answers the same requests the same way (the header is the only change).
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { RunResults } from '../../lib/report/results-types.js';
import { JUDGED_RULE_IDS } from '../../lib/tpp-judge/index.js';
import { SandboxJudging } from '../../lib/traffic/sandbox-judging.js';
import { BROKEN_RULES_HEADER, TPP_REPORT_PATH } from '../../reference/plugins/tpp-judging.js';
import type { ReferenceBank } from '../../reference/server.js';
import { startTestBank } from '../reference/helpers.js';
import { scratchDir } from '../support/scratch.js';
import { assertEachCaseCaughtAlone, failedIn, record, type Caught } from './judged-modes.js';
import { tppPki, runSloppyTpp, TestTpp } from './sloppy-client.js';

/** The cases whose requests the bank refuses before their signature verifies: in the sandbox, nobody's. */
const UNVERIFIED_CASES = [
  'TPP-01',
  'TPP-02',
  'TPP-03',
  'TPP-04',
  'TPP-05',
  'TPP-06',
  'TPP-07',
  'TPP-08',
  'TPP-10',
  'TPP-12',
  'TPP-14',
  'TPP-15',
  'TPP-16',
  'TPP-22',
  'TPP-52',
];

describe('the sloppy TPP against the judging sandbox', () => {
  const dir = scratchDir('xs2a-sloppy-sandbox-');
  const pki = tppPki();
  const caught: Caught = new Map();
  let current = 'before';
  let bank: ReferenceBank;
  let judge: SandboxJudging;
  let ownReport: RunResults;
  let ownReportHtml: string;
  /** The statuses the TPP got, in order, with and without the judge. */
  const statuses = { judged: [] as number[], plain: [] as number[] };

  const note = (value: string | string[] | undefined) => {
    record(
      caught,
      current,
      (Array.isArray(value) ? value.join(',') : (value ?? ''))
        .split(',')
        .map((rule) => rule.trim())
        .filter(Boolean),
    );
  };

  before(async () => {
    let baseUrl = '';
    judge = new SandboxJudging({
      tool: { name: 'xs2a-conformance', version: 'test' },
      baseUrl: () => baseUrl,
      maskPersonalData: true,
      trustedCaPems: [pki.trustedCa.certificatePem],
    });
    bank = await startTestBank({ trustedTppCaPems: [pki.trustedCa.certificatePem], judge });
    baseUrl = bank.baseUrl;
    const tpp = new TestTpp(
      { baseUrl: bank.baseUrl, caPem: bank.caPem },
      pki,
      (headers) => note(headers[BROKEN_RULES_HEADER]),
      (response) => {
        note(response.headers[BROKEN_RULES_HEADER]);
        statuses.judged.push(response.status);
      },
    );
    try {
      await runSloppyTpp(tpp, (rule) => {
        current = rule;
      });
      current = 'report';
      const client = tpp.client();
      ownReport = JSON.parse((await client.get(`/v1${TPP_REPORT_PATH}`)).bodyText) as RunResults;
      ownReportHtml = (await client.get(`/v1${TPP_REPORT_PATH}?format=html`)).bodyText;
    } finally {
      await tpp.close();
      await bank.close();
    }
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  test('without the judge the bank answers the same requests with the same statuses, and no header', async () => {
    const plain = await startTestBank({ trustedTppCaPems: [pki.trustedCa.certificatePem] });
    let headers = 0;
    const tpp = new TestTpp({ baseUrl: plain.baseUrl, caPem: plain.caPem }, pki, undefined, (response) => {
      statuses.plain.push(response.status);
      if (response.headers[BROKEN_RULES_HEADER] !== undefined) headers += 1;
    });
    try {
      await runSloppyTpp(tpp, () => undefined);
    } finally {
      await tpp.close();
      await plain.close();
    }
    assert.deepEqual(statuses.plain, statuses.judged.slice(0, statuses.plain.length));
    assert.equal(headers, 0);
  });

  test('each case is caught on exactly its rule, named in the answer header', () => {
    assertEachCaseCaughtAlone(caught, 'sandbox');
  });

  test("the TPP's own report, read at the sandbox path, fails the rules its verified requests broke, and no other", () => {
    // The certificate rules were broken under other certificates (other TPPs, other reports); the requests the
    // bank could not verify are nobody's (anyone can copy a certificate), so they are judged as unidentified.
    const otherCertificates = ['TPP-18', 'TPP-19', 'TPP-20'];
    assert.deepEqual(
      failedIn(ownReport),
      JUDGED_RULE_IDS.filter((id) => !otherCertificates.includes(id) && !UNVERIFIED_CASES.includes(id)),
    );
    assert.equal(ownReport.tests.length, 1, 'only the caller is in its report');
    assert.match(ownReportHtml, /<html/);
    assert.match(ownReportHtml, /TPP-07/);
  });

  test('every TPP report is written when the sandbox stops: one per verified key, one for the unidentified, and all together', () => {
    const { all, folders } = judge.writeReports(dir);
    assert.equal(
      folders.length,
      3,
      'the good certificate, the one without the role its request needs (verified, then refused), and the unidentified',
    );
    assert.deepEqual(failedIn(all), [...JUDGED_RULE_IDS]);
    const unidentified = JSON.parse(
      readFileSync(join(folders.find((f) => f.endsWith('tpp-unidentified')) ?? '', 'results.json'), 'utf8'),
    ) as RunResults;
    assert.deepEqual(failedIn(unidentified), [...UNVERIFIED_CASES, 'TPP-18', 'TPP-19'].sort());
    const runDir = readdirSync(dir)[0] ?? '';
    const written = JSON.parse(readFileSync(join(dir, runDir, 'all', 'results.json'), 'utf8')) as RunResults;
    assert.equal(written.verdict, 'NON_CONFORMANT');
  });
});
