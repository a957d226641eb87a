/**
 * `verify`: is a certification package what `package` made? Four checks, each naming what changed:
 * - the zip is canonical (rebuilt from its own entries, byte for byte the same): a byte changed anywhere
 *   (content, a header, the directory) is located and the file it belongs to named;
 * - every file matches its SHA-256 in the manifest, and none is missing or added;
 * - the manifest's signature verifies with the certificate it carries, valid when it signed (and issued by a
 *   trusted CA, given `--ca`);
 * - results.json is valid against the published schema of its version.
 */
import { crc32 } from 'node:zlib';
import { unzipSync } from 'fflate';
import { resultsSchemaErrors } from './results-schema.js';
import { MANIFEST, MANIFEST_SIGNATURE, canonicalZip } from './certification-package.js';
import { sha256 } from './provenance.js';
import { RESULTS_SCHEMA_VERSION } from './results.js';
import { checkManifestSignature, type SignatureCheck } from './manifest-signing.js';

export interface VerifyOptions {
  /** PEM certificates of the CAs trusted to issue the signing certificate. */
  trustAnchorsPem?: string[];
  /** An unsigned package fails. */
  requireSignature?: boolean;
  now?: Date;
}

export interface Verification {
  ok: boolean;
  /** What held, one line each. */
  passed: string[];
  /** What failed, each naming the file or the part of the zip. */
  problems: string[];
  notes: string[];
  signer?: SignatureCheck['signer'];
}

export async function verifyPackage(zip: Uint8Array, options: VerifyOptions = {}): Promise<Verification> {
  const out: Verification = { ok: false, passed: [], problems: [], notes: [] };
  const entries = readEntries(zip, out);
  if (!entries) return out;

  // Which file's bytes changed, whatever the manifest says: the zip recorded a CRC-32 of each when it was made.
  const contentChanged = recordedCrcs(zip).filter(({ file, crc }) => {
    const bytes = entries.get(file);
    return bytes !== undefined && crc32(bytes) !== crc;
  });
  const rebuilt = canonicalZip(entries);
  const difference = firstDifference(zip, rebuilt);
  const part = difference === undefined ? undefined : zipLayout(rebuilt).find((p) => difference >= p.start && difference < p.end);
  if (difference === undefined) out.passed.push(`the zip is canonical (${entries.size} entries)`);
  // A changed content makes its own header's CRC-32 differ in the rebuilt zip: that file is named below, not its header.
  else if (!(part?.what === 'the local header' && contentChanged.some((c) => c.file === part.file))) {
    out.problems.push(`byte ${difference} differs from the package as made: ${locate(rebuilt, difference)}`);
  }
  for (const { file } of contentChanged) out.problems.push(`${file}: its content was changed after packaging (it no longer matches the CRC-32 the zip recorded for it)`);

  const manifest = entries.get(MANIFEST);
  const manifestChanged = out.problems.some((p) => p.startsWith(`${MANIFEST}: its content was changed`));
  if (!manifest) out.problems.push(`${MANIFEST}: missing, so no file can be checked`);
  else checkManifest(Buffer.from(manifest).toString('utf8'), entries, out, manifestChanged);

  const signature = entries.get(MANIFEST_SIGNATURE);
  if (signature && manifest) {
    const check = await checkManifestSignature(manifest, Buffer.from(signature).toString('utf8'), options.trustAnchorsPem, options.now);
    if (check.signer) out.signer = check.signer;
    if (check.valid) out.passed.push(`${MANIFEST} is signed (${check.signer?.algorithm ?? '?'}, ${check.signer?.signedAt ?? '?'}) by ${check.signer?.subject ?? '?'}`);
    out.problems.push(...check.problems.map((p) => `${MANIFEST_SIGNATURE}: ${p}`));
    out.notes.push(...check.notes);
  } else if (options.requireSignature) {
    out.problems.push(`${MANIFEST_SIGNATURE}: missing; the package is not signed`);
  } else {
    out.notes.push('the package is not signed: its hashes show it is whole, not who made it');
  }

  checkResults(entries.get('results.json'), out);
  out.ok = out.problems.length === 0;
  return out;
}

/** The entries by name, from the zip's directory; from its local headers in order when the directory is damaged. */
function readEntries(zip: Uint8Array, out: Verification): Map<string, Uint8Array> | undefined {
  try {
    return new Map(Object.entries(unzipSync(zip)));
  } catch (error) {
    try {
      const entries = localEntries(zip);
      out.problems.push(`the zip's directory cannot be read (${(error as Error).message}); its files were read from their local headers`);
      return entries;
    } catch {
      out.problems.push(`not a readable zip (${(error as Error).message})`);
      return undefined;
    }
  }
}

