// Verification of an incoming signed request with the policy the specification
// sets (Authentication items 3-8; Errors rules 1 and 3: every failure here is a
// 400). Checks run in a fixed order and the first failure is reported, so a
// request with several faults always gets the same, most basic, complaint.
import { X509Certificate } from 'node:crypto';
import { readCertificateFields } from '../pki/x509-fields.js';
import type { CertificateFields } from '../pki/x509-fields.js';
import { memoised, memoisedWeak } from '../support/memo.js';
import { checkDigest } from './digest.js';
import { formatRfc2253, sameDistinguishedName } from './distinguished-name.js';
import { parseHttpDate } from './http-date.js';
import { KeyIdFormatError, parseKeyId, sameSerial } from './key-id.js';
import { SIGNATURE_ALGORITHM, verifyRsaSha256 } from './rsa-sha256.js';
import { ALWAYS_SIGNED_HEADERS, SIGNABLE_HEADERS, SIGNED_WHEN_PRESENT_HEADERS } from './signable-headers.js';
import { parseSignatureHeader, SignatureFormatError } from './signature-header.js';
import type { SignatureParams, SignaturePart } from './signature-header.js';
import { buildSigningString, SigningStringError } from './signing-string.js';
import { ConformanceError } from '../errors.js';

export interface IncomingRequest {
  method: string;
  /** Path and query exactly as sent. */
  path: string;
  /** Lower-case header names. */
  headers: Record<string, string | undefined>;
  body: Uint8Array;
}

export type VerificationFailureCode =
  | 'SIGNATURE_MISSING'
  | 'SIGNATURE_INVALID'
  | 'KID_MISSING'
  | 'KID_INVALID'
  | 'CERTIFICATE_MISSING'
  | 'CERTIFICATE_INVALID'
  | 'CERTIFICATE_EXPIRED'
  | 'TIMESTAMP_INVALID'
  | 'HTTP_HEADER_REQUIRED'
  | 'FORMAT_ERROR';

export interface VerificationFailure {
  code: VerificationFailureCode;
  message: string;
}

/**
 * What the verifier enforces, rule by rule: STRICT_VERIFICATION is the specification's policy (every member
 * true). A verifier that relaxes a rule (a lenient sandbox, or the reference bank broken on purpose) is
 * given another; the verifier does not know why. Each member is read only where its rule decides the
 * outcome of this request, so a policy may compute them lazily.
 */
export interface VerificationPolicy {
  /** Items 5 and 6: RSA-SHA256 over the signing string is verified. */
  readonly verifiesSignatureValue: boolean;
  /** RFC 3230: a Digest that does not match the body is refused. */
  readonly verifiesDigestValue: boolean;
  /** Berlin Group: a signed request carries Digest (and signs it). */
  readonly requiresDigest: boolean;
  /** Item 4: a signed request carries Date (and signs it). */
  readonly requiresDate: boolean;
  /** Item 4: Date is an IMF-fixdate (RFC 7231), not any form Date.parse reads. */
  readonly requiresHttpDate: boolean;
  /** Item 5: keyId has its form and names the certificate sent. */
  readonly verifiesKeyId: boolean;
  /** Item 5, Errors rule 3: a Signature without keyId is refused. */
  readonly requiresKeyId: boolean;
  /** Item 5: the algorithm is rsa-sha256, matching the certificate's key. */
  readonly requiresRsaSha256: boolean;
  /** Item 5: a Signature without algorithm, headers or signature part is refused. */
  readonly requiresEveryPart: boolean;
  /** Item 6 with Berlin Group: signable headers present in the request are signed. */
  readonly requiresCoverage: boolean;
  /** Item 6: the signing string follows the order the headers part lists. */
  readonly signsInListedOrder: boolean;
  /** Item 6: a header the headers part names but the request lacks is refused (not signed as empty). */
  readonly refusesAbsentSignedHeaders: boolean;
  /** Item 7: an RFC 2047-encoded Signature header is decoded. */
  readonly decodesRfc2047: boolean;
  /** Item 2: the certificate is issued by a trusted CA (when trust anchors are given). */
  readonly requiresTrustedIssuer: boolean;
  /** Item 2: the certificate is within its validity. */
  readonly requiresValidCertificate: boolean;
  /** Berlin Group: a signed request carries X-Request-ID (and signs it). */
  readonly requiresRequestId: boolean;
  /** draft-cavage 2.3: signing string lines are joined with a bare LF. */
  readonly joinsLinesWithLf: boolean;
}

