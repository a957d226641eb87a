// Authentication items 3-9: every /v1 request is signed (draft-cavage with the XS2A
// rules) and dated within 60 s of the bank clock; its certificate identifies the
// TPP. TPP-Redirect-URI and TPP-Session-ID are required on every request except
// sandbox operations, because the need for SCA cannot be foreseen.
import { X509Certificate } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { verifySignedRequest, type IncomingRequest, type VerificationFailureCode } from '../../lib/httpsig/index.js';
import { organizationIdentifierOf } from '../../lib/pki/index.js';
import { BankError, type ErrorCode } from '../errors.js';
import { defineFault } from '../faults.js';
import { checkHook, header, type TppIdentity } from './shared.js';

export const MAX_CLOCK_SKEW_SECONDS = 60;

const signatureCheckOff = defineFault('signature-check-off', {
  description: 'accepts requests with any signature, or none at all, and any Date',
  breaks: ['SIG-04', 'ERR-35', 'SIG-12', 'LIM-01'],
});
const acceptMissingSignature = defineFault('accept-missing-signature', {
  description: 'accepts requests without a Signature header (invalid signatures are still rejected)',
  breaks: ['SIG-04', 'ERR-35'],
});
const dateCheckOff = defineFault('date-check-off', {
  description: 'does not check the Date header against the bank clock',
  breaks: ['SIG-12', 'LIM-01'],
});
const dateTolerance120 = defineFault('date-tolerance-120', {
  description: 'accepts a Date header up to 120 seconds off (instead of 60)',
  breaks: ['SIG-12', 'LIM-01'],
});
const dateTolerance30 = defineFault('date-tolerance-30', {
  description: 'rejects a Date header more than 30 seconds off (instead of 60)',
  breaks: ['LIM-01'],
});
const requireRequestTarget = defineFault('require-request-target', {
  description: 'refuses signatures that do not cover (request-target), which the specification does not ask for',
  breaks: ['SIG-03'],
});
const berlinGroupSignatureCodes = defineFault('berlin-group-signature-codes', {
  description: 'signature and Date failures answer the Berlin Group codes (SIGNATURE_MISSING, TIMESTAMP_INVALID…), which are not in the specification\'s list',
  breaks: ['ERR-43', 'SIG-05', 'SIG-13'],
});

const noRequestIdEcho = defineFault('no-request-id-echo', {
  description: 'responses do not repeat the X-Request-ID of the request',
  breaks: ['HDR-03'],
});

/**
 * The verifier names what failed in Berlin Group terms; the answer uses the specification's code list
 * (catalogue ERR-43), which has no signature codes of its own.
 */
const SPEC_CODE: Record<VerificationFailureCode, ErrorCode> = {
  SIGNATURE_MISSING: 'HTTP_HEADER_REQUIRED',
  CERTIFICATE_MISSING: 'HTTP_HEADER_REQUIRED',
  HTTP_HEADER_REQUIRED: 'HTTP_HEADER_REQUIRED',
  SIGNATURE_INVALID: 'FORMAT_ERROR',
  TIMESTAMP_INVALID: 'FORMAT_ERROR',
  FORMAT_ERROR: 'FORMAT_ERROR',
  KID_MISSING: 'KID_MISSING',
  KID_INVALID: 'KID_INVALID',
  CERTIFICATE_INVALID: 'BAD_REQUEST',
  CERTIFICATE_EXPIRED: 'BAD_REQUEST',
};

function identityOf(certificate: X509Certificate): TppIdentity {
  const id = organizationIdentifierOf(certificate) ?? `sha256:${certificate.fingerprint256}`;
  const name = /^O=(.+)$/m.exec(certificate.subject)?.[1] ?? /^CN=(.+)$/m.exec(certificate.subject)?.[1] ?? id;
  return { id, name, certificate };
}

/**
 * Who a request claims to be, from its TPP-Signature-Certificate, before anything is verified: faults are
 * switched per TPP, so the bank must know whose request it is even when it is about to refuse it. Parsed
 * certificates are kept (a TPP sends the same one on every request).
 */
class ClaimedIdentities {
  private readonly cache = new Map<string, TppIdentity | null>();

