// The keyId part of the Signature header (spec Authentication item 5):
// `SN=<serial in upper-case hex>,CA=<issuer DN in RFC 2253 form>`.
import type { X509Certificate } from 'node:crypto';
import { readCertificateFields, toX509Certificate } from '../pki/x509-fields.js';
import { formatRfc2253, parseDistinguishedName } from './distinguished-name.js';
import { ConformanceError } from '../errors.js';

export class KeyIdFormatError extends ConformanceError {
  readonly code = 'XC_ERR_KEY_ID_FORMAT';
  override name = 'KeyIdFormatError';
}

/** The issuer of a certificate as OpenSSL's `-nameopt RFC2253` writes it (UTF-8 left as is). */
export function issuerRfc2253(certificate: X509Certificate | string): string {
  return formatRfc2253(readCertificateFields(certificate).issuer);
}

export function keyIdOf(certificate: string | X509Certificate): string {
  const x509 = toX509Certificate(certificate);
  // node:crypto already gives the serial in upper-case hex, which is what item 5 asks for.
  const issuer = formatRfc2253(readCertificateFields(x509).issuer, { quoteAsHex: true });
  return `SN=${x509.serialNumber},CA=${issuer}`;
}

/**
 * Splits a keyId into serial and issuer. The issuer itself contains commas, so
 * the serial must come first, as item 5 writes it; `SN`/`CA` are matched
 * case-insensitively and spaces around them are tolerated.
 */
export function parseKeyId(keyId: string): { serial: string; issuer: string } {
  const match = /^\s*SN\s*=\s*([^,]*?)\s*,\s*CA\s*=\s*(.*?)\s*$/is.exec(keyId);
  if (!match) throw new KeyIdFormatError(`keyId "${keyId}" is not of the form SN=<serial>,CA=<issuer>`);
  const [, serial = '', issuer = ''] = match;
  if (normalizedSerial(serial) === undefined) {
    throw new KeyIdFormatError(`keyId serial "${serial}" is not a hexadecimal number`);
  }
  try {
    parseDistinguishedName(issuer);
  } catch (error) {
    throw new KeyIdFormatError(`keyId issuer "${issuer}" is not a distinguished name: ${(error as Error).message}`);
  }
  return { serial, issuer };
}

/** Serials compared as numbers: colons, spaces, a 0x prefix, leading zeros and case do not matter. */
export function sameSerial(a: string, b: string): boolean {
  const left = normalizedSerial(a);
  const right = normalizedSerial(b);
  return left !== undefined && left === right;
}

function normalizedSerial(serial: string): bigint | undefined {
  const hex = serial.replace(/[:\s]/g, '').replace(/^0x/i, '');
  return /^[0-9A-Fa-f]+$/.test(hex) ? BigInt(`0x${hex}`) : undefined;
}
