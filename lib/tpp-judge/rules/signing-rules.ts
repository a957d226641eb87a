/**
 * Authentication 2 to 8: the signature, Digest, Date and the certificate. The signature itself is judged by
 * the bank's own verifier (lib/httpsig), asked one question at a time: its policy enforces the one rule
 * asked about and relaxes the others, so a request breaking one rule fails that rule and no other. The
 * verifier stops at its first complaint; asked this way, each rule gets its own answer.
 */
import {
  checkDigest,
  decodeRfc2047,
  needsRfc2047,
  parseHttpDate,
  parseKeyId,
  parseDistinguishedName,
  parseSignatureHeader,
  Rfc2047Error,
  SIGNATURE_ALGORITHM,
  SignatureFormatError,
  verifySignedRequest,
  type SignatureParams,
  STRICT_VERIFICATION,
  type VerificationPolicy,
  type VerificationResult,
} from '../../httpsig/index.js';
import { readCertificateFields, readPsd2QcStatement, type Psd2Role } from '../../pki/index.js';
import { memoised, memoisedWeak } from '../../support/memo.js';
import type { PathName } from '../../spec/paths.js';
import { CLOCK_UNKNOWN, fail, judged, PASS, unjudged, type Outcome, type Rule, type RuleContext } from '../rule.js';

const MAX_CLOCK_SKEW_SECONDS = 60;

/**
 * The verifier's rules that other TPP rules judge on their own: relaxed unless asked about. Reading the
 * Signature header itself (its parts, keyId present, RFC 2047) stays strict: a rule that cannot read the
 * signature is not judged.
 */
const RELAXED: Partial<Record<keyof VerificationPolicy, false>> = {
  verifiesSignatureValue: false,
  verifiesDigestValue: false,
  requiresDigest: false,
  requiresDate: false,
  requiresHttpDate: false,
  verifiesKeyId: false,
  requiresRsaSha256: false,
  requiresCoverage: false,
  requiresTrustedIssuer: false,
  requiresValidCertificate: false,
  requiresRequestId: false,
};

/** The verifier enforcing only the rule asked about (and the certificate parse, which it always needs). */
function verifyOnly(context: RuleContext, keep: keyof VerificationPolicy, trustedCaPems?: readonly string[]): VerificationResult {
  const { exchange } = context;
  const url = new URL(exchange.request.url);
  const headers: Record<string, string | undefined> = { ...exchange.request.headers };
  return verifySignedRequest(
    { method: exchange.request.method, path: `${url.pathname}${url.search}`, headers, body: exchange.request.body },
    {
      now: new Date(0),
      maxClockSkewSeconds: Number.MAX_SAFE_INTEGER,
      policy: { ...STRICT_VERIFICATION, ...RELAXED, [keep]: true },
      ...(trustedCaPems === undefined ? {} : { trustedCaPems: [...trustedCaPems] }),
    },
  );
}

type SignatureReading =
  | { kind: 'absent' }
  | { kind: 'encoding'; message: string }
  | { kind: 'malformed'; message: string; missingParts: readonly string[] }
  | { kind: 'parsed'; params: SignatureParams; decoded: string };

/** The Signature header read once per request (several rules look at it). */
const READINGS = new WeakMap<RuleContext['exchange'], SignatureReading>();

function readSignature(context: RuleContext): SignatureReading {
  return memoisedWeak(READINGS, context.exchange, () => uncachedReadSignature(context.header('signature')));
}

function uncachedReadSignature(value: string | undefined): SignatureReading {
  if (value === undefined) return { kind: 'absent' };
  let decoded: string;
  try {
    decoded = decodeRfc2047(value);
  } catch (error) {
    if (error instanceof Rfc2047Error) return { kind: 'encoding', message: error.message };
    throw error;
  }
  try {
    return { kind: 'parsed', params: parseSignatureHeader(decoded, { decodeRfc2047: false }), decoded };
  } catch (error) {
    if (error instanceof SignatureFormatError) return { kind: 'malformed', message: error.message, missingParts: error.missingParts };
    throw error;
  }
}

/** The parsed Signature, or why the rule cannot look at it (undefined when there is none: another rule's concern). */
function parsedSignature(context: RuleContext): { params: SignatureParams; decoded: string } | Outcome | undefined {
  const reading = readSignature(context);
  if (reading.kind === 'absent') return undefined;
  if (reading.kind === 'parsed') return reading;
  return unjudged(
    reading.kind === 'encoding' ? 'the Signature header is not readable (TPP-16)' : 'the Signature header lacks parts (TPP-08)',
  );
}

function isOutcome(value: object): value is Outcome {
  return 'pass' in value || 'unjudged' in value;
}

