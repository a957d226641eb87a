// Adds what every request carries (spec Authentication items 3-7): a fresh
// X-Request-ID, Date, Digest over the exact body bytes, TPP-Signature-Certificate
// and Signature; then applies any deliberate defects. Pure apart from
// randomness, so it can be tested without a network.
import { createHash, randomUUID } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import {
  buildSigningString,
  computeDigest,
  encodeRfc2047,
  formatHttpDate,
  formatSignatureHeader,
  needsRfc2047,
  parseKeyId,
  SIGNABLE_HEADERS,
  SIGNATURE_ALGORITHM,
  signRsaSha256,
} from '../httpsig/index.js';
import type { DigestAlgorithm, SignableHeader } from '../httpsig/index.js';
import { newRsaPrivateKey } from '../pki/rsa-key-source.js';
import { findDefect, hasDefect } from './signing-defects.js';
import type { SigningDefect } from './signing-defects.js';
import type { HeaderFields } from './header-fields.js';
import type { TppIdentity } from './tpp-identity.js';

export interface SigningInput {
  /**
   * Headers chosen by the caller. Any of X-Request-ID, Date, Digest, TPP-Signature-Certificate or Signature given here is sent as given
   * instead of generated.
   */
  headers: HeaderFields;
  body: Uint8Array | undefined;
  identity: TppIdentity;
  /** The instant for Date, TPP clock skew already applied. */
  now: Date;
  digestAlgorithm: DigestAlgorithm;
  defects: readonly SigningDefect[];
  /** Headers the request must go without: they are not generated (and so not signed). */
  omitHeaders?: readonly string[];
  /** Method, path with query and host as sent: what (request-target) and host sign, when a defect asks for them. */
  requestTarget?: { method: string; path: string; host: string };
}

export interface SignedRequest {
  headers: HeaderFields;
  body: Uint8Array | undefined;
  /** The signed header names in the order listed (empty when no signature was made). */
  signedHeaders: SignableHeader[];
}

export function signRequest(input: SigningInput): SignedRequest {
  const { headers, defects } = input;
  const body = input.body ?? new Uint8Array();
  const omitted = new Set((input.omitHeaders ?? []).map((name) => name.toLowerCase()));
  const generate = (name: string, value: () => string) => {
    if (!omitted.has(name.toLowerCase())) headers.setIfAbsent(name, value);
  };

  generate('X-Request-ID', () => randomUUID());
  const skew = findDefect(defects, 'date-skew')?.seconds ?? 0;
  generate('Date', () => formatHttpDate(new Date(input.now.getTime() + skew * 1000)));
  // The Digest of an absent body is the digest of zero bytes: Digest goes wherever Signature goes.
  generate('Digest', () => computeDigest(body, input.digestAlgorithm));
  if (hasDefect(defects, 'no-date')) headers.delete('Date');
  if (hasDefect(defects, 'no-digest')) headers.delete('Digest');
  if (hasDefect(defects, 'wrong-digest')) headers.set('Digest', computeDigest(appendSpace(body), input.digestAlgorithm));
  const digestAlgorithm = findDefect(defects, 'digest-algorithm');
  if (digestAlgorithm) headers.set('Digest', `${digestAlgorithm.name}=${createHash('md5').update(body).digest('base64')}`);

  if (!hasDefect(defects, 'no-certificate')) generate('TPP-Signature-Certificate', () => input.identity.signatureCertificate);

  let signedHeaders: SignableHeader[] = [];
  if (!hasDefect(defects, 'no-signature') && !omitted.has('signature') && !headers.has('Signature')) {
    signedHeaders = headerList(headers, defects);
    headers.set('Signature', signatureHeaderValue(headers, signedHeaders, input, defects));
    const changed = findDefect(defects, 'header-changed-after-signing');
    if (changed) headers.set(changed.header, changedValue(changed.header, headers.get(changed.header) ?? ''));
  }

  const sentBody = hasDefect(defects, 'body-changed-after-signing') ? appendSpace(body) : input.body;
  return { headers, body: sentBody, signedHeaders };
}

