// Adds what every request carries (spec Authentication items 3-7): a fresh
// X-Request-ID, Date, Digest over the exact body bytes, TPP-Signature-Certificate
// and Signature; then applies any deliberate faults. Pure apart from
// randomness, so it can be tested without a network.
import { generateKeyPairSync, randomUUID } from 'node:crypto';
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
import { findFault, hasFault } from './faults.js';
import type { RequestFault } from './faults.js';
import type { HeaderFields } from './header-fields.js';
import type { TppIdentity } from './identity.js';

export interface SigningInput {
  /** Headers chosen by the caller. Any of X-Request-ID, Date, Digest, TPP-Signature-Certificate or Signature given here is sent as given instead of generated. */
  headers: HeaderFields;
  body: Uint8Array | undefined;
  identity: TppIdentity;
  /** The instant for Date, TPP clock skew already applied. */
  now: Date;
  digestAlgorithm: DigestAlgorithm;
  faults: readonly RequestFault[];
  /** Headers the request must go without: they are not generated (and so not signed). */
  omitHeaders?: readonly string[];
}

export interface SignedRequest {
  headers: HeaderFields;
  body: Uint8Array | undefined;
  /** The signed header names in the order listed (empty when no signature was made). */
  signedHeaders: SignableHeader[];
}

export function signRequest(input: SigningInput): SignedRequest {
  const { headers, faults } = input;
  const body = input.body ?? new Uint8Array();
  const omitted = new Set((input.omitHeaders ?? []).map((name) => name.toLowerCase()));
  const generate = (name: string, value: () => string) => {
    if (!omitted.has(name.toLowerCase())) headers.setIfAbsent(name, value);
  };

  generate('X-Request-ID', () => randomUUID());
  const skew = findFault(faults, 'date-skew')?.seconds ?? 0;
  generate('Date', () => formatHttpDate(new Date(input.now.getTime() + skew * 1000)));
  // The Digest of an absent body is the digest of zero bytes: Digest goes wherever Signature goes.
  generate('Digest', () => computeDigest(body, input.digestAlgorithm));
  if (hasFault(faults, 'no-date')) headers.delete('Date');
  if (hasFault(faults, 'no-digest')) headers.delete('Digest');

  if (!hasFault(faults, 'no-certificate')) generate('TPP-Signature-Certificate', () => input.identity.signatureCertificate);

  let signedHeaders: SignableHeader[] = [];
  if (!hasFault(faults, 'no-signature') && !omitted.has('signature') && !headers.has('Signature')) {
    signedHeaders = headerList(headers, faults);
    headers.set('Signature', signatureHeaderValue(headers, signedHeaders, input.identity, faults));
  }

  const sentBody = hasFault(faults, 'body-changed-after-signing') ? appendSpace(body) : input.body;
  return { headers, body: sentBody, signedHeaders };
}

/** Item 6: the signable headers present, in SIGNABLE_HEADERS order, unless a fault says otherwise. */
function headerList(headers: HeaderFields, faults: readonly RequestFault[]): SignableHeader[] {
  const unsigned = faults.flatMap((fault) => (fault.kind === 'unsigned-header' ? [fault.header] : []));
  const names = SIGNABLE_HEADERS.filter((name) => headers.has(name) && !unsigned.includes(name));
  return hasFault(faults, 'headers-out-of-order') ? [...names].reverse() : names;
}

function signatureHeaderValue(headers: HeaderFields, names: SignableHeader[], identity: TppIdentity, faults: readonly RequestFault[]): string {
  const signingString = buildSigningString(names, (name) => headers.get(name));
  const signature = hasFault(faults, 'wrong-key') ? signRsaSha256(signingString, otherPrivateKey()) : identity.sign(signingString);
  const value = formatSignatureHeader({
    keyId: keyIdFor(identity, faults),
    algorithm: findFault(faults, 'algorithm')?.name ?? SIGNATURE_ALGORITHM,
    headers: names,
    signature,
  });
  // Item 7: a value that is not ASCII travels RFC 2047-encoded.
  return needsRfc2047(value) ? encodeRfc2047(value) : value;
}

function keyIdFor(identity: TppIdentity, faults: readonly RequestFault[]): string {
  const wrongSerial = findFault(faults, 'wrong-serial');
  const wrongIssuer = findFault(faults, 'wrong-issuer');
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
  otherKey ??= generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  return otherKey;
}