/** The specification's verification policy: every rule enforced. */
export const STRICT_VERIFICATION: VerificationPolicy = Object.freeze({
  verifiesSignatureValue: true,
  verifiesDigestValue: true,
  requiresDigest: true,
  requiresDate: true,
  requiresHttpDate: true,
  verifiesKeyId: true,
  requiresKeyId: true,
  requiresRsaSha256: true,
  requiresEveryPart: true,
  requiresCoverage: true,
  signsInListedOrder: true,
  refusesAbsentSignedHeaders: true,
  decodesRfc2047: true,
  requiresTrustedIssuer: true,
  requiresValidCertificate: true,
  requiresRequestId: true,
  joinsLinesWithLf: true,
});

export interface VerifyOptions {
  /** The rules enforced; STRICT_VERIFICATION by default. */
  policy?: VerificationPolicy;
  now: Date;
  /** Item 4 and the Limits table: 60. */
  maxClockSkewSeconds: number;
  /**
   * Whether a Date this many seconds off the clock (either way) is accepted; by default, at most
   * maxClockSkewSeconds. Asked only of a Date that is off at all.
   */
  toleratesSkew?: (seconds: number) => boolean;
  /**
   * When given, the certificate must be issued and signed by one of these
   * (item 2: a certificate from a trusted CA). When absent any well-formed
   * certificate whose key verifies the signature is accepted, as a sandbox may.
   * Only direct issuance is checked: the request carries a single certificate.
   */
  trustedCaPems?: string[];
}

export type VerificationResult =
  { ok: true; certificate: X509Certificate; signedHeaders: string[] } | { ok: false; failure: VerificationFailure };

interface SignatureCertificate {
  certificate: X509Certificate;
  /** Its issuer in RFC 2253 form. */
  issuer: string;
}

class Rejection extends ConformanceError {
  readonly code = 'XC_ERR_SIGNATURE_REJECTED';
  constructor(readonly failure: VerificationFailure) {
    super(failure.message);
  }
}

function reject(code: VerificationFailureCode, message: string): never {
  throw new Rejection({ code, message });
}

export function verifySignedRequest(req: IncomingRequest, options: VerifyOptions): VerificationResult {
  try {
    return { ok: true, ...verifyOrReject(req, options) };
  } catch (error) {
    if (error instanceof Rejection) return { ok: false, failure: error.failure };
    throw error;
  }
}

function verifyOrReject(req: IncomingRequest, options: VerifyOptions): { certificate: X509Certificate; signedHeaders: string[] } {
  const header = (name: string): string | undefined => {
    const value = req.headers[name];
    return value === undefined || value.trim() === '' ? undefined : value;
  };
  const policy = options.policy ?? STRICT_VERIFICATION;

  // Item 3: every request must be signed; a missing signature is a 400.
  const signatureHeader =
    header('signature') ?? reject('SIGNATURE_MISSING', 'the request has no Signature header; every request must be signed');
  const signer = readSignatureCertificate(header('tpp-signature-certificate'), options, policy);
  const { certificate } = signer;
  const params = readSignatureParams(signatureHeader, policy);
  if (params.keyId.trim() !== '') checkKeyId(params.keyId, signer, policy);
  if (params.algorithm === '') params.algorithm = SIGNATURE_ALGORITHM; // only when the policy lets parts default
  checkAlgorithm(params.algorithm, certificate, policy);
  checkDateDigestAndRequestId(req, header, options, policy);
  if (params.headers.length === 0) params.headers = SIGNABLE_HEADERS.filter((name) => header(name) !== undefined);
  checkCoverage(params.headers, header, policy);
  if (params.signature !== '') checkSignature(req, params, header, certificate, policy);
  return { certificate, signedHeaders: params.headers };
}

/**
 * Item 2 and the TPP-Signature-Certificate header: base64 DER, well-formed,
 * trusted when trust anchors are given, in validity. Returns the certificate
 * with its issuer already written out, so a name that cannot be decoded is a
 * certificate problem rather than a crash later.
 */
