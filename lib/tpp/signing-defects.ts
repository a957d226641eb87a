// The TPP client's deliberate signing defects: what a request can carry wrong in its
// Signature, Digest, Date or certificate, so a suite can prove the target rejects what
// the specification says it must (Authentication items 3-7). (The reference bank's own
// rule-breaking switches are its defects, in reference/.)
import type { SignableHeader, SignaturePart } from '../httpsig/index.js';

export type SigningDefect =
  /** No Signature header (item 3). */
  | { kind: 'no-signature' }
  /** No Digest header, and so none signed. */
  | { kind: 'no-digest' }
  /** No Date header, and so none signed (item 4). */
  | { kind: 'no-date' }
  /** No TPP-Signature-Certificate header. */
  | { kind: 'no-certificate' }
  /** Signed with a freshly generated key that is not the certificate's. */
  | { kind: 'wrong-key' }
  /** The body sent is the signed body plus one trailing space: same JSON, different Digest. */
  | { kind: 'body-changed-after-signing' }
  /** Date this many seconds off the TPP clock (positive: ahead), signed correctly (item 4). */
  | { kind: 'date-skew'; seconds: number }
  /** keyId names another serial (by default the certificate's with its lowest bit flipped). */
  | { kind: 'wrong-serial'; serial?: string }
  /** keyId names another issuer DN (any text, non-ASCII too, which then exercises item 7). */
  | { kind: 'wrong-issuer'; issuer?: string }
  /** The algorithm part says this, though the signature is RSA-SHA256. */
  | { kind: 'algorithm'; name: string }
  /** A valid signature whose headers part lists the signed headers in another order (item 5 allows any order). */
  | { kind: 'headers-out-of-order' }
  /** A signable header present in the request but left out of the signature. */
  | { kind: 'unsigned-header'; header: SignableHeader }
  /** The signature part with one base64 character changed (item 5: the bytes no longer verify). */
  | { kind: 'altered-signature' }
  /** A signed header given another value after signing (item 6). */
  | { kind: 'header-changed-after-signing'; header: SignableHeader }
  /** The Signature header without this part (item 5). */
  | { kind: 'signature-without-part'; part: SignaturePart }
  /** keyId written exactly so (a malformed keyId, or a variant form of the right one). */
  | { kind: 'key-id'; value: string }
  /** A correct signature that also covers these headers, listed first: (request-target), host (item 5 names (request-target)). */
  | { kind: 'extra-signed-headers'; names: string[] }
  /** The signing string built in the usual order, but the headers part lists the names reversed (item 6: does not verify). */
  | { kind: 'headers-part-reordered' }
  /** The headers part names this header, absent from the request, signed as if its value were empty (item 6). */
  | { kind: 'sign-absent-header'; header: SignableHeader }
  /** The whole Signature header value MIME-encoded per RFC 2047 as a B encoded-word in this charset (item 7). */
  | { kind: 'rfc2047-signature'; charset: 'utf-8' | 'iso-8859-1' }
  /** A Digest over other bytes than the body, signed as it is (RFC 3230: does not match). */
  | { kind: 'wrong-digest' }
  /** A Digest in an algorithm outside SHA-256 and SHA-512, e.g. MD5, signed as it is. */
  | { kind: 'digest-algorithm'; name: string };

export type SigningDefectKind = SigningDefect['kind'];

export function findDefect<K extends SigningDefectKind>(
  defects: readonly SigningDefect[],
  kind: K,
): Extract<SigningDefect, { kind: K }> | undefined {
  return defects.find((defect): defect is Extract<SigningDefect, { kind: K }> => defect.kind === kind);
}

export function hasDefect(defects: readonly SigningDefect[], kind: SigningDefectKind): boolean {
  return findDefect(defects, kind) !== undefined;
}
