// Adds what every request carries (spec Authentication items 3-7): a fresh
// X-Request-ID, Date, Digest over the exact body bytes, TPP-Signature-Certificate
// and Signature; then applies any deliberate faults. Pure apart from
// randomness, so it can be tested without a network.
import { createHash, generateKeyPairSync, randomUUID } from 'node:crypto';
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
  /** Method, path with query and host as sent: what (request-target) and host sign, when a fault asks for them. */
  requestTarget?: { method: string; path: string; host: string };
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
  if (hasFault(faults, 'wrong-digest')) headers.set('Digest', computeDigest(appendSpace(body), input.digestAlgorithm));
  const digestAlgorithm = findFault(faults, 'digest-algorithm');
  if (digestAlgorithm) headers.set('Digest', `${digestAlgorithm.name}=${createHash('md5').update(body).digest('base64')}`);

  if (!hasFault(faults, 'no-certificate')) generate('TPP-Signature-Certificate', () => input.identity.signatureCertificate);

  let signedHeaders: SignableHeader[] = [];
  if (!hasFault(faults, 'no-signature') && !omitted.has('signature') && !headers.has('Signature')) {
    signedHeaders = headerList(headers, faults);
    headers.set('Signature', signatureHeaderValue(headers, signedHeaders, input, faults));
    const changed = findFault(faults, 'header-changed-after-signing');
    if (changed) headers.set(changed.header, changedValue(changed.header, headers.get(changed.header) ?? ''));
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

function signatureHeaderValue(headers: HeaderFields, names: SignableHeader[], input: SigningInput, faults: readonly RequestFault[]): string {
  const { identity } = input;
  const absent = findFault(faults, 'sign-absent-header')?.header;
  const listed: string[] = [...(findFault(faults, 'extra-signed-headers')?.names ?? []), ...names, ...(absent ? [absent] : [])];
  const valueOf = (name: string) => (name === absent ? '' : name === 'host' ? input.requestTarget?.host : headers.get(name));
  const signingString = buildSigningString(listed, valueOf, input.requestTarget);
  let signature = hasFault(faults, 'wrong-key') ? signRsaSha256(signingString, otherPrivateKey()) : identity.sign(signingString);
  if (hasFault(faults, 'altered-signature')) signature = `${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
  let value = formatSignatureHeader({
    keyId: findFault(faults, 'key-id')?.value ?? keyIdFor(identity, faults),
    algorithm: findFault(faults, 'algorithm')?.name ?? SIGNATURE_ALGORITHM,
    headers: hasFault(faults, 'headers-part-reordered') ? [...listed].reverse() : listed,
    signature,
  });
  const without = findFault(faults, 'signature-without-part')?.part;
  if (without) value = value.split(/,(?=[a-zA-Z]+=")/).filter((part) => !part.startsWith(`${without}=`)).join(',');
  const rfc2047 = findFault(faults, 'rfc2047-signature');
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
