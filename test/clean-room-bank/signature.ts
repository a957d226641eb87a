// Request signature verification (Authentication, points 3 to 8 of the specification):
// Signature header with keyId, algorithm, headers, signature in this order; the signing string
// of lower-case "name: value" lines; Digest SHA-256 or SHA-512 of the body; Date within 60 s;
// RFC 2047 encoded Signature values; the certificate of TPP-Signature-Certificate.

import { createHash, createVerify } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { parseHttpDate } from './clock.js';
import { type CertificateStore, type TppCertificate } from './certs.js';
import { dnToRfc2253, parseRfc2253, sameDn } from './dn.js';
import { ApiError, headerRequired } from './errors.js';

const SIGNABLE_HEADERS = ['date', 'digest', 'x-request-id', 'psu-id', 'psu-corporate-id', 'tpp-redirect-uri'] as const;
const MAX_DATE_DEVIATION_MS = 60_000;

const sigInvalid = (msg: string): ApiError => new ApiError(400, 'SIGNATURE_INVALID', msg);

function decodeCharset(bytes: Buffer, charset: string): string {
  const cs = charset.toLowerCase().replace(/\*.*$/, '');
  if (cs === 'utf-8' || cs === 'utf8') {
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      throw sigInvalid('Signature header: RFC 2047 word is not valid UTF-8');
    }
  }
  if (cs === 'iso-8859-1' || cs === 'latin1' || cs === 'us-ascii') return bytes.toString('latin1');
  throw sigInvalid(`Signature header: unsupported RFC 2047 charset ${charset}`);
}

/** Decodes an RFC 2047 encoded header (`=?charset?B|Q?text?=`, several words allowed). */
function decodeRfc2047(value: string): string {
  const v = value.trim();
  if (!v.startsWith('=?')) return v;
  const word = /=\?([^?]+)\?([BbQq])\?([^?]*)\?=/y;
  let out = '';
  let pos = 0;
  while (pos < v.length) {
    while (pos < v.length && /\s/.test(v[pos] ?? '')) pos++;
    if (pos >= v.length) break;
    word.lastIndex = pos;
    const m = word.exec(v);
    if (!m) throw sigInvalid('Signature header: malformed RFC 2047 encoded word');
    const [, charset = '', enc = '', text = ''] = m;
    let bytes: Buffer;
    if (enc.toUpperCase() === 'B') {
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) throw sigInvalid('Signature header: RFC 2047 B-encoding is not base64');
      bytes = Buffer.from(text, 'base64');
    } else {
      const arr: number[] = [];
      for (let i = 0; i < text.length; i++) {
        const ch = text[i] ?? '';
        if (ch === '_') arr.push(0x20);
        else if (ch === '=' && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 1, i + 3))) {
          arr.push(parseInt(text.slice(i + 1, i + 3), 16));
          i += 2;
        } else arr.push(ch.charCodeAt(0) & 0xff);
      }
      bytes = Buffer.from(arr);
    }
    out += decodeCharset(bytes, charset);
    pos = word.lastIndex;
  }
  return out;
}

/** Node reads header bytes as latin1; a raw UTF-8 value is restored when it decodes cleanly. */
function restoreUtf8(v: string): string {
  // eslint-disable-next-line no-control-regex
  if (!/[^\x00-\x7f]/.test(v)) return v;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(v, 'latin1'));
  } catch {
    return v;
  }
}

interface SignatureParams {
  keyId: string;
  algorithm: string;
  headers: string[];
  signature: string;
}

const PART_ORDER = ['keyId', 'algorithm', 'headers', 'signature'];

function parseSignatureHeader(raw: string): SignatureParams {
  const text = restoreUtf8(decodeRfc2047(raw));
  const parts: [string, string][] = [];
  const re = /\s*([A-Za-z]+)\s*=\s*"((?:[^"\\]|\\.)*)"\s*(,|$)/y;
  let pos = 0;
  while (pos < text.length) {
    re.lastIndex = pos;
    const m = re.exec(text);
    if (!m || m[0].length === 0) throw sigInvalid('Signature header: parts must be written name="value" and joined with commas');
    parts.push([m[1] ?? '', m[2] ?? '']);
    pos = re.lastIndex;
    if (m[3] === '') break;
  }
  if (pos < text.length) throw sigInvalid('Signature header: trailing characters');
  const names = parts.map((p) => p[0]);
  if (!names.includes('keyId')) throw new ApiError(400, 'KID_MISSING', 'Signature header has no keyId');
  if (names.length !== PART_ORDER.length || names.some((n, i) => n !== PART_ORDER[i])) {
    throw sigInvalid('Signature header must hold exactly keyId, algorithm, headers and signature, in this order');
  }
  const get = (i: number): string => parts[i]?.[1] ?? '';
  const keyId = get(0);
  if (keyId.trim() === '') throw new ApiError(400, 'KID_MISSING', 'Signature keyId is empty');
  return {
    keyId,
    algorithm: get(1),
    headers: get(2)
      .split(' ')
      .filter((h) => h !== ''),
    signature: get(3),
  };
}

/** Checks keyId `SN=<serial>,CA=<issuer DN>` against the certificate. */
function checkKeyId(keyId: string, cert: TppCertificate): void {
  const m = /^\s*SN=([^,]*),\s*CA=(.*)$/s.exec(keyId);
  const expected = `SN=${cert.x509.serialNumber},CA=${dnToRfc2253(cert.issuer)}`;
  if (!m) throw new ApiError(400, 'KID_INVALID', `keyId must be written SN=<serial>,CA=<issuer>; expected ${expected}`);
  const serialText = (m[1] ?? '').replace(/[:\s]/g, '');
  if (!/^[0-9A-Fa-f]+$/.test(serialText) || BigInt('0x' + serialText) !== cert.serial) {
    throw new ApiError(400, 'KID_INVALID', `keyId serial does not match the certificate; expected ${expected}`);
  }
  const dn = parseRfc2253(m[2] ?? '');
  if (!dn || !sameDn(dn, cert.issuer)) {
    throw new ApiError(400, 'KID_INVALID', `keyId issuer does not match the certificate issuer; expected ${expected}`);
  }
}

