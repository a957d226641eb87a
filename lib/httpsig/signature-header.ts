// The Signature header (spec Authentication item 5; draft-cavage 4.1):
// keyId="..",algorithm="..",headers="..",signature=".." in that order.
import { decodeRfc2047, Rfc2047Error } from './rfc2047.js';
import { ConformanceError } from '../errors.js';

export interface SignatureParams {
  keyId: string;
  algorithm: string;
  headers: string[];
  signature: string;
}

export type SignaturePart = 'keyId' | 'algorithm' | 'headers' | 'signature';
const PARTS: readonly SignaturePart[] = ['keyId', 'algorithm', 'headers', 'signature'];

export class SignatureFormatError extends ConformanceError {
  readonly code = 'XC_ERR_SIGNATURE_FORMAT';
  override name = 'SignatureFormatError';
  /** The required parts that are absent or empty; empty when the header is malformed in another way. */
  readonly missingParts: readonly SignaturePart[];
  constructor(message: string, missingParts: readonly SignaturePart[] = []) {
    super(message);
    this.missingParts = missingParts;
  }
}

export function formatSignatureHeader(p: SignatureParams): string {
  const values: Record<SignaturePart, string> = { ...p, headers: p.headers.join(' ') };
  return PARTS.map((part) => {
    // draft-cavage values are quoted strings without an escape mechanism.
    if (values[part].includes('"')) throw new SignatureFormatError(`the ${part} part cannot contain a double quote`);
    return `${part}="${values[part]}"`;
  }).join(',');
}

/**
 * Parses a Signature header value, first undoing an RFC 2047 wrapping
 * (item 7). Unknown parameters are ignored (draft-cavage 2.1); the four parts
 * item 5 lists are required. Values are read raw up to the closing quote,
 * as draft-cavage implementations do.
 */
export interface ParseOptions {
  /** Undo an RFC 2047 wrapping first (default true). */
  decodeRfc2047?: boolean;
  /** Parts whose absence is tolerated (an empty value is returned): only for deliberately lenient verifiers. */
  optionalParts?: readonly SignaturePart[];
}

export function parseSignatureHeader(value: string, options: ParseOptions = {}): SignatureParams {
  const parameters = parseParameters(options.decodeRfc2047 === false ? value : unwrap(value));
  const missing = PARTS.filter((part) => !parameters.get(part)?.trim() && !options.optionalParts?.includes(part));
  if (missing.length > 0) {
    throw new SignatureFormatError(`the Signature header lacks the ${missing.join(', ')} part${missing.length > 1 ? 's' : ''}`, missing);
  }
  const part = (name: SignaturePart): string => parameters.get(name) ?? '';
  return {
    keyId: part('keyId'),
    algorithm: part('algorithm'),
    headers: part('headers')
      .trim()
      .split(/\s+/)
      .filter((name) => name !== '')
      .map((name) => name.toLowerCase()),
    signature: part('signature'),
  };
}

function unwrap(value: string): string {
  try {
    return decodeRfc2047(value);
  } catch (error) {
    if (error instanceof Rfc2047Error)
      throw new SignatureFormatError(`the Signature header's RFC 2047 encoding is invalid: ${error.message}`);
    throw error;
  }
}

function parseParameters(text: string): Map<string, string> {
  const parameters = new Map<string, string>();
  const pattern = /\s*([A-Za-z]+)\s*=\s*(?:"([^"]*)"|([^",\s]*))\s*(,|$)/y;
  while (pattern.lastIndex < text.length) {
    const start = pattern.lastIndex;
    const match = pattern.exec(text);
    if (!match)
      throw new SignatureFormatError(`the Signature header is malformed at position ${start}: "${text.slice(start, start + 30)}"`);
    const [, name = '', quoted, token] = match;
    if (parameters.has(name)) throw new SignatureFormatError(`the Signature header has the ${name} part twice`);
    parameters.set(name, quoted ?? token ?? '');
    // A trailing comma at the very end would otherwise loop on an empty remainder.
    if (match[4] === '') break;
  }
  if (parameters.size === 0) throw new SignatureFormatError('the Signature header has no parameters');
  return parameters;
}
