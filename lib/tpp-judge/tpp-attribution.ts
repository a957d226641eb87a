/**
 * Who sent a request: a TPP is its certificate's public key, with the organisation the certificate states,
 * never that name alone. Nobody without the key can be taken for the TPP; one key holder's two TPP identities
 * (the suite's default and second TPP on the embedded bank hold one key, as one tester) are two TPPs, as they
 * are to the bank (reference/state/tenants.ts: one world per key, TPPs within it by organisation). A request that
 * carries no readable certificate is attributed, in this order, to the certificate its keyId named before,
 * or to the TPP whose certificate came earlier on the same connection; otherwise it stays unidentified.
 * Where the recorder verified the signature (the judging sandbox), its verdict alone decides.
 */
import { createHash, X509Certificate } from 'node:crypto';
import { organizationIdentifierOf } from '../pki/index.js';
import { memoised, memoisedWeak } from '../support/memo.js';
import { requestHeader, type ObservedExchange } from './observed-exchange.js';

export interface TppRef {
  /** SHA-256 of the certificate's SubjectPublicKeyInfo (hex), or of it and the organisation identifier the certificate states. */
  key: string;
  /** For people: organisation name and identifier as the certificate states them, and the key's start. */
  label: string;
  /** The organisation identifier the certificate claims (shown, never trusted for identity). */
  organizationIdentifier?: string;
}

/** The TPP of requests nobody could be attributed to (no certificate, no known keyId or connection). */
export const UNIDENTIFIED: TppRef = { key: 'unidentified', label: 'unidentified sender (no readable TPP-Signature-Certificate)' };

/** The key of a certificate: SHA-256 of its public key (SPKI DER). */
export function publicKeyFingerprint(certificate: X509Certificate): string {
  return createHash('sha256')
    .update(certificate.publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex');
}

/** Who a certificate is, worked out once per certificate (a TPP sends the same one on every request). */
const REFS = new WeakMap<X509Certificate, TppRef>();

export function tppRefOf(certificate: X509Certificate): TppRef {
  return memoisedWeak(REFS, certificate, () => uncachedTppRefOf(certificate));
}

function uncachedTppRefOf(certificate: X509Certificate): TppRef {
  const publicKey = publicKeyFingerprint(certificate);
  const organizationIdentifier = organizationIdentifierOf(certificate);
  const key =
    organizationIdentifier === undefined ? publicKey : createHash('sha256').update(`${publicKey}\n${organizationIdentifier}`).digest('hex');
  const name = /^O=(.+)$/m.exec(certificate.subject)?.[1] ?? /^CN=(.+)$/m.exec(certificate.subject)?.[1];
  const claimed = [name, organizationIdentifier].filter((part) => part !== undefined).join(', ');
  return {
    key,
    label: `${claimed || 'TPP'} (key ${publicKey.slice(0, 12)})`,
    ...(organizationIdentifier === undefined ? {} : { organizationIdentifier }),
  };
}

/** A certificate header value parsed, or undefined when it is not a certificate (memoised: a TPP sends the same one). */
const PARSED = new Map<string, X509Certificate | null>();

export function certificateOf(exchange: ObservedExchange): X509Certificate | undefined {
  const value = requestHeader(exchange, 'tpp-signature-certificate')?.trim();
  if (value === undefined || !/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return undefined;
  return (
    memoised(PARSED, value, () => {
      try {
        return new X509Certificate(Buffer.from(value, 'base64'));
      } catch {
        return null;
      }
    }) ?? undefined
  );
}

/** Attribution of the requests of one source (one judge): remembers keyIds and connections. */
export class TppAttribution {
  private readonly byKeyId = new Map<string, TppRef>();
  private readonly byConnection = new Map<string, TppRef>();

  of(exchange: ObservedExchange): TppRef {
    // What the recorder verified wins: a request whose signature failed is nobody's, whatever it carries.
    if (exchange.signer === null) return UNIDENTIFIED;
    if (exchange.signer !== undefined) return tppRefOf(exchange.signer);
    const keyId = /keyId="([^"]*)"/.exec(requestHeader(exchange, 'signature') ?? '')?.[1];
    const certificate = certificateOf(exchange);
    if (certificate !== undefined) {
      const tpp = tppRefOf(certificate);
      if (keyId !== undefined) remember(this.byKeyId, keyId, tpp);
      if (exchange.connection !== undefined) remember(this.byConnection, exchange.connection, tpp);
      return tpp;
    }
    return (
      (keyId === undefined ? undefined : this.byKeyId.get(keyId)) ??
      (exchange.connection === undefined ? undefined : this.byConnection.get(exchange.connection)) ??
      UNIDENTIFIED
    );
  }
}

/** Bounded like the memo: a stream of distinct keyIds or connections cannot grow it without end. */
function remember(map: Map<string, TppRef>, key: string, tpp: TppRef): void {
  if (map.size >= 10_000 && !map.has(key)) map.delete(map.keys().next().value as string);
  map.set(key, tpp);
}