function verifyDigest(value: string, body: Buffer): void {
  const entries = value
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  let checked = 0;
  for (const e of entries) {
    const eq = e.indexOf('=');
    if (eq <= 0) throw sigInvalid('Digest header must be written <algorithm>=<base64 hash>');
    const alg = e.slice(0, eq).toUpperCase();
    const given = e.slice(eq + 1);
    const nodeAlg = alg === 'SHA-256' ? 'sha256' : alg === 'SHA-512' ? 'sha512' : undefined;
    if (!nodeAlg) continue;
    const actual = createHash(nodeAlg).update(body).digest('base64');
    if (given !== actual) throw sigInvalid(`Digest ${alg} does not match the request body`);
    checked++;
  }
  if (checked === 0) throw sigInvalid('Digest header must use SHA-256 or SHA-512');
}

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  if (v === undefined) return undefined;
  return Array.isArray(v) ? v.join(', ') : v;
}

interface VerifiedRequest {
  cert: TppCertificate;
  signedHeaders: string[];
}

/**
 * Verifies the signature of a request. Throws ApiError (status 400) on every failure:
 * SIGNATURE_MISSING, CERTIFICATE_MISSING / _INVALID / _EXPIRED, KID_MISSING / KID_INVALID,
 * SIGNATURE_INVALID, TIMESTAMP_INVALID, HTTP_HEADER_REQUIRED.
 */
export function verifyRequest(
  store: CertificateStore,
  headers: IncomingHttpHeaders,
  method: string,
  target: string,
  body: Buffer,
  realNow: number,
): VerifiedRequest {
  const sigRaw = headerValue(headers, 'signature');
  if (sigRaw === undefined || sigRaw.trim() === '')
    throw new ApiError(400, 'SIGNATURE_MISSING', 'The request is not signed: header Signature is missing');
  const certRaw = headerValue(headers, 'tpp-signature-certificate');
  if (certRaw === undefined || certRaw.trim() === '') {
    throw new ApiError(400, 'CERTIFICATE_MISSING', 'Header TPP-Signature-Certificate is required with a Signature');
  }
  const digest = headerValue(headers, 'digest');
  if (digest === undefined || digest.trim() === '') throw headerRequired('Digest');
  const date = headerValue(headers, 'date');
  if (date === undefined || date.trim() === '') throw headerRequired('Date');
  const requestId = headerValue(headers, 'x-request-id');
  if (requestId === undefined || requestId.trim() === '') throw headerRequired('X-Request-ID');

  const params = parseSignatureHeader(sigRaw);
  const cert = store.fromHeader(certRaw);
  if (realNow < cert.validFrom || realNow > cert.validTo) {
    throw new ApiError(400, 'CERTIFICATE_EXPIRED', 'The signing certificate is not valid at this time');
  }
  if (!cert.trusted) throw new ApiError(400, 'CERTIFICATE_INVALID', 'The signing certificate does not chain to a trusted CA');
  checkKeyId(params.keyId, cert);

  if (params.algorithm !== 'rsa-sha256') throw sigInvalid('Signature algorithm must be rsa-sha256');
  if (!cert.isRsa) throw sigInvalid('Signature algorithm rsa-sha256 does not match the certificate key');

  const seen = new Set<string>();
  for (const h of params.headers) {
    if (h !== '(request-target)' && !(SIGNABLE_HEADERS as readonly string[]).includes(h)) {
      if (h.toLowerCase() !== h) throw sigInvalid(`Signature headers must be lower case: ${h}`);
      throw sigInvalid(`Header ${h} is not a signable header`);
    }
    if (seen.has(h)) throw sigInvalid(`Signature headers list ${h} twice`);
    seen.add(h);
    if (h !== '(request-target)' && headerValue(headers, h) === undefined) {
      throw sigInvalid(`Signature lists header ${h}, which the request does not carry`);
    }
  }
  for (const h of SIGNABLE_HEADERS) {
    if (headerValue(headers, h) !== undefined && !seen.has(h)) throw sigInvalid(`Header ${h} is present and must be signed`);
  }

  verifyDigest(digest, body);

  const dateMs = parseHttpDate(date.trim());
  if (dateMs === undefined)
    throw new ApiError(400, 'FORMAT_ERROR', 'Header Date must be an RFC 7231 date, e.g. "Sun, 06 Nov 1994 08:49:37 GMT"');
  if (Math.abs(dateMs - realNow) > MAX_DATE_DEVIATION_MS) {
    throw new ApiError(400, 'TIMESTAMP_INVALID', 'Header Date deviates more than 60 seconds from the server clock');
  }

  const lines = params.headers.map((h) =>
    h === '(request-target)' ? `(request-target): ${method.toLowerCase()} ${target}` : `${h}: ${headerValue(headers, h) ?? ''}`,
  );
  const signingString = lines.join('\n');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(params.signature)) throw sigInvalid('Signature value is not base64');
  let ok = false;
  try {
    ok = createVerify('RSA-SHA256').update(signingString, 'latin1').verify(cert.publicKey, params.signature, 'base64');
  } catch {
    ok = false;
  }
  if (!ok) throw sigInvalid('Signature does not verify against the signing string and the certificate');
  return { cert, signedHeaders: params.headers };
}
