/**
 * The preflight's checks over the network (issue 37, items 2 and 3), against the reference bank served apart
 * and reached as a remote bank is: a base URL under the interface's root (the 404s were judged as the bank's
 * failures: NON_CONFORMANT, exit 1) is the configuration's, naming baseUrl and where the interface answers; a
 * TPP certificate the bank refuses; a first SCA page no rule of `sca` matches; a capability copied from the
 * reference target that this bank does not offer (two false FAILs, the reason only in the HTML); production
 * asked nothing but the interface. Each finding names the field to fix.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { prepareTarget } from '../../lib/cli/prepare-target.js';
import { checkTarget, exitCodeOf, type Finding } from '../../lib/cli/target-checks.js';
import { generateCertificateAuthority, generateTppCertificate } from '../../lib/pki/index.js';
import type { TargetConfig } from '../../lib/targets/target-types.js';
import { startReferenceBank, type ReferenceBank } from '../../reference/server.js';
import { scratchDir } from '../support/scratch.js';

const issuer = generateCertificateAuthority({ commonName: 'Doctor test TPP issuer' });
const tpp = generateTppCertificate(issuer, {
  organizationName: 'Doctor TPP',
  organizationIdentifier: 'PSDNO-FSA-DOC1',
  roles: ['PSP_AI', 'PSP_PI'],
});
const dir = scratchDir('xs2a-doctor-');
writeFileSync(join(dir, 'tpp.pem'), tpp.certificatePem);
writeFileSync(join(dir, 'tpp-key.pem'), tpp.privateKeyPem);
writeFileSync(join(dir, 'issuer.pem'), issuer.certificatePem);
writeFileSync(join(dir, 'issuer-key.pem'), issuer.privateKeyPem);

let trusting: ReferenceBank;
let anyCertificate: ReferenceBank;
before(async () => {
  // One bank that checks TPP certificates against their issuer, as production does; one that takes any (a sandbox).
  [trusting, anyCertificate] = await Promise.all([startReferenceBank({ trustedTppCaPems: [issuer.certificatePem] }), startReferenceBank()]);
});
after(() => Promise.all([trusting.close(), anyCertificate.close()]));

/** A remote target of one of the banks: its CA in a file of its own (the tests run side by side). */
function remote(bank: ReferenceBank, extra: Partial<TargetConfig> = {}): TargetConfig {
  writeFileSync(join(dir, `ca-${bank.port}.pem`), bank.caPem);
  return {
    baseUrl: bank.baseUrl,
    environment: 'sandbox',
    tls: { ca: `ca-${bank.port}.pem` },
    tpp: { certificate: 'tpp.pem', privateKey: 'tpp-key.pem', redirectUri: 'https://tpp.example/cb' },
    psus: { private: { nationalId: '13039319955', context: 'PRIVATE' } },
    sca: [{ match: '**/sca/*', steps: [{ click: { selector: '#login' } }] }],
    ...extra,
  };
}

