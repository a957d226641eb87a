/**
 * Rewrites the entries of a zip file in place (stored or deflated entries, no zip64): enough for a
 * Playwright trace, whose text entries (actions, network, DOM snapshots) hold what the PSU typed and
 * must be masked before a trace may enter a masked report. Node's zlib does the (de)compression.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { crc32, deflateRawSync, inflateRawSync } from 'node:zlib';
import { ConformanceError } from '../errors.js';

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const STORED = 0;
const DEFLATED = 8;
/** Bit 11 of the general-purpose flags: the name is UTF-8. */
const UTF8_NAMES = 0x0800;

interface Entry {
  name: Buffer;
  data: Buffer;
  modTime: number;
  modDate: number;
}

export class ZipFormatError extends ConformanceError {
  readonly code = 'XC_ERR_ZIP_FORMAT';
  override name = 'ZipFormatError';
}

function readEntries(zip: Buffer): Entry[] {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0 || zip.readUInt32LE(end) !== END_OF_CENTRAL_DIRECTORY) throw new ZipFormatError('no end of central directory');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries: Entry[] = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== CENTRAL_HEADER) throw new ZipFormatError(`bad central directory entry ${i}`);
    const method = zip.readUInt16LE(at + 10);
    const compressedSize = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const localOffset = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength);
    if (zip.readUInt32LE(localOffset) !== LOCAL_HEADER) throw new ZipFormatError(`bad local header of ${name.toString()}`);
    const start = localOffset + 30 + zip.readUInt16LE(localOffset + 26) + zip.readUInt16LE(localOffset + 28);
    const raw = zip.subarray(start, start + compressedSize);
    if (method !== STORED && method !== DEFLATED)
      throw new ZipFormatError(`${name.toString()}: compression method ${method} not supported`);
    entries.push({
      name,
      data: method === DEFLATED ? inflateRawSync(raw) : raw,
      modTime: zip.readUInt16LE(at + 12),
      modDate: zip.readUInt16LE(at + 14),
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

function writeEntries(entries: readonly Entry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const compressed = deflateRawSync(entry.data);
    const header = (size: number, signature: number) => {
      const buffer = Buffer.alloc(size);
      buffer.writeUInt32LE(signature, 0);
      return buffer;
    };
    const local = header(30, LOCAL_HEADER);
    local.writeUInt16LE(20, 4); // version needed: deflate
    local.writeUInt16LE(UTF8_NAMES, 6);
    local.writeUInt16LE(DEFLATED, 8);
    local.writeUInt16LE(entry.modTime, 10);
    local.writeUInt16LE(entry.modDate, 12);
    local.writeUInt32LE(crc32(entry.data), 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(entry.data.length, 22);
    local.writeUInt16LE(entry.name.length, 26);
    const central = header(46, CENTRAL_HEADER);
    central.writeUInt16LE(20, 4); // version made by
    local.copy(central, 6, 4, 30); // version needed … name length: the same fields as the local header
    central.writeUInt32LE(offset, 42);
    locals.push(local, entry.name, compressed);
    centrals.push(central, entry.name);
    offset += local.length + entry.name.length + compressed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(END_OF_CENTRAL_DIRECTORY, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** Replaces each entry's content by `transform(name, content)`; names, order and dates are kept. */
export function rewriteZip(path: string, transform: (name: string, content: Buffer) => Buffer): void {
  const entries = readEntries(readFileSync(path)).map((entry) => ({ ...entry, data: transform(entry.name.toString('utf8'), entry.data) }));
  writeFileSync(path, writeEntries(entries));
}

/** Writes a zip file of these entries (deflated). */
export function writeZip(path: string, entries: ReadonlyMap<string, Buffer>): void {
  writeFileSync(
    path,
    writeEntries([...entries].map(([name, data]) => ({ name: Buffer.from(name, 'utf8'), data, modTime: 0, modDate: 0x21 }))),
  );
}

/** The entries of a zip file by name (for tests and checks). */
export function readZip(path: string): Map<string, Buffer> {
  return new Map(readEntries(readFileSync(path)).map((entry) => [entry.name.toString('utf8'), entry.data]));
}
