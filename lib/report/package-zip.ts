/**
 * Reading a certification package's zip without trusting it. A package stores its entries uncompressed
 * (certification-package.ts), so nothing is ever inflated: each entry's name, method and sizes are read from
 * the zip's headers and checked first, and an entry with an unsafe name (lib/report/report-paths.ts), a
 * compressed one, or one declaring more than a package may hold is refused before a byte of it is read.
 * Read entries are views into the zip's own bytes. Also where each part of a zip lies, so that a changed
 * byte can be named.
 */
import { ENTRY_LIMIT, PACKAGE_LIMIT } from './certification-package.js';
import { unsafeReportPath } from './report-paths.js';

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_RECORD = 0x06054b50;
/** The zip's end record is its last 22 bytes and a comment of up to 65535. */
const END_SEARCH = 22 + 0xffff;

/** One entry as the zip's headers declare it (nothing of it read yet). */
interface DeclaredEntry {
  name: string;
  method: number;
  storedSize: number;
  size: number;
  /** Where its local header starts. */
  localHeader: number;
}

export interface PackageEntries {
  /** The entries read (never a refused one), by name; undefined when the zip cannot be read at all. */
  entries?: Map<string, Uint8Array>;
  /** Entries refused unread, with why (no name: the zip's entries as a whole). */
  refused: { name?: string; why: string }[];
  /** What is wrong with the zip's structure (a damaged directory, an entry not where it is said to be). */
  damage: string[];
}

/** The entries of a package's zip, from its directory; from its local headers in order when the directory is damaged. */
export function readPackageEntries(zip: Uint8Array): PackageEntries {
  const out: PackageEntries = { refused: [], damage: [] };
  let declared: DeclaredEntry[];
  try {
    declared = directoryEntries(zip);
  } catch (error) {
    declared = localHeaderEntries(zip);
    if (declared.length === 0) {
      out.damage.push(`not a readable zip (${(error as Error).message})`);
      return out;
    }
    out.damage.push(`the zip's directory cannot be read (${(error as Error).message}); its files were read from their local headers`);
  }
  const accepted = declared.filter((entry) => {
    const why = refusal(entry);
    if (why) out.refused.push({ name: entry.name, why });
    return why === undefined;
  });
  // Stored entries cannot hold more than the zip's own bytes: more means entries that overlap.
  const total = accepted.reduce((sum, entry) => sum + entry.storedSize, 0);
  if (total > PACKAGE_LIMIT || total > zip.length) {
    out.refused.push({
      why: `the entries declare ${total} bytes in all, more than ${total > PACKAGE_LIMIT ? `the ${PACKAGE_LIMIT} a package may hold` : `the zip's ${zip.length} bytes (entries that overlap)`}: refused, none read`,
    });
    return out;
  }
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const entries = new Map<string, Uint8Array>();
  for (const entry of accepted) {
    const at = entry.localHeader;
    if (at + 30 > zip.length || view.getUint32(at, true) !== LOCAL_HEADER) {
      out.damage.push(`${entry.name}: the directory puts its local header at byte ${at}, where there is none`);
      continue;
    }
    const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
    if (start + entry.storedSize > zip.length) {
      out.damage.push(`${entry.name}: its content runs past the end of the zip`);
      continue;
    }
    if (entries.has(entry.name)) {
      out.damage.push(`${entry.name}: in the zip twice`);
      continue;
    }
    entries.set(entry.name, zip.subarray(start, start + entry.storedSize));
  }
  out.entries = entries;
  return out;
}

/** Why an entry is not read: its name, its method or its size; undefined when it may be. */
function refusal(entry: DeclaredEntry): string | undefined {
  const unsafe = unsafeReportPath(entry.name);
  if (unsafe) return `an unsafe name (${unsafe}): refused, not read`;
  if (entry.method !== 0) return `stored compressed (method ${entry.method}), which a package never is: refused without inflating it`;
  if (entry.size > ENTRY_LIMIT || entry.storedSize > ENTRY_LIMIT)
    return `declares ${Math.max(entry.size, entry.storedSize)} bytes, over the ${ENTRY_LIMIT} an entry may hold: refused, not read`;
  if (entry.size !== entry.storedSize) return `declares ${entry.storedSize} bytes stored and ${entry.size} unpacked: refused, not read`;
  return undefined;
}

/** The entries the zip's directory lists; throws when the directory cannot be read. */
function directoryEntries(zip: Uint8Array): DeclaredEntry[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  let end = zip.length - 22;
  while (end >= Math.max(0, zip.length - END_SEARCH) && view.getUint32(end, true) !== END_RECORD) end--;
  if (end < 0 || end < zip.length - END_SEARCH) throw new Error('no end record');
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const entries: DeclaredEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (at + 46 > end || view.getUint32(at, true) !== CENTRAL_HEADER)
      throw new Error(`directory entry ${i + 1} of ${count} is not where the directory says`);
    const nameLength = view.getUint16(at + 28, true);
    const next = at + 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    if (next > end) throw new Error(`directory entry ${i + 1} of ${count} runs past the directory`);
    entries.push({
      name: text(zip, at + 46, nameLength),
      method: view.getUint16(at + 10, true),
      storedSize: view.getUint32(at + 20, true),
      size: view.getUint32(at + 24, true),
      localHeader: view.getUint32(at + 42, true),
    });
    at = next;
  }
  return entries;
}

/** The entries as their local headers declare them, in order: for a zip whose directory is damaged. */
function localHeaderEntries(zip: Uint8Array): DeclaredEntry[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  return zipLayout(zip)
    .filter((part) => part.what === 'the local header')
    .map((part) => ({
      name: part.file ?? '',
      method: view.getUint16(part.start + 8, true),
      storedSize: view.getUint32(part.start + 18, true),
      size: view.getUint32(part.start + 22, true),
      localHeader: part.start,
    }));
}

function text(zip: Uint8Array, start: number, length: number): string {
  return Buffer.from(zip.subarray(start, start + length)).toString('utf8');
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

/** Where each file's header, content and directory entry lie in a zip whose local headers follow one another. */
export function zipLayout(zip: Uint8Array): ZipPart[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const parts: ZipPart[] = [];
  let at = 0;
  while (at + 30 <= zip.length && view.getUint32(at, true) === LOCAL_HEADER) {
    const nameLength = view.getUint16(at + 26, true);
    const headerEnd = at + 30 + nameLength + view.getUint16(at + 28, true);
    const file = text(zip, at + 30, nameLength);
    const end = headerEnd + view.getUint32(at + 18, true);
    parts.push({ start: at, end: headerEnd, what: 'the local header', file }, { start: headerEnd, end, what: 'the content', file });
    at = end;
  }
  while (at + 46 <= zip.length && view.getUint32(at, true) === CENTRAL_HEADER) {
    const nameLength = view.getUint16(at + 28, true);
    const end = at + 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    parts.push({ start: at, end, what: 'the directory entry', file: text(zip, at + 46, nameLength) });
    at = end;
  }
  if (at + 22 <= zip.length && view.getUint32(at, true) === END_RECORD)
    parts.push({ start: at, end: at + 22 + view.getUint16(at + 20, true), what: "the zip's end record" });
  return parts;
}

/** The CRC-32 the zip's directory records for each file. */
export function recordedCrcs(zip: Uint8Array): { file: string; crc: number }[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  return zipLayout(zip)
    .filter((part) => part.what === 'the directory entry' && part.file)
    .map((part) => ({ file: part.file ?? '', crc: view.getUint32(part.start + 16, true) }));
}