function readSignatureCertificate(value: string | undefined, options: VerifyOptions, policy: VerificationPolicy): SignatureCertificate {
  if (value === undefined) {
    reject('CERTIFICATE_MISSING', 'the request has a Signature but no TPP-Signature-Certificate header');
  }
  const { certificate, fields, issuer } = parsedCertificate(value.trim());
  if (options.trustedCaPems && !options.trustedCaPems.some((pem) => issuedBy(certificate, pem)) && policy.requiresTrustedIssuer) {
    reject('CERTIFICATE_INVALID', `TPP-Signature-Certificate (issuer ${issuer}) is not issued by a trusted CA`);
  }
  if (options.now < fields.notBefore && policy.requiresValidCertificate) {
    reject(
      'CERTIFICATE_EXPIRED',
      `TPP-Signature-Certificate is not valid before ${fields.notBefore.toISOString()} (now ${options.now.toISOString()})`,
    );
  }
  if (options.now > fields.notAfter && policy.requiresValidCertificate) {
    reject(
      'CERTIFICATE_EXPIRED',
      `TPP-Signature-Certificate expired at ${fields.notAfter.toISOString()} (now ${options.now.toISOString()})`,
    );
  }
  return { certificate, issuer };
}

interface ParsedCertificate {
  certificate: X509Certificate;
  fields: CertificateFields;
  /** Its issuer in RFC 2253 form. */
  issuer: string;
}

/**
 * Parsed certificates by header value: a TPP sends the same certificate on every request, and parsing it
 * is the largest cost of a verification. Trust and validity are still judged on every request.
 */
const PARSED = new Map<string, ParsedCertificate | VerificationFailure>();

function parsedCertificate(base64: string): ParsedCertificate {
  const parsed = memoised(PARSED, base64, () => parseCertificate(base64));
  if ('code' in parsed) throw new Rejection(parsed);
  return parsed;
}

function parseCertificate(base64: string): ParsedCertificate | VerificationFailure {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) {
    return {
      code: 'CERTIFICATE_INVALID',
      message: 'TPP-Signature-Certificate is not base64 (the certificate DER in base64, without line breaks or PEM armour)',
    };
  }
  try {
    const certificate = new X509Certificate(Buffer.from(base64, 'base64'));
    const fields = readCertificateFields(certificate);
    return { certificate, fields, issuer: formatRfc2253(fields.issuer) };
  } catch (error) {
    return {
      code: 'CERTIFICATE_INVALID',
      message: `TPP-Signature-Certificate is not a DER X.509 certificate: ${(error as Error).message}`,
    };
  }
}

/** Trust anchors parsed once: the same few PEMs are consulted on every request. */
const TRUST_ANCHORS = new Map<string, X509Certificate>();
/**
 * Whether a certificate was issued by an anchor, per parsed certificate (parsedCertificate keeps one object per
 * header value): the answer is the certificate's own and never changes, and checking it verifies an RSA signature.
 */
const ISSUED_BY = new WeakMap<X509Certificate, Map<string, boolean>>();

function issuedBy(certificate: X509Certificate, caPem: string): boolean {
  const answers = memoisedWeak(ISSUED_BY, certificate, () => new Map<string, boolean>());
  return memoised(answers, caPem, () => {
    const ca = memoised(TRUST_ANCHORS, caPem, () => new X509Certificate(caPem));
    return certificate.checkIssued(ca) && certificate.verify(ca.publicKey);
  });
}

/** Item 5: the header's parts. A missing keyId has its own code (KID_MISSING, Errors rule 3); the rest is SIGNATURE_INVALID. */
function readSignatureParams(value: string, policy: VerificationPolicy): SignatureParams {
  // The policy is asked only about what this header needs: its decoding when it is RFC 2047-wrapped, its parts when some are missing.
  const decodeRfc2047 = !/^\s*=\?/.test(value) || policy.decodesRfc2047;
  const parse = (optionalParts: readonly SignaturePart[]) => parseSignatureHeader(value, { decodeRfc2047, optionalParts });
  try {
    const lenient = parse(SIGNATURE_PARTS);
    const missing = SIGNATURE_PARTS.filter((part) => (part === 'headers' ? lenient.headers.length === 0 : lenient[part].trim() === ''));
    if (missing.length === 0) return lenient;
    const tolerated = missing.filter((part) => (part === 'keyId' ? !policy.requiresKeyId : !policy.requiresEveryPart));
    return tolerated.length === missing.length ? lenient : parse(tolerated);
  } catch (error) {
    if (!(error instanceof SignatureFormatError)) throw error;
    const onlyKeyIdMissing = error.missingParts.length === 1 && error.missingParts[0] === 'keyId';
    reject(onlyKeyIdMissing ? 'KID_MISSING' : 'SIGNATURE_INVALID', error.message);
  }
}