/** Item 6: the signable headers present, in SIGNABLE_HEADERS order, unless a defect says otherwise. */
function headerList(headers: HeaderFields, defects: readonly SigningDefect[]): SignableHeader[] {
  const unsigned = defects.flatMap((defect) => (defect.kind === 'unsigned-header' ? [defect.header] : []));
  const names = SIGNABLE_HEADERS.filter((name) => headers.has(name) && !unsigned.includes(name));
  return hasDefect(defects, 'headers-out-of-order') ? [...names].reverse() : names;
}

function signatureHeaderValue(
  headers: HeaderFields,
  names: SignableHeader[],
  input: SigningInput,
  defects: readonly SigningDefect[],
): string {
  const { identity } = input;
  const absent = findDefect(defects, 'sign-absent-header')?.header;
  const listed: string[] = [...(findDefect(defects, 'extra-signed-headers')?.names ?? []), ...names, ...(absent ? [absent] : [])];
  const valueOf = (name: string) => (name === absent ? '' : name === 'host' ? input.requestTarget?.host : headers.get(name));
  const signingString = buildSigningString(listed, valueOf, input.requestTarget);
  let signature = hasDefect(defects, 'wrong-key') ? signRsaSha256(signingString, otherPrivateKey()) : identity.sign(signingString);
  if (hasDefect(defects, 'altered-signature')) signature = `${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
  let value = formatSignatureHeader({
    keyId: findDefect(defects, 'key-id')?.value ?? keyIdFor(identity, defects),
    algorithm: findDefect(defects, 'algorithm')?.name ?? SIGNATURE_ALGORITHM,
    headers: hasDefect(defects, 'headers-part-reordered') ? [...listed].reverse() : listed,
    signature,
  });
  const without = findDefect(defects, 'signature-without-part')?.part;
  if (without)
    value = value
      .split(/,(?=[a-zA-Z]+=")/)
      .filter((part) => !part.startsWith(`${without}=`))
      .join(',');
  const rfc2047 = findDefect(defects, 'rfc2047-signature');
  if (rfc2047) return encodeRfc2047(value, rfc2047.charset);
  // Item 7: a value that is not ASCII travels RFC 2047-encoded.
  return needsRfc2047(value) ? encodeRfc2047(value) : value;
}

/** Another value of the same header, for a header changed after signing. */
function changedValue(name: SignableHeader, value: string): string {
  switch (name) {
    case 'date':
      return formatHttpDate(new Date(Date.parse(value) - 1000));
    case 'digest':
      return computeDigest(Buffer.from(value));
    case 'tpp-redirect-uri':
      return `${value}${value.includes('?') ? '&' : '?'}changed=1`;
    default:
      return randomUUID();
  }
}

function keyIdFor(identity: TppIdentity, defects: readonly SigningDefect[]): string {
  const wrongSerial = findDefect(defects, 'wrong-serial');
  const wrongIssuer = findDefect(defects, 'wrong-issuer');
  if (!wrongSerial && !wrongIssuer) return identity.keyId;
  const { serial, issuer } = parseKeyId(identity.keyId);
  const faultySerial = wrongSerial ? (wrongSerial.serial ?? flipLowestBit(serial)) : serial;
  const faultyIssuer = wrongIssuer ? (wrongIssuer.issuer ?? 'CN=Not The Issuing CA,O=Nobody,C=NO') : issuer;
  return `SN=${faultySerial},CA=${faultyIssuer}`;
}

function flipLowestBit(serialHex: string): string {
  return (BigInt(`0x${serialHex}`) ^ 1n).toString(16).toUpperCase().padStart(serialHex.length, '0');
}

function appendSpace(body: Uint8Array): Uint8Array {
  return Buffer.concat([body, Buffer.from(' ')]);
}

let otherKey: KeyObject | undefined;
/** A key that is not the certificate's; made once per process (RSA key generation takes tens of milliseconds). */
function otherPrivateKey(): KeyObject {
  otherKey ??= newRsaPrivateKey();
  return otherKey;
}
