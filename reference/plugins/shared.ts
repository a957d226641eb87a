// What the plugins share: the decorators' types and header access.
import type { X509Certificate } from 'node:crypto';
import type { FastifyRequest, preValidationHookHandler } from 'fastify';
import type { BankState } from '../state/bank.js';
import type { BehaviourSwitches, TppBank } from '../switches.js';

/** The TPP a request comes from, as identified by its signing certificate. */
export interface TppIdentity {
  /** organizationIdentifier of the certificate, else its SHA-256 fingerprint. */
  id: string;
  /** Shown to the PSU on the consent page: the certificate's organisation name. */
  name: string;
  certificate?: X509Certificate;
}

declare module 'fastify' {
  interface FastifyInstance {
    bank: BankState;
    /** The bank's behaviour switches (reference/switches.ts): only to give a request its `bank` handle. */
    switches: BehaviourSwitches;
  }
  interface FastifyRequest {
    /**
     * The bank as this request's TPP meets it: `request.bank.breaks(fault)`, `request.bank.reads(variant)`.
     * Set once the TPP is known (the signature plugin; the SCA pages from their authorisation); before, the
     * switches on for every TPP.
     */
    bank: TppBank;
    /** Set for /v1 requests once the signature is verified. */
    tpp: TppIdentity | null;
    /** Who the request claims to be (its certificate's organizationIdentifier), known before verification. */
    tppId: string | undefined;
    /** The exact request body bytes (the Digest covers them). */
    rawBody: Buffer | null;
  }
  interface FastifyContextConfig {
    /** Sandbox operations need no TPP-Redirect-URI or TPP-Session-ID. */
    sandboxOperation?: boolean;
  }
}

/** Route config of a sandbox operation. */
export const SANDBOX_OPERATION = { sandboxOperation: true } as const;

/** A request header by lower-case name; repeated headers are joined as HTTP allows. */
export function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The TPP of a /v1 request; the signature plugin guarantees it is set. */
export function tppOf(request: FastifyRequest): TppIdentity {
  if (request.tpp === null) throw new Error('TPP identity missing: signature plugin not installed');
  return request.tpp;
}

/** A preValidation hook from a synchronous check that throws to reject the request. */
export function checkHook(check: (request: FastifyRequest) => void): preValidationHookHandler {
  return (request, _reply, done) => {
    try {
      check(request);
      done();
    } catch (error) {
      done(error as Error);
    }
  };
}
