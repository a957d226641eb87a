/**
 * `verify`: is a certification package what `package` made, and who made it? Each check names what failed:
 * - every entry is checked from the zip's headers before it is read (lib/report/package-zip.ts): an unsafe
 *   name, a compressed entry or one too large is refused, nothing is ever inflated;
 * - the zip is canonical (rebuilt from its own entries, byte for byte the same): a byte changed anywhere
 *   (content, a header, the directory) is located and the file it belongs to named;
 * - every file matches its SHA-256 in the manifest, and none is missing or added;
 * - the manifest's signature verifies with the certificate it carries, valid when it signed, issued by a CA
 *   given with `--ca`;
 * - results.json is valid against the published schema of its version, and its verdict and counts follow
 *   from the results it holds (lib/report/results-recheck.ts).
 *
 * The outcome: `verified` needs all of it, a trust anchor included; a package found whole whose signer was not
 * checked against one (no `--ca`, or not signed) is `integrity-only`: anyone can sign with a certificate that
 * copies a subject, so without an anchor the signature proves nothing about who made the package.
 */
import { crc32 } from 'node:zlib';
import { resultsSchemaErrors } from './results-schema.js';
import { MANIFEST, MANIFEST_SIGNATURE, PACKAGE_LIMIT, canonicalZip } from './certification-package.js';
import { locate, readPackageEntries, recordedCrcs, zipLayout } from './package-zip.js';
import { sha256 } from './provenance.js';
import { RESULTS_SCHEMA_VERSION } from './results.js';
import { recheckResults } from './results-recheck.js';
import type { RunResults, RunVerdict } from './results-types.js';
import { checkManifestSignature, type SignatureCheck } from './manifest-signing.js';

export interface VerifyOptions {
  /** PEM certificates of the CAs trusted to issue the signing certificate. */
  trustAnchorsPem?: string[];
  /** An unsigned package fails, and so does one whose signer cannot be checked (no trust anchor). */
  requireSignature?: boolean;
  now?: Date;
}

/**
 * `changed`: the package is not as made; `refused`: an entry was not read; `signer`: who signed is not shown; `results`: results.json does
 * not hold.
 */
export type ProblemKind = 'changed' | 'refused' | 'signer' | 'results';

export interface Problem {
  kind: ProblemKind;
  /** What failed, naming the file or the part of the zip. */
  text: string;
}

/** What the report inside is of: its verdict (and whether it follows from its results), target, tool and run. */
export interface ReportFacts {
  kind: RunResults['kind'];
  runId: string;
  verdict: RunVerdict;
  recomputedVerdict: RunVerdict;
  verdictFollows: boolean;
  target: Pick<RunResults['target'], 'name' | 'environment' | 'baseUrl' | 'embedded' | 'faults'>;
  tool: RunResults['provenance']['tool'];
  startedAt: string;
  finishedAt: string;
}

export interface Verification {
  outcome: 'verified' | 'integrity-only' | 'not-verified';
  /** Verified: whole, its results holding, signed by a certificate a trust anchor issued. */
  ok: boolean;
  /** What held, one line each. */
  passed: string[];
  problems: Problem[];
  notes: string[];
  report?: ReportFacts;
  signer?: SignatureCheck['signer'];
  trustAnchor?: SignatureCheck['trustAnchor'];
}

/** A file too large to be a package: refused before it is read. */
export function oversizedPackage(size: number): Verification | undefined {
  if (size <= PACKAGE_LIMIT) return undefined;
  return {
    outcome: 'not-verified',
    ok: false,
    passed: [],
    problems: [{ kind: 'refused', text: `the file is ${size} bytes, over the ${PACKAGE_LIMIT} a package may hold: refused, not read` }],
    notes: [],
  };
}

