/**
 * `verify` and `package` against packages made by hand: what "Verified" needs (a trust anchor), a package
 * edited and re-signed with a copied subject, a verdict that does not follow from the results inside, entry
 * names and sizes refused before anything is read or inflated, links and special files refused by `package`,
 * and what `verify` says it verified. Fast: no run, no browser.
 */
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { zipSync } from 'fflate';
import { generateCertificateAuthority, generateTppCertificate } from '../../lib/pki/index.js';
import { MANIFEST, MANIFEST_SIGNATURE, canonicalZip, createPackage, manifestOf } from '../../lib/report/certification-package.js';
import { signManifest, type SigningKey } from '../../lib/report/manifest-signing.js';
import { zipLayout } from '../../lib/report/package-zip.js';
import { catalogueVersion } from '../../lib/report/provenance.js';
import { assembleResults, tally } from '../../lib/report/results.js';
import { REQUIREMENT_STATUSES, type RunResults } from '../../lib/report/results-types.js';
import { runVerdict } from '../../lib/report/verdict.js';
import { verifyPackage, type Verification } from '../../lib/report/verify.js';
import { scratchDir } from '../support/scratch.js';
import { runInProcess } from '../support/in-process-cli.js';
import { sampleResults, testRecord } from './sample-results.js';

const ISSUER_NAME = 'Verify test eIDAS issuer';
const TPP = { organizationName: 'Certifying TPP', organizationIdentifier: 'PSDNO-FSA-CERT1', roles: ['PSP_AI' as const] };
const issuer = generateCertificateAuthority({ commonName: ISSUER_NAME });
const genuine = generateTppCertificate(issuer, TPP);
// A forger's own CA with the genuine issuer's name, and a certificate copying the genuine subject.
const forged = generateTppCertificate(generateCertificateAuthority({ commonName: ISSUER_NAME }), TPP);
const key = (pair: { privateKeyPem: string; certificatePem: string }): SigningKey => ({
  privateKeyPem: pair.privateKeyPem,
  certificatePem: pair.certificatePem,
});
const anchors = { trustAnchorsPem: [issuer.certificatePem] };

/** A package as `package` makes it, from files in memory (any names): manifest, signature, canonical zip. */
async function zipOf(files: Record<string, string | Uint8Array>, signingKey?: SigningKey): Promise<Uint8Array> {
  const entries = new Map(
    Object.entries(files).map(([name, content]) => [name, typeof content === 'string' ? Buffer.from(content) : content]),
  );
  const manifest = Buffer.from(manifestOf(entries));
  const all = new Map(entries).set(MANIFEST, manifest);
  if (signingKey) all.set(MANIFEST_SIGNATURE, Buffer.from(await signManifest(manifest, signingKey)));
  return canonicalZip(all);
}

const reportFiles = (results: RunResults = sampleResults()) => ({
  'results.json': JSON.stringify(results),
  'index.html': '<!doctype html><p>report</p>',
});
const texts = (verification: Verification) => verification.problems.map((p) => p.text).join('\n');

function writeScratch(name: string, bytes: Uint8Array | string): string {
  const file = join(scratchDir('xs2a-verify-test-'), name);
  writeFileSync(file, bytes);
  return file;
}

