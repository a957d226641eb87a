// Authentication items 3-9: every /v1 request is signed (draft-cavage with the XS2A
// rules) and dated within 60 s of the bank clock; its certificate identifies the
// TPP. TPP-Redirect-URI and TPP-Session-ID are required on every request except
// sandbox operations, because the need for SCA cannot be foreseen.
import { createHash, X509Certificate } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  decodeRfc2047,
  isSignableHeader,
  keyIdOf,
  verifySignedRequest,
  type IncomingRequest,
  type VerificationFailureCode,
  type VerificationPolicy,
} from '../../lib/httpsig/index.js';
import { organizationIdentifierOf, type Psd2Role } from '../../lib/pki/index.js';
import { memoised, memoisedWeak } from '../../lib/support/memo.js';
import { BankError, type ErrorCode } from '../bank-errors.js';
import { defineFault, defineVariant, type Fault, type TppSwitches, type Variant } from '../switches.js';
import { UNVERIFIED } from '../state/tenants.js';
import { checkHook, header, type TppIdentity } from '../http/request-context.js';
import { rolesOf } from '../services/tpp-roles.js';

export const MAX_CLOCK_SKEW_SECONDS = 60;

const signatureCheckOff = defineFault('signature-check-off', {
  description:
    'does not check that a request is signed, nor when: a request without a Signature, or with any Date, is served (a signature that is there is still verified)',
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
/** The verifier's failures a bank with its signature check off lets through: no signature at all, a Date out of the window. */
const UNCHECKED_WITH_SIGNATURE_CHECK_OFF: readonly VerificationFailureCode[] = ['SIGNATURE_MISSING', 'TIMESTAMP_INVALID'];
/** Why a fault's precision is judged over its own scenarios: it refuses the signature every conforming request carries. */
const EVERY_REQUEST = 'the suite signs every request the way this fault refuses';
const requireRequestTarget = defineFault('require-request-target', {
  description: 'refuses signatures that do not cover (request-target), which the specification does not ask for',
  breaks: ['SIG-03'],
  refusesEveryRequest: EVERY_REQUEST,
});
const berlinGroupErrorCodes = defineVariant('berlin-group-error-codes', {
  description:
    'signature, certificate and Date failures answer the Berlin Group code that names them (SIGNATURE_MISSING, SIGNATURE_INVALID, TIMESTAMP_INVALID, CERTIFICATE_INVALID…), still with 400',
  allowedBy:
    'The error body\'s code is only "error code"; the list is headed "Message codes in tppMessages". The service "follows the XS2A framework implementation guidelines, version 1.3, with exceptions stated here", and Berlin Group names these failures SIGNATURE_MISSING, SIGNATURE_INVALID, TIMESTAMP_INVALID, CERTIFICATE_INVALID…',
  source: 'Specification, Errors (error body) and What the service does; Berlin Group 1.3.8, MessageCode400_AIS/MessageCode401_PIS',
});
const inventedSignatureCodes = defineFault('invented-signature-codes', {
  description:
    "signature and Date failures answer codes of the bank's own (SIGNATURE_REQUIRED, BAD_SIGNATURE, DATE_OUT_OF_RANGE…), in neither the specification's list nor Berlin Group's",
  // Every refusal of the verifier says so: the codes of a failed signature (SIG-07), a missing header (ERR-16), a header
  // that cannot be read (ERR-21) and a KID error (ERR-30, ERR-31) are as much the bank's own as those of SIG-05 and SIG-13.
  breaks: ['ERR-43', 'SIG-05', 'SIG-13', 'SIG-07', 'ERR-16', 'ERR-21', 'ERR-30', 'ERR-31'],
});
/** What a bank with codes of its own calls the verifier's failures (inventedSignatureCodes). */
const INVENTED_CODE: Record<VerificationFailureCode, string> = {
  SIGNATURE_MISSING: 'SIGNATURE_REQUIRED',
  CERTIFICATE_MISSING: 'CERTIFICATE_REQUIRED',
  HTTP_HEADER_REQUIRED: 'HEADER_MISSING',
  SIGNATURE_INVALID: 'BAD_SIGNATURE',
  TIMESTAMP_INVALID: 'DATE_OUT_OF_RANGE',
  FORMAT_ERROR: 'MALFORMED_REQUEST',
  KID_MISSING: 'KEY_ID_REQUIRED',
  KID_INVALID: 'BAD_KEY_ID',
  CERTIFICATE_INVALID: 'BAD_CERTIFICATE',
  CERTIFICATE_EXPIRED: 'CERTIFICATE_OUT_OF_DATE',
};

// Item 3 to 8, one fault per rule: each relaxes the verifier's matching rule for its TPP (lib/httpsig knows rules, not faults).
const RELAXED_BY: Readonly<Record<keyof VerificationPolicy, Fault>> = {
  // A signing string built in another order than the headers part lists shows only in the value (SIG-23): a bank that does not verify it
  // takes that too.
  verifiesSignatureValue: defineFault('signature-value-unchecked', {
    description: 'does not verify the RSA-SHA256 signature value',
    breaks: ['SIG-06', 'SIG-22', 'SIG-23'],
  }),
  verifiesDigestValue: defineFault('accept-wrong-digest', {
    description: 'accepts any Digest value: one that does not match the body, or in another algorithm',
    breaks: ['HDR-09', 'HDR-33'],
  }),
  requiresDigest: defineFault('digest-optional', { description: 'accepts a signed request without Digest', breaks: ['HDR-07'] }),
  requiresDate: defineFault('date-optional', { description: 'accepts a signed request without Date', breaks: ['SIG-11'] }),
  requiresHttpDate: defineFault('date-any-format', {
    description: 'accepts a Date in any form (ISO 8601 too), not only an HTTP-date',
    breaks: ['FMT-08'],
  }),
  verifiesKeyId: defineFault('kid-unchecked', {
    description: 'does not check the keyId form nor compare it with the certificate',
    breaks: ['SIG-17', 'ERR-37'],
  }),
  requiresKeyId: defineFault('keyid-optional', { description: 'accepts a Signature without keyId', breaks: ['SIG-18', 'ERR-37'] }),
  requiresRsaSha256: defineFault('any-signature-algorithm', {
    description: 'accepts any algorithm name in the Signature header',
    breaks: ['SIG-20'],
  }),
  requiresEveryPart: defineFault('signature-parts-defaulted', {
    description: 'a Signature without algorithm, headers or signature part gets defaults instead of a 400',
    breaks: ['SIG-14'],
  }),
  requiresCoverage: defineFault('signed-header-coverage-unchecked', {
    description: 'accepts signatures that leave out signable headers present in the request',
    breaks: ['SIG-25'],
  }),
  signsInListedOrder: defineFault('signing-string-fixed-order', {
    description: 'builds the signing string in its own header order, not the order of the headers part',
    breaks: ['SIG-21', 'SIG-23'],
  }),
  refusesAbsentSignedHeaders: defineFault('absent-signed-header-as-empty', {
    description: 'a header the headers part names but the request lacks is signed as empty instead of refused',
    breaks: ['SIG-24'],
  }),
  decodesRfc2047: defineFault('rfc2047-not-decoded', {
    description: 'does not decode an RFC 2047-encoded Signature header',
    breaks: ['SIG-27'],
  }),
  requiresTrustedIssuer: defineFault('untrusted-ca-accepted', {
    description: 'accepts certificates from CAs it does not trust',
    breaks: ['SIG-02'],
  }),
  requiresValidCertificate: defineFault('expired-certificate-accepted', {
    description: 'accepts expired or not yet valid certificates',
    breaks: ['SIG-09'],
  }),
  requiresRequestId: defineFault('x-request-id-optional', {
    description: 'serves signed requests without X-Request-ID (or with an empty one)',
    breaks: ['HDR-02'],
  }),
  joinsLinesWithLf: defineFault('signing-string-crlf', {
    description: 'joins the signing string lines with CRLF, unlike draft-cavage',
    breaks: ['SIG-28', 'HDR-11'],
    refusesEveryRequest: 'the suite signs every request as draft-cavage says, lines joined with LF',
  }),
};

// Rules a legal reading may relax too (the rule is then no MUST of the specification).
const RELAXED_BY_READING: Readonly<Partial<Record<keyof VerificationPolicy, Variant>>> = {
  requiresRsaSha256: defineVariant('signature-algorithm-label-unchecked', {
    description:
      'a Signature whose algorithm part names another algorithm (hmac-sha256, rsa-sha512) is verified as the RSA-SHA256 signature it is, and taken when it verifies',
    allowedBy:
      'Authentication 5, the Signature table: "algorithm | rsa-sha256, matching the certificate" binds what the TPP writes; nothing says that the bank refuses a valid RSA-SHA256 signature under another label, and a verifier may derive the algorithm from the certificate key',
    source: 'Specification, Authentication 5 (Signature header parts)',
  }),
};

/**
 * The verification policy of this TPP: each rule enforced unless its fault (or a reading that relaxes it) is on, asked only when the
 * verifier reaches it.
 */
const policies = new WeakMap<TppSwitches, VerificationPolicy>();
function verificationPolicy(switches: TppSwitches): VerificationPolicy {
  return memoisedWeak(
    policies,
    switches,
    () =>
      Object.defineProperties(
        {},
        Object.fromEntries(
          Object.entries(RELAXED_BY).map(([rule, fault]) => {
            const reading = RELAXED_BY_READING[rule as keyof VerificationPolicy];
            return [rule, { get: () => !switches.breaks(fault) && !(reading !== undefined && switches.reads(reading)), enumerable: true }];
          }),
        ),
      ) as VerificationPolicy,
  );
}

/** The keyId in the specification's form, per certificate (the verifier hands back the same object for the same header). */
const specKeyIds = new WeakMap<X509Certificate, string>();

const kidErrorAs401 = defineFault('kid-error-as-401', {
  description: 'answers a KID error (keyId missing, malformed or naming another certificate) with 401 instead of 400',
  breaks: ['SIG-17', 'SIG-18', 'ERR-37'],
});
const kidVariantAs401 = defineFault('kid-variant-as-401', {
  description: 'answers 401 to a keyId that names the right certificate in a variant form (lower-case serial, other DN order)',
  breaks: ['SIG-19'],
});
const keyIdExactFormOnly = defineVariant('key-id-exact-form-only', {
  description:
    'a keyId that names the right certificate in another form (lower-case or zero-padded serial, another DN order) is refused as a KID error (400 KID_INVALID)',
  allowedBy:
    'Authentication 5: keyId "SN=<serial>,CA=<issuer>; serial is the certificate serial number in upper-case hexadecimal; issuer is the certificate issuer distinguished name in RFC 2253 form"; Errors rule 3: "A KID error gives 400"',
  source: 'Specification, Authentication 5 and Errors rule 3',
});
const keyIdSpecFormRefused = defineFault('keyid-spec-form-refused', {
  description: 'refuses the keyId in the form the specification gives (upper-case serial, RFC 2253 issuer)',
  breaks: ['SIG-16'],
  refusesEveryRequest: EVERY_REQUEST,
});
const requirePsuIdSigned = defineFault('require-psu-id-signed', {
  description: 'refuses signatures that do not cover psu-id, even when the request has no PSU-ID',
  breaks: ['SIG-24'],
  refusesEveryRequest: EVERY_REQUEST,
});
const extraSignedHeadersRefused = defineFault('extra-signed-headers-refused', {
  description: 'refuses signatures covering headers beyond the signable ones ((request-target), host)',
  breaks: ['SIG-21', 'SIG-26'],
});
const hostNotSignable = defineVariant('host-not-signable', {
  description: 'a signature covering host is refused (400): host is not among the signable headers; (request-target) is taken',
  allowedBy:
    'Authentication 6: "Signable headers: date, digest, x-request-id, psu-id, psu-corporate-id, tpp-redirect-uri." Authentication 5 names (request-target); host is named by neither',
  source: 'Specification, Authentication 5 and 6',
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

const certificateUnchecked = defineFault('certificate-unchecked', {
  description: 'serves a request whose TPP-Signature-Certificate is missing or not a certificate, as the TPP its keyId named before',
  breaks: ['HDR-10'],
});

const noRequestIdEcho = defineFault('no-request-id-echo', {
  description: 'responses do not repeat the X-Request-ID of the request',
  breaks: ['HDR-03'],
});

/**
 * The verifier names what failed in Berlin Group terms; by default the answer uses the specification's code
 * list, which has no signature codes of its own (the variant berlin-group-error-codes answers Berlin Group's).
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
  return { id, name, certificate, keyHolder: keyHolderOf(certificate) };
}

/** Who holds the certificate's private key, as a tenant of the sandbox (reference/state/tenants.ts): a SHA-256 of its public key. */
function keyHolderOf(certificate: X509Certificate): string {
  return `spki-sha256:${createHash('sha256')
    .update(certificate.publicKey.export({ type: 'spki', format: 'der' }))
    .digest('base64url')}`;
}

/**
 * Who a request claims to be, from its TPP-Signature-Certificate, before anything is verified: faults are
 * switched per TPP, so the bank must know whose request it is even when it is about to refuse it. A claim
 * chooses nothing else: no world, no state (identity first, state after). Parsed certificates are kept (a
 * TPP sends the same one on every request; memoised's bound keeps a flood of forged ones from growing it).
 */
class ClaimedIdentities {
  private readonly cache = new Map<string, TppIdentity | null>();
  /** By keyId text, for requests whose certificate is missing or broken: the verified TPP that sent that keyId before. */
  private readonly byKeyId = new Map<string, TppIdentity>();

  of(request: FastifyRequest): TppIdentity | null {
    const value = header(request, 'tpp-signature-certificate');
    const identity = value === undefined ? null : this.parsed(value);
    if (identity !== null) return identity;
    const keyId = keyIdOfRequest(request);
    return keyId === undefined ? null : (this.byKeyId.get(keyId) ?? null);
  }

  /** A request whose signature verified: its keyId names this TPP from now on. */
  verified(request: FastifyRequest, identity: TppIdentity): void {
    const keyId = keyIdOfRequest(request);
    if (keyId !== undefined) memoised(this.byKeyId, keyId, () => identity);
  }

  /** Whether the request's TPP-Signature-Certificate is there and is a certificate (trusted or not). */
  presentsCertificate(request: FastifyRequest): boolean {
    const value = header(request, 'tpp-signature-certificate');
    return value !== undefined && this.parsed(value) !== null;
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

function keyIdOfRequest(request: FastifyRequest): string | undefined {
  return /keyId="([^"]*)"/.exec(header(request, 'signature') ?? '')?.[1];
}

function incoming(request: FastifyRequest, body: Buffer): IncomingRequest {
  const headers: Record<string, string | undefined> = {};
  for (const name of Object.keys(request.headers)) headers[name] = header(request, name);
  return { method: request.method, path: request.url, headers, body };
}

const tppRedirectUriForbidden = defineFault('tpp-redirect-uri-missing-forbidden', {
  description: 'refuses a request without a TPP-Redirect-URI (or with an empty one) with 403 FORBIDDEN instead of 400',
  breaks: ['HDR-06', 'SCA-04'],
});
const redirectUriOnlyWhereSca = defineVariant('redirect-uri-only-where-sca', {
  description:
    'a read (GET) without TPP-Redirect-URI is served where it needs no SCA; one that needs SCA is refused (400 HTTP_HEADER_REQUIRED), and so is any other request without it',
  allowedBy:
    'Authentication 9: "The TPP-Redirect-URI header is required on all requests because the need for SCA cannot be foreseen": the TPP\'s duty, and its reason; nothing says a request that needs no SCA is refused without it',
  source: 'Specification, Authentication 9',
});

const tppSessionIdOptional = defineFault('tpp-session-id-optional', {
  description: 'serves requests without a TPP-Session-ID',
  breaks: ['HDR-05'],
});

function requireTppHeaders(request: FastifyRequest): void {
  const absent = (name: string) => !header(request, name)?.trim();
  if (absent('tpp-redirect-uri') && request.switches.breaks(tppRedirectUriForbidden))
    throw new BankError(403, 'FORBIDDEN', 'Header TPP-Redirect-URI is required');
  // The variant's read needing SCA is refused where the SCA is asked for (services/sca-answers.ts).
  const needed = request.method !== 'GET' || !absent('tpp-redirect-uri') || !request.switches.reads(redirectUriOnlyWhereSca);
  for (const name of needed ? ['TPP-Redirect-URI', 'TPP-Session-ID'] : ['TPP-Session-ID']) {
    if (absent(name.toLowerCase()) && !(name === 'TPP-Session-ID' && request.switches.breaks(tppSessionIdOptional))) {
      throw new BankError(400, 'HTTP_HEADER_REQUIRED', `Header ${name} is required`);
    }
  }
  if (!needed) return;
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
    const { switches, tenants } = api;
    const claimed = new ClaimedIdentities();
    api.decorateRequest('tpp', null);
    api.decorateRequest('tppId', undefined);
    api.decorateRequest('rawBody', null);

    // Keep the body as bytes: the Digest is checked over them before any parsing.
    api.removeAllContentTypeParsers();
    api.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, parsed) => parsed(null, body));

    // The TPP as its certificate claims it, once per request: its switches (a fault may shape the refusal of
    // its own bad request). Its world waits for the signature: until then the request meets the world of no one.
    api.addHook('onRequest', (request, _reply, next) => {
      request.tppId = claimed.of(request)?.id;
      request.switches = switches.forTpp(request.tppId);
      next();
    });

    /**
     * Whether the bank takes a Date this many seconds off from this TPP; faults widen or narrow the 60 s, each asked only where it decides.
     */
    const toleratesSkew =
      (switches: TppSwitches) =>
      (seconds: number): boolean => {
        if (seconds <= 30) return true;
        if (switches.breaks(dateCheckOff)) return true;
        if (seconds <= MAX_CLOCK_SKEW_SECONDS) return !switches.breaks(dateTolerance30);
        return seconds <= 120 && switches.breaks(dateTolerance120);
      };

    /** Where certificates are validated as in production (trust anchors given): the role the service needs. */
    function requireRole(request: FastifyRequest, certificate: X509Certificate): void {
      const needed = ROLE_FOR_PATH.find(([pattern]) => pattern.test(request.url))?.[1];
      if (needed === undefined || rolesOf(header(request, 'tpp-signature-certificate') ?? '', certificate).includes(needed)) return;
      if (request.switches.breaks(rolesUnchecked)) return;
      const code = request.switches.breaks(roleRefusalAsFormatError) ? 'FORMAT_ERROR' : 'FORBIDDEN';
      throw new BankError(403, code, `the TPP certificate does not carry the PSD2 role ${needed} this service needs`);
    }

    /** Faults that refuse what the verifier accepted, each asked only where it would refuse this request. */
    function refuseByFault(request: FastifyRequest, certificate: X509Certificate, signedHeaders: readonly string[]): void {
      const { switches } = request;
      if (!signedHeaders.includes('(request-target)') && switches.breaks(requireRequestTarget)) {
        throw new BankError(400, 'FORMAT_ERROR', 'the signature must cover (request-target)');
      }
      if (/^\s*sha-512=/i.test(header(request, 'digest') ?? '') && switches.breaks(sha512DigestRefused))
        throw new BankError(400, 'FORMAT_ERROR', 'Digest must be SHA-256');
      if (!signedHeaders.includes('psu-id') && switches.breaks(requirePsuIdSigned))
        throw new BankError(400, 'FORMAT_ERROR', 'the signature must cover psu-id');
      if (!signedHeaders.every(isSignableHeader) && switches.breaks(extraSignedHeadersRefused)) {
        throw new BankError(400, 'FORMAT_ERROR', 'the signature may cover only the signable headers');
      }
      if (signedHeaders.includes('host') && switches.reads(hostNotSignable))
        throw new BankError(400, 'FORMAT_ERROR', 'host is not a signable header');
      const keyId = /keyId="([^"]*)"/.exec(decodeRfc2047(header(request, 'signature') ?? ''))?.[1];
      const specForm = keyId === memoisedWeak(specKeyIds, certificate, () => keyIdOf(certificate));
      if (!specForm && switches.breaks(kidVariantAs401))
        throw new BankError(401, 'KID_INVALID', 'keyId is not written exactly as SN=<upper-case hex>,CA=<RFC 2253 issuer>');
      if (!specForm && switches.reads(keyIdExactFormOnly))
        throw new BankError(400, 'KID_INVALID', 'keyId must be written SN=<upper-case hex serial>,CA=<issuer in RFC 2253 form>');
      if (specForm && switches.breaks(keyIdSpecFormRefused))
        throw new BankError(400, 'KID_INVALID', 'keyId must name the issuer in certificate order');
    }

    /** Items 3-8, then item 9's required headers. Faults skip verification here and nowhere else. */
    function authenticate(request: FastifyRequest): void {
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      request.rawBody = body;
      request.body = undefined;
      const { switches } = request;

      const skipMissing = header(request, 'signature') === undefined && switches.breaks(acceptMissingSignature);
      const claimant = claimed.of(request);
      // Served by a fault without a verified signature: as the TPP it claims, in the world of no key holder.
      const unverified = () => {
        request.world = tenants.unverified;
        request.tpp = { ...(claimant ?? { id: 'anonymous', name: 'an unidentified provider' }), keyHolder: UNVERIFIED };
      };
      if (skipMissing) {
        unverified();
      } else {
        // The Date is judged by the clock of the world the certificate claims, read without making or touching it.
        const claimedWorld = claimant === null ? undefined : tenants.peek(claimant.keyHolder);
        const result = verifySignedRequest(incoming(request, body), {
          now: (claimedWorld ?? tenants.unidentified).clock.now(),
          maxClockSkewSeconds: MAX_CLOCK_SKEW_SECONDS,
          toleratesSkew: toleratesSkew(switches),
          policy: verificationPolicy(switches),
          ...(options.trustedCaPems === undefined ? {} : { trustedCaPems: options.trustedCaPems }),
        });
        // A certificate missing or not a certificate at all; one that is a certificate but untrusted or expired is another matter (SIG-02,
        // SIG-09).
        const noCertificate =
          !result.ok &&
          ['CERTIFICATE_MISSING', 'CERTIFICATE_INVALID'].includes(result.failure.code) &&
          !claimed.presentsCertificate(request);
        // A bank with its signature check off takes a request without signature, or with any Date (a request that verifies is served as any
        // other).
        if (!result.ok && UNCHECKED_WITH_SIGNATURE_CHECK_OFF.includes(result.failure.code) && switches.breaks(signatureCheckOff)) {
          unverified();
        } else if (!result.ok && noCertificate && switches.breaks(certificateUnchecked)) {
          unverified();
        } else if (!result.ok) {
          // Not the key holder (or not provably): the answer comes from the world of no one, its clock included.
          const failure = result.failure.code;
          const code = switches.breaks(inventedSignatureCodes)
            ? (INVENTED_CODE[failure] as ErrorCode)
            : switches.reads(berlinGroupErrorCodes)
              ? failure
              : SPEC_CODE[failure];
          const kidError = code === 'KID_MISSING' || code === 'KID_INVALID';
          throw new BankError(kidError && switches.breaks(kidErrorAs401) ? 401 : 400, code, result.failure.message);
        } else {
          // The certificate verified is the one the claimed identity was read from (cached per header value).
          const tpp = claimant ?? identityOf(result.certificate);
          // Only now, the key holder proven, does the request reach (and, the first time, make) its world.
          request.world = tenants.worldOf(tpp.keyHolder, request.socket.remoteAddress ?? '');
          request.tpp = tpp;
          claimed.verified(request, tpp);
          refuseByFault(request, result.certificate, result.signedHeaders);
          if (options.trustedCaPems !== undefined) requireRole(request, result.certificate);
        }
      }

      if (request.routeOptions.config.sandboxOperation !== true) requireTppHeaders(request);
    }

    api.addHook('preValidation', checkHook(authenticate));

    // Berlin Group: a response carries the X-Request-ID of its request.
    api.addHook('onSend', (request, reply, payload, next) => {
      const requestId = header(request, 'x-request-id');
      if (requestId !== undefined && !request.switches.breaks(noRequestIdEcho)) void reply.header('x-request-id', requestId);
      next(null, payload);
    });
    done();
  },
  { name: 'signature', decorators: { fastify: ['tenants', 'switches'] } },
);