  of(request: FastifyRequest): TppIdentity | null {
    const value = header(request, 'tpp-signature-certificate');
    if (value === undefined) return null;
    let identity = this.cache.get(value);
    if (identity === undefined) {
      try {
        identity = identityOf(new X509Certificate(Buffer.from(value, 'base64')));
      } catch {
        identity = null;
      }
      if (this.cache.size > 1000) this.cache.clear();
      this.cache.set(value, identity);
    }
    return identity;
  }
}

function incoming(request: FastifyRequest, body: Buffer): IncomingRequest {
  const headers: Record<string, string | undefined> = {};
  for (const name of Object.keys(request.headers)) headers[name] = header(request, name);
  return { method: request.method, path: request.url, headers, body };
}

function requireTppHeaders(request: FastifyRequest): void {
  for (const name of ['TPP-Redirect-URI', 'TPP-Session-ID']) {
    const value = header(request, name.toLowerCase());
    if (value === undefined || value.trim() === '') throw new BankError(400, 'HTTP_HEADER_REQUIRED', `Header ${name} is required`);
  }
  const redirectUri = header(request, 'tpp-redirect-uri') ?? '';
  if (!URL.canParse(redirectUri) || !/^https?:$/.test(new URL(redirectUri).protocol)) {
    throw new BankError(400, 'FORMAT_ERROR', 'Header TPP-Redirect-URI must be an absolute http or https URI');
  }
}

export interface SignatureOptions {
  /** When set, TPP certificates must chain to one of these CAs. */
  trustedCaPems?: string[];
}

export const signaturePlugin = fp<SignatureOptions>(
  (api, options, done) => {
    const { clock, faults } = api.bank;
    const claimed = new ClaimedIdentities();
    api.decorateRequest('tpp', null);
    api.decorateRequest('tppId', undefined);
    api.decorateRequest('rawBody', null);

    // Keep the body as bytes: the Digest is checked over them before any parsing.
    api.removeAllContentTypeParsers();
    api.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, parsed) => parsed(null, body));

    api.addHook('onRequest', (request, _reply, next) => {
      request.tppId = claimed.of(request)?.id;
      next();
    });

    /** The clock deviation the bank tolerates for this TPP; faults widen or narrow it. */
    function clockSkewSeconds(tppId: string | undefined): number {
      if (faults.on(dateCheckOff, tppId)) return 100 * 365 * 86_400;
      if (faults.on(dateTolerance120, tppId)) return 120;
      if (faults.on(dateTolerance30, tppId)) return 30;
      return MAX_CLOCK_SKEW_SECONDS;
    }

    /** Items 3-8, then item 9's required headers. Faults skip verification here and nowhere else. */
    function authenticate(request: FastifyRequest): void {
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      request.rawBody = body;
      request.body = undefined;
      const tppId = request.tppId;

      const skipAll = faults.on(signatureCheckOff, tppId);
      const skipMissing = faults.on(acceptMissingSignature, tppId) && header(request, 'signature') === undefined;
      if (skipAll || skipMissing) {
        request.tpp = claimed.of(request) ?? { id: 'anonymous', name: 'an unidentified provider' };
      } else {
        const result = verifySignedRequest(incoming(request, body), {
          now: clock.now(),
          maxClockSkewSeconds: clockSkewSeconds(tppId),
          ...(options.trustedCaPems === undefined ? {} : { trustedCaPems: options.trustedCaPems }),
        });
        if (!result.ok) {
          const code = faults.on(berlinGroupSignatureCodes, tppId) ? (result.failure.code as ErrorCode) : SPEC_CODE[result.failure.code];
          throw new BankError(400, code, result.failure.message);
        }
        if (faults.on(requireRequestTarget, tppId) && !result.signedHeaders.includes('(request-target)')) {
          throw new BankError(400, 'FORMAT_ERROR', 'the signature must cover (request-target)');
        }
        request.tpp = identityOf(result.certificate);
      }

      if (request.routeOptions.config.sandboxOperation !== true) requireTppHeaders(request);
    }

    api.addHook('preValidation', checkHook(authenticate));

    // Berlin Group: a response carries the X-Request-ID of its request.
    api.addHook('onSend', (request, reply, payload, next) => {
      const requestId = header(request, 'x-request-id');
      if (requestId !== undefined && !faults.on(noRequestIdEcho, request.tppId)) void reply.header('x-request-id', requestId);
      next(null, payload);
    });
    done();
  },
  { name: 'signature', decorators: { fastify: ['bank'] } },
);
