// Authentication items 3-9: every /v1 request is signed (draft-cavage with the XS2A
// rules) and dated within 60 s of the bank clock; its certificate identifies the
// TPP. TPP-Redirect-URI and TPP-Session-ID are required on every request except
// sandbox operations, because the need for SCA cannot be foreseen.
import { X509Certificate } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { decodeRfc2047, isSignableHeader, keyIdOf, verifySignedRequest, type IncomingRequest, type VerificationFailureCode, type VerifierQuirk } from '../../lib/httpsig/index.js';
import { organizationIdentifierOf, readPsd2QcStatement, type Psd2Role } from '../../lib/pki/index.js';
import { memoised } from '../../lib/support/memo.js';
import { BankError, type ErrorCode } from '../errors.js';
import { defineFault, type Fault } from '../faults.js';
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

// Item 3 to 8, one fault per rule: each switches the verifier's matching deviation on for its TPP.
const VERIFIER_FAULTS: readonly [Fault, VerifierQuirk][] = [
  [defineFault('signature-value-unchecked', { description: 'does not verify the RSA-SHA256 signature value', breaks: ['SIG-06', 'SIG-22'] }), 'skip-signature-value'],
  [defineFault('accept-wrong-digest', { description: 'accepts any Digest value: one that does not match the body, or in another algorithm', breaks: ['HDR-09', 'HDR-08'] }), 'skip-digest-value'],
  [defineFault('digest-optional', { description: 'accepts a signed request without Digest', breaks: ['HDR-07'] }), 'digest-optional'],
  [defineFault('date-optional', { description: 'accepts a signed request without Date', breaks: ['SIG-11'] }), 'date-optional'],
  [defineFault('date-any-format', { description: 'accepts a Date in any form (ISO 8601 too), not only an HTTP-date', breaks: ['FMT-08'] }), 'any-date-format'],
  [defineFault('kid-unchecked', { description: 'does not check the keyId form nor compare it with the certificate', breaks: ['SIG-17', 'ERR-37'] }), 'skip-key-id'],
  [defineFault('keyid-optional', { description: 'accepts a Signature without keyId', breaks: ['SIG-18', 'ERR-37'] }), 'key-id-optional'],
  [defineFault('any-signature-algorithm', { description: 'accepts any algorithm name in the Signature header', breaks: ['SIG-20'] }), 'any-algorithm'],
  [defineFault('signature-parts-defaulted', { description: 'a Signature without algorithm, headers or signature part gets defaults instead of a 400', breaks: ['SIG-14'] }), 'default-signature-parts'],
  [defineFault('signed-header-coverage-unchecked', { description: 'accepts signatures that leave out signable headers present in the request', breaks: ['SIG-25'] }), 'skip-coverage'],
  [defineFault('signing-string-fixed-order', { description: 'builds the signing string in its own header order, not the order of the headers part', breaks: ['SIG-21', 'SIG-23'] }), 'fixed-signing-order'],
  [defineFault('absent-signed-header-as-empty', { description: 'a header the headers part names but the request lacks is signed as empty instead of refused', breaks: ['SIG-24'] }), 'absent-header-as-empty'],
  [defineFault('rfc2047-not-decoded', { description: 'does not decode an RFC 2047-encoded Signature header', breaks: ['SIG-27'] }), 'no-rfc2047'],
  [defineFault('untrusted-ca-accepted', { description: 'accepts certificates from CAs it does not trust', breaks: ['SIG-02'] }), 'skip-trust'],
  [defineFault('expired-certificate-accepted', { description: 'accepts expired or not yet valid certificates', breaks: ['SIG-09'] }), 'skip-validity'],
  [defineFault('x-request-id-optional', { description: 'serves signed requests without X-Request-ID (or with an empty one)', breaks: ['HDR-02'] }), 'request-id-optional'],
  [defineFault('signing-string-crlf', { description: 'joins the signing string lines with CRLF, unlike draft-cavage', breaks: ['SIG-28', 'HDR-11'] }), 'crlf-signing-string'],
];
const kidErrorAs401 = defineFault('kid-error-as-401', {
  description: 'answers a KID error (keyId missing, malformed or naming another certificate) with 401 instead of 400',
  breaks: ['SIG-17', 'SIG-18', 'ERR-37'],
});
const kidVariantAs401 = defineFault('kid-variant-as-401', {
  description: 'answers 401 to a keyId that names the right certificate in a variant form (lower-case serial, other DN order)',
  breaks: ['SIG-19'],
});
const keyIdSpecFormRefused = defineFault('keyid-spec-form-refused', {
  description: 'refuses the keyId in the form the specification gives (upper-case serial, RFC 2253 issuer)',
  breaks: ['SIG-16'],
});
const requirePsuIdSigned = defineFault('require-psu-id-signed', {
  description: 'refuses signatures that do not cover psu-id, even when the request has no PSU-ID',
  breaks: ['SIG-24'],
});
const extraSignedHeadersRefused = defineFault('extra-signed-headers-refused', {
  description: 'refuses signatures covering headers beyond the signable ones ((request-target), host)',
  breaks: ['SIG-21', 'SIG-26'],
});
const sha512DigestRefused = defineFault('sha512-digest-refused', {
  description: 'refuses a SHA-512 Digest (only SHA-256 is taken)',
  breaks: ['HDR-08'],
});
const rolesUnchecked = defineFault('roles-unchecked', {
  description: 'serves a TPP whose certificate lacks the PSD2 role the service needs (account information without PSP_AI)',
  breaks: ['SIG-08'],
});
const roleRefusalAsFormatError = defineFault('role-refusal-as-format-error', {
  description: 'refuses a TPP without the needed PSD2 role with FORMAT_ERROR instead of FORBIDDEN',
  breaks: ['ERR-13'],
});