describe('verify: "Verified" needs a trust anchor (M3)', () => {
  test('a whole, signed package is Verified with --ca; without it, integrity only: the signer is not checked', async () => {
    const zip = await zipOf(reportFiles(), key(genuine));
    const withCa = await verifyPackage(zip, anchors);
    assert.equal(withCa.outcome, 'verified', texts(withCa));
    assert.equal(withCa.ok, true);
    const without = await verifyPackage(zip);
    assert.equal(without.outcome, 'integrity-only');
    assert.equal(without.ok, false, 'ok means Verified, and the signer is unproven');
    assert.match(without.notes.join('\n'), /signer not checked/);
  });

  test('edited, then re-signed with a self-made certificate copying the genuine subject: integrity only without --ca, refused with it', async () => {
    const edited = { ...sampleResults(), target: { ...sampleResults().target, baseUrl: 'https://another-bank' } };
    const zip = await zipOf(reportFiles(edited), key(forged));
    const without = await verifyPackage(zip);
    assert.equal(without.outcome, 'integrity-only');
    assert.equal(
      without.signer?.subject,
      (await verifyPackage(await zipOf(reportFiles(), key(genuine)))).signer?.subject,
      'the forger copied the subject',
    );
    const withCa = await verifyPackage(zip, anchors);
    assert.equal(withCa.outcome, 'not-verified');
    assert.match(
      texts(withCa),
      /MANIFEST\.sha256\.jws: the certificate \(issuer CN=Verify test eIDAS issuer\) was not issued by a CA given with --ca/,
    );

    const file = writeScratch('forged.zip', zip);
    const caFile = writeScratch('issuer.pem', issuer.certificatePem);
    const plain = await runInProcess(['verify', file]);
    assert.equal(plain.exitCode, 0, plain.stdout);
    assert.doesNotMatch(plain.stdout, /^Verified/m);
    assert.match(plain.stdout, /^INTEGRITY ONLY: .*forged\.zip is whole as packaged, but its signer is not checked \(no --ca given\)/m);
    const required = await runInProcess(['verify', file, '--require-signature']);
    assert.equal(required.exitCode, 1, required.stdout);
    assert.match(
      required.stdout,
      /SIGNER {3}the signer is unproven: --require-signature needs --ca FILE, the CA that issued the signer's certificate/,
    );
    assert.match(required.stdout, /^NOT VERIFIED: /m);
    const refused = await runInProcess(['verify', file, '--ca', caFile]);
    assert.equal(refused.exitCode, 1);
    assert.match(
      refused.stdout,
      /SIGNER {3}MANIFEST\.sha256\.jws: the certificate \(issuer CN=Verify test eIDAS issuer\) was not issued by a CA given with --ca/,
    );
  });
});

describe('verify: the verdict inside must follow from the results inside (M3)', () => {
  test('a CONFORMANT verdict over a failed requirement is refused, naming both verdicts', async () => {
    const forgedVerdict: RunResults = {
      ...sampleResults(),
      verdict: 'CONFORMANT',
      verdictReasons: [],
      missingForConformant: [],
      exitCode: 0,
    };
    const verification = await verifyPackage(await zipOf(reportFiles(forgedVerdict), key(genuine)), anchors);
    assert.equal(verification.outcome, 'not-verified');
    assert.match(
      texts(verification),
      /results\.json: states the verdict CONFORMANT \(exit 0\), but its results give NON_CONFORMANT \(exit 1\)/,
    );
    assert.equal(verification.report?.recomputedVerdict, 'NON_CONFORMANT');
    assert.equal(verification.report?.verdictFollows, false);
  });

  test('counts that do not follow from the records are refused', async () => {
    const results = sampleResults();
    const edited: RunResults = {
      ...results,
      summary: {
        ...results.summary,
        requirements: { ...results.summary.requirements, FAIL: 0, PASS: results.summary.requirements.PASS + 1 },
      },
    };
    const verification = await verifyPackage(await zipOf(reportFiles(edited), key(genuine)), anchors);
    assert.match(texts(verification), /results\.json: states 0 requirement\(s\) FAIL, its requirements hold 1/);
  });

  test('a requirement stated PASS whose checks failed is refused, the verdict being recomputed from the checks (same catalogue)', async () => {
    const sample = sampleResults();
    const honest = assembleResults({
      context: {
        runId: 'run-1',
        startedAt: sample.startedAt,
        tool: sample.tool,
        target: { ...sample.target, environment: 'staging', deviations: [], capabilities: [] },
      },
      provenance: { ...sample.provenance, catalogue: { ...sample.provenance.catalogue, version: catalogueVersion() }, deviations: [] },
      tests: [testRecord('SIG-03.a', 'PASS', ['SIG-03']), testRecord('SIG-04.a', 'FAIL', ['SIG-04'])],
      runErrors: [],
      selection: { tests: 2, scenarios: 2, specFiles: 1, reasons: [] },
      interrupted: false,
      finishedAt: new Date(sample.finishedAt),
    });
    assert.equal(honest.verdict, 'NON_CONFORMANT');
    assert.equal(
      (await verifyPackage(await zipOf(reportFiles(honest), key(genuine)), anchors)).outcome,
      'verified',
      'the honest report verifies',
    );
    // Edited consistently everywhere but in the checks: SIG-04 PASS, and the verdict the stated records give.
    const requirements = honest.requirements.map((r) =>
      r.id === 'SIG-04'
        ? {
            id: r.id,
            area: r.area,
            level: r.level,
            section: r.section,
            statement: r.statement,
            testedBy: r.testedBy,
            basis: r.basis,
            fillsGap: r.fillsGap,
            status: 'PASS' as const,
            tests: r.tests,
          }
        : r,
    );
    const judged = runVerdict(requirements, honest.tests, honest.filtered);
    const edited: RunResults = {
      ...honest,
      requirements,
      verdict: judged.verdict,
      verdictReasons: judged.reasons,
      missingForConformant: judged.missing,
      exitCode: judged.exitCode,
      summary: {
        ...honest.summary,
        requirements: tally(
          requirements.map((r) => r.status),
          REQUIREMENT_STATUSES,
        ),
      },
    };
    const verification = await verifyPackage(await zipOf(reportFiles(edited), key(genuine)), anchors);
    assert.equal(verification.outcome, 'not-verified');
    assert.match(texts(verification), /results\.json: SIG-04 is stated PASS, but the checks inside give FAIL/);
    assert.match(
      texts(verification),
      /results\.json: states the verdict INCOMPLETE \(exit 0\), but its results give NON_CONFORMANT \(exit 1\)/,
    );
  });
});

