/**
 * Authentication 3 to 8 (and the Digest, TPP-Signature-Certificate and Signature rows of the header table):
 * each rule of request signing both ways. A request that keeps the rule is accepted (2xx, or 401 asking for
 * SCA); each way of breaking it is refused with the status the catalogue gives, and a code of the list
 * that names the problem. One table, one row per case: the row says what is wrong with the request and
 * which requirements its answer judges.
 */
import { randomUUID } from 'node:crypto';
import {
  responseDigest,
  scenario,
  test,
  type Check,
  type RequestOptions,
  type ScenarioFixtures,
  type TppRequest,
  type TppResponse,
} from '../../lib/fixtures/index.js';
import { consentedDebtor, initiationRequest, psuIdentity, sepaPayment } from '../payments/payment-bodies.js';

type Judge = (check: Check, response: TppResponse) => void;

/** Refused: each status requirement judged on its own, the code after the first of them. */
const refused =
  (statusIds: readonly string[], codeId: string): Judge =>
  (check, response) => {
    const statuses = statusIds.map((id) => check.status(id, response));
    check.code(codeId, response, { after: statuses.slice(0, 1) });
  };

/** Accepted: the request got past the rules each of these requirements states. */
const accepted =
  (...ids: readonly string[]): Judge =>
  (check, response) => {
    for (const id of ids) check.accepted(id, response);
  };

interface SignatureCase {
  id: string;
  title: string;
  checks: readonly string[];
  /** What the TPP client does differently (signing defects, headers); `malformed` when the request breaks a rule. */
  request: (fixtures: Pick<ScenarioFixtures, 'tpp'>) => RequestOptions;
  judge: Judge;
  /** The bank must know the certificate from an earlier request (a request without a usable one is judged). */
  introduceCertificate?: true;
  /** Sent as a payment initiation, whose header table the rule is a row of (else as GET /v1/accounts). */
  onPaymentInitiation?: true;
}

const SIGNATURE_INVALID = (statusIds: readonly string[]) => refused(statusIds, 'SIG-07');
const HEADER_MISSING = (statusId: string) => refused([statusId], 'ERR-16');
const HEADER_MALFORMED = (statusId: string) => refused([statusId], 'ERR-21');

/** Signable headers the client does not send on its own, given a value so that they are present. */
const OPTIONAL_SIGNABLE: Partial<Record<string, () => Record<string, string>>> = {
  'psu-id': () => ({ 'PSU-ID': randomUUID() }),
  'psu-corporate-id': () => ({ 'PSU-Corporate-ID': randomUUID() }),
};