const SIGNATURE_PARTS: readonly SignaturePart[] = ['keyId', 'algorithm', 'headers', 'signature'];

/** Item 5 keyId: SN=<serial>,CA=<issuer>, naming the certificate sent. Compared by meaning, not text (see xs2a-facts). */
function checkKeyId(keyId: string, signer: SignatureCertificate, policy: VerificationPolicy): void {
  const failure = memoised(KEY_ID_JUDGEMENTS, `${keyId}\n${signer.certificate.serialNumber}\n${signer.issuer}`, () =>
    keyIdFailure(keyId, signer),
  );
  if (failure !== null && policy.verifiesKeyId) throw new Rejection(failure);
}

/**
 * Judgements of a keyId against a certificate: a TPP sends the same pair on every request, and reading the
 * issuer name out of the keyId was the largest part of a verification after the RSA check.
 */
const KEY_ID_JUDGEMENTS = new Map<string, VerificationFailure | null>();

function keyIdFailure(keyId: string, { certificate, issuer }: SignatureCertificate): VerificationFailure | null {
  let parsed: { serial: string; issuer: string };
  try {
    parsed = parseKeyId(keyId);
  } catch (error) {
    if (!(error instanceof KeyIdFormatError)) throw error;
    return { code: 'KID_INVALID', message: error.message };
  }
  if (!sameSerial(parsed.serial, certificate.serialNumber)) {
    return {
      code: 'KID_INVALID',
      message: `keyId serial ${parsed.serial} is not the serial of TPP-Signature-Certificate (${certificate.serialNumber})`,
    };
  }
  if (!sameDistinguishedName(parsed.issuer, issuer)) {
    return { code: 'KID_INVALID', message: `keyId issuer "${parsed.issuer}" is not the issuer of TPP-Signature-Certificate ("${issuer}")` };
  }
  return null;
}

/** Item 5 algorithm: rsa-sha256, matching the certificate's key. */
function checkAlgorithm(algorithm: string, certificate: X509Certificate, policy: VerificationPolicy): void {
  const keyType = certificate.publicKey.asymmetricKeyType;
  if ((algorithm.toLowerCase() === SIGNATURE_ALGORITHM && keyType === 'rsa') || !policy.requiresRsaSha256) return;
  if (algorithm.toLowerCase() !== SIGNATURE_ALGORITHM) {
    reject('SIGNATURE_INVALID', `Signature algorithm "${algorithm}" is not supported; only ${SIGNATURE_ALGORITHM} is`);
  }
  if (keyType !== 'rsa') {
    reject('SIGNATURE_INVALID', `Signature algorithm ${SIGNATURE_ALGORITHM} does not match the certificate's ${keyType ?? 'unknown'} key`);
  }
}

/**
 * Items 4 and 6: Date and X-Request-ID are always present and signed, and
 * Digest is present whenever Signature is (Berlin Group section 11), even for
 * a GET with an empty body. Date is an IMF-fixdate within the allowed skew.
 */
function checkDateDigestAndRequestId(
  req: IncomingRequest,
  header: (name: string) => string | undefined,
  options: VerifyOptions,
  policy: VerificationPolicy,
): void {
  const missing = REQUIRED_HEADERS.filter(([name]) => header(name.toLowerCase()) === undefined)
    .filter(([, required]) => required(policy))
    .map(([name]) => name);
  if (missing.length > 0) {
    reject('HTTP_HEADER_REQUIRED', `a signed request needs the ${missing.join(', ')} header${missing.length > 1 ? 's' : ''}`);
  }
  if (header('date') !== undefined) checkDate(header('date') ?? '', options, policy);
  if (header('digest') === undefined) return;
  const digest = checkDigest(header('digest') ?? '', req.body);
  if (!digest.ok && policy.verifiesDigestValue) reject('SIGNATURE_INVALID', digest.reason);
}

/** Headers every signed request carries and signs, each with the rule of the policy that requires it. */
const REQUIRED_HEADERS: readonly [string, (policy: VerificationPolicy) => boolean][] = [
  ['Date', (policy) => policy.requiresDate],
  ['X-Request-ID', (policy) => policy.requiresRequestId],
  ['Digest', (policy) => policy.requiresDigest],
];