/** Authentication 2: the PSD2 role each service needs (ETSI TS 119 495); the paths of the others need none here. */
const ROLE_FOR_PATH: readonly [RegExp, Psd2Role][] = [
  [/^\/v1\/(accounts|card-accounts|consents|bank-offered-consents)(?:[/?]|$)/, 'PSP_AI'],
  [/^\/v1\/(payments|bulk-payments|periodic-payments|signing-baskets)(?:[/?]|$)/, 'PSP_PI'],
];

/** PSD2 roles by certificate header value: read once per certificate. */
const rolesByCertificate = new Map<string, readonly Psd2Role[]>();

function rolesOf(value: string, certificate: X509Certificate): readonly Psd2Role[] {
  return memoised(rolesByCertificate, value, () => {
    try {
      return readPsd2QcStatement(certificate)?.roles ?? [];
    } catch {
      return [];
    }
  });
}

const certificateUnchecked = defineFault('certificate-unchecked', {
  description: 'serves a request whose TPP-Signature-Certificate is missing or not a certificate, as the TPP its keyId named before',
  breaks: ['HDR-10'],
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
  /** By keyId text, for requests whose certificate is missing or broken: who sent that keyId before. */
  private readonly byKeyId = new Map<string, TppIdentity>();

  of(request: FastifyRequest): TppIdentity | null {
    const value = header(request, 'tpp-signature-certificate');
    const keyId = /keyId="([^"]*)"/.exec(header(request, 'signature') ?? '')?.[1];
    const identity = value === undefined ? null : this.parsed(value);
    if (identity === null) return keyId === undefined ? null : (this.byKeyId.get(keyId) ?? null);
    if (keyId !== undefined) memoised(this.byKeyId, keyId, () => identity);
    return identity;
  }

  private parsed(value: string): TppIdentity | null {
    return memoised(this.cache, value, () => {
      try {
        return identityOf(new X509Certificate(Buffer.from(value, 'base64')));
      } catch {
        return null;
      }
    });
  }
}

function incoming(request: FastifyRequest, body: Buffer): IncomingRequest {
  const headers: Record<string, string | undefined> = {};
  for (const name of Object.keys(request.headers)) headers[name] = header(request, name);
  return { method: request.method, path: request.url, headers, body };
}

const tppRedirectUriOptional = defineFault('tpp-redirect-uri-optional', {
  description: 'serves requests without a TPP-Redirect-URI (or with an empty one)',
  breaks: ['HDR-06', 'SCA-04'],
});

const tppSessionIdOptional = defineFault('tpp-session-id-optional', {
  description: 'serves requests without a TPP-Session-ID',
  breaks: ['HDR-05'],
});

