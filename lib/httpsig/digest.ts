// The Digest header (RFC 3230 with the RFC 5843 algorithms): `SHA-256=<base64>`
// or `SHA-512=<base64>` over the exact body bytes.
import { createHash } from 'node:crypto';

export type DigestAlgorithm = 'SHA-256' | 'SHA-512';

const NODE_HASH: Record<DigestAlgorithm, string> = { 'SHA-256': 'sha256', 'SHA-512': 'sha512' };
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export function computeDigest(body: Uint8Array | string, algorithm: DigestAlgorithm = 'SHA-256'): string {
  return `${algorithm}=${hashBase64(body, algorithm)}`;
}

/**
 * Checks a Digest header against the body. RFC 3230 allows several
 * `algorithm=value` entries separated by commas; every entry in a supported
 * algorithm must match and at least one must be present. Algorithm tokens are
 * case-insensitive (RFC 3230 4.1.1).
 */
export function checkDigest(headerValue: string, body: Uint8Array): { ok: true } | { ok: false; reason: string } {
  const entries = headerValue
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
  if (entries.length === 0) return { ok: false, reason: 'Digest header is empty' };
  let supported = 0;
  for (const entry of entries) {
    const equals = entry.indexOf('=');
    if (equals <= 0) return { ok: false, reason: `Digest entry "${entry}" is not of the form <algorithm>=<base64>` };
    const algorithm = supportedAlgorithm(entry.slice(0, equals).trim());
    if (!algorithm) continue;
    supported++;
    const given = entry.slice(equals + 1).trim();
    if (!BASE64.test(given)) return { ok: false, reason: `Digest ${algorithm} value "${given}" is not base64` };
    const expected = hashBase64(body, algorithm);
    if (given !== expected) {
      return {
        ok: false,
        reason: `Digest ${algorithm} does not match the body (${body.length} bytes): header has ${given}, body hashes to ${expected}`,
      };
    }
  }
  if (supported === 0) {
    return { ok: false, reason: `Digest "${headerValue}" uses no supported algorithm (SHA-256 or SHA-512)` };
  }
  return { ok: true };
}

function supportedAlgorithm(token: string): DigestAlgorithm | undefined {
  const upper = token.toUpperCase();
  return upper === 'SHA-256' || upper === 'SHA-512' ? upper : undefined;
}

function hashBase64(body: Uint8Array | string, algorithm: DigestAlgorithm): string {
  if (body.length === 0) return EMPTY_BODY[algorithm];
  return createHash(NODE_HASH[algorithm]).update(body).digest('base64');
}

/** Every GET carries a Digest of the empty body. */
const EMPTY_BODY: Record<DigestAlgorithm, string> = {
  'SHA-256': createHash('sha256').digest('base64'),
  'SHA-512': createHash('sha512').digest('base64'),
};
