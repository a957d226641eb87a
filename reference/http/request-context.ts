// What every route reads of a request: the decorators' types (`request.switches`, `request.world`, `request.tpp`),
// its headers, its TPP, and the links it is answered with. Shared by the plugins and the services.
import type { FastifyRequest, preValidationHookHandler } from 'fastify';
import type { BankContext, TppIdentity } from './bank-context.js';
import type { World } from '../state/world.js';
import type { Tenants } from '../state/tenants.js';
import { defineVariant, type BehaviourSwitches, type TppSwitches } from '../switches.js';

export { header, psuPresent, tppOf, type BankContext, type TppIdentity } from './bank-context.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every TPP's sandbox world (reference/state/tenants.ts): only to give a request its `world`. */
    tenants: Tenants;
    /** The bank's behaviour switches (reference/switches.ts): only to give a request its `bank` handle. */
    switches: BehaviourSwitches;
  }
  interface FastifyRequest {
    /**
     * The bank as this request's TPP meets it: `request.switches.breaks(fault)`, `request.switches.reads(variant)`.
     * Set once the TPP is known (the signature plugin; the SCA pages from their authorisation); before, the
     * switches on for every TPP.
     */
    switches: TppSwitches;
    /**
     * The sandbox world of this request's TPP (its certificate's key holder): every state a request reads or
     * changes is this world's. Chosen where `bank` is; before, the world of no one.
     */
    world: World;
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

const relativeResourceLinks = defineVariant('relative-resource-links', {
  description:
    'the links of payments and signing baskets (self, status, the authorisation) are written as paths ("/v1/payments/…"), as the account links already are, not as absolute URLs',
  allowedBy:
    'Link: "href (string, required)": no absolute form is asked for; Berlin Group writes the hrefs of its examples as paths ("/v1/payments/sepa-credit-transfers/1234-wertiq-983")',
  source: 'Specification, Resources > Link; Berlin Group 1.3.8, hrefType and the response examples',
});

/** The href of an interface resource at `path` (under /v1): absolute, or the path alone where the bank writes links relative. */
export function apiHref(request: Pick<BankContext, 'switches' | 'world'>, path: string): string {
  return request.switches.reads(relativeResourceLinks) ? path : `${request.world.baseUrl}${path}`;
}
