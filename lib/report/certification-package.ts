/**
 * The certification package: one zip with a report folder whole (results.json, index.html, junit.xml,
 * index.pdf when printed, every evidence file), a manifest of SHA-256 hashes in `sha256sum` form (so
 * `sha256sum -c MANIFEST.sha256` checks it without this tool), and, with `--sign`, a detached JWS of the
 * manifest made with the TPP's key, its certificate inside (`x5c`).
 *
 * The zip is canonical: entries stored (not compressed), sorted by name, with one fixed time and no extra
 * fields, so its bytes follow from its files alone. `verify` rebuilds it from what it reads and compares
 * byte for byte: a byte changed anywhere, in a file, a header or the directory, is found and named.
 * Zip through fflate, signing through jose (see manifest-signing.ts).
 *
 * Only the report's own files go in: a link (whatever it points to) or anything that is not a regular file
 * or folder is refused by name, as is a name `verify` would refuse (lib/report/report-paths.ts).
 */
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { zipSync, type Zippable } from 'fflate';
import { sha256 } from './provenance.js';
import { signManifest, type SigningKey } from './manifest-signing.js';
import { kindOf, unsafeReportPath } from './report-paths.js';

export const MANIFEST = 'MANIFEST.sha256';
export const MANIFEST_SIGNATURE = 'MANIFEST.sha256.jws';

/**
 * The most an entry, and a package, may hold: `verify` refuses more before reading it (a report is a few MB,
 * a Playwright trace tens), so a package cannot make it allocate what its size does not show.
 */
export const ENTRY_LIMIT = 256 * 1024 * 1024;
export const PACKAGE_LIMIT = 1024 * 1024 * 1024;

/** Every entry's time: 1 January 2000, so the zip's bytes do not depend on when it was made. */
const FIXED_TIME = new Date('2000-01-01T00:00:00');

/** The report folder's files (relative, `/`-separated), the manifest and its signature left out. */
export function reportFiles(reportDir: string): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  let total = 0;
  // readdir does not descend into a linked folder; the link itself is refused below.
  for (const name of readdirSync(reportDir, { recursive: true, encoding: 'utf8' }).sort()) {
    const path = join(reportDir, name);
    const entry = relative(reportDir, path).split(sep).join('/');
    const stat = lstatSync(path);
    if (stat.isSymbolicLink())
      throw new Error(`${entry} is a symbolic link: a package holds the report's own files only (copy the file in, or remove the link)`);
    if (stat.isDirectory()) continue;
    if (!stat.isFile())
      throw new Error(`${entry} is not a regular file or folder (${kindOf(stat)}): a package holds the report's own files only`);
    const unsafe = unsafeReportPath(entry);
    if (unsafe) throw new Error(`${JSON.stringify(entry)} cannot be named in a package: ${unsafe}`);
    total += stat.size;
    if (stat.size > ENTRY_LIMIT || total > PACKAGE_LIMIT)
      throw new Error(`${entry}: the report is larger than a package may hold (${ENTRY_LIMIT} bytes a file, ${PACKAGE_LIMIT} in all)`);
    if (entry === MANIFEST || entry === MANIFEST_SIGNATURE) continue;
    files.set(entry, readFileSync(path));
  }
  return files;
}

/** `sha256sum` lines, sorted by name. */
export function manifestOf(files: ReadonlyMap<string, Uint8Array>): string {
  return [...files]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, bytes]) => `${sha256(bytes)}  ${name}\n`)
    .join('');
}

/** The canonical zip of these entries (see above): the same entries always give the same bytes. */
export function canonicalZip(entries: ReadonlyMap<string, Uint8Array>): Uint8Array {
  const zippable: Zippable = {};
  for (const name of [...entries.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
    zippable[name] = [entries.get(name) ?? new Uint8Array(), { level: 0, mtime: FIXED_TIME }];
  }
  return zipSync(zippable, { level: 0, mtime: FIXED_TIME });
}

export interface PackageResult {
  zip: Uint8Array;
  files: number;
  signed: boolean;
}

export async function createPackage(reportDir: string, signingKey?: SigningKey): Promise<PackageResult> {
  const files = reportFiles(reportDir);
  if (!files.has('results.json')) throw new Error(`${reportDir} holds no results.json: not a report folder`);
  const manifest = Buffer.from(manifestOf(files));
  const entries = new Map(files);
  entries.set(MANIFEST, manifest);
  if (signingKey) entries.set(MANIFEST_SIGNATURE, Buffer.from(await signManifest(manifest, signingKey)));
  return { zip: canonicalZip(entries), files: files.size, signed: signingKey !== undefined };
}
