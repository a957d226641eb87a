/**
 * The preflight in the real command (issue 37, item 2): before any scenario, a remote target whose base URL
 * does not serve the interface (…/api/psd2 where it answers at the root) or whose tls.ca did not issue the
 * bank's certificate stops the run as a configuration error, exit 2, naming the field; before, the first ran on
 * and judged the 404s (NON_CONFORMANT, exit 1), the second said "unreachable … UNABLE_TO_VERIFY_LEAF_SIGNATURE"
 * (exit 3). `doctor` names every problem at once: all the variables not set, in one go. No Playwright starts:
 * about 6 s.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { generateCertificateAuthority, generateTppCertificate } from '../../lib/pki/index.js';
import { startReferenceBank, type ReferenceBank } from '../../reference/server.js';
import { runCli } from '../support/run-cli.js';
import { scratchDir } from '../support/scratch.js';

const issuer = generateCertificateAuthority({ commonName: 'Preflight TPP issuer' });
const tpp = generateTppCertificate(issuer, {
  organizationName: 'Preflight TPP',
  organizationIdentifier: 'PSDNO-FSA-PRE1',
  roles: ['PSP_AI', 'PSP_PI'],
});
const dir = scratchDir('xs2a-preflight-');
const targets = join(dir, 'targets.yaml');
let bank: ReferenceBank;

before(async () => {
  bank = await startReferenceBank({ trustedTppCaPems: [issuer.certificatePem] });
  writeFileSync(join(dir, 'bank-ca.pem'), bank.caPem);
  writeFileSync(join(dir, 'other-ca.pem'), generateCertificateAuthority({ commonName: 'Not The Bank CA' }).certificatePem);
  writeFileSync(join(dir, 'tpp.pem'), tpp.certificatePem);
  writeFileSync(join(dir, 'tpp-key.pem'), tpp.privateKeyPem);
  writeFileSync(
    targets,
    `targets:
  remote:
    baseUrl: \${BANK_URL}
    environment: staging
    tls: { ca: "\${BANK_CA}" }
    tpp: { certificate: "\${TPP_CERT}", privateKey: "\${TPP_KEY}", redirectUri: https://tpp.example/cb }
    sca: [{ match: "**/sca/*", steps: [{ click: { selector: "#login" } }] }]
`,
  );
});
after(() => bank.close());

const env = (changes: Record<string, string> = {}) => ({
  BANK_URL: bank.baseUrl,
  BANK_CA: 'bank-ca.pem',
  TPP_CERT: 'tpp.pem',
  TPP_KEY: 'tpp-key.pem',
  ...changes,
});

describe('run, before any scenario', { concurrency: 3 }, () => {
  test('a base URL that does not serve the interface is a configuration error naming baseUrl (exit 2), never NON_CONFORMANT', async () => {
    const run = await runCli(
      ['run', '--targets', targets, '--target', 'remote', '--grep', 'SIG-04\\.a', '--report-dir', '{reportDir}'],
      env({ BANK_URL: `${bank.baseUrl}/api/psd2` }),
    );
    assert.equal(run.exitCode, 2, run.stderr + run.stdout);
    assert.match(
      run.stderr,
      /targets\.remote\.baseUrl: GET https:\/\/127\.0\.0\.1:\d+\/api\/psd2\/v1\/accounts answers HTTP 404 .*the base URL does not serve the interface; the interface answers at https:\/\/127\.0\.0\.1:\d+: set baseUrl to it/,
    );
    assert.equal(run.results, undefined, 'no scenario ran, no report');
  });

  test("a CA that did not issue the bank's certificate names tls.ca and the issuer the bank presented (exit 2)", async () => {
    const run = await runCli(['run', '--targets', targets, '--target', 'remote', '--grep', 'SIG-04\\.a'], env({ BANK_CA: 'other-ca.pem' }));
    assert.equal(run.exitCode, 2, run.stderr);
    assert.match(
      run.stderr,
      /targets\.remote\.tls\.ca: the bank presented CN=localhost, issued by .*CN=Reference ASPSP Test CA; tls\.ca \(.*other-ca\.pem\) holds CN=Not The Bank CA, which did not issue it/,
    );
    assert.doesNotMatch(run.stderr, /unreachable/);
  });
});

describe('doctor', { concurrency: 3 }, () => {
  test('names every variable not set at once, and asks the bank nothing then (exit 2)', async () => {
    const run = await runCli(['doctor', '--targets', targets, '--target', 'remote'], {
      BANK_URL: '',
      BANK_CA: '',
      TPP_CERT: '',
      TPP_KEY: '',
    });
    assert.equal(run.exitCode, 2, run.stderr);
    for (const [variable, field] of [
      ['BANK_URL', 'baseUrl'],
      ['BANK_CA', 'tls\\.ca'],
      ['TPP_CERT', 'tpp\\.certificate'],
      ['TPP_KEY', 'tpp\\.privateKey'],
    ] as const) {
      assert.match(
        run.stdout,
        new RegExp(`PROBLEM +environment +targets\\.remote\\.${field}: environment variable ${variable} is not set`),
      );
    }
    assert.match(run.stdout, /skipped +network +the bank was not asked/);
  });

  test('a set-up that works: every check ok, exit 0; --json gives the same findings', async () => {
    const run = await runCli(['doctor', '--targets', targets, '--target', 'remote', '--json'], env());
    assert.equal(run.exitCode, 0, run.stdout + run.stderr);
    const report = JSON.parse(run.stdout) as { exitCode: number; findings: { check: string; outcome: string }[] };
    assert.deepEqual(
      report.findings.map((f) => `${f.check} ${f.outcome}`),
      ['environment ok', 'files ok', 'tls ok', 'interface ok', 'tpp-certificate ok', 'sca ok'],
    );
  });
});
