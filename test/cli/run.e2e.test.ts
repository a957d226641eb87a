/**
 * The command as a user meets it: exit codes 2 (configuration) and 3 (unreachable) with one clear message,
 * and a real run's report files: complete, self-contained, masked, free of key material.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { generateCertificateAuthority, generateTppCertificate } from '../../lib/pki/index.js';
import { startReferenceBank } from '../../reference/server.js';
import { runCli } from '../support/run-cli.js';
import { scratchDir } from '../support/scratch.js';

function targetsFile(yaml: string): string {
  const file = join(scratchDir('xs2a-targets-'), 'targets.yaml');
  writeFileSync(file, yaml);
  return file;
}

const REMOTE = (baseUrl: string) => `
targets:
  remote:
    baseUrl: ${baseUrl}
    environment: staging
    tpp: { generate: true, redirectUri: https://tpp.example/cb }
`;

describe('configuration errors exit 2 and name the field', { concurrency: 4 }, () => {
  test('a broken targets.yaml', async () => {
    const file = targetsFile('targets:\n  x: { embedded: true, environment: prod }\n');
    const run = await runCli(['run', '--targets', file]);
    assert.equal(run.exitCode, 2);
    assert.match(run.stderr, /targets\.x\.environment: must be one of sandbox, staging, production/);
    assert.equal(run.stdout, '');
  });

  test('an unknown target lists the known ones', async () => {
    const run = await runCli(['run', '--target', 'nope']);
    assert.equal(run.exitCode, 2);
    assert.match(run.stderr, /unknown target "nope"; known targets: reference, reference-alt, sandbox/);
  });

  test('a missing environment variable is named', async () => {
    const run = await runCli(['run', '--target', 'sandbox'], { SANDBOX_BASE_URL: '' });
    assert.equal(run.exitCode, 2);
    assert.match(run.stderr, /targets\.sandbox\.baseUrl: environment variable SANDBOX_BASE_URL is not set/);
  });

  test('an unknown fault or variant is a usage error naming the option and the nearest declared name, not the whole list', async () => {
    const fault = await runCli(['run', '--inject-fault', 'signature-check-of']);
    assert.equal(fault.exitCode, 2);
    assert.match(
      fault.stderr,
      /option '--inject-fault <name>' argument 'signature-check-of' is invalid\. unknown fault "signature-check-of"; did you mean "signature-check-off"\?/,
    );
    assert.doesNotMatch(fault.stderr, /date-check-off/);
    assert.ok(fault.stderr.length < 400, fault.stderr);
    const variant = await runCli(['run', '--variant', 'no-such-reading']);
    assert.equal(variant.exitCode, 2);
    assert.match(variant.stderr, /option '--variant <name>' argument 'no-such-reading' is invalid\. unknown variant "no-such-reading"/);
    const serve = await runCli(['serve', '--variant', 'no-such-reading', '--port', '0']);
    assert.equal(serve.exitCode, 2);
    assert.match(serve.stderr, /unknown variant "no-such-reading"/);
  });

  test('faults only go to the embedded bank', async () => {
    const run = await runCli([
      'run',
      '--targets',
      targetsFile(REMOTE('https://127.0.0.1:9')),
      '--target',
      'remote',
      '--inject-fault',
      'date-check-off',
    ]);
    assert.equal(run.exitCode, 2);
    assert.match(run.stderr, /--inject-fault: faults can only be injected into the embedded reference bank/);
  });

  test('serve names the SCA page sets it knows', async () => {
    const run = await runCli(['serve', '--sca-pages', 'fancy', '--port', '0']);
    assert.equal(run.exitCode, 2);
    assert.match(run.stderr, /--sca-pages.*Allowed choices are reference, alternative/);
  });
});

describe('an unreachable target', () => {
  test('gets one line and exit 3, no test run', async () => {
    const run = await runCli(['run', '--targets', targetsFile(REMOTE('https://127.0.0.1:9')), '--target', 'remote']);
    assert.equal(run.exitCode, 3);
    const lines = run.stderr.trim().split('\n');
    assert.equal(lines.length, 1, run.stderr);
    assert.match(lines[0] ?? '', /target "remote" unreachable at https:\/\/127\.0\.0\.1:9: ECONNREFUSED/);
    assert.equal(run.results, undefined);
  });
});

describe('a run against the reference bank', () => {
  test('writes results.json, junit.xml and a self-contained index.html, masked and without keys', async () => {
    const run = await runCli(['run', '--grep', 'SCA-13\\.a|SIG-04\\.a', '--report-dir', '{reportDir}']);
    assert.equal(run.exitCode, 0, run.stderr + run.stdout);
    const results = run.results;
    assert.ok(results);
    assert.equal(results.verdict, 'INCOMPLETE'); // filtered runs cannot certify
    assert.equal(results.filtered, true);
    assert.equal(results.tests.length, 2);
    assert.ok(results.tests.every((t) => t.status === 'PASS' && t.requirements.length > 0));
    const sig04 = results.requirements.find((r) => r.id === 'SIG-04');
    assert.equal(sig04?.status, 'PASS');
    assert.match(run.stdout, /Verdict: +INCOMPLETE \(exit 0\)/);

    const dir = join(run.reportDir, 'latest');
    const html = readFileSync(join(dir, 'index.html'), 'utf8');
    const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
    const json = readFileSync(join(dir, 'results.json'), 'utf8');
    assert.match(junit, /<testsuites name="xs2a-conformance reference" tests="2" failures="0"/);
    assert.match(junit, /<property name="requirement" value="SIG-04"\/>/);
    assert.doesNotMatch(html, /<(script|link|img)[^>]+(src|href)="https?:/, 'no external assets');
    assert.match(html, /SIG-04/);

    for (const [name, text] of [
      ['html', html],
      ['junit', junit],
      ['results.json', json],
    ] as const) {
      assert.doesNotMatch(text, /PRIVATE KEY/, `${name} holds key material`);
      assert.doesNotMatch(text, /13039319955/, `${name} shows the PSU's national identity number`);
    }
    // The psu-id of the SCA test was used in PSU-ID and must appear masked only.
    const accountsTest = results.tests.find((t) => t.scenario === 'SCA-13.a');
    assert.ok(accountsTest?.evidence.redirects[0]?.url.includes('psu-id=[masked:'), accountsTest?.evidence.redirects[0]?.url);
    assert.doesNotMatch(json, /psu-id=[0-9a-f]{8}-/);
  });
});

describe('a remote target, reached like any bank', () => {
  /** The reference bank started apart, and a targets.yaml that reaches it over the network with PEM files. */
  async function remoteBank(environment: string, capabilities: string[] = []) {
    const issuer = generateCertificateAuthority({ commonName: 'Remote test TPP issuer' });
    const tpp = generateTppCertificate(issuer, {
      organizationName: 'Remote TPP',
      organizationIdentifier: 'PSDNO-FSA-REMOTE1',
      roles: ['PSP_AI'],
    });
    const bank = await startReferenceBank({ trustedTppCaPems: [issuer.certificatePem] });
    const dir = scratchDir('xs2a-remote-');
    writeFileSync(join(dir, 'bank-ca.pem'), bank.caPem);
    writeFileSync(join(dir, 'tpp.pem'), tpp.certificatePem);
    writeFileSync(join(dir, 'tpp-key.pem'), tpp.privateKeyPem);
    writeFileSync(
      join(dir, 'targets.yaml'),
      `targets:\n  remote:\n    baseUrl: \${BANK_URL}\n    environment: ${environment}\n    tls: { ca: bank-ca.pem }\n` +
        `    tpp: { certificate: tpp.pem, privateKey: tpp-key.pem, redirectUri: https://tpp.example/cb }\n` +
        `    capabilities: [${capabilities.join(', ')}]\n`,
    );
    const run = (grep: string) =>
      runCli(['run', '--targets', join(dir, 'targets.yaml'), '--target', 'remote', '--grep', grep, '--report-dir', '{reportDir}'], {
        BANK_URL: bank.baseUrl,
      });
    return { run, close: () => bank.close() };
  }

  test('with its CA and a TPP certificate and key loaded from PEM files', async () => {
    const bank = await remoteBank('staging');
    try {
      const run = await bank.run('SIG-04\\.a|SIG-03\\.a');
      assert.equal(run.exitCode, 0, run.stderr + run.stdout);
      assert.equal(run.results?.target.embedded, false);
      assert.deepEqual(
        run.results?.tests.map((t) => t.status),
        ['PASS', 'PASS'],
      );
      assert.doesNotMatch(readFileSync(join(run.reportDir, 'latest', 'results.json'), 'utf8'), /PRIVATE KEY/);
    } finally {
      await bank.close();
    }
  });

  test('in production, a test that would write (move the sandbox clock) is SKIPPED by the safety policy', async () => {
    const bank = await remoteBank('production', ['clock-control']);
    try {
      const run = await bank.run('SIG-12\\.a|SIG-12\\.e');
      assert.equal(run.exitCode, 0, run.stderr + run.stdout);
      const byScenario = new Map(run.results?.tests.map((t) => [t.scenario, t]));
      const writing = byScenario.get('SIG-12.a');
      assert.equal(writing?.status, 'SKIPPED');
      assert.match(writing?.reason ?? '', /not run against production: it freezes the target clock/);
      assert.equal(byScenario.get('SIG-12.e')?.status, 'PASS');
    } finally {
      await bank.close();
    }
  });
});
