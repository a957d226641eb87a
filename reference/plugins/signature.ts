// Authentication items 3-9: every /v1 request is signed (draft-cavage with the XS2A
// rules) and dated within 60 s of the bank clock; its certificate identifies the
// TPP. TPP-Redirect-URI and TPP-Session-ID are required on every request except
// sandbox operations, because the need for SCA cannot be foreseen.
import { X509Certificate } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { verifySignedRequest, type IncomingRequest } from '../../lib/httpsig/index.js';
import { organizationIdentifierOf } from '../../lib/pki/index.js';
import { BankError } from '../errors.js';
import type { Faults } from '../faults.js';
import { checkHook, header, inParentScope, type TppIdentity } from './shared.js';

export const MAX_CLOCK_SKEW_SECONDS = 60;

/** The clock deviation the bank tolerates; faults widen or narrow it. */
function clockSkewSeconds(faults: Faults): number {
  if (faults.has('date-check-off')) return 100 * 365 * 86_400;
  if (faults.has('date-tolerance-120')) return 120;
  if (faults.has('date-tolerance-30')) return 30;
  return MAX_CLOCK_SKEW_SECONDS;
}

function identityOf(certificate: X509Certificate): TppIdentity {
  const id = organizationIdentifierOf(certificate) ?? `sha256:${certificate.fingerprint256}`;
  const name = /^O=(.+)$/m.exec(certificate.subject)?.[1] ?? /^CN=(.+)$/m.exec(certificate.subject)?.[1] ?? id;
  return { id, name, certificate };
}

/** Only under faults that skip verification: who the request claims to be, if anyone. */
function claimedIdentity(request: FastifyRequest): TppIdentity {
  const value = header(request, 'tpp-signature-certificate');
  try {
    if (value !== undefined) return identityOf(new X509Certificate(Buffer.from(value, 'base64')));
  } catch {
    // not a certificate: fall through
  }
  return { id: 'anonymous', name: 'an unidentified provider' };
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

export interface SignatureOptions extends Record<string, unknown> {
  /** When set, TPP certificates must chain to one of these CAs. */
  trustedCaPems?: string[];
}

export const signaturePlugin = inParentScope<SignatureOptions>((api, options, done) => {
  const { clock, faults } = api.bank;
  api.decorateRequest('tpp', null);
  api.decorateRequest('rawBody', null);

  // Keep the body as bytes: the Digest is checked over them before any parsing.
  api.removeAllContentTypeParsers();
  api.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  /** Items 3-8, then item 9's required headers. Faults skip verification here and nowhere else. */
  function authenticate(request: FastifyRequest): void {
    const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    request.rawBody = body;
    request.body = undefined;

    const skipAll = faults.has('signature-check-off');
    const skipMissing = faults.has('accept-missing-signature') && header(request, 'signature') === undefined;
    if (skipAll || skipMissing) {
      request.tpp = claimedIdentity(request);
    } else {
      const result = verifySignedRequest(incoming(request, body), {
        now: clock.now(),
        maxClockSkewSeconds: clockSkewSeconds(faults),
        ...(options.trustedCaPems === undefined ? {} : { trustedCaPems: options.trustedCaPems }),
      });
      if (!result.ok) {
        const code = faults.has('generic-signature-error-codes') ? 'FORMAT_ERROR' : result.failure.code;
        throw new BankError(400, code, result.failure.message);
      }
      if (faults.has('require-request-target') && !result.signedHeaders.includes('(request-target)')) {
        throw new BankError(400, 'SIGNATURE_INVALID', 'the signature must cover (request-target)');
      }
      request.tpp = identityOf(result.certificate);
    }

    if (request.routeOptions.config.sandboxOperation !== true) requireTppHeaders(request);
  }

  api.addHook('preValidation', checkHook(authenticate));

  // Berlin Group: a response carries the X-Request-ID of its request.
  api.addHook('onSend', (request, reply, payload, next) => {
    const requestId = header(request, 'x-request-id');
    if (requestId !== undefined) void reply.header('x-request-id', requestId);
    next(null, payload);
  });
  done();
});