export async function verifyPackage(zip: Uint8Array, options: VerifyOptions = {}): Promise<Verification> {
  const out: Verification = { outcome: 'not-verified', ok: false, passed: [], problems: [], notes: [] };
  const problem = (kind: ProblemKind, text: string) => out.problems.push({ kind, text });
  const read = readPackageEntries(zip);
  for (const { name, why } of read.refused) problem('refused', `${name === undefined ? 'the zip' : JSON.stringify(name)}: ${why}`);
  for (const damage of read.damage) problem('changed', damage);
  const entries = read.entries;
  if (!entries) return out;

  // Which file's bytes changed, whatever the manifest says: the zip recorded a CRC-32 of each when it was made.
  const contentChanged = recordedCrcs(zip).filter(({ file, crc }) => {
    const bytes = entries.get(file);
    return bytes !== undefined && crc32(bytes) !== crc;
  });
  // Without its refused entries the zip cannot be rebuilt as it is; the refusals above already say it is not as made.
  if (read.refused.length === 0) {
    const rebuilt = canonicalZip(entries);
    const difference = firstDifference(zip, rebuilt);
    const part = difference === undefined ? undefined : zipLayout(rebuilt).find((p) => difference >= p.start && difference < p.end);
    if (difference === undefined) out.passed.push(`the zip is canonical (${entries.size} entries)`);
    // A changed content makes its own header's CRC-32 differ in the rebuilt zip: that file is named below, not its header.
    else if (!(part?.what === 'the local header' && contentChanged.some((c) => c.file === part.file))) {
      problem('changed', `byte ${difference} differs from the package as made: ${locate(rebuilt, difference)}`);
    }
  }
  for (const { file } of contentChanged)
    problem('changed', `${file}: its content was changed after packaging (it no longer matches the CRC-32 the zip recorded for it)`);

  const manifest = entries.get(MANIFEST);
  const manifestChanged = contentChanged.some((c) => c.file === MANIFEST);
  const refusedNames = new Set(read.refused.map((r) => r.name));
  if (!manifest) problem('changed', `${MANIFEST}: missing, so no file can be checked`);
  else checkManifest(Buffer.from(manifest).toString('utf8'), entries, refusedNames, out, manifestChanged);

  const signature = entries.get(MANIFEST_SIGNATURE);
  const anchors = options.trustAnchorsPem ?? [];
  if (signature && manifest) {
    const check = await checkManifestSignature(manifest, Buffer.from(signature).toString('utf8'), anchors, options.now);
    if (check.signer) out.signer = check.signer;
    if (check.trustAnchor) out.trustAnchor = check.trustAnchor;
    if (check.valid)
      out.passed.push(
        `${MANIFEST} is signed (${check.signer?.algorithm ?? '?'}, ${check.signer?.signedAt ?? '?'}) by ${check.signer?.subject ?? '?'}`,
      );
    if (check.valid && check.trustAnchor)
      out.passed.push(`the signing certificate was issued by ${check.trustAnchor.subject}, given with --ca`);
    for (const p of check.problems) problem('signer', `${MANIFEST_SIGNATURE}: ${p}`);
    out.notes.push(...check.notes);
  } else if (options.requireSignature) {
    problem('signer', `${MANIFEST_SIGNATURE}: missing; the package is not signed`);
  } else {
    out.notes.push('the package is not signed: its hashes show it is whole, not who made it');
  }
  // Anyone can make a certificate with any subject: without a trust anchor the signature shows no one.
  if (options.requireSignature && anchors.length === 0) {
    problem(
      'signer',
      "the signer is unproven: --require-signature needs --ca FILE, the CA that issued the signer's certificate (anyone can make a certificate with any subject)",
    );
  } else if (signature && anchors.length === 0) {
    out.notes.push(
      "signer not checked: no trust anchor given (--ca FILE, the CA that issued the signer's certificate); anyone can make a certificate with this subject",
    );
  }

  checkResults(entries.get('results.json'), refusedNames.has('results.json'), out);
  const whole = out.problems.length === 0;
  out.outcome = !whole ? 'not-verified' : out.trustAnchor ? 'verified' : 'integrity-only';
  out.ok = out.outcome === 'verified';
  return out;
}

function checkManifest(
  text: string,
  entries: ReadonlyMap<string, Uint8Array>,
  refused: ReadonlySet<string | undefined>,
  out: Verification,
  manifestChanged: boolean,
): void {
  const problem = (line: string) => out.problems.push({ kind: 'changed', text: line });
  const listed = new Map<string, string>();
  for (const [i, line] of text.split('\n').entries()) {
    if (line === '') continue;
    const match = /^([0-9a-f]{64}) {2}(.+)$/.exec(line);
    if (!match?.[1] || !match[2]) {
      problem(`${MANIFEST}: line ${i + 1} is not "<sha256>  <file>"`);
      continue;
    }
    listed.set(match[2], match[1]);
  }
  let matching = 0;
  for (const [name, hash] of listed) {
    const bytes = entries.get(name);
    // A refused entry was named above; "missing" would say less.
    if (!bytes) {
      if (!refused.has(name)) problem(`${name}: listed in the manifest, missing from the package`);
    } else if (sha256(bytes) !== hash)
      problem(
        manifestChanged
          ? `${name}: its SHA-256 is not the one the changed manifest lists`
          : `${name}: changed (its SHA-256 is not the one in the manifest)`,
      );
    else matching++;
  }
  for (const name of entries.keys()) {
    if (name !== MANIFEST && name !== MANIFEST_SIGNATURE && !listed.has(name))
      problem(`${name}: in the package but not in the manifest (added)`);
  }
  if (matching === listed.size) out.passed.push(`${matching} files match their SHA-256 in ${MANIFEST}`);
}

function checkResults(bytes: Uint8Array | undefined, refused: boolean, out: Verification): void {
  const problem = (text: string) => out.problems.push({ kind: 'results', text: `results.json: ${text}` });
  if (!bytes) {
    if (!refused) problem('missing');
    return;
  }
  let results: { schemaVersion?: unknown };
  try {
    results = JSON.parse(Buffer.from(bytes).toString('utf8')) as { schemaVersion?: unknown };
  } catch (error) {
    problem(`not JSON (${(error as Error).message})`);
    return;
  }
  if (results.schemaVersion !== RESULTS_SCHEMA_VERSION) {
    problem(`schema version ${String(results.schemaVersion)}, this tool checks version ${RESULTS_SCHEMA_VERSION}`);
    return;
  }
  const errors = resultsSchemaErrors(results);
  if (errors.length > 0) {
    errors.forEach(problem);
    return;
  }
  out.passed.push(`results.json is valid against the results schema, version ${RESULTS_SCHEMA_VERSION}`);
  const valid = results as RunResults;
  const recheck = recheckResults(valid);
  recheck.problems.forEach(problem);
  out.notes.push(...recheck.notes);
  const follows = recheck.problems.length === 0;
  if (follows) out.passed.push(`its verdict ${valid.verdict} and its counts follow from the results inside (recomputed)`);
  out.report = {
    kind: valid.kind,
    runId: valid.runId,
    verdict: valid.verdict,
    recomputedVerdict: recheck.verdict,
    verdictFollows: follows,
    target: {
      name: valid.target.name,
      environment: valid.target.environment,
      baseUrl: valid.target.baseUrl,
      embedded: valid.target.embedded,
      faults: valid.target.faults,
    },
    tool: valid.provenance.tool,
    startedAt: valid.startedAt,
    finishedAt: valid.finishedAt,
  };
}

function firstDifference(a: Uint8Array, b: Uint8Array): number | undefined {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? undefined : length;
}