describe('verify: entries are checked before they are read (L3)', () => {
  for (const name of [
    '../escape.txt',
    'files/../../escape.txt',
    '/etc/escape.txt',
    'files\\escape.txt',
    'C:/escape.txt',
    'files/a\u0000b.txt',
    'files/a\u001b[2Jb.txt',
    'files//double.txt',
  ]) {
    test(`an entry named ${JSON.stringify(name)} is refused, even listed in a signed manifest`, async () => {
      const verification = await verifyPackage(await zipOf({ ...reportFiles(), [name]: 'x' }, key(genuine)), anchors);
      assert.equal(verification.outcome, 'not-verified');
      const refusal = verification.problems.find((p) => p.kind === 'refused');
      assert.ok(refusal?.text.startsWith(`${JSON.stringify(name)}: an unsafe name (`), texts(verification));
    });
  }

  test('a compressed entry is refused without inflating it (a package stores its files)', async () => {
    const files = reportFiles();
    const html = Buffer.alloc(8_000_000, 'a');
    const entries = { 'results.json': Buffer.from(files['results.json']), 'index.html': html };
    const manifest = Buffer.from(manifestOf(new Map(Object.entries(entries))));
    const zip = zipSync(
      {
        ...entries,
        [MANIFEST]: [manifest, { level: 0 }],
        [MANIFEST_SIGNATURE]: [Buffer.from(await signManifest(manifest, key(genuine))), { level: 0 }],
      },
      { level: 9 },
    );
    assert.ok(zip.length < 100_000, `${zip.length} bytes hold 8 MB`);
    const verification = await verifyPackage(zip, anchors);
    assert.equal(verification.outcome, 'not-verified');
    assert.match(
      texts(verification),
      /"index\.html": stored compressed \(method 8\), which a package never is: refused without inflating it/,
    );
  });

  test('an entry that declares more than an entry may hold is refused before it is read', async () => {
    const zip = Buffer.from(await zipOf(reportFiles(), key(genuine)));
    // The directory entry of index.html: its two sizes say 3 GB.
    const at = zipLayout(zip).find((part) => part.what === 'the directory entry' && part.file === 'index.html')?.start ?? -1;
    zip.writeUInt32LE(3_000_000_000, at + 20);
    zip.writeUInt32LE(3_000_000_000, at + 24);
    const verification = await verifyPackage(zip, anchors);
    assert.equal(verification.outcome, 'not-verified');
    assert.match(texts(verification), /"index\.html": declares 3000000000 bytes, over the 268435456 an entry may hold: refused, not read/);
  });
});

describe("package: only the report's own files (L3)", () => {
  function reportDir(): string {
    const dir = scratchDir('xs2a-package-test-');
    writeFileSync(join(dir, 'results.json'), JSON.stringify(sampleResults()));
    mkdirSync(join(dir, 'files'));
    return dir;
  }

  test('a symbolic link is refused, named, not followed', async () => {
    const dir = reportDir();
    const secret = writeScratch('secret.txt', 'not part of the report');
    symlinkSync(secret, join(dir, 'files', 'shot.png'));
    await assert.rejects(createPackage(dir), /files\/shot\.png is a symbolic link: a package holds the report's own files only/);
    const run = await runInProcess(['package', dir, '-o', join(dir, '..', 'out.zip')]);
    assert.equal(run.exitCode, 2);
    assert.match(run.stderr, /package: files\/shot\.png is a symbolic link/);
  });

  test('a socket (not a regular file or folder) is refused, named', async () => {
    const dir = reportDir();
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(join(dir, 'files', 'control.sock'), resolve));
    try {
      await assert.rejects(createPackage(dir), /files\/control\.sock is not a regular file or folder \(a socket\)/);
    } finally {
      server.close();
    }
  });
});