const CASES: readonly SignatureCase[] = [
  // Item 5 signature and item 3: a signature that does not verify.
  {
    id: 'SIG-22.a',
    title: 'a signature whose bytes were altered is refused with 400',
    checks: ['SIG-22', 'SIG-06', 'SIG-07'],
    request: () => ({ signingDefects: [{ kind: 'altered-signature' }], malformed: 'signature bytes altered' }),
    judge: SIGNATURE_INVALID(['SIG-22', 'SIG-06']),
  },
  {
    id: 'SIG-06.a',
    title: "a signature made with a key that is not the certificate's is refused with 400",
    checks: ['SIG-06', 'SIG-22', 'SIG-07'],
    request: () => ({ signingDefects: [{ kind: 'wrong-key' }], malformed: 'signed with another key' }),
    judge: SIGNATURE_INVALID(['SIG-06', 'SIG-22']),
  },
  ...(['x-request-id', 'date', 'tpp-redirect-uri'] as const).map((header, i): SignatureCase => ({
    id: `SIG-06.${'bcd'[i]}`,
    title: `a request whose ${header} header was changed after signing is refused with 400`,
    checks: ['SIG-06', 'SIG-07'],
    request: () => ({ signingDefects: [{ kind: 'header-changed-after-signing', header }], malformed: `${header} changed after signing` }),
    judge: SIGNATURE_INVALID(['SIG-06']),
  })),
  // Digest (header table, RFC 3230 / 5843).
  {
    id: 'HDR-09.a',
    title: 'a Digest that does not match the body is refused with 400',
    checks: ['HDR-09', 'SIG-07'],
    request: () => ({ signingDefects: [{ kind: 'wrong-digest' }], malformed: 'Digest of other bytes' }),
    judge: SIGNATURE_INVALID(['HDR-09']),
  },
  {
    id: 'HDR-08.a',
    title: 'a SHA-512 Digest is accepted',
    checks: ['HDR-08'],
    request: () => ({ digestAlgorithm: 'SHA-512' }),
    judge: accepted('HDR-08'),
  },
  {
    id: 'HDR-08.b',
    title: 'a Digest in an algorithm other than SHA-256 or SHA-512 (MD5) is refused with 400',
    checks: ['HDR-33', 'SIG-07'],
    request: () => ({ signingDefects: [{ kind: 'digest-algorithm', name: 'MD5' }], malformed: 'an MD5 Digest' }),
    judge: SIGNATURE_INVALID(['HDR-33']),
  },
  {
    // A row of the payment initiation table: a request without a body may go without Digest where the bank reads so.
    id: 'HDR-07.a',
    title: 'a signed payment initiation without Digest is refused with 400',
    checks: ['HDR-07', 'ERR-16'],
    request: () => ({ signingDefects: [{ kind: 'no-digest' }], malformed: 'no Digest header' }),
    judge: HEADER_MISSING('HDR-07'),
    onPaymentInitiation: true,
  },
  // Date (item 4).
  {
    id: 'SIG-11.a',
    title: 'a signed request without Date is refused with 400',
    checks: ['SIG-11', 'ERR-16'],
    request: () => ({ signingDefects: [{ kind: 'no-date' }], malformed: 'no Date header' }),
    judge: HEADER_MISSING('SIG-11'),
  },
  {
    id: 'FMT-08.a',
    title: 'a Date that is not an HTTP-date (an ISO 8601 timestamp) is refused with 400',
    checks: ['FMT-08', 'ERR-21'],
    request: () => ({ headers: { Date: new Date().toISOString() }, malformed: 'an ISO 8601 Date' }),
    judge: HEADER_MALFORMED('FMT-08'),
  },
  // TPP-Signature-Certificate.
  {
    id: 'HDR-10.a',
    title: 'a signed request without TPP-Signature-Certificate is refused with 400',
    checks: ['HDR-10', 'ERR-16'],
    request: () => ({ signingDefects: [{ kind: 'no-certificate' }], malformed: 'no TPP-Signature-Certificate' }),
    judge: HEADER_MISSING('HDR-10'),
    introduceCertificate: true,
  },
  {
    id: 'HDR-10.b',
    title: 'a TPP-Signature-Certificate that is not base64 is refused with 400',
    checks: ['HDR-10', 'ERR-21'],
    request: () => ({ headers: { 'TPP-Signature-Certificate': 'not base64: a certificate!' }, malformed: 'certificate not base64' }),
    judge: HEADER_MALFORMED('HDR-10'),
    introduceCertificate: true,
  },
  {
    id: 'HDR-10.c',
    title: 'a TPP-Signature-Certificate that is base64 but not a certificate is refused with 400',
    checks: ['HDR-10', 'ERR-21'],
    request: () => ({
      headers: { 'TPP-Signature-Certificate': Buffer.from('not a certificate').toString('base64') },
      malformed: 'base64 of text, not a certificate',
    }),
    judge: HEADER_MALFORMED('HDR-10'),
    introduceCertificate: true,
  },
  // The parts of the Signature header (item 5).
  {
    id: 'SIG-18.a',
    title: 'a Signature without keyId is refused with 400 (never 401), code KID_MISSING',
    checks: ['SIG-18', 'ERR-37', 'ERR-30'],
    request: () => ({ signingDefects: [{ kind: 'signature-without-part', part: 'keyId' }], malformed: 'no keyId' }),
    judge: refused(['SIG-18', 'ERR-37'], 'ERR-30'),
  },
  ...(['algorithm', 'headers', 'signature'] as const).map((part, i): SignatureCase => ({
    id: `SIG-14.${'abc'[i]}`,
    title: `a Signature without its ${part} part is refused with 400`,
    checks: ['SIG-14', 'SIG-07'],
    request: () => ({ signingDefects: [{ kind: 'signature-without-part', part }], malformed: `no ${part} part` }),
    judge: SIGNATURE_INVALID(['SIG-14']),
  })),
  {
    id: 'SIG-16.a',
    title: 'keyId SN=<upper-case hex serial>,CA=<RFC 2253 issuer> naming the certificate is accepted',
    checks: ['SIG-16'],
    request: ({ tpp }) => ({ signingDefects: [{ kind: 'key-id', value: tpp.identity.keyId }] }),
    judge: accepted('SIG-16'),
  },
  {
    id: 'SIG-17.a',
    title: 'a malformed keyId is refused with 400 (never 401), code KID_INVALID',
    checks: ['SIG-17', 'ERR-37', 'ERR-31'],
    request: () => ({ signingDefects: [{ kind: 'key-id', value: 'serial 1 of some CA' }], malformed: 'keyId not of the form SN=..,CA=..' }),
    judge: refused(['SIG-17', 'ERR-37'], 'ERR-31'),
  },
  {
    id: 'SIG-17.b',
    title: 'a keyId naming another serial is refused with 400 (never 401), code KID_INVALID',
    checks: ['SIG-17', 'ERR-37', 'ERR-31'],
    request: () => ({ signingDefects: [{ kind: 'wrong-serial' }], malformed: 'keyId names another serial' }),
    judge: refused(['SIG-17', 'ERR-37'], 'ERR-31'),
  },
  {
    id: 'SIG-17.c',
    title: 'a keyId naming another issuer is refused with 400 (never 401), code KID_INVALID',
    checks: ['SIG-17', 'ERR-37', 'ERR-31'],
    request: () => ({ signingDefects: [{ kind: 'wrong-issuer' }], malformed: 'keyId names another issuer' }),
    judge: refused(['SIG-17', 'ERR-37'], 'ERR-31'),
  },
  {
    id: 'SIG-19.a',
    title:
      'a keyId naming the certificate in a variant form (zero-padded lower-case serial) is accepted, or refused as a KID error with 400',
    checks: ['SIG-19'],
    request: ({ tpp }) => ({
      signingDefects: [
        {
          kind: 'key-id',
          value: tpp.identity.keyId.replace(/^SN=([0-9A-Fa-f]+)/, (_all, serial: string) => `SN=00${serial.toLowerCase()}`),
        },
      ],
      deliberate: 'a keyId in a variant form (TPP-11), which the bank may accept',
    }),
    judge: (check, response) => check.acceptedOrRefused('SIG-19', response),
  },
  ...(['hmac-sha256', 'rsa-sha512'] as const).map((name, i): SignatureCase => ({
    id: `SIG-20.${'ab'[i]}`,
    title: `algorithm "${name}" is refused with 400`,
    checks: ['SIG-20', 'SIG-07'],
    request: () => ({ signingDefects: [{ kind: 'algorithm', name }], malformed: `algorithm ${name}` }),
    judge: SIGNATURE_INVALID(['SIG-20']),
  })),
  // The headers part and the signing string (items 5 and 6).
  {
    id: 'SIG-21.a',
    title: 'a signature that also covers (request-target) is verified over the target URL and accepted',
    checks: ['SIG-21'],
    request: () => ({ signingDefects: [{ kind: 'extra-signed-headers', names: ['(request-target)'] }] }),
    judge: accepted('SIG-21'),
  },
  // host is not among the signable headers: a bank may refuse to take it (SIG-26, a SHOULD).
  {
    id: 'SIG-26.a',
    title: 'a signature that also covers host, beyond the signable headers, is accepted',
    checks: ['SIG-26'],
    request: () => ({ signingDefects: [{ kind: 'extra-signed-headers', names: ['(request-target)', 'host'] }] }),
    judge: accepted('SIG-26'),
  },
  {
    id: 'SIG-21.b',
    title: 'signed headers listed, and signed, in another order are accepted',
    checks: ['SIG-21'],
    request: () => ({ signingDefects: [{ kind: 'headers-out-of-order' }] }),
    judge: accepted('SIG-21'),
  },
  {
    id: 'SIG-23.a',
    title: 'a signing string built in another order than the headers part lists is refused with 400',
    checks: ['SIG-23', 'SIG-07'],
    request: () => ({
      signingDefects: [{ kind: 'headers-part-reordered' }],
      malformed: 'headers part order differs from the signing string',
    }),
    judge: SIGNATURE_INVALID(['SIG-23']),
  },
  {
    id: 'SIG-24.a',
    title: 'a request without PSU-ID whose signature leaves psu-id out is accepted',
    checks: ['SIG-24'],
    request: () => ({}),
    judge: (check, response) => check.accepted('SIG-24', response),
  },
  {
    id: 'SIG-24.b',
    title: 'a headers part naming psu-id, absent from the request, is refused with 400',
    checks: ['SIG-24', 'SIG-07'],
    request: () => ({ signingDefects: [{ kind: 'sign-absent-header', header: 'psu-id' }], malformed: 'signs an absent header' }),
    judge: SIGNATURE_INVALID(['SIG-24']),
  },
  ...(['date', 'digest', 'x-request-id', 'psu-id', 'psu-corporate-id', 'tpp-redirect-uri'] as const).map((header, i): SignatureCase => ({
    id: `SIG-25.${'abcdef'[i]}`,
    title: `a request whose ${header} header is present but not signed is refused with 400`,
    checks: ['SIG-25', 'SIG-07'],
    request: () => ({
      headers: OPTIONAL_SIGNABLE[header]?.() ?? {},
      signingDefects: [{ kind: 'unsigned-header', header }],
      malformed: `${header} not signed`,
    }),
    judge: SIGNATURE_INVALID(['SIG-25']),
  })),
  // Item 7 and item 8.
  ...(['utf-8', 'iso-8859-1'] as const).map((charset, i): SignatureCase => ({
    id: `SIG-27.${'ab'[i]}`,
    title: `a Signature header MIME-encoded per RFC 2047 (=?${charset}?B?...?=) is accepted`,
    checks: ['SIG-27'],
    request: () => ({ signingDefects: [{ kind: 'rfc2047-signature', charset }] }),
    judge: accepted('SIG-27'),
  })),
  {
    id: 'SIG-28.a',
    title: 'a request signed per draft-cavage with the XS2A headers is accepted',
    checks: ['SIG-28', 'HDR-11'],
    request: () => ({}),
    judge: accepted('SIG-28', 'HDR-11'),
  },
];

