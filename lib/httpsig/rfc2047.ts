// RFC 2047 encoded-words for header values that are not plain ASCII
// (spec Authentication item 7): `=?charset?encoding?text?=`.
import { ConformanceError } from '../errors.js';

export class Rfc2047Error extends ConformanceError {
  readonly code = 'XC_ERR_RFC2047';
  override name = 'Rfc2047Error';
}

const ENCODED_WORD = /^=\?([^?*]+)(?:\*[^?]*)?\?([BbQq])\?([^?]*)\?=$/;

/** True when a header value cannot be sent as it is: anything beyond printable ASCII. */
export function needsRfc2047(text: string): boolean {
  return /[^\t\x20-\x7e]/.test(text);
}

/** One UTF-8, base64 ("B") encoded-word, the form item 7 names for UTF-8. */
export function encodeRfc2047(text: string, charset: 'utf-8' | 'iso-8859-1' = 'utf-8'): string {
  return `=?${charset}?B?${Buffer.from(text, charset === 'utf-8' ? 'utf8' : 'latin1').toString('base64')}?=`;
}

/**
 * Decodes a value made of encoded-words (the whitespace between adjacent
 * words is dropped, RFC 2047 6.2). A value that does not start with `=?` is
 * returned unchanged, so callers can pass any header value through.
 */
export function decodeRfc2047(value: string): string {
  const trimmed = value.trim();
  if (!trimmed.startsWith('=?')) return value;
  return trimmed
    .split(/\s+/)
    .map((word) => decodeWord(word))
    .join('');
}

function decodeWord(word: string): string {
  const match = ENCODED_WORD.exec(word);
  if (!match) throw new Rfc2047Error(`"${word}" is not an RFC 2047 encoded-word`);
  const [, charset = '', encoding = '', text = ''] = match;
  const bytes = encoding.toUpperCase() === 'B' ? decodeB(text) : decodeQ(text);
  return Buffer.from(bytes).toString(nodeEncoding(charset));
}

function nodeEncoding(charset: string): BufferEncoding {
  switch (charset.toLowerCase()) {
    case 'utf-8':
    case 'utf8':
      return 'utf8';
    case 'iso-8859-1':
    case 'latin1':
    case 'us-ascii':
      return 'latin1';
    default:
      throw new Rfc2047Error(`unsupported RFC 2047 charset "${charset}" (utf-8 and iso-8859-1 are supported)`);
  }
}

function decodeB(text: string): Buffer {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) {
    throw new Rfc2047Error(`"${text}" is not base64`);
  }
  return Buffer.from(text, 'base64');
}

/** The "Q" encoding (RFC 2047 4.2): `_` is a space, `=XX` a byte. */
function decodeQ(text: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const character = text.charAt(i);
    if (character === '_') {
      bytes.push(0x20);
    } else if (character === '=') {
      const hex = text.slice(i + 1, i + 3);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) throw new Rfc2047Error(`bad "=${hex}" escape in Q-encoded text`);
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(character.charCodeAt(0) & 0xff);
    }
  }
  return Buffer.from(bytes);
}