async function findings(config: TargetConfig): Promise<Finding[]> {
  const workDir = mkdtempSync(join(tmpdir(), 'xs2a-doctor-work-'));
  try {
    const prepared = await prepareTarget('bank', config, { faults: [], targetsDir: dir, workDir, env: {} });
    return await checkTarget(prepared.target, { full: true, caSource: join(dir, config.tls?.ca ?? '') });
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

const of = (found: Finding[], check: string) => found.find((finding) => finding.check === check);

describe('the doctor of a remote target', { concurrency: 4 }, () => {
  test('a bank set up right: nothing to fix', async () => {
    const found = await findings(remote(trusting));
    assert.deepEqual(
      found.filter((f) => f.outcome !== 'ok'),
      [],
    );
    assert.match(
      of(found, 'sca')?.message ?? '',
      /the first SCA page https:\/\/127\.0\.0\.1:\d+\/sca\/[\w-]+ \(HTTP 200\) matches the rule "\*\*\/sca\/\*"/,
    );
    assert.equal(exitCodeOf(found), 0);
  });

  test("a base URL below the interface's root is a problem of baseUrl, naming where the interface answers (exit 2)", async () => {
    const found = await findings(remote(trusting, { baseUrl: `${trusting.baseUrl}/api/psd2` }));
    const served = of(found, 'interface');
    assert.equal(served?.outcome, 'problem');
    assert.equal(served?.field, 'targets.bank.baseUrl');
    assert.match(
      served?.message ?? '',
      /\/api\/psd2\/v1\/accounts answers HTTP 404 .*: the base URL does not serve the interface; the interface answers at https:\/\/127\.0\.0\.1:\d+: set baseUrl to it/,
    );
    assert.equal(exitCodeOf(found), 2);
  });

  test('a TPP certificate the bank does not trust is named, with what it said', async () => {
    const found = await findings(remote(trusting, { tpp: { generate: true, redirectUri: 'https://tpp.example/cb' } }));
    const certificate = of(found, 'tpp-certificate');
    assert.equal(certificate?.outcome, 'problem');
    assert.equal(certificate?.field, 'targets.bank.tpp.certificate');
    assert.match(
      certificate?.message ?? '',
      /the bank refused the TPP certificate or its signature: HTTP 4\d\d .*tpp\.generate gives a certificate from the suite's own test CA/,
    );
  });

  test('a first SCA page no rule matches names sca and the page', async () => {
    const found = await findings(remote(trusting, { sca: [{ match: '**/login**', steps: [{ click: { selector: 'button' } }] }] }));
    const sca = of(found, 'sca');
    assert.equal(sca?.outcome, 'problem');
    assert.equal(sca?.field, 'targets.bank.sca');
    assert.match(
      sca?.message ?? '',
      /the first SCA page https:\/\/127\.0\.0\.1:\d+\/sca\/[\w-]+ \(HTTP 200.*\) matches no rule of sca \("\*\*\/login\*\*"\); a rule for it could start with match: "\*\*\/sca\/\*"/,
    );
  });

  test('capabilities copied from the reference target: those this bank does not offer are found before a run', async () => {
    const found = await findings(
      remote(anyCertificate, {
        capabilities: ['test-ca-trusted', 'clock-control', 'corporate-psu', 'sandbox-mock-data'],
        sandbox: { operations: { listCustomers: { method: 'GET', path: '/v1/bank-sandbox/customers' } } },
      }),
    );
    assert.match(of(found, 'capability test-ca-trusted')?.message ?? '', /the bank accepted a TPP certificate from a CA no one trusts/);
    assert.match(
      of(found, 'capability clock-control')?.message ?? '',
      /describes none of its operations \(freezeClock, shiftClock, resetClock\)/,
    );
    assert.match(of(found, 'capability corporate-psu')?.message ?? '', /no PSU of psus has context: CORPORATE/);
    assert.match(
      of(found, 'capability sandbox-mock-data')?.message ?? '',
      /GET \/v1\/bank-sandbox\/customers \(listCustomers\) answers HTTP 404/,
    );
    assert.deepEqual(
      found
        .filter((f) => f.outcome === 'problem')
        .map((f) => f.check)
        .sort(),
      ['capability clock-control', 'capability corporate-psu', 'capability sandbox-mock-data', 'capability test-ca-trusted'],
    );
  });

  test('test-ca-trusted on a bank that checks certificates: it needs tpp.testCa, the CA the bank trusts, and is ok with it', async () => {
    const without = of(await findings(remote(trusting, { capabilities: ['test-ca-trusted'] })), 'capability test-ca-trusted');
    assert.equal(without?.outcome, 'problem');
    assert.equal(without?.field, 'targets.bank.tpp.testCa');
    assert.match(without?.message ?? '', /a TPP certificate from an unknown CA is refused .*but tpp\.testCa names no CA it trusts/);
    const testCa = { certificate: 'issuer.pem', privateKey: 'issuer-key.pem' };
    const withCa = remote(trusting, { capabilities: ['test-ca-trusted'] });
    const found = of(
      await findings({ ...withCa, tpp: { ...withCa.tpp, redirectUri: 'https://tpp.example/cb', testCa } }),
      'capability test-ca-trusted',
    );
    assert.equal(found?.outcome, 'ok', found?.message);
    assert.match(found?.message ?? '', /and one from tpp\.testCa is taken \(HTTP (200|401)\)/);
    // A CA the bank does not trust: the variants would be refused for their issuer.
    const stranger = generateCertificateAuthority({ commonName: 'A CA the doctor bank does not trust' });
    writeFileSync(join(dir, 'stranger.pem'), stranger.certificatePem);
    writeFileSync(join(dir, 'stranger-key.pem'), stranger.privateKeyPem);
    const untrusted = { certificate: 'stranger.pem', privateKey: 'stranger-key.pem' };
    const refused = of(
      await findings({ ...withCa, tpp: { ...withCa.tpp, redirectUri: 'https://tpp.example/cb', testCa: untrusted } }),
      'capability test-ca-trusted',
    );
    assert.equal(refused?.outcome, 'problem');
    assert.equal(refused?.field, 'targets.bank.tpp.testCa');
    assert.match(refused?.message ?? '', /and so is one from tpp\.testCa \(HTTP 4\d\d.*\): the bank does not trust that CA/);
  });

  test('production: the interface is asked, no capability probed', async () => {
    const found = await findings(remote(trusting, { environment: 'production', capabilities: ['sandbox-mock-data'] }));
    assert.equal(of(found, 'interface')?.outcome, 'ok');
    assert.deepEqual(of(found, 'capabilities'), {
      check: 'capabilities',
      outcome: 'skipped',
      message: 'not probed: a production target gets no sandbox call (declared: sandbox-mock-data)',
    });
  });

  test('a bank that does not answer: one finding, unreachable (exit 3)', async () => {
    const found = await findings(remote(trusting, { baseUrl: 'https://127.0.0.1:9' }));
    assert.equal(found.length, 1);
    assert.match(found[0]?.message ?? '', /^target "bank" unreachable at https:\/\/127\.0\.0\.1:9: ECONNREFUSED$/);
    assert.equal(exitCodeOf(found), 3);
  });
});