describe('verify says what it verified', () => {
  test('the verdict with its recomputation, the target (and whether it was the embedded bank), the tool, the run, the signer and the trust anchor', async () => {
    const zip = await zipOf(reportFiles(), key(genuine));
    const verification = await verifyPackage(zip, anchors);
    assert.deepEqual(verification.report, {
      kind: 'bank-conformance',
      runId: 'run-1',
      verdict: 'NON_CONFORMANT',
      recomputedVerdict: 'NON_CONFORMANT',
      verdictFollows: true,
      target: { name: 'staging', environment: 'staging', baseUrl: 'https://bank', embedded: false, faults: [] },
      tool: { name: 'xs2a-conformance', version: '0.0.0', commit: 'a'.repeat(40), dirty: false },
      startedAt: '2026-11-21T00:00:00.000Z',
      finishedAt: '2026-11-21T00:00:01.000Z',
    });
    assert.match(verification.signer?.subject ?? '', /organizationIdentifier=PSDNO-FSA-CERT1/);
    assert.equal(verification.trustAnchor?.subject, `CN=${ISSUER_NAME}`);

    const file = writeScratch('certification.zip', zip);
    const caFile = writeScratch('issuer.pem', issuer.certificatePem);
    const run = await runInProcess(['verify', file, '--ca', caFile]);
    assert.equal(run.exitCode, 0, run.stdout);
    assert.match(run.stdout, /^Verdict: {6}NON_CONFORMANT \(recomputed from the results inside: the same\)$/m);
    assert.match(run.stdout, /^Target: {7}staging at https:\/\/bank \(staging\): a bank's interface, not the embedded reference bank$/m);
    assert.match(run.stdout, /^Tool: {9}xs2a-conformance 0\.0\.0, commit a{40}$/m);
    assert.match(run.stdout, /^Run: {10}run-1, 2026-11-21T00:00:00\.000Z to 2026-11-21T00:00:01\.000Z$/m);
    assert.match(
      run.stdout,
      /^Signed by: {4}.*organizationIdentifier=PSDNO-FSA-CERT1.* \(PS256, at \d{4}-\d\d-\d\dT[\d:]+Z; certificate SHA-256 [0-9A-F:]+\)$/m,
    );
    assert.match(run.stdout, /^Trust anchor: CN=Verify test eIDAS issuer \(SHA-256 [0-9A-F:]+\), given with --ca$/m);
    assert.match(run.stdout, /^Verified: .*certification\.zip/m);
    const json = JSON.parse((await runInProcess(['verify', file, '--ca', caFile, '--json'])).stdout) as Verification;
    assert.deepEqual(json.report, verification.report);
    assert.equal(json.outcome, 'verified');
    assert.equal(json.trustAnchor?.subject, `CN=${ISSUER_NAME}`);
  });

  test('a report of the embedded reference bank says so', async () => {
    const results = sampleResults();
    const embedded: RunResults = {
      ...results,
      target: {
        ...results.target,
        name: 'reference',
        environment: 'sandbox',
        baseUrl: 'https://127.0.0.1:4321',
        embedded: true,
        faults: ['accept-missing-signature'],
      },
    };
    const run = await runInProcess(['verify', writeScratch('embedded.zip', await zipOf(reportFiles(embedded)))]);
    assert.match(
      run.stdout,
      /^Target: {7}reference at https:\/\/127\.0\.0\.1:4321 \(sandbox\): the embedded reference bank, faults injected: accept-missing-signature; it certifies no bank$/m,
    );
    assert.match(run.stdout, /^Signed by: {4}nobody \(the package is not signed\)$/m);
    assert.match(run.stdout, /^INTEGRITY ONLY: .*embedded\.zip is whole as packaged, but not signed: who made it is unproven/m);
  });
});