function checkDate(dateText: string, options: VerifyOptions, policy: VerificationPolicy): void {
  const date =
    parseHttpDate(dateText) ?? (policy.requiresHttpDate || Number.isNaN(Date.parse(dateText)) ? undefined : new Date(Date.parse(dateText)));
  if (!date) {
    // A verifier that requires neither a Date nor its form takes one it cannot read as none: there is nothing to compare.
    if (!policy.requiresHttpDate && !policy.requiresDate) return;
    reject('FORMAT_ERROR', `Date header "${dateText}" is not an RFC 7231 IMF-fixdate like "Sun, 06 Nov 1994 08:49:37 GMT"`);
  }
  // The header has whole seconds, so the server clock is compared at that resolution.
  const skew = Math.floor(options.now.getTime() / 1000) - date.getTime() / 1000;
  const tolerated =
    skew === 0 || (options.toleratesSkew ? options.toleratesSkew(Math.abs(skew)) : Math.abs(skew) <= options.maxClockSkewSeconds);
  if (!tolerated) {
    const direction = skew > 0 ? 'behind' : 'ahead of';
    reject(
      'TIMESTAMP_INVALID',
      `Date header is ${Math.abs(skew)} s ${direction} the server clock; at most ${options.maxClockSkewSeconds} s allowed`,
    );
  }
}

/** Item 6 with the Berlin Group rule: date, digest, x-request-id always signed; psu-id, psu-corporate-id, tpp-redirect-uri when present. */
function checkCoverage(signed: readonly string[], header: (name: string) => string | undefined, policy: VerificationPolicy): void {
  const always = ALWAYS_SIGNED_HEADERS.filter(
    (name) => header(name) !== undefined || (REQUIRED_HEADERS.find(([h]) => h.toLowerCase() === name)?.[1](policy) ?? true),
  );
  const required = [...always, ...SIGNED_WHEN_PRESENT_HEADERS.filter((name) => header(name) !== undefined)];
  const unsigned = required.filter((name) => !signed.includes(name));
  if (unsigned.length > 0 && policy.requiresCoverage) {
    reject(
      'SIGNATURE_INVALID',
      `the signature does not cover the ${unsigned.join(', ')} header${unsigned.length > 1 ? 's' : ''} (signed: ${signed.join(' ')}); ` +
        'date, digest and x-request-id must always be signed, and psu-id, psu-corporate-id and tpp-redirect-uri whenever present',
    );
  }
}

/** Items 5 and 6: RSA-SHA256 over the signing string built in the order the headers part lists. */
function checkSignature(
  req: IncomingRequest,
  params: SignatureParams,
  header: (name: string) => string | undefined,
  certificate: X509Certificate,
  policy: VerificationPolicy,
): void {
  const usualOrder = [...params.headers].sort((a, b) => signingRank(a) - signingRank(b));
  const names = usualOrder.every((name, i) => name === params.headers[i]) || policy.signsInListedOrder ? params.headers : usualOrder;
  // The signing string takes values as sent, an empty one included (the required-header checks treat blank as absent).
  const sent = (name: string) => req.headers[name];
  const target = { method: req.method, path: req.path };
  let signingString: string;
  try {
    try {
      signingString = buildSigningString(names, sent, target);
    } catch (error) {
      if (!(error instanceof SigningStringError) || policy.refusesAbsentSignedHeaders) throw error;
      signingString = buildSigningString(names, (name) => sent(name) ?? '', target);
    }
  } catch (error) {
    if (!(error instanceof SigningStringError)) throw error;
    reject('SIGNATURE_INVALID', `the Signature headers part names ${error.headerName}, which the request does not carry`);
  }
  if (!policy.joinsLinesWithLf) signingString = signingString.replaceAll('\n', '\r\n');
  const base64 = /^[A-Za-z0-9+/]+={0,2}$/.test(params.signature);
  if (base64 && verifyRsaSha256(signingString, params.signature, certificate.publicKey)) return;
  // Only the value goes unchecked under a policy that does not verify it: the signing string was built (and refused) as always.
  if (!policy.verifiesSignatureValue) return;
  reject(
    'SIGNATURE_INVALID',
    base64
      ? `the signature does not verify with the key of TPP-Signature-Certificate over the signing string of "${params.headers.join(' ')}"`
      : 'the signature part is not base64',
  );
}

/** Position of a header in the usual signing order: other headers ((request-target), host) first, then SIGNABLE_HEADERS order. */
function signingRank(name: string): number {
  return (SIGNABLE_HEADERS as readonly string[]).indexOf(name);
}
