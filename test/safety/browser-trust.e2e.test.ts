/**
 * The SCA browser (and the HTTP SCA driver) trusts the bank's certificate for the bank's host name and nothing else. The bank's API
 * answers like a bank; its scaRedirect leads to a site that presents a certificate for another host name
 * with the bank's CA appended (the bank's own certificate for another of its hosts, or an attacker's
 * certificate from another CA). The PSU's credentials would be typed there: the flow must be refused
 * (INTERRUPTED or ERROR, naming the certificate problem), never reach TPP-Redirect-URI, never PASS.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { generateCertificateAuthority, generateServerCertificate, type KeyAndCertificate } from '../../lib/pki/index.js';
import type { TargetConfig } from '../../lib/targets/target-types.js';
import { runCli } from '../support/run-cli.js';

const SCENARIO = 'SCA-13.a'; // takes the worker's consented PSU: one SCA flow
const REDIRECT_URI = 'https://tpp.example/callback';

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('the SCA browser and a certificate for another host', () => {
  const bankCa = generateCertificateAuthority({ commonName: 'Bank CA' });
  const attackerCa = generateCertificateAuthority({ commonName: 'Attacker CA' });
  const bankTls = generateServerCertificate(bankCa, { hostnames: ['localhost'], ipAddresses: ['127.0.0.1'] });
  const servers: Server[] = [];
  let scaSite = '';
  let pageLoaded = 0;

  /** An SCA site presenting `certificate` (a leaf for another host) with the bank's CA appended; its page sends the PSU straight back. */
  async function scaSiteWith(certificate: KeyAndCertificate): Promise<string> {
    const server = createServer(
      { key: certificate.privateKeyPem, cert: `${certificate.certificatePem}${bankCa.certificatePem}` },
      (_request, response) => {
        pageLoaded += 1;
        response.writeHead(200, { 'content-type': 'text/html' });
        response.end(
          `<title>Log in</title><input id="nationalId"><a id="login" href="${REDIRECT_URI}?psu-id=6f1d2c3b-8a7e-4b5c-9d0e-1f2a3b4c5d6e&context=PRIVATE">Log in</a>`,
        );
      },
    );
    servers.push(server);
    return listen(server);
  }

  let bankUrl = '';
  before(async () => {
    const bank = createServer({ key: bankTls.privateKeyPem, cert: bankTls.certificatePem }, (request, response) => {
      request.resume();
      const requestId = request.headers['x-request-id'];
      response.writeHead(401, {
        'content-type': 'application/json',
        ...(typeof requestId === 'string' ? { 'x-request-id': requestId } : {}),
      });
      response.end(JSON.stringify({ _links: { scaRedirect: { href: `${scaSite}/sca/login`, verbs: ['GET'] } } }));
    });
    servers.push(bank);
    bankUrl = await listen(bank);
  });
  after(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))));

  /** The named certificate problem: Chromium's net error, or node's TLS verdict under `scaDriver: http`. */
  const CERTIFICATE_NAMED = {
    browser: /ERR_CERT_(COMMON_NAME_INVALID|AUTHORITY_INVALID)/,
    http: /TLS certificate .* was refused \((ERR_TLS_CERT_ALTNAME_INVALID|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT_LOCALLY)\)/,
  };

  const flowAgainst = async (certificate: KeyAndCertificate, driver: 'browser' | 'http' = 'browser') => {
    scaSite = await scaSiteWith(certificate);
    pageLoaded = 0;
    const target: TargetConfig = {
      baseUrl: bankUrl,
      environment: 'sandbox',
      tls: { ca: bankCa.certificatePem },
      tpp: { generate: true, redirectUri: REDIRECT_URI },
      psus: { private: { nationalId: '13039319955', context: 'PRIVATE' } },
      sca: [
        {
          match: '**/sca/login',
          steps: [{ fill: { selector: '#nationalId', value: '{{psu.nationalId}}' } }, { click: { selector: '#login' } }],
        },
      ],
      timeouts: { scaMs: 5000 },
      scaDriver: driver,
    };
    const run = await runCli(
      ['run', '--targets', '{reportDir}/targets.yaml', '--target', 'mitm', '--report-dir', '{reportDir}', '--grep', SCENARIO],
      {},
      (dir) => writeFileSync(join(dir, 'targets.yaml'), JSON.stringify({ targets: { mitm: target } })),
    );
    const record = run.results?.tests.find((t) => t.scenario === SCENARIO);
    assert.ok(record, `no ${SCENARIO} in the results; exit ${run.exitCode}\n${run.stderr}\n${run.stdout.slice(-2000)}`);
    assert.ok(record.status === 'INTERRUPTED' || record.status === 'ERROR', `${record.status}: ${record.reason ?? record.error ?? ''}`);
    assert.match(`${record.reason ?? ''} ${record.error ?? ''}`, CERTIFICATE_NAMED[driver], 'the certificate problem is named');
    assert.equal(pageLoaded, 0, 'the PSU never asked the site for its page');
    assert.equal(record.evidence.redirects.length, 0, 'no redirect to TPP-Redirect-URI was captured');
  };

  test("the bank's own certificate for another host name, its CA appended: refused", () =>
    flowAgainst(generateServerCertificate(bankCa, { hostnames: ['login.bank.example'], ipAddresses: [] })));

  test("an attacker's certificate for another host name, the bank's CA appended: refused", () =>
    flowAgainst(generateServerCertificate(attackerCa, { hostnames: ['login.bank.example'], ipAddresses: [] })));

  test('over HTTP (scaDriver: http), the same two: refused', async () => {
    await flowAgainst(generateServerCertificate(bankCa, { hostnames: ['login.bank.example'], ipAddresses: [] }), 'http');
    await flowAgainst(generateServerCertificate(attackerCa, { hostnames: ['login.bank.example'], ipAddresses: [] }), 'http');
  });
});
