/**
 * The certification workflow on real runs against the reference bank, four runs shared by every test:
 * - a baseline run (faults date-optional and no-request-id-echo; SIG-11 declared a known deviation),
 * - a failing run (fault accept-missing-signature) with that baseline and an attestations file,
 * - a conforming run (nothing fails; printed to PDF),
 * - an interrupted run (the browser does not start).
 * Each results.json validates against the published schema; package, verify (a byte changed anywhere is
 * named), attestations, replay and baseline are each shown on them.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { generateCertificateAuthority, generateTppCertificate } from '../../lib/pki/index.js';
import { createPackage } from '../../lib/report/certification-package.js';
import { resultsSchemaErrors } from '../../lib/report/results-schema.js';
import type { RunResults, TestRecord } from '../../lib/report/results-types.js';
import { zipLayout } from '../../lib/report/package-zip.js';
import { verifyPackage } from '../../lib/report/verify.js';
import { loadTargetsFile } from '../../lib/targets/load.js';
import { runCli, type CliRun } from '../support/run-cli.js';

const TARGET = 'reference-certify';
const DEVIATION = { requirement: 'SIG-11', reason: 'Date is optional until release 1.24', until: '2099-12-31' };
const ATTESTATIONS = `attestations:
  - requirement: SCA-23
    verdict: PASS
    reviewer: Kari Nordmann
    date: 2026-11-20
    evidence: QA-1432, screen recording of the app's biometric prompt
  - { requirement: ADR-10, verdict: PASS, reviewer: Ola Nordmann, date: 2026-11-21, evidence: release checklist 1.24 }
  - { requirement: SIG-30, verdict: FAIL, reviewer: Ola Nordmann, date: 2026-11-21, evidence: QA-1440, note: no notice sent }
`;

/** The reference target with one known deviation, written into the run's folder. */
function prepare(reportDir: string): void {
  const reference = loadTargetsFile('targets.yaml').targets.reference;
  writeFileSync(join(reportDir, 'targets.yaml'), JSON.stringify({ targets: { [TARGET]: { ...reference, deviations: [DEVIATION] } } }));
  writeFileSync(join(reportDir, 'attestations.yaml'), ATTESTATIONS);
}

const common = ['--targets', '{reportDir}/targets.yaml', '--target', TARGET, '--report-dir', '{reportDir}'];
const latest = (run: CliRun) => join(run.reportDir, 'latest');
const results = (run: CliRun): RunResults => {
  assert.ok(run.results, `no results.json; exit ${run.exitCode}\n${run.stderr}\n${run.stdout.slice(-3000)}`);
  return run.results;
};
const scenario = (run: CliRun, id: string): TestRecord | undefined => results(run).tests.find((t) => t.scenario === id);

let baseline: CliRun;
let failing: CliRun;
let conforming: CliRun;
let interrupted: CliRun;

before(async () => {
  [baseline, conforming, interrupted] = await Promise.all([
    runCli(
      [
        ...common,
        '--inject-fault',
        'date-optional',
        '--inject-fault',
        'no-request-id-echo',
        '--grep',
        'SIG-03\\.a|SIG-04\\.a|SIG-11\\.a|SCA-13\\.a',
      ],
      {},
      prepare,
    ),
    runCli([...common, '--grep', 'SIG-03\\.a|SCA-13\\.a', '--pdf'], {}, prepare),
    runCli([...common, '--grep', 'SCA-13\\.a', '--sca-driver', 'browser'], { CHROMIUM_PATH: '/bin/false' }, prepare),
  ]);
  failing = await runCli(
    [
      ...common,
      '--inject-fault',
      'accept-missing-signature',
      '--grep',
      'SIG-03\\.a|SIG-04\\.a|SIG-11\\.a|SIG-12\\.e',
      '--baseline',
      latest(baseline),
      '--attestations',
      '{reportDir}/attestations.yaml',
    ],
    {},
    prepare,
  );
});

