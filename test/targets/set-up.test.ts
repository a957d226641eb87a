/**
 * A target's set-up, checked all at once (issue 37, item 2): every `${VAR}` not set in one message, every file
 * problem at once (a key that is not the certificate's among them), and a TLS handshake that tells a CA tls.ca
 * did not issue (naming the issuer the bank presented and the file) from a bank that does not answer. Before,
 * each run stopped at the first variable, the first file, and called a wrong CA "unreachable".
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { generateCertificateAuthority, generateTppCertificate } from '../../lib/pki/index.js';
import { ConfigError } from '../../lib/targets/config-error.js';
import { interpolateTarget, parseTargetsFile, selectTarget } from '../../lib/targets/load.js';
import { diagnoseTls } from '../../lib/targets/preflight.js';
import { targetFileProblems } from '../../lib/targets/target-files.js';
import { startReferenceBank, type ReferenceBank } from '../../reference/server.js';
import { scratchDir } from '../support/scratch.js';

const SANDBOX = selectTarget(
  parseTargetsFile(`
targets:
  sandbox:
    baseUrl: \${SANDBOX_BASE_URL}
    environment: sandbox
    tls: { ca: "\${SANDBOX_CA_FILE}" }
    tpp: { certificate: "\${TPP_CERT_FILE}", privateKey: "\${TPP_KEY_FILE}", redirectUri: https://tpp.example/cb }
    psus: { private: { nationalId: "\${PSU_ID}" } }
`),
  'sandbox',
);

describe("a target's variables", () => {
  test('every variable not set is named in one message, each with its field', () => {
    assert.throws(
      () => interpolateTarget('sandbox', SANDBOX, { TPP_KEY_FILE: 'k.pem' }),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.equal(
          error.message,
          [
            'targets.sandbox: 4 environment variables are not set:',
            '  targets.sandbox.baseUrl: environment variable SANDBOX_BASE_URL is not set',
            '  targets.sandbox.tls.ca: environment variable SANDBOX_CA_FILE is not set',
            '  targets.sandbox.tpp.certificate: environment variable TPP_CERT_FILE is not set',
            '  targets.sandbox.psus.private.nationalId: environment variable PSU_ID is not set',
          ].join('\n'),
        );
        assert.deepEqual(
          error.problems.map((p) => p.variable),
          ['SANDBOX_BASE_URL', 'SANDBOX_CA_FILE', 'TPP_CERT_FILE', 'PSU_ID'],
        );
        return true;
      },
    );
  });

  test('one variable not set reads as it always did', () => {
    const env = { SANDBOX_CA_FILE: 'ca.pem', TPP_CERT_FILE: 'c.pem', TPP_KEY_FILE: 'k.pem', PSU_ID: '13039319955' };
    assert.throws(
      () => interpolateTarget('sandbox', SANDBOX, env),
      /^ConfigError: targets\.sandbox\.baseUrl: environment variable SANDBOX_BASE_URL is not set$/,
    );
  });
});

describe("a target's files", () => {
  const dir = scratchDir('xs2a-set-up-');
  const issuer = generateCertificateAuthority({ commonName: 'Set-up test issuer' });
  const tpp = generateTppCertificate(issuer, {
    organizationName: 'Set-up TPP',
    organizationIdentifier: 'PSDNO-FSA-SETUP',
    roles: ['PSP_AI'],
  });
  const other = generateTppCertificate(issuer, {
    organizationName: 'Other TPP',
    organizationIdentifier: 'PSDNO-FSA-OTHER',
    roles: ['PSP_AI'],
  });
  writeFileSync(join(dir, 'tpp.pem'), tpp.certificatePem);
  writeFileSync(join(dir, 'other-key.pem'), other.privateKeyPem);
  writeFileSync(join(dir, 'notes.txt'), 'not a PEM');
  const config = (tls: string, certificate: string, privateKey: string) => ({
    ...SANDBOX,
    baseUrl: 'https://bank.example',
    tls: { ca: tls },
    tpp: { certificate, privateKey, redirectUri: 'https://tpp.example/cb' },
  });

  test('every file problem at once: missing, not PEM', () => {
    const problems = targetFileProblems('sandbox', config('missing-ca.pem', 'notes.txt', 'missing-key.pem'), dir);
    assert.deepEqual(
      problems.map((p) => p.field),
      ['targets.sandbox.tls.ca', 'targets.sandbox.tpp.certificate', 'targets.sandbox.tpp.privateKey'],
    );
    assert.match(problems[0]?.detail ?? '', /file not found: .*missing-ca\.pem/);
    assert.match(problems[1]?.detail ?? '', /notes\.txt is not a PEM file/);
  });

  test("a key that is not the certificate's is named before any request", () => {
    writeFileSync(join(dir, 'ca.pem'), issuer.certificatePem);
    const problems = targetFileProblems('sandbox', config('ca.pem', 'tpp.pem', 'other-key.pem'), dir);
    assert.equal(problems.length, 1, JSON.stringify(problems));
    assert.equal(problems[0]?.field, 'targets.sandbox.tpp.privateKey');
    assert.match(problems[0]?.detail ?? '', /is not the key of the certificate in targets\.sandbox\.tpp\.certificate \(C=NO, O=Set-up TPP/);
  });

  test('tpp.testCa: a CA certificate and its own key; a TPP certificate, or another key, is named', () => {
    writeFileSync(join(dir, 'ca.pem'), issuer.certificatePem);
    writeFileSync(join(dir, 'issuer-key.pem'), issuer.privateKeyPem);
    writeFileSync(join(dir, 'tpp-key.pem'), tpp.privateKeyPem);
    const withCa = (certificate: string, privateKey: string) => {
      const base = config('ca.pem', 'tpp.pem', 'tpp-key.pem');
      return { ...base, tpp: { ...base.tpp, testCa: { certificate, privateKey } } };
    };
    assert.deepEqual(targetFileProblems('sandbox', withCa('ca.pem', 'issuer-key.pem'), dir), []);
    const notCa = targetFileProblems('sandbox', withCa('tpp.pem', 'tpp-key.pem'), dir);
    assert.deepEqual(
      notCa.map((p) => p.field),
      ['targets.sandbox.tpp.testCa.certificate'],
    );
    assert.match(
      notCa[0]?.detail ?? '',
      /is not a CA certificate \(basicConstraints CA:TRUE\), so it issues no TPP certificate \(C=NO, O=Set-up TPP/,
    );
    const otherKey = targetFileProblems('sandbox', withCa('ca.pem', 'other-key.pem'), dir);
    assert.deepEqual(
      otherKey.map((p) => `${p.field}: ${p.detail}`),
      [
        'targets.sandbox.tpp.testCa.privateKey: is not the key of the certificate in targets.sandbox.tpp.testCa.certificate (CN=Set-up test issuer)',
      ],
    );
  });
});

describe('the TLS handshake of the preflight', () => {
  let bank: ReferenceBank;
  before(async () => {
    bank = await startReferenceBank();
  });
  after(() => bank.close());

  test('with the CA that issued the bank certificate: trusted', async () => {
    const found = await diagnoseTls(bank.baseUrl, { pem: bank.caPem, source: 'bank-ca.pem' });
    assert.equal(found.outcome, 'trusted');
  });

  test('with another CA: a problem of tls.ca naming the issuer the bank presented and what the file holds, not "unreachable"', async () => {
    const other = generateCertificateAuthority({ commonName: 'Some Other CA' });
    const found = await diagnoseTls(bank.baseUrl, { pem: other.certificatePem, source: '/etc/bank/ca.pem' });
    assert.equal(found.outcome, 'untrusted');
    assert.ok(found.outcome === 'untrusted' && found.field === 'tls.ca');
    assert.match(found.reason, /the bank presented CN=localhost, issued by C=NO, O=xs2a-conformance, CN=Reference ASPSP Test CA/);
    assert.match(
      found.reason,
      /tls\.ca \(\/etc\/bank\/ca\.pem\) holds CN=Some Other CA, which did not issue it \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\)/,
    );
  });

  test('no answer at all: unreachable', async () => {
    const found = await diagnoseTls('https://127.0.0.1:9', undefined, 2000);
    assert.deepEqual(found, { outcome: 'unreachable', reason: 'ECONNREFUSED' });
  });
});