/** A verifier failure that is not the rule's own concern: the rule cannot be judged on this request. */
function prerequisiteOf(result: VerificationResult): Outcome | undefined {
  if (result.ok) return undefined;
  const { code } = result.failure;
  if (code === 'CERTIFICATE_MISSING' || code === 'CERTIFICATE_INVALID') return unjudged('no readable TPP-Signature-Certificate (TPP-02)');
  if (code === 'KID_MISSING') return unjudged('the Signature has no keyId (TPP-08)');
  return undefined;
}

/** Whether keyId names the certificate (TPP-10), judged once per request. */
const KEY_ID_OUTCOMES = new WeakMap<RuleContext['exchange'], Outcome | undefined>();

function keyIdOutcome(context: RuleContext): Outcome | undefined {
  return memoisedWeak(KEY_ID_OUTCOMES, context.exchange, () => uncachedKeyIdOutcome(context));
}

function uncachedKeyIdOutcome(context: RuleContext): Outcome | undefined {
  const signature = parsedSignature(context);
  if (signature === undefined || isOutcome(signature)) return signature;
  const result = verifyOnly(context, 'verifiesKeyId');
  const prerequisite = prerequisiteOf(result);
  if (prerequisite) return prerequisite;
  if (result.ok) return PASS;
  return fail(
    `keyId naming TPP-Signature-Certificate (SN=${context.certificate?.serialNumber ?? '…'},CA=<its issuer>)`,
    result.failure.message,
  );
}

/** Authentication 2: the PSD2 role each service needs (ETSI TS 119 495), by the path it addresses. */
const ROLE_FOR_PATH: Partial<Record<PathName, Psd2Role>> = {
  accounts: 'PSP_AI',
  account: 'PSP_AI',
  balances: 'PSP_AI',
  transactions: 'PSP_AI',
  transactionDetails: 'PSP_AI',
  cardAccounts: 'PSP_AI',
  cardAccount: 'PSP_AI',
  cardAccountBalances: 'PSP_AI',
  cardAccountTransactions: 'PSP_AI',
  consents: 'PSP_AI',
  bankOfferedConsents: 'PSP_AI',
  paymentInitiation: 'PSP_PI',
  payment: 'PSP_PI',
  paymentStatus: 'PSP_PI',
  signingBaskets: 'PSP_PI',
  signingBasket: 'PSP_PI',
  signingBasketStatus: 'PSP_PI',
  signingBasketAuthorisations: 'PSP_PI',
  signingBasketAuthorisation: 'PSP_PI',
};

const ROLES = new WeakMap<object, readonly Psd2Role[] | null>();

function rolesOf(certificate: NonNullable<RuleContext['certificate']>): readonly Psd2Role[] | null {
  return memoisedWeak(ROLES, certificate, () => {
    try {
      return readPsd2QcStatement(certificate)?.roles ?? null;
    } catch {
      return null;
    }
  });
}

/** The certificate's issuer attribute types in RFC 2253 order (the reverse of the certificate's). */
const ISSUER_ORDER = new Map<string, string[]>();

function rfc2253IssuerTypes(certificate: NonNullable<RuleContext['certificate']>): string[] {
  return memoised(ISSUER_ORDER, certificate.fingerprint256, () =>
    [...readCertificateFields(certificate).issuer].reverse().flatMap((rdn) => rdn.map((attribute) => attribute.oid)),
  );
}