function requireTppHeaders(request: FastifyRequest, redirectUriOptional: boolean, sessionIdOptional: boolean): void {
  if (redirectUriOptional && !header(request, 'tpp-redirect-uri')?.trim()) return;
  for (const name of sessionIdOptional ? ['TPP-Redirect-URI'] : ['TPP-Redirect-URI', 'TPP-Session-ID']) {
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

    /** Where certificates are validated as in production (trust anchors given): the role the service needs. */
    function requireRole(request: FastifyRequest, certificate: X509Certificate): void {
      const needed = ROLE_FOR_PATH.find(([pattern]) => pattern.test(request.url))?.[1];
      if (needed === undefined || faults.on(rolesUnchecked, request.tppId)) return;
      if (rolesOf(header(request, 'tpp-signature-certificate') ?? '', certificate).includes(needed)) return;
      const code = faults.on(roleRefusalAsFormatError, request.tppId) ? 'FORMAT_ERROR' : 'FORBIDDEN';
      throw new BankError(403, code, `the TPP certificate does not carry the PSD2 role ${needed} this service needs`);
    }

    /** Faults that refuse what the verifier accepted. */
    function refuseByFault(request: FastifyRequest, certificate: X509Certificate, signedHeaders: readonly string[]): void {
      const on = (fault: Fault) => faults.on(fault, request.tppId);
      if (on(requireRequestTarget) && !signedHeaders.includes('(request-target)')) {
        throw new BankError(400, 'FORMAT_ERROR', 'the signature must cover (request-target)');
      }
      if (on(sha512DigestRefused) && /^\s*sha-512=/i.test(header(request, 'digest') ?? '')) throw new BankError(400, 'FORMAT_ERROR', 'Digest must be SHA-256');
      if (on(requirePsuIdSigned) && !signedHeaders.includes('psu-id')) throw new BankError(400, 'FORMAT_ERROR', 'the signature must cover psu-id');
      if (on(extraSignedHeadersRefused) && !signedHeaders.every(isSignableHeader)) {
        throw new BankError(400, 'FORMAT_ERROR', 'the signature may cover only the signable headers');
      }
      if (on(kidVariantAs401) || on(keyIdSpecFormRefused)) {
        const keyId = /keyId="([^"]*)"/.exec(decodeRfc2047(header(request, 'signature') ?? ''))?.[1];
        const specForm = keyId === keyIdOf(certificate);
        if (on(kidVariantAs401) && !specForm) throw new BankError(401, 'KID_INVALID', 'keyId is not written exactly as SN=<upper-case hex>,CA=<RFC 2253 issuer>');
        if (on(keyIdSpecFormRefused) && specForm) throw new BankError(400, 'KID_INVALID', 'keyId must name the issuer in certificate order');
      }
    }

    /** Items 3-8, then item 9's required headers. Faults skip verification here and nowhere else. */
    function authenticate(request: FastifyRequest): void {
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      request.rawBody = body;
      request.body = undefined;
      const tppId = request.tppId;

      const skipAll = faults.on(signatureCheckOff, tppId);
      const skipMissing = faults.on(acceptMissingSignature, tppId) && header(request, 'signature') === undefined;
      const anonymous = () => claimed.of(request) ?? { id: 'anonymous', name: 'an unidentified provider' };
      if (skipAll || skipMissing) {
        request.tpp = anonymous();
      } else {
        const quirks = new Set(VERIFIER_FAULTS.filter(([fault]) => faults.on(fault, tppId)).map(([, quirk]) => quirk));
        const result = verifySignedRequest(incoming(request, body), {
          now: clock.now(),
          maxClockSkewSeconds: clockSkewSeconds(tppId),
          ...(quirks.size > 0 ? { quirks } : {}),
          ...(options.trustedCaPems === undefined ? {} : { trustedCaPems: options.trustedCaPems }),
        });
        const certificateProblem = !result.ok && ['CERTIFICATE_MISSING', 'CERTIFICATE_INVALID'].includes(result.failure.code);
        if (!result.ok && certificateProblem && faults.on(certificateUnchecked, tppId)) {
          request.tpp = anonymous();
        } else if (!result.ok) {
          const code = faults.on(berlinGroupSignatureCodes, tppId) ? (result.failure.code as ErrorCode) : SPEC_CODE[result.failure.code];
          const kidError = code === 'KID_MISSING' || code === 'KID_INVALID';
          throw new BankError(kidError && faults.on(kidErrorAs401, tppId) ? 401 : 400, code, result.failure.message);
        } else {
          refuseByFault(request, result.certificate, result.signedHeaders);
          if (options.trustedCaPems !== undefined) requireRole(request, result.certificate);
          // The certificate verified is the one the claimed identity was read from (cached per header value).
          request.tpp = claimed.of(request) ?? identityOf(result.certificate);
        }
      }

      if (request.routeOptions.config.sandboxOperation !== true) requireTppHeaders(request, faults.on(tppRedirectUriOptional, request.tppId), faults.on(tppSessionIdOptional, request.tppId));
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
