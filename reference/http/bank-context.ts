// What a service of the bank reads of a request, with nothing of HTTP's framework: the TPP's world, the
// bank as that TPP meets it (its switches), the TPP, the request's headers and URL. A fastify request is
// one (its decorators `world`, `switches` and `tpp` are set once, when the TPP is known): a plugin passes its
// `request`, a service takes a BankContext. test/architecture/bank-services.test.ts keeps fastify out of
// the services and the state.
import type { X509Certificate } from 'node:crypto';
import type { World } from '../state/world.js';
import type { TppSwitches } from '../switches.js';

/** The TPP a request comes from, as identified by its signing certificate. */
export interface TppIdentity {
  /** organizationIdentifier of the certificate, else its SHA-256 fingerprint. */
  id: string;
  /** Who holds the certificate's private key (a digest of its public key): the tenant whose world the TPP acts in. */
  keyHolder: string;
  /** Shown to the PSU on the consent page: the certificate's organisation name. */
  name: string;
  certificate?: X509Certificate;
}

/** The request's headers, by lower-case name, as node gives them. */
export type RequestHeaders = Readonly<Record<string, string | string[] | undefined>>;

export interface BankContext {
  /** The sandbox world of the request's TPP (its certificate's key holder). */
  readonly world: World;
  /** The bank as the request's TPP meets it: `switches.breaks(fault)`, `switches.reads(variant)`. */
  readonly switches: TppSwitches;
  /** The TPP, once its signature is verified. */
  readonly tpp: TppIdentity | null;
  readonly headers: RequestHeaders;
  /** Path and query. */
  readonly url: string;
}

/** A request header by lower-case name; repeated headers are joined as HTTP allows. */
export function header(request: { readonly headers: RequestHeaders }, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The TPP of a /v1 request; the signature plugin guarantees it is set. */
export function tppOf(request: { readonly tpp: TppIdentity | null }): TppIdentity {
  if (request.tpp === null) throw new Error('TPP identity missing: signature plugin not installed');
  return request.tpp;
}

/** Whether the PSU takes part in this request: the TPP forwards the PSU's address only then (Limits). */
export function psuPresent(request: { readonly headers: RequestHeaders }): boolean {
  return header(request, 'psu-ip-address') !== undefined;
}