export const SIGNING_RULES: readonly Rule[] = [
  {
    id: 'TPP-01',
    hint: 'any request to the interface (GET /v1/accounts)',
    judge: (c) => judged(c.header('signature') !== undefined, 'a Signature header', () => 'no Signature header'),
  },
  {
    id: 'TPP-02',
    hint: 'any request to the interface (GET /v1/accounts)',
    judge: (c) => {
      const value = c.header('tpp-signature-certificate');
      if (value === undefined) return fail('TPP-Signature-Certificate with the signing certificate', 'no TPP-Signature-Certificate header');
      return judged(
        c.certificate !== undefined,
        'TPP-Signature-Certificate: base64 of a DER X.509 certificate',
        () => `"${value.slice(0, 40)}…", which is not one`,
      );
    },
  },
  {
    id: 'TPP-03',
    hint: 'a request with a body (POST /v1/payments/sepa-credit-transfers)',
    // A request without a body is not judged: the text defines Digest over the body, and reads both ways for none (the catalogue says why).
    judge: (c) =>
      c.exchange.request.body.length === 0
        ? undefined
        : judged(c.header('digest') !== undefined, 'a Digest header', () => 'no Digest header'),
  },
  {
    id: 'TPP-04',
    hint: 'a request with a Digest (POST /v1/payments/sepa-credit-transfers)',
    judge: (c) => {
      const digest = c.header('digest');
      if (digest === undefined) return undefined;
      const result = checkDigest(digest, c.exchange.request.body);
      return result.ok ? PASS : fail('Digest: SHA-256 or SHA-512 of the body bytes sent', result.reason);
    },
  },
  {
    id: 'TPP-05',
    hint: 'any request to the interface (GET /v1/accounts)',
    judge: (c) => judged(c.header('date') !== undefined, 'a Date header', () => 'no Date header'),
  },
  {
    id: 'TPP-06',
    hint: 'a request with a Date',
    judge: (c) => {
      const date = c.header('date');
      if (date === undefined) return undefined;
      return judged(
        parseHttpDate(date) !== undefined,
        'Date as an IMF-fixdate, e.g. "Sun, 06 Nov 1994 08:49:37 GMT"',
        () => `Date: ${date}`,
      );
    },
  },
  {
    id: 'TPP-07',
    hint: "a request with a Date, answered with the bank's Date (or in the judging sandbox)",
    judge: (c) => {
      const text = c.header('date');
      if (text === undefined) return undefined;
      const date = parseHttpDate(text);
      if (date === undefined) return unjudged('the Date is not an IMF-fixdate (TPP-06)');
      if (c.clock === undefined) return unjudged(CLOCK_UNKNOWN);
      const seconds = date.getTime() / 1000;
      const behind = Math.floor(c.clock.earliest / 1000) - seconds;
      const ahead = seconds - Math.floor(c.clock.latest / 1000);
      const off =
        behind > MAX_CLOCK_SKEW_SECONDS ? `${behind} s behind` : ahead > MAX_CLOCK_SKEW_SECONDS ? `${ahead} s ahead of` : undefined;
      return judged(
        off === undefined,
        `a Date within ${MAX_CLOCK_SKEW_SECONDS} s of the bank clock`,
        () => `Date: ${text}, ${off} the bank clock (${new Date(c.clock?.latest ?? 0).toUTCString()})`,
      );
    },
  },
  {
    id: 'TPP-08',
    hint: 'any signed request (GET /v1/accounts)',
    judge: (c) => {
      const reading = readSignature(c);
      if (reading.kind === 'absent') return undefined;
      if (reading.kind === 'encoding') return unjudged('the Signature header is not readable (TPP-16)');
      return judged(reading.kind === 'parsed', 'keyId, algorithm, headers and signature, each name="value"', () =>
        reading.kind === 'malformed' ? reading.message : '',
      );
    },
  },
  {
    id: 'TPP-09',
    hint: 'any signed request (GET /v1/accounts)',
    judge: (c) => {
      const signature = parsedSignature(c);
      if (signature === undefined || isOutcome(signature)) return signature;
      const order = [...signature.decoded.matchAll(/(?:^|,)\s*([A-Za-z]+)\s*=/g)]
        .map((m) => m[1] ?? '')
        .filter((name) => ['keyId', 'algorithm', 'headers', 'signature'].includes(name));
      return judged(
        order.join(',') === 'keyId,algorithm,headers,signature',
        'the parts in the order keyId, algorithm, headers, signature',
        () => `the order ${order.join(', ')}`,
      );
    },
  },
  { id: 'TPP-10', hint: 'a signed request with TPP-Signature-Certificate', judge: (c) => keyIdOutcome(c) },
  {
    id: 'TPP-11',
    hint: 'a signed request whose keyId names its certificate',
    judge: (c) => {
      const named = keyIdOutcome(c);
      if (named === undefined) return undefined;
      if (!('pass' in named) || !named.pass) return unjudged('keyId does not name the certificate (TPP-10)');
      const signature = parsedSignature(c) as { params: SignatureParams };
      const { serial, issuer } = parseKeyId(signature.params.keyId);
      if (!/^[0-9A-F]+$/.test(serial)) return fail('the serial in upper-case hexadecimal, without separators', `SN=${serial}`);
      const certificate = c.certificate;
      if (certificate === undefined) return unjudged('no readable TPP-Signature-Certificate (TPP-02)');
      const written = parseDistinguishedName(issuer).map((attribute) => attribute.type);
      const expected = rfc2253IssuerTypes(certificate);
      return judged(
        written.join(',') === expected.join(','),
        'the issuer in RFC 2253 order, most specific attribute first',
        () => `CA=${issuer}`,
      );
    },
  },
  {
    id: 'TPP-12',
    hint: 'any signed request (GET /v1/accounts)',
    judge: (c) => {
      const signature = parsedSignature(c);
      if (signature === undefined || isOutcome(signature)) return signature;
      const { algorithm } = signature.params;
      if (algorithm.toLowerCase() !== SIGNATURE_ALGORITHM) return fail(`algorithm="${SIGNATURE_ALGORITHM}"`, `algorithm="${algorithm}"`);
      const keyType = c.certificate?.publicKey.asymmetricKeyType;
      return judged(
        keyType === undefined || keyType === 'rsa',
        'an RSA key in the certificate, matching rsa-sha256',
        () => `a ${keyType ?? 'unknown'} key`,
      );
    },
  },
  {
    id: 'TPP-13',
    hint: 'any signed request (GET /v1/accounts)',
    judge: (c) => {
      const signature = parsedSignature(c);
      if (signature === undefined || isOutcome(signature)) return signature;
      const raw = /(?:^|,)\s*headers\s*=\s*"([^"]*)"/.exec(signature.decoded)?.[1] ?? '';
      return judged(
        /^[^\sA-Z]+(?: [^\sA-Z]+)*$/.test(raw),
        'header names in lower case, separated by single spaces',
        () => `headers="${raw}"`,
      );
    },
  },
  {
    id: 'TPP-14',
    hint: 'any signed request (GET /v1/accounts)',
    judge: (c) => {
      const signature = parsedSignature(c);
      if (signature === undefined || isOutcome(signature)) return signature;
      const result = verifyOnly(c, 'requiresCoverage');
      return prerequisiteOf(result) ?? (result.ok ? PASS : fail('every signable header present in the signature', result.failure.message));
    },
  },
  {
    id: 'TPP-15',
    hint: 'a signed request with TPP-Signature-Certificate and the rsa-sha256 algorithm',
    judge: (c) => {
      const signature = parsedSignature(c);
      if (signature === undefined || isOutcome(signature)) return signature;
      if (signature.params.algorithm.toLowerCase() !== SIGNATURE_ALGORITHM)
        return unjudged(`the algorithm is not ${SIGNATURE_ALGORITHM} (TPP-12)`);
      if (c.certificate !== undefined && c.certificate.publicKey.asymmetricKeyType !== 'rsa')
        return unjudged('the certificate key is not an RSA key (TPP-12)');
      const result = verifyOnly(c, 'verifiesSignatureValue');
      return (
        prerequisiteOf(result) ??
        (result.ok ? PASS : fail('a signature that verifies with the key of TPP-Signature-Certificate', result.failure.message))
      );
    },
  },
  {
    id: 'TPP-16',
    hint: 'any signed request (GET /v1/accounts)',
    judge: (c) => {
      const value = c.header('signature');
      if (value === undefined) return undefined;
      if (needsRfc2047(value))
        return fail('an ASCII Signature value, RFC 2047-encoded when it has other characters', 'characters outside ASCII, not encoded');
      const reading = readSignature(c);
      return judged(reading.kind !== 'encoding', 'a valid RFC 2047 encoded word', () =>
        reading.kind === 'encoding' ? reading.message : '',
      );
    },
  },
  {
    id: 'TPP-18',
    hint: 'a request with TPP-Signature-Certificate, the judge given the CAs the bank trusts (--trust-ca)',
    judge: (c) => {
      const trusted = c.settings.trustedCaPems;
      if (trusted === undefined)
        return unjudged('no trusted CAs were given to the judge (--trust-ca), so any certificate is accepted, as the bank does');
      if (c.certificate === undefined)
        return c.header('tpp-signature-certificate') === undefined ? undefined : unjudged('no readable TPP-Signature-Certificate (TPP-02)');
      const result = verifyOnly(c, 'requiresTrustedIssuer', trusted);
      return judged(result.ok || result.failure.code !== 'CERTIFICATE_INVALID', 'a certificate issued by a CA the bank trusts', () =>
        result.ok ? '' : result.failure.message,
      );
    },
  },
  {
    id: 'TPP-19',
    hint: "a request with TPP-Signature-Certificate, answered with the bank's Date (or in the judging sandbox)",
    judge: (c) => {
      const certificate = c.certificate;
      if (certificate === undefined) return undefined;
      if (c.clock === undefined) return unjudged(CLOCK_UNKNOWN);
      const { notBefore, notAfter } = readCertificateFields(certificate);
      const expired = notAfter.getTime() < c.clock.earliest;
      const early = notBefore.getTime() > c.clock.latest + 999;
      return judged(
        !expired && !early,
        `a certificate valid at ${new Date(c.clock.latest).toISOString()}`,
        () => `valid ${notBefore.toISOString()} to ${notAfter.toISOString()}`,
      );
    },
  },
  {
    id: 'TPP-20',
    hint: 'GET /v1/accounts (role PSP_AI) or a payment (PSP_PI), with a certificate carrying the PSD2 QCStatement of its roles',
    judge: (c) => {
      const needed = c.call.path === undefined ? undefined : ROLE_FOR_PATH[c.call.path.name];
      if (needed === undefined || c.certificate === undefined) return undefined;
      const roles = rolesOf(c.certificate);
      if (roles === null) return unjudged('the certificate carries no PSD2 QCStatement naming its roles');
      return judged(
        roles.includes(needed),
        `a certificate with the role ${needed} for ${c.call.path?.name ?? ''}`,
        () => `roles ${roles.join(', ') || '(none)'}`,
      );
    },
  },
];
