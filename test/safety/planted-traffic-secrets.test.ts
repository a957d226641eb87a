/**
 * Secrets stay secret in the reports of judged traffic too (issue 35, H2, L6): the audit's, the judging
 * proxy's and the judging sandbox's reports come from one writer (lib/traffic/report.ts) through the one
 * masker. A TPP's requests and a bank's answers plant every kind of secret: credentials (Authorization,
 * Cookie, Set-Cookie), every PSU-* header, a PSU's SCA login form (national identity number and password),
 * psu-ids in capitals and inside JSON inside JSON, an HTML-entity `=`, national identity numbers and IBANs
 * nobody configured (a sandbox's customer list). None reaches a report file, and the files are the user's alone.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { HarWriter } from '../../lib/har/index.js';
import { TrafficJudging } from '../../lib/traffic/judging.js';
import { writeResults, type ReportContext } from '../../lib/traffic/report.js';
import type { ObservedExchange } from '../../lib/tpp-judge/index.js';
import { scratchDir } from '../support/scratch.js';

const NATIONAL_ID = '12085592767';
const OTHER_NATIONAL_ID = '01078900497';
const PASSWORD = 'Sommer2026!pw';
const PSU_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';
const BEARER = 'eyJhbGciOiJub25lIn0.e30.sig-of-the-token';
const COOKIE = 'session=7d9a01c2be44f0aa';
const IBAN = 'NO9386011117947';
const PSU_IP = '203.0.113.77';
const GEO = 'GEO:59.911491;10.757933';
const DEVICE = '99435c7e-ad88-49ec-a2ad-99ddcb1f7721';
const SESSION = 'session-of-two-psus';
const REDIRECT_URI = 'https://tpp.example/cb';

const SECRETS = [
  NATIONAL_ID,
  OTHER_NATIONAL_ID,
  PASSWORD,
  PSU_ID,
  PSU_ID.toUpperCase(),
  BEARER,
  COOKIE,
  IBAN,
  'NO93 8601 1117 947',
  PSU_IP,
  GEO,
  DEVICE,
  encodeURIComponent(PASSWORD),
];

const bytes = (text: string) => new Uint8Array(Buffer.from(text));

function planted(): ObservedExchange[] {
  const startedAt = new Date();
  const customerList = JSON.stringify({
    customers: [{ customerNumber: OTHER_NATIONAL_ID, accounts: [{ iban: IBAN }, { iban: 'NO93 8601 1117 947' }] }],
    nested: JSON.stringify({ 'psu-id': PSU_ID }),
    link: `https://tpp.example/cb?x=1&amp;psu-id&#61;${PSU_ID.toUpperCase()}`,
  });
  return [
    {
      id: 'api 1',
      startedAt,
      durationMs: 3,
      // Unsigned: the TPP rules fail, so the exchange is kept whole as evidence.
      request: {
        method: 'GET',
        url: 'https://bank.example/v1/accounts',
        headers: {
          authorization: `Bearer ${BEARER}`,
          cookie: COOKIE,
          'psu-id': PSU_ID.toUpperCase(),
          'psu-ip-address': PSU_IP,
          'psu-geo-location': GEO,
          'psu-device-id': DEVICE,
          'x-psu-identity': NATIONAL_ID,
          'x-request-id': 'r-1',
          'tpp-session-id': SESSION,
          'tpp-redirect-uri': REDIRECT_URI,
        },
        body: new Uint8Array(0),
      },
      response: {
        status: 200,
        headers: { 'content-type': 'application/json', 'set-cookie': `${COOKIE}; Secure` },
        body: bytes(customerList),
      },
    },
    // Two PSUs log in at the bank's SCA page under one TPP-Session-ID (TPP-42 fails on the second redirect, so
    // the login that answered it is kept as evidence, its form with what the PSU typed).
    ...[PSU_ID, DEVICE].map((psuId, i) => ({
      id: `browser ${i + 1}`,
      startedAt,
      durationMs: 5,
      request: {
        method: 'POST',
        url: `https://bank.example/sca/flow-${i}/login`,
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: COOKIE },
        body: bytes(`nationalId=${i === 0 ? NATIONAL_ID : OTHER_NATIONAL_ID}&password=${encodeURIComponent(PASSWORD)}`),
      },
      response: {
        status: 302,
        headers: { location: `${REDIRECT_URI}?psu-id=${psuId}&tpp-session-id=${SESSION}&context=PRIVATE` },
        body: new Uint8Array(0),
      },
    })),
  ];
}

function filesUnder(dir: string): { name: string; text: string; mode: number; isDirectory: boolean }[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((name) => {
    const path = join(dir, name);
    const stat = statSync(path);
    return { name, text: stat.isFile() ? readFileSync(path, 'utf8') : '', mode: stat.mode & 0o777, isDirectory: stat.isDirectory() };
  });
}

test('the reports of judged traffic (audit, proxy, judging sandbox) hold no planted secret, and are their user’s alone', () => {
  const dir = scratchDir('xs2a-planted-traffic-');
  const judging = new TrafficJudging({ judgeBank: true, basePath: '', environment: 'sandbox' });
  for (const exchange of planted()) judging.observe(exchange);
  judging.finish();
  const context: ReportContext = {
    runId: 'planted',
    startedAt: new Date(),
    finishedAt: new Date(),
    tool: { name: 'xs2a-conformance', version: 'test' },
    target: { name: 'planted', environment: 'sandbox', baseUrl: 'https://bank.example', embedded: false, faults: [] },
    source: 'planted.har',
    maskPersonalData: true,
  };
  writeResults(join(dir, 'reports', 'tpp'), judging.tppResults(context));
  writeResults(join(dir, 'reports', 'bank'), judging.bankResults(context));

  const files = filesUnder(join(dir, 'reports'));
  const all = files.map((f) => f.text).join('\n');
  // Not vacuous: both exchanges are in the reports, their secrets masked where they stood.
  assert.ok(/password=\[masked:[0-9a-f]{6}\]/.test(all), 'the SCA login form is in the TPP report, masked by field');
  assert.ok(/"authorization": "\[masked:/i.test(all), 'the credentials are in the TPP report, masked by name');
  const found = files.flatMap((f) => SECRETS.filter((secret) => f.text.includes(secret)).map((secret) => `${f.name}: ${secret}`));
  assert.deepEqual(found, []);
  const loose = files.filter((f) => f.mode !== (f.isDirectory ? 0o700 : 0o600)).map((f) => `${f.name} ${f.mode.toString(8)}`);
  assert.deepEqual(loose, []);
});

test('a HAR the tool writes (the proxy’s traffic.har, run --har) is its user’s alone: 0600 even where the file was there', async () => {
  const dir = scratchDir('xs2a-har-mode-');
  const file = join(dir, 'traffic.har');
  for (let i = 0; i < 2; i++) {
    const har = new HarWriter(file, { name: 'xs2a-conformance', version: 'test' });
    await har.close();
    assert.equal(statSync(file).mode & 0o777, 0o600);
  }
});