describe('results.json and its schema', () => {
  test('each run is what it should be: conforming, failing, interrupted', () => {
    assert.equal(conforming.exitCode, 0, conforming.stdout + conforming.stderr);
    assert.deepEqual(
      results(conforming).tests.map((t) => t.status),
      ['PASS', 'PASS'],
    );
    assert.equal(failing.exitCode, 1);
    assert.equal(results(failing).verdict, 'NON_CONFORMANT');
    assert.equal(interrupted.exitCode, 3);
    assert.equal(scenario(interrupted, 'SCA-13.a')?.status, 'INTERRUPTED');
  });

  test('validates against the published schema for a conforming, a failing, an interrupted and a baseline run', () => {
    for (const [name, run] of [
      ['conforming', conforming],
      ['failing', failing],
      ['interrupted', interrupted],
      ['baseline', baseline],
    ] as const) {
      assert.deepEqual(resultsSchemaErrors(results(run)), [], `${name} run`);
    }
    const broken = { ...results(conforming), verdict: 'ALMOST' };
    assert.match(resultsSchemaErrors(broken).join('\n'), /^\/verdict: must be equal to one of the allowed values/, 'the schema can fail');
  });

  test("the report is its user's alone: folders 0700, files 0600 (the PDF printed by the CLI process too)", () => {
    const modes = readdirSync(latest(failing), { recursive: true, encoding: 'utf8' }).map((entry) => {
      const stat = statSync(join(latest(failing), entry));
      return `${entry} ${(stat.mode & 0o777).toString(8)}`;
    });
    assert.ok(modes.includes('results.json 600') && modes.includes('index.html 600'), modes.join('\n'));
    for (const mode of modes) assert.match(mode, /^(files(\/[^/]+)? 700|.* 600)$/);
    for (const dir of [failing.reportDir, latest(failing), join(failing.reportDir, results(failing).runId)])
      assert.equal(statSync(dir).mode & 0o777, 0o700, dir);
    assert.equal(statSync(join(latest(conforming), 'index.pdf')).mode & 0o777, 0o600);
  });

  test('provenance: tool commit, suite file hashes, catalogue and specification, runtime, probe seed, target without keys, TPP', () => {
    const p = results(conforming).provenance;
    assert.equal(p.tool.commit, execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim());
    assert.deepEqual(
      p.suiteFiles.map((f) => f.path).sort(),
      ['suites/authentication/request-signing.spec.ts', 'suites/sca/account-access.spec.ts'].sort(),
    );
    for (const file of p.suiteFiles)
      assert.equal(file.sha256, createHash('sha256').update(readFileSync(file.path)).digest('hex'), file.path);
    assert.match(p.catalogue.version, /^sha256:[0-9a-f]{16}$/);
    assert.equal(p.specification.documentation, '2.16.0');
    assert.match(p.runtime.chromium, /^Chromium \d+/);
    assert.equal(p.runtime.playwright, '1.65.1');
    assert.equal(p.probes.seed, 20_261_123);
    assert.deepEqual(p.deviations, [{ ...DEVIATION, active: true }]);
    assert.match(p.tpp?.subject ?? '', /organizationIdentifier=PSDNO-FSA-XC0001/);
    assert.equal(p.tpp?.generated, true);
    const declared = JSON.stringify(p.declaredTarget);
    assert.match(declared, /"environment":"sandbox"/);
    assert.doesNotMatch(declared, /13039319955|PRIVATE KEY/, 'identities masked, no key');
  });

  test('every check says what it saw, PASS included', () => {
    const checks = results(conforming).tests.flatMap((t) => t.checks);
    assert.ok(checks.length > 10);
    for (const check of checks) assert.ok(check.actual, `${check.requirement} ${check.verdict} has no actual value`);
    assert.ok(
      checks.some((c) => c.verdict === 'PASS' && c.requirement === 'HDR-03' && /^X-Request-ID: [0-9a-f-]{36}/.test(c.actual ?? '')),
    );
  });

  test('each full exchange carries a curl command, the signature headers marked to be regenerated', () => {
    const exchange = scenario(failing, 'SIG-04.a')?.evidence.exchanges.find((e) => e.request);
    assert.match(exchange?.curl ?? '', /^curl --cacert bank-ca\.pem -X GET 'https:\/\/127\.0\.0\.1:\d+\/v1\/accounts' \\\n/);
    assert.match(exchange?.curl ?? '', /-H 'Date: <regenerate: the current time, as an RFC 7231 date>'/);
    assert.doesNotMatch(exchange?.curl ?? '', /-H 'Signature:/, 'SIG-04.a sends no Signature, and its curl neither');
    const signed = scenario(failing, 'SIG-11.a')?.evidence.exchanges.find((e) => e.request?.headers.Signature);
    if (signed) assert.match(signed.curl ?? '', /-H 'Signature: <regenerate: a signature of this request's headers with the TPP's key>'/);
  });
});

describe('known deviations and what is missing for CONFORMANT', () => {
  test('a failing known deviation is KNOWN_DEVIATION with its reason and end date, in the console too, not a FAIL', () => {
    const sig11 = results(baseline).requirements.find((r) => r.id === 'SIG-11');
    assert.equal(sig11?.status, 'KNOWN_DEVIATION');
    assert.deepEqual(sig11?.deviation, { reason: DEVIATION.reason, until: DEVIATION.until });
    assert.match(
      baseline.stdout,
      /Known deviations[^\n]*\n {2}KNOWN_DEVIATION SIG-11 {2}until 2099-12-31, still failing: Date is optional until release 1\.24/,
    );
    assert.doesNotMatch(baseline.stdout, /FAIL +SIG-11/);
  });

  test('GEN-05 and SCA-23 are out of the sandbox scope, named, and keep nothing from CONFORMANT (issue 38)', () => {
    const run = results(conforming);
    assert.deepEqual(
      run.missingForConformant.filter((m) => ['GEN-05', 'SCA-23'].includes(m.id)),
      [],
    );
    const scoped = run.requirements.filter((r) => r.status === 'OUT_OF_SCOPE');
    assert.deepEqual(
      scoped.map((r) => r.id),
      ['GEN-05', 'SCA-23'],
    );
    for (const r of scoped)
      assert.match(r.reason ?? '', /^out of sandbox scope: it needs capability [a-z-]+ \(.+\), which no sandbox target can offer$/);
    assert.ok(
      run.verdictReasons.some((reason) => /2 requirement\(s\) out of scope: GEN-05, SCA-23/.test(reason)),
      run.verdictReasons.join(' | '),
    );
  });
});

describe('attestations', () => {
  test('each becomes ATTESTED, or its failure, with the reviewer; apart from the automated verdicts', () => {
    const byId = new Map(results(failing).requirements.map((r) => [r.id, r]));
    assert.equal(byId.get('SCA-23')?.status, 'ATTESTED');
    assert.equal(byId.get('SCA-23')?.attestation?.reviewer, 'Kari Nordmann');
    assert.equal(byId.get('ADR-10')?.status, 'ATTESTED');
    assert.equal(byId.get('SIG-30')?.status, 'WARNING', 'an attested failure of a SHOULD');
    assert.match(
      byId.get('SIG-30')?.reason ?? '',
      /^failed, attested by Ola Nordmann on 2026-11-21 \(evidence: QA-1440\): no notice sent$/,
    );
    assert.equal(results(failing).summary.requirements.ATTESTED, 2);
    assert.match(
      failing.stdout,
      /Attestations \(checked by a person, not by the suite\):\n {2}ATTESTED {2}SCA-23 {2}by Kari Nordmann on 2026-11-20/,
    );
    const html = readFileSync(join(latest(failing), 'index.html'), 'utf8');
    assert.match(html, /Attestations \(3\): checked by a person, not by the suite/);
  });

  test('a broken attestations file stops the run before it starts (exit 2, naming the field)', async () => {
    const run = await runCli([...common, '--attestations', '{reportDir}/bad.yaml'], {}, (dir) => {
      prepare(dir);
      writeFileSync(
        join(dir, 'bad.yaml'),
        'attestations:\n  - { requirement: SIG-04, verdict: PASS, reviewer: x, date: 2026-01-01, evidence: y }\n',
      );
    });
    assert.equal(run.exitCode, 2);
    assert.match(run.stderr, /attestations\[0\]\.requirement: SIG-04 is judged by the suite's scenarios/);
  });
});

describe('--baseline', () => {
  test('regressions, fixes, new and removed scenarios, and a known deviation that passes now: in results.json, the console and the HTML', () => {
    const comparison = results(failing).baseline;
    assert.ok(comparison);
    assert.equal(comparison.runId, results(baseline).runId);
    assert.deepEqual(comparison.regressions.map((c) => `${c.id} ${c.from}→${c.to}`).sort(), ['ERR-35 PASS→FAIL', 'SIG-04 PASS→FAIL']);
    // HDR-03 (X-Request-ID echoed) is a SHOULD: a WARNING before.
    assert.ok(
      comparison.fixes.some((c) => c.id === 'HDR-03' && c.from === 'WARNING' && c.to === 'PASS'),
      JSON.stringify(comparison.fixes),
    );
    assert.deepEqual(comparison.deviationsNowPassing, ['SIG-11']);
    assert.deepEqual(comparison.newScenarios, ['SIG-12.e']);
    assert.deepEqual(comparison.removedScenarios, ['SCA-13.a']);
    assert.match(failing.stdout, /Baseline: +against run \S+ \(INCOMPLETE, /);
    assert.match(failing.stdout, /regressions \(2\): (SIG-04|ERR-35) PASS → FAIL/);
    assert.match(failing.stdout, /known deviations that pass now \(1\), remove them from the list: SIG-11/);
    const html = readFileSync(join(latest(failing), 'index.html'), 'utf8');
    assert.match(html, /Compared with the baseline[\s\S]*Regressions: held before, fail now \(2\)[\s\S]*Known deviations that pass now/);
  });

  test('a baseline that is not a report is a usage error', async () => {
    const run = await runCli([...common, '--baseline', '{reportDir}/nowhere'], {}, prepare);
    assert.equal(run.exitCode, 2);
    assert.match(run.stderr, /--baseline: .*nowhere.*ENOENT/);
  });
});

describe('package and verify', () => {
  const issuer = generateCertificateAuthority({ commonName: 'Certify test eIDAS issuer' });
  const tpp = generateTppCertificate(issuer, {
    organizationName: 'Certifying TPP',
    organizationIdentifier: 'PSDNO-FSA-CERT1',
    roles: ['PSP_AI', 'PSP_PI'],
  });

  test('package writes one zip; verify finds it whole (CLI), and an unsigned one can be required to be signed', async () => {
    const dir = latest(failing);
    const out = join(failing.reportDir, 'failing.zip');
    const packaged = await runCli(['package', dir, '-o', out]);
    assert.equal(packaged.exitCode, 0, packaged.stderr);
    assert.equal(statSync(out).mode & 0o777, 0o600, "the package is its user's alone, like the report");
    const verified = await runCli(['verify', out]);
    assert.equal(verified.exitCode, 0, verified.stdout + verified.stderr);
    assert.match(verified.stdout, /ok {7}\d+ files match their SHA-256 in MANIFEST\.sha256/);
    assert.match(verified.stdout, /ok {7}results\.json is valid against the results schema, version 4/);
    // A real run's verdict, with its deviation and attestations, folded again from its checks: the same.
    assert.match(verified.stdout, /ok {7}its verdict NON_CONFORMANT and its counts follow from the results inside \(recomputed\)/);
    assert.doesNotMatch(verified.stdout, /taken as stated/);
    assert.match(
      verified.stdout,
      /^Target: {7}reference-certify at https:\/\/127\.0\.0\.1:\d+ \(sandbox\): the embedded reference bank, faults injected: accept-missing-signature; it certifies no bank$/m,
    );
    assert.match(verified.stdout, /^INTEGRITY ONLY: .*failing\.zip is whole as packaged, but not signed: who made it is unproven/m);
    const required = await runCli(['verify', out, '--require-signature']);
    assert.equal(required.exitCode, 1);
    assert.match(required.stdout, /MANIFEST\.sha256\.jws: missing; the package is not signed/);
  });

  test('--sign: the TPP signs the manifest, verify names the signer and checks the certificate against --ca', async () => {
    const dir = conforming.reportDir;
    writeFileSync(join(dir, 'tpp.pem'), tpp.certificatePem);
    writeFileSync(join(dir, 'tpp-key.pem'), tpp.privateKeyPem, { mode: 0o600 });
    writeFileSync(join(dir, 'issuer.pem'), issuer.certificatePem);
    const out = join(dir, 'signed.zip');
    const packaged = await runCli([
      'package',
      latest(conforming),
      '--sign',
      '--key',
      join(dir, 'tpp-key.pem'),
      '--certificate',
      join(dir, 'tpp.pem'),
      '-o',
      out,
    ]);
    assert.equal(packaged.exitCode, 0, packaged.stderr);
    assert.match(packaged.stdout, /signed/);
    const verified = await runCli(['verify', out, '--ca', join(dir, 'issuer.pem'), '--require-signature']);
    assert.equal(verified.exitCode, 0, verified.stdout);
    assert.match(verified.stdout, /MANIFEST\.sha256 is signed \(PS256, [^)]+\) by .*organizationIdentifier=PSDNO-FSA-CERT1/);
    assert.match(verified.stdout, /^Verdict: {6}INCOMPLETE \(recomputed from the results inside: the same\)$/m);
    assert.match(verified.stdout, /^Trust anchor: CN=Certify test eIDAS issuer \(SHA-256 [0-9A-F:]+\), given with --ca$/m);
    assert.match(verified.stdout, /^Verified: /m);
    const otherCa = generateCertificateAuthority({ commonName: 'Someone else' });
    writeFileSync(join(dir, 'other.pem'), otherCa.certificatePem);
    const untrusted = await runCli(['verify', out, '--ca', join(dir, 'other.pem')]);
    assert.equal(untrusted.exitCode, 1);
    assert.match(untrusted.stdout, /was not issued by a CA given with --ca/);
    const zip = readFileSync(out);
    assert.ok(zip.includes(Buffer.from('index.pdf')), 'the printed report is in the package');
  });

  test('one byte changed anywhere: verify fails and names the file it belongs to', async () => {
    const { zip } = await createPackage(latest(failing), { privateKeyPem: tpp.privateKeyPem, certificatePem: tpp.certificatePem });
    const layout = zipLayout(zip);
    assert.equal(layout.at(-1)?.end, zip.length, 'the layout covers the whole zip');
    // Every part of every file (header, content, directory entry), the end record, and a spread of offsets.
    const offsets = new Set([
      ...layout.map((part) => part.start + Math.floor((part.end - part.start) / 2)),
      ...Array.from({ length: 24 }, (_, i) => Math.floor(((i + 0.5) * zip.length) / 24)),
    ]);
    for (const offset of offsets) {
      const part = layout.find((p) => offset >= p.start && offset < p.end);
      assert.ok(part, `offset ${offset}`);
      const changed = Uint8Array.from(zip);
      changed[offset] = (changed[offset] ?? 0) ^ 0x20;
      const verification = await verifyPackage(changed, { trustAnchorsPem: [issuer.certificatePem] });
      const said = verification.problems.map((p) => p.text).join('\n');
      assert.equal(verification.ok, false, `byte ${offset} (${part.what} of ${part.file ?? '-'}) changed unnoticed`);
      assert.ok(said.includes(part.file ?? "the zip's end record"), `byte ${offset} in ${part.what} of ${part.file ?? '-'}: ${said}`);
    }
    assert.ok((await verifyPackage(zip, { trustAnchorsPem: [issuer.certificatePem] })).ok, 'the unchanged package verifies');
  });

  test('through the CLI: a changed byte of results.json is named, and verify exits 1', async () => {
    const { zip } = await createPackage(latest(conforming));
    const content = zipLayout(zip).find((p) => p.file === 'results.json' && p.what === 'the content');
    assert.ok(content);
    const changed = Buffer.from(zip);
    changed[content.start + 100] = (changed[content.start + 100] ?? 0) ^ 0x01;
    const file = join(conforming.reportDir, 'changed.zip');
    writeFileSync(file, changed);
    const run = await runCli(['verify', file]);
    assert.equal(run.exitCode, 1);
    assert.match(run.stdout, /CHANGED {2}results\.json: changed \(its SHA-256 is not the one in the manifest\)/);
    assert.match(run.stdout, /NOT VERIFIED/);
  });
});

describe('replay', () => {
  test('re-sends a failed scenario freshly signed against the same target (its faults too) and shows both answers', async () => {
    const run = await runCli(['replay', latest(failing), 'SIG-04.a', '--targets', join(failing.reportDir, 'targets.yaml')]);
    assert.equal(run.exitCode, 0, run.stderr);
    assert.match(
      run.stdout,
      /Replaying SIG-04\.a \(FAIL in run \S+\) against reference-certify at https:\/\/127\.0\.0\.1:\d+, faults: accept-missing-signature/,
    );
    assert.match(
      run.stdout,
      /1\/1 GET https:\/\/127\.0\.0\.1:\d+\/v1\/accounts {2}\(malformed on purpose: no Signature header\)\n {2}then: HTTP 401 .*scaRedirect.*\n {2}now: {2}HTTP 401 .*scaRedirect/,
    );
    assert.match(run.stdout, /same status as in the run/);
  });

  test('a passing scenario has nothing to replay: a usage error that says why', async () => {
    const run = await runCli(['replay', latest(failing), 'SIG-03.a', '--targets', join(failing.reportDir, 'targets.yaml')]);
    assert.equal(run.exitCode, 2);
    assert.match(run.stderr, /SIG-03\.a passed, and a passing scenario keeps only a summary line per request/);
  });
});

describe('--pdf', () => {
  test("prints the report with the suite's Chromium", () => {
    const pdf = readFileSync(join(latest(conforming), 'index.pdf'));
    assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
    assert.ok(pdf.length > 10_000, `${pdf.length} bytes`);
  });
});
