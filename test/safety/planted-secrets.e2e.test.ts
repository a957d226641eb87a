/**
 * Secrets stay secret on every output path. A bank plants every configured secret and identity of its target
 * (the PSU's national identity number, with separators too; a password given as ${PSU_PASSWORD}; a one-time
 * code the PSU reads and types; the psu-id and psu-corporate-id of its redirect) in its answers, its error
 * messages, its redirects, its page titles and its pages, with control characters among them. The run's
 * console, every file of the report folder (trace zips opened) and whatever the run left in test-results
 * show none of them, and no control character of the bank's reaches the console.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { stringify } from 'yaml';
import { PACKAGE_ROOT } from '../../lib/cli/package-root.js';
import { decodeBase85 } from '../../lib/report/html/base85.js';
import { generateCertificateAuthority, generateServerCertificate } from '../../lib/pki/index.js';
import { readZip } from '../../lib/sca/zip-rewrite.js';
import { runCli, type CliRun } from '../support/run-cli.js';

const NATIONAL_ID = '05127331862';
const NATIONAL_ID_WRITTEN = '051273 31862';
const PASSWORD = 'S3cret&pass"w0rd';
const ONE_TIME_CODE = 'K7Q31X9';
const AGREEMENT = 'AGR-77431-Hidden';
const PSU_ID = '6f1d2c3b-8a7e-4b5c-9d0e-1f2a3b4c5d6e';
const CORPORATE_ID = '0a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d';
const REDIRECT_URI = 'https://tpp.example/callback';

/** Every form a secret could be written in a file: raw, JSON-escaped, URL-encoded, HTML-escaped. */
function formsOf(secret: string): string[] {
  return [
    ...new Set([
      secret,
      JSON.stringify(secret).slice(1, -1),
      encodeURIComponent(secret),
      secret.replace(/&/g, '&amp;').replace(/"/g, '&quot;'),
    ]),
  ];
}
const SECRETS = [NATIONAL_ID, NATIONAL_ID_WRITTEN, PASSWORD, ONE_TIME_CODE, AGREEMENT, PSU_ID, CORPORATE_ID];

/** The one-time code is the flow's own: it is planted only where its flow reads and types it (its pages). */
const planted = (base: string, code = '') =>
  `PSU ${NATIONAL_ID_WRITTEN} (${NATIONAL_ID}), agreement ${AGREEMENT}, password ${PASSWORD}${code ? `, code ${code}` : ''}: ` +
  `${base}/cb?x=1&amp;psu-id=${PSU_ID}&amp;psu-corporate-id=${CORPORATE_ID} \u001b[31mred\u001b[0m\r`;

/** A bank that answers everything with the secrets in it; its SCA fails the first time (evidence kept) and succeeds after. */
function plantingBank(key: string, cert: string): Server {
  let logins = 0;
  return createServer({ key, cert }, (request, response) => {
    const base = `https://${request.headers.host ?? ''}`;
    const url = new URL(request.url ?? '/', base);
    const html = (status: number, title: string, body: string) => {
      response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
      response.end(`<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`);
    };
    if (url.pathname === '/sca/start') {
      html(
        200,
        `Log in ${NATIONAL_ID_WRITTEN}`,
        `<p>Welcome ${NATIONAL_ID}, agreement ${AGREEMENT}</p><p>Your code: <span id="otp">${ONE_TIME_CODE}</span></p>
        <form method="post" action="/sca/login"><input id="nationalId" name="n"><input id="password" name="p" type="password"><input id="code" name="c"><button id="login">Log in</button></form>`,
      );
      return;
    }
    if (url.pathname === '/sca/login') {
      request.resume();
      logins += 1;
      if (logins === 1) {
        html(200, `Error for ${NATIONAL_ID}`, `<div role="alert">${planted(base, ONE_TIME_CODE).replace(/&amp;/g, '&')}</div>`);
        return;
      }
      const redirect = `${REDIRECT_URI}?psu-id=${PSU_ID}&psu-corporate-id=${CORPORATE_ID}&context=PRIVATE`;
      response.writeHead(302, { location: redirect }).end();
      return;
    }
    const requestId = request.headers['x-request-id'];
    const echo = typeof requestId === 'string' ? { 'x-request-id': requestId } : {};
    request.resume();
    if (request.headers['psu-id'] === undefined) {
      response.writeHead(401, { 'content-type': 'application/json', ...echo, 'x-debug': `psu-id=${PSU_ID}` });
      response.end(
        JSON.stringify({
          code: 'CONSENT_INVALID',
          message: planted(base),
          _links: { scaRedirect: { href: `${base}/sca/start?psu-id=${PSU_ID}&nid=${NATIONAL_ID}`, verbs: ['GET'] } },
        }),
      );
      return;
    }
    response.writeHead(400, { 'content-type': 'application/json', ...echo });
    response.end(
      JSON.stringify({
        id: 'e1',
        system: 'planting',
        status: 400,
        code: 'FORMAT_ERROR',
        message: planted(base),
        tppMessages: [{ category: 'ERROR', code: 'FORMAT_ERROR', text: `\\u0026psu-id=${PSU_ID} ${NATIONAL_ID}` }],
      }),
    );
  });
}

/** Every file under a folder, and every entry of the zip files among them, as text (UTF-8 and latin1). */
function filesUnder(dir: string, since = 0): { name: string; text: string }[] {
  if (!existsSync(dir)) return [];
  const out: { name: string; text: string }[] = [];
  for (const relative of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const path = join(dir, relative);
    const stat = statSync(path);
    // targets.yaml is the test's input, not the run's output.
    if (!stat.isFile() || stat.mtimeMs < since || relative === 'targets.yaml') continue;
    const bytes = readFileSync(path);
    out.push({ name: path, text: `${bytes.toString('utf8')}\n${bytes.toString('latin1')}` });
    if (path.endsWith('.zip'))
      for (const [entry, content] of readZip(path)) out.push({ name: `${path}:${entry}`, text: content.toString('utf8') });
    // index.html carries its catalogue compressed (lib/report/html/catalogue.ts): read as the page's script reads it.
    const packed = /<script type="application\/x-gzip-base85" id="catalogue-data">([^<]*)<\/script>/.exec(bytes.toString('utf8'))?.[1];
    if (packed !== undefined) out.push({ name: `${path}:catalogue`, text: gunzipSync(decodeBase85(packed)).toString('utf8') });
  }
  return out;
}

describe('secrets planted by a bank', () => {
  const ca = generateCertificateAuthority({ commonName: 'planting bank CA' });
  const tls = generateServerCertificate(ca, { hostnames: ['localhost'], ipAddresses: ['127.0.0.1'] });
  const banks: Server[] = [];
  let run: CliRun;
  /** The same run with the SCA pages driven over HTTP: its evidence is the last page's markup. */
  let httpRun: CliRun;
  /** The audit of the browser run's HAR, and a merge of its report. */
  let audited: CliRun;
  let merged: CliRun;
  let startedAt: number;
  before(async () => {
    // A bank per run: each fails its own first login.
    const targetAt = async (bank: Server) => {
      banks.push(bank);
      await new Promise<void>((resolve) => bank.listen(0, '127.0.0.1', resolve));
      return { ...target, baseUrl: `https://127.0.0.1:${(bank.address() as AddressInfo).port}` };
    };
    const target = {
      environment: 'sandbox',
      tls: { ca: ca.certificatePem },
      tpp: { generate: true, redirectUri: REDIRECT_URI },
      psus: { private: { nationalId: NATIONAL_ID, context: 'PRIVATE', agreement: AGREEMENT } },
      sca: [
        {
          match: '**/sca/start**',
          steps: [
            { fill: { selector: '#nationalId', value: '{{psu.nationalId}}' } },
            { fill: { selector: '#password', value: '${PSU_PASSWORD}' } },
            { read: { selector: '#otp', as: 'code' } },
            { fill: { selector: '#code', value: '{{read.code}}' } },
            { click: { selector: '#login' } },
          ],
        },
        { match: '**/sca/consent**', steps: [{ click: { selector: '#confirm' } }] },
      ],
      timeouts: { scaMs: 3000 },
    };
    startedAt = Date.now() - 1000;
    const planting = async (driver: string) => {
      const planted = await targetAt(plantingBank(tls.privateKeyPem, tls.certificatePem));
      return runCli(
        [
          'run',
          '--targets',
          '{reportDir}/targets.yaml',
          '--target',
          'planting',
          '--report-dir',
          '{reportDir}',
          '--workers',
          '1',
          '--grep',
          'SCA-13\\.a|ERR-22\\.a|SCA-10\\.a|ERR-14\\.a',
          '--sca-driver',
          driver,
          '--har',
          '{reportDir}/traffic.har',
        ],
        { PSU_PASSWORD: PASSWORD },
        (dir) => writeFileSync(join(dir, 'targets.yaml'), stringify({ targets: { planting: planted } })),
      );
    };
    [run, httpRun] = await Promise.all([planting('browser'), planting('http')]);
    // The other commands that write reports, over what this run wrote: the audit of its HAR (masked, as a HAR
    // is by default) and a merge of its report (the judging sandbox and the proxy write with the audit's writer:
    // test/safety/planted-traffic-secrets.test.ts).
    [audited, merged] = await Promise.all([
      runCli(['audit', join(run.reportDir, 'traffic.har'), '--report-dir', '{reportDir}']),
      runCli(['merge', join(run.reportDir, 'latest'), '--report-dir', '{reportDir}']),
    ]);
  });
  after(() => Promise.all(banks.map((bank) => new Promise<void>((resolve) => bank.close(() => resolve())))));

  test('the run judged the bank and kept evidence of the failed SCA flow (the test is not vacuous)', () => {
    assert.ok(run.results, `no results: exit ${run.exitCode}\n${run.stderr}\n${run.stdout.slice(-3000)}`);
    const files = filesUnder(join(run.reportDir, 'latest'));
    assert.ok(
      files.some((f) => f.name.endsWith('.trace') && f.text.includes('[masked:')),
      `a masked trace: ${files.map((f) => f.name).join(', ')}`,
    );
    assert.ok(
      files.some((f) => f.name.endsWith('.png')),
      'a screenshot',
    );
    assert.ok(
      files.some((f) => f.name.endsWith('index.html:catalogue') && f.text.includes('[masked:')),
      "index.html's compressed catalogue, read and masked",
    );
    assert.ok(
      run.results.tests.some((t) => (t.error ?? '').includes('[masked:')),
      'an error that carried a secret, masked',
    );
  });

  test('over HTTP too, the failed flow kept the page it stopped at, masked', () => {
    assert.ok(httpRun.results, `no results: exit ${httpRun.exitCode}\n${httpRun.stderr}\n${httpRun.stdout.slice(-3000)}`);
    const files = filesUnder(join(httpRun.reportDir, 'latest'));
    assert.ok(
      files.some((f) => /sca-\d+-html/.test(f.name) && f.text.includes('[masked:')),
      `a masked page: ${files.map((f) => f.name).join(', ')}`,
    );
    assert.ok(
      httpRun.results.tests.some((t) => (t.error ?? '').includes('[masked:')),
      'an error that carried a secret, masked',
    );
  });

  test('the HAR, its audit and the merge were written (the scan below reads them)', () => {
    assert.ok(
      filesUnder(run.reportDir).some((f) => f.name.endsWith('traffic.har') && f.text.includes('"_masked"')),
      'a HAR with masked entries',
    );
    assert.ok(
      filesUnder(audited.reportDir).some((f) => f.name.endsWith('results.json')),
      `the audit wrote its reports: exit ${audited.exitCode} ${audited.stderr}`,
    );
    assert.ok(merged.results, `the merge wrote its report: exit ${merged.exitCode} ${merged.stderr}`);
  });

  test('no secret in the console, in any file of the report folder, or in test-results', () => {
    const places = [
      ...[run, httpRun, audited, merged].flatMap((one) => [
        { name: 'stdout', text: one.stdout },
        { name: 'stderr', text: one.stderr },
        ...filesUnder(one.reportDir),
      ]),
      ...filesUnder(join(PACKAGE_ROOT, 'test-results'), startedAt),
    ];
    const found = places.flatMap((place) =>
      SECRETS.flatMap(formsOf)
        .filter((form) => place.text.includes(form))
        .map((form) => `${place.name}: ${form}`),
    );
    assert.deepEqual(found, []);
  });

  test("the report is its user's alone (files 0600, folders 0700), and nothing of the run lands outside --report-dir", () => {
    const loose: string[] = [];
    for (const dir of [run.reportDir, audited.reportDir, merged.reportDir]) {
      for (const relative of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
        if (relative === 'targets.yaml') continue; // the test's input
        const stat = statSync(join(dir, relative));
        const mode = stat.mode & 0o777;
        if (mode !== (stat.isDirectory() ? 0o700 : 0o600)) loose.push(`${relative} ${mode.toString(8)}`);
      }
    }
    assert.deepEqual(loose, []);
    assert.deepEqual(
      filesUnder(join(PACKAGE_ROOT, 'test-results'), startedAt).map((f) => f.name),
      [],
      "files in the package's test-results/",
    );
  });

  test('no control character of the bank reaches the console', () => {
    for (const [name, text] of [
      ['stdout', run.stdout],
      ['stderr', run.stderr],
      ['audit stdout', audited.stdout],
      ['audit stderr', audited.stderr],
      ['merge stdout', merged.stdout],
    ] as const) {
      assert.ok(!text.includes('\u001b[31mred'), `${name} obeys the bank's escape sequence`);
      assert.ok(!text.includes('red\u001b[0m\r'), `${name} carries the bank's carriage return`);
    }
  });
});