for (const signatureCase of CASES) {
  const options = {
    checks: signatureCase.checks,
    ...(signatureCase.onPaymentInitiation ? { writes: 'initiates a payment where the bank does not refuse the request' } : {}),
  };
  test(
    ...scenario(signatureCase.id, signatureCase.title, options, async ({ tpp, newTpp, psu, consentedPsu, paths, check }) => {
      if (signatureCase.introduceCertificate) await tpp.get(paths('accounts'));
      // A payment initiation names its PSU (the header table) and pays from its account, so that only the header under test is wrong.
      const endpoint: TppRequest = signatureCase.onPaymentInitiation
        ? initiationRequest(paths, sepaPayment(await consentedDebtor({ newTpp, consentedPsu, paths })), { headers: psuIdentity(psu) })
        : { method: 'GET', path: paths('accounts') };
      const request = signatureCase.request({ tpp });
      const response = await tpp.request({ ...endpoint, ...request, headers: { ...endpoint.headers, ...request.headers } });
      signatureCase.judge(check, response);
    }),
  );
}

test(
  ...scenario(
    'SIG-29.a',
    'a response that carries a Digest carries the one of its body',
    { checks: ['SIG-29'] },
    async ({ tpp, paths, check }) => {
      const response = await tpp.get(paths('accounts'));
      const digest = responseDigest(response);
      if (!digest.present) check.heldOnPath(['SIG-29'], 'the response is not signed (no Digest): the bank may choose not to sign');
      else
        check.that('SIG-29', digest.matches, {
          expected: 'the Digest of the response body',
          actual: digest.reason ?? 'it matches',
          response,
        });
    },
  ),
);