function checkManifest(text: string, entries: ReadonlyMap<string, Uint8Array>, out: Verification, manifestChanged: boolean): void {
  const listed = new Map<string, string>();
  for (const [i, line] of text.split('\n').entries()) {
    if (line === '') continue;
    const match = /^([0-9a-f]{64}) {2}(.+)$/.exec(line);
    if (!match?.[1] || !match[2]) {
      out.problems.push(`${MANIFEST}: line ${i + 1} is not "<sha256>  <file>"`);
      continue;
    }
    listed.set(match[2], match[1]);
  }
  let matching = 0;
  for (const [name, hash] of listed) {
    const bytes = entries.get(name);
    if (!bytes) out.problems.push(`${name}: listed in the manifest, missing from the package`);
    else if (sha256(bytes) !== hash) out.problems.push(manifestChanged ? `${name}: its SHA-256 is not the one the changed manifest lists` : `${name}: changed (its SHA-256 is not the one in the manifest)`);
    else matching++;
  }
  for (const name of entries.keys()) {
    if (name !== MANIFEST && name !== MANIFEST_SIGNATURE && !listed.has(name)) out.problems.push(`${name}: in the package but not in the manifest (added)`);
  }
  if (matching === listed.size) out.passed.push(`${matching} files match their SHA-256 in ${MANIFEST}`);
}

function checkResults(bytes: Uint8Array | undefined, out: Verification): void {
  if (!bytes) {
    out.problems.push('results.json: missing');
    return;
  }
  let results: { schemaVersion?: unknown };
  try {
    results = JSON.parse(Buffer.from(bytes).toString('utf8')) as { schemaVersion?: unknown };
  } catch (error) {
    out.problems.push(`results.json: not JSON (${(error as Error).message})`);
    return;
  }
  if (results.schemaVersion !== RESULTS_SCHEMA_VERSION) {
    out.problems.push(`results.json: schema version ${String(results.schemaVersion)}, this tool checks version ${RESULTS_SCHEMA_VERSION}`);
    return;
  }
  const errors = resultsSchemaErrors(results);
  if (errors.length === 0) out.passed.push(`results.json is valid against the results schema, version ${RESULTS_SCHEMA_VERSION}`);
  else out.problems.push(...errors.map((e) => `results.json: ${e}`));
}

function firstDifference(a: Uint8Array, b: Uint8Array): number | undefined {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? undefined : length;
}

/** The part of a canonical zip an offset falls in, naming the file. */
export function locate(zip: Uint8Array, offset: number): string {
  for (const part of zipLayout(zip)) {
    if (offset >= part.start && offset < part.end) return `${part.what}${part.file ? ` of ${part.file}` : ''}`;
  }
  return 'bytes after the end of the zip';
}

export interface ZipPart {
  start: number;
  end: number;
  what: 'the local header' | 'the content' | 'the directory entry' | "the zip's end record";
  file?: string;
}

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_RECORD = 0x06054b50;

/** Where each file's header, content and directory entry lie in a zip whose local headers follow one another. */
export function zipLayout(zip: Uint8Array): ZipPart[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const text = (start: number, length: number) => Buffer.from(zip.subarray(start, start + length)).toString('utf8');
  const parts: ZipPart[] = [];
  let at = 0;
  while (at + 30 <= zip.length && view.getUint32(at, true) === LOCAL_HEADER) {
    const nameLength = view.getUint16(at + 26, true);
    const headerEnd = at + 30 + nameLength + view.getUint16(at + 28, true);
    const file = text(at + 30, nameLength);
    const end = headerEnd + view.getUint32(at + 18, true);
    parts.push({ start: at, end: headerEnd, what: 'the local header', file }, { start: headerEnd, end, what: 'the content', file });
    at = end;
  }
  while (at + 46 <= zip.length && view.getUint32(at, true) === CENTRAL_HEADER) {
    const nameLength = view.getUint16(at + 28, true);
    const end = at + 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    parts.push({ start: at, end, what: 'the directory entry', file: text(at + 46, nameLength) });
    at = end;
  }
  if (at + 22 <= zip.length && view.getUint32(at, true) === END_RECORD) parts.push({ start: at, end: at + 22 + view.getUint16(at + 20, true), what: "the zip's end record" });
  return parts;
}

/** The CRC-32 the zip's directory records for each file. */
function recordedCrcs(zip: Uint8Array): { file: string; crc: number }[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  return zipLayout(zip)
    .filter((part) => part.what === 'the directory entry' && part.file)
    .map((part) => ({ file: part.file ?? '', crc: view.getUint32(part.start + 16, true) }));
}

/** The files of a zip read from its local headers in order (stored entries): for a zip whose directory is damaged. */
function localEntries(zip: Uint8Array): Map<string, Uint8Array> {
  const entries = new Map<string, Uint8Array>();
  for (const part of zipLayout(zip)) if (part.what === 'the content' && part.file) entries.set(part.file, zip.slice(part.start, part.end));
  if (entries.size === 0) throw new Error('no local file header');
  return entries;
}
