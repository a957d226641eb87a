// A minimal DER reader. Certificates arriving from the network are first parsed
// by node:crypto (OpenSSL), so this only walks structures already known to be
// well-formed; it still bounds-checks everything and throws on anything odd.
// We read DER ourselves rather than through node-forge because we need the
// exact encoded bytes of elements (RFC 2253 `#hex` values, the issuer copied
// byte-for-byte into issued certificates), and it works for any key type.
import { ConformanceError } from '../errors.js';

export const TAG = {
  BOOLEAN: 0x01,
  INTEGER: 0x02,
  BIT_STRING: 0x03,
  OCTET_STRING: 0x04,
  OID: 0x06,
  UTF8_STRING: 0x0c,
  SEQUENCE: 0x10,
  SET: 0x11,
  NUMERIC_STRING: 0x12,
  PRINTABLE_STRING: 0x13,
  TELETEX_STRING: 0x14,
  IA5_STRING: 0x16,
  UTC_TIME: 0x17,
  GENERALIZED_TIME: 0x18,
  VISIBLE_STRING: 0x1a,
  UNIVERSAL_STRING: 0x1c,
  BMP_STRING: 0x1e,
} as const;

export type TagClass = 'universal' | 'application' | 'context' | 'private';

export interface DerElement {
  tagClass: TagClass;
  constructed: boolean;
  /** Tag number (low-tag-number form only, which covers X.509). */
  tag: number;
  /** The contents octets. */
  contents: Uint8Array;
  /** The whole element: identifier, length and contents. */
  encoded: Uint8Array;
}

export class DerError extends ConformanceError {
  readonly code = 'XC_ERR_DER';
  override name = 'DerError';
}

const TAG_CLASSES: readonly TagClass[] = ['universal', 'application', 'context', 'private'];

/** Reads one element starting at `offset`. */
export function readElement(bytes: Uint8Array, offset = 0): DerElement {
  const identifier = byteAt(bytes, offset);
  const tag = identifier & 0x1f;
  if (tag === 0x1f) throw new DerError('high-tag-number form is not supported');
  let position = offset + 1;
  let length = byteAt(bytes, position++);
  if (length & 0x80) {
    const lengthOctets = length & 0x7f;
    // 0x80 alone is the BER indefinite form, which DER forbids.
    if (lengthOctets === 0 || lengthOctets > 4) throw new DerError(`unsupported length form at offset ${offset}`);
    length = 0;
    for (let i = 0; i < lengthOctets; i++) length = length * 256 + byteAt(bytes, position++);
  }
  const end = position + length;
  if (end > bytes.length) throw new DerError(`element at offset ${offset} runs past the end of the data`);
  return {
    tagClass: TAG_CLASSES[identifier >> 6] ?? 'universal',
    constructed: (identifier & 0x20) !== 0,
    tag,
    contents: bytes.subarray(position, end),
    encoded: bytes.subarray(offset, end),
  };
}

/** The elements inside a constructed element (SEQUENCE, SET, explicit tag). */
export function childrenOf(element: DerElement): DerElement[] {
  if (!element.constructed) throw new DerError(`element with tag ${element.tag} is not constructed`);
  const children: DerElement[] = [];
  let offset = 0;
  while (offset < element.contents.length) {
    const child = readElement(element.contents, offset);
    children.push(child);
    offset += child.encoded.length;
  }
  return children;
}

/** Reads a constructed element and checks it is the universal type expected. */
export function expectUniversal(element: DerElement | undefined, tag: number, what: string): DerElement {
  if (!element || element.tagClass !== 'universal' || element.tag !== tag) {
    throw new DerError(`expected ${what}`);
  }
  return element;
}

export function decodeOid(element: DerElement): string {
  expectUniversal(element, TAG.OID, 'an OBJECT IDENTIFIER');
  const bytes = element.contents;
  const arcs: bigint[] = [];
  let value = 0n;
  for (const byte of bytes) {
    value = (value << 7n) | BigInt(byte & 0x7f);
    if ((byte & 0x80) === 0) {
      arcs.push(value);
      value = 0n;
    }
  }
  const first = arcs.shift();
  if (first === undefined) throw new DerError('empty OBJECT IDENTIFIER');
  // The first sub-identifier packs the first two arcs (X.690 8.19.4).
  const head = first < 40n ? [0n, first] : first < 80n ? [1n, first - 40n] : [2n, first - 80n];
  return [...head, ...arcs].join('.');
}

/** The value of a universal string type as text, or undefined for a non-string element. */
export function decodeString(element: DerElement): string | undefined {
  if (element.tagClass !== 'universal' || element.constructed) return undefined;
  const bytes = Buffer.from(element.contents);
  switch (element.tag) {
    case TAG.UTF8_STRING:
      return bytes.toString('utf8');
    case TAG.PRINTABLE_STRING:
    case TAG.IA5_STRING:
    case TAG.NUMERIC_STRING:
    case TAG.VISIBLE_STRING:
    case TAG.TELETEX_STRING: // T.61, in practice Latin-1; OpenSSL reads it the same way
      return bytes.toString('latin1');
    case TAG.BMP_STRING:
      return decodeUtf16Be(bytes);
    case TAG.UNIVERSAL_STRING:
      return decodeUtf32Be(bytes);
    default:
      return undefined;
  }
}

/** Reads a UTCTime or GeneralizedTime (RFC 5280 4.1.2.5 forms: always UTC, seconds present). */
export function decodeTime(element: DerElement): Date {
  const text = Buffer.from(element.contents).toString('latin1');
  const match =
    element.tag === TAG.UTC_TIME
      ? /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/.exec(text)
      : element.tag === TAG.GENERALIZED_TIME
        ? /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/.exec(text)
        : null;
  if (!match) throw new DerError(`unsupported time value "${text}"`);
  const [year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0] = match.slice(1).map(Number);
  // RFC 5280: a two-digit year YY >= 50 is 19YY, otherwise 20YY.
  const fullYear = element.tag === TAG.UTC_TIME ? (year >= 50 ? 1900 + year : 2000 + year) : year;
  return new Date(Date.UTC(fullYear, month - 1, day, hour, minute, second));
}

function byteAt(bytes: Uint8Array, index: number): number {
  const byte = bytes[index];
  if (byte === undefined) throw new DerError('unexpected end of DER data');
  return byte;
}

function decodeUtf16Be(bytes: Buffer): string {
  if (bytes.length % 2 !== 0) throw new DerError('BMPString with an odd number of octets');
  const swapped = Buffer.from(bytes);
  swapped.swap16();
  return swapped.toString('utf16le');
}

function decodeUtf32Be(bytes: Buffer): string {
  let text = '';
  for (let i = 0; i + 3 < bytes.length; i += 4) text += String.fromCodePoint(bytes.readUInt32BE(i));
  return text;
}
