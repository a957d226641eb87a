/** SIG: Authentication items 1 to 8 (transport, TPP identity, request signing). */
import { ANY_CLIENT_ERROR, FAILS_VALIDATION, KID_ERROR, kept } from './requirement-review.js';
import { CLIENT_ERROR_STATUSES, defineArea } from './requirement-types.js';

const A = 'Authentication ';

const CODE =
  'The refusal is MUST under its own entry (its status there), but the spec names no code for the case, and its code list (ERR-43) has none of the Berlin Group signature codes. The codes of the list that describe the failure are expected (SHOULD: another code is a WARNING).';

const REFUSED = { status: [400] } as const;

const PRODUCTION_ONLY =
  'The spec validates certificates "in production"; a sandbox need not. The rule is checked on a target that declares it validates certificates as production does and trusts the suite test CA (test-ca-trusted).';

export const SIG = defineArea('SIG', [
  {
    id: 'SIG-01',
    level: 'MUST',
    section: `${A}1`,
    statement: 'Transport is always TLS 1.2 or higher: TLS 1.0/1.1 handshakes and plain HTTP are not served.',
    testedBy: 'automated',
    interpretation:
      '"TLS 1.2 or higher" sets a floor: a server that offers TLS 1.2 and one that speaks TLS 1.3 alone both keep it, so the suite completes a TLS 1.2 handshake, or a TLS 1.3 one where the server refuses 1.2, with a certificate valid for the host. Plain HTTP on the TLS port is not served when the connection closes, or when it is refused or redirected to https.',
  },
  {
    id: 'SIG-02',
    level: 'MUST',
    section: `${A}2`,
    statement: 'A TPP certificate not issued by a trusted CA is refused (a 4xx), never served.',
    testedBy: 'needs-capability:test-ca-trusted',
    expect: { status: CLIENT_ERROR_STATUSES },
    interpretation: `${PRODUCTION_ONLY} The suite then signs with a second self-made CA the target does not trust. No status is named: any 4xx passes (400, the signature cannot be validated, 401 and 403 are the likely ones), and so does a refusal of the TLS handshake.`,
    review: [ANY_CLIENT_ERROR],
  },
  {
    id: 'SIG-03',
    level: 'MUST',
    section: `${A}3`,
    statement: 'Every request must be signed, and a correctly signed request is not refused for its signature.',
    testedBy: 'automated',
  },
  {
    id: 'SIG-04',
    level: 'MUST',
    section: `${A}3`,
    statement: 'A request that should be signed but carries no Signature gets 400.',
    testedBy: 'automated',
    expect: REFUSED,
    interpretation: 'Every interface request should be signed, GETs and sandbox operations included.',
    review: [kept('refusal', 'refused with 400', 'Authentication 3: "A request that should be signed but has no signature gets 400."')],
  },
  {
    id: 'SIG-05',
    level: 'SHOULD',
    section: `${A}3`,
    statement:
      'The 400 for a missing Signature carries a code of the list that names the problem: HTTP_HEADER_REQUIRED, FORMAT_ERROR or BAD_REQUEST.',
    testedBy: 'automated',
    basis: 'interpretation',
    expect: { codes: ['HTTP_HEADER_REQUIRED', 'FORMAT_ERROR', 'BAD_REQUEST'] },
    interpretation: `${CODE} HTTP_HEADER_REQUIRED names a missing header exactly; the two generic codes pass as well.`,
  },
  {
    id: 'SIG-06',
    level: 'MUST',
    section: `${A}3`,
    statement: 'A signature that fails validation gets 400.',
    testedBy: 'automated',
    expect: REFUSED,
    review: [kept('refusal', 'refused with 400', 'Authentication 3: "A signature that fails validation gets 400."')],
  },
  {
    id: 'SIG-07',
    level: 'SHOULD',
    section: `${A}3`,
    statement: 'The 400 for a signature failing validation carries a code of the list that fits: FORMAT_ERROR or BAD_REQUEST.',
    testedBy: 'automated',
    basis: 'interpretation',
    expect: { codes: ['FORMAT_ERROR', 'BAD_REQUEST'] },
    interpretation: `${CODE} The Berlin Group SIGNATURE_INVALID is not in the list; FORMAT_ERROR fits a header that cannot be parsed or verified, BAD_REQUEST is the generic code.`,
  },
  // Authentication 2 continues here: SIG-03 and SIG-04 were taken by item 3 before these were written.
  {
    id: 'SIG-08',
    level: 'MUST',
    section: `${A}2`,
    statement: 'A TPP must be a registered AISP or PISP: a certificate without the role needed for the service is refused.',
    testedBy: 'needs-capability:test-ca-trusted',
    expect: { status: CLIENT_ERROR_STATUSES },
    interpretation: `Roles come from the ETSI TS 119 495 QCStatement (PSP_AI, PSP_PI, ...). ${PRODUCTION_ONLY} A certificate without the role is refused; no status is named, so any 4xx passes, and the code is checked under ERR-13.`,
    review: [ANY_CLIENT_ERROR],
  },
  {
    id: 'SIG-09',
    level: 'MUST',
    section: `${A}2`,
    statement: 'An expired or not yet valid TPP certificate is refused (a 4xx).',
    testedBy: 'needs-capability:test-ca-trusted',
    expect: { status: CLIENT_ERROR_STATUSES },
    interpretation: `${PRODUCTION_ONLY} Statuses as for SIG-02.`,
    review: [ANY_CLIENT_ERROR],
  },
  {
    id: 'SIG-10',
    level: 'MUST',
    section: `${A}2`,
    statement: 'The TPP registration is checked against the register: a TPP whose authorisation is withdrawn is refused (a 4xx).',
    testedBy: 'needs-capability:tpp-register',
    expect: { status: CLIENT_ERROR_STATUSES },
    interpretation:
      'The spec checks registration "in production" against central registries; the suite cannot make a production TPP unregistered. ' +
      'It checks the rule on a target that keeps a register it lets the tester change (tpp-register): the TPP withdraws its own authorisation there, and its next request must be refused, where the same request was served just before. ' +
      'No status is named: any 4xx passes. The certificate validation of the same sentence is SIG-02 and SIG-09.',
    review: [ANY_CLIENT_ERROR],
  },
  {
    id: 'SIG-11',
    level: 'MUST',
    section: `${A}4`,
    statement: 'The Date header is required on signed requests: a request without it gets 400.',
    testedBy: 'automated',
    expect: REFUSED,
    interpretation:
      'Authentication 4 and the clock-deviation limit presuppose a Date on every signed request, and the XS2A signature profile (Authentication 8) always signs it; without it the signed request fails validation (400). The code is checked under ERR-16.',
    review: [FAILS_VALIDATION],
  },
  {
    id: 'SIG-12',
    level: 'MUST',
    section: `${A}4`,
    statement: 'A Date more than 60 seconds from the bank clock, in the past or the future, is refused (a 4xx).',
    testedBy: 'automated',
    expect: { status: CLIENT_ERROR_STATUSES },
    interpretation:
      'Inclusive limit, see LIM-01. The limit refuses what is beyond it, but no status is named for a wrong Date, and a signature over a stale Date still verifies: any 4xx passes (400, as for a signature failing validation, and the Berlin Group TIMESTAMP_INVALID are the likely ones; the code is SIG-13).',
    review: [ANY_CLIENT_ERROR],
  },
  {
    id: 'SIG-13',
    level: 'SHOULD',
    section: `${A}4`,
    statement:
      'The 400 for a Date outside the allowed deviation carries a code of the list that names the problem: FORMAT_ERROR or BAD_REQUEST.',
    testedBy: 'automated',
    basis: 'interpretation',
    expect: { codes: ['FORMAT_ERROR', 'BAD_REQUEST'] },
    interpretation: `${CODE} The Berlin Group TIMESTAMP_INVALID is not in the list.`,
  },
  {
    id: 'SIG-14',
    level: 'MUST',
    section: `${A}5`,
    statement: 'The Signature header has the parts keyId, algorithm, headers and signature as name="value": one missing gets 400.',
    testedBy: 'automated',
    expect: REFUSED,
    review: [FAILS_VALIDATION],
  },
  {
    id: 'SIG-15',
    level: 'INFO',
    section: `${A}5`,
    statement: 'The TPP writes the Signature parts comma-separated in the order keyId, algorithm, headers, signature.',
    testedBy:
      'manual:binds the TPP, judged on its traffic as TPP-09; the suite always sends this order, and draft-cavage lets a verifier accept any order',
  },
  {
    id: 'SIG-16',
    level: 'MUST',
    section: `${A}5 > keyId`,
    statement: 'keyId "SN=<serial in upper-case hex>,CA=<issuer DN in RFC 2253 form>" matching the certificate is accepted.',
    testedBy: 'automated',
  },
  {
    id: 'SIG-17',
    level: 'MUST',
    section: `${A}5 > keyId`,
    statement: 'A keyId whose serial or issuer does not match the TPP-Signature-Certificate, or that is malformed, gets 400.',
    testedBy: 'automated',
    expect: REFUSED,
    interpretation: 'A KID error (Errors rule 3): 400; the code is checked under ERR-31.',
    review: [KID_ERROR],
  },
  {
    id: 'SIG-18',
    level: 'MUST',
    section: `${A}5 > keyId`,
    statement: 'A Signature without keyId gets 400.',
    testedBy: 'automated',
    expect: REFUSED,
    interpretation: 'A KID error (Errors rule 3): 400; the code is checked under ERR-30.',
    review: [KID_ERROR],
  },
  {
    id: 'SIG-19',
    level: 'MAY',
    section: `${A}5 > keyId`,
    statement:
      'A bank may also accept a keyId naming the right certificate in a variant form (lower-case or zero-padded serial, other DN order); refusing it is as conformant.',
    testedBy: 'automated',
    basis: 'interpretation',
    expect: REFUSED,
    interpretation:
      'The spec asks for the serial in upper-case hexadecimal and the issuer in RFC 2253 form, so a variant may be refused. Public TPP tooling for this interface family writes them loosely, and comparing serials as numbers and DNs by attribute keeps the check secure; the suite reports what the bank does and fails neither. A refusal is a KID error, so it is the 400 of Errors rule 3 (expect); a 401 or 5xx is a WARNING.',
  },
  {
    id: 'SIG-20',
    level: 'SHOULD',
    section: `${A}5 > algorithm`,
    statement:
      'A Signature whose algorithm part names another algorithm than rsa-sha256 (hmac-sha256, rsa-sha512) over an RSA-SHA256 signature is refused with 400.',
    testedBy: 'automated',
    basis: 'interpretation',
    expect: REFUSED,
    interpretation:
      'The table binds the TPP to write rsa-sha256. Whether the bank must refuse a mislabelled one is not said: a verifier that checks the label refuses it, one that verifies RSA-SHA256 as the only algorithm the spec knows, with the certificate key (as later draft-cavage revisions tell a verifier to derive the algorithm from the key), finds the signature valid. Refusing is the stricter practice, hence SHOULD; a signature made with another algorithm does not verify as RSA-SHA256 at all and is SIG-06 and SIG-22.',
  },
  {
    id: 'SIG-21',
    level: 'MUST',
    section: `${A}5 > headers`,
    statement:
      'headers lists the signed header names in lower case, space-separated, in signing order; (request-target) is verified as the target URL.',
    testedBy: 'automated',
    interpretation:
      '(request-target) is "<lower-case method> <path and query>", as in draft-cavage; Authentication 5 names it, so a signature covering it is verified and accepted. host, which the spec does not list among the signable headers, is SIG-26: a bank may refuse to take it.',
  },
  {
    id: 'SIG-22',
    level: 'MUST',
    section: `${A}5 > signature`,
    statement: 'signature is Base64(RSA-SHA256(signing string)), verified with the certificate public key: altered bytes get 400.',
    testedBy: 'automated',
    expect: REFUSED,
    review: [FAILS_VALIDATION],
  },
  {
    id: 'SIG-23',
    level: 'MUST',
    section: `${A}6`,
    statement:
      'The signing string is "name: value" lines, lower-case names, joined by newlines in headers order: signing another order gets 400.',
    testedBy: 'automated',
    expect: REFUSED,
    review: [FAILS_VALIDATION],
  },
  {
    id: 'SIG-24',
    level: 'MUST',
    section: `${A}6`,
    statement: 'Headers absent from the request are left out of the signature: a request without PSU-ID, not signing psu-id, is accepted.',
    testedBy: 'automated',
    expect: REFUSED,
    interpretation: 'Conversely, a headers list naming a header the request lacks cannot be verified and gets 400.',
    review: [FAILS_VALIDATION],
  },
  {
    id: 'SIG-25',
    level: 'MUST',
    section: `${A}6`,
    statement:
      'Each signable header present (date, digest, x-request-id, psu-id, psu-corporate-id, tpp-redirect-uri) must be signed; one left out gets 400.',
    testedBy: 'automated',
    basis: 'berlin-group',
    source:
      'NextGenPSD2 XS2A 1.3 Implementation Guidelines, section 11 on signatures (named by Authentication 8): these header fields are signed when present',
    expect: REFUSED,
    interpretation:
      'The spec lists the headers as signable and, for the basket endpoint, as included "when present"; the XS2A signature profile it refers to makes them mandatory when present for every request. A signature leaving one out fails validation (400).',
    review: [
      kept(
        'refusal',
        'refused with 400',
        'Authentication 3: "A signature that fails validation gets 400", with the XS2A signature profile of Authentication 8 (Berlin Group section 11), which signs these headers when present.',
      ),
    ],
  },
  {
    id: 'SIG-26',
    level: 'SHOULD',
    section: `${A}6`,
    statement: 'Signing further headers beyond the signable ones (such as (request-target) or host) is accepted.',
    testedBy: 'automated',
    basis: 'interpretation',
    interpretation:
      'Authentication 5 itself names (request-target), so the signable list reads as a minimum, not a whitelist; a bank reading it as a whitelist is not in plain breach, hence SHOULD.',
  },
  {
    id: 'SIG-27',
    level: 'MUST',
    section: `${A}7`,
    statement: 'A Signature header MIME-encoded per RFC 2047 (=?utf-8?B?<base64>?=) is decoded and accepted.',
    testedBy: 'automated',
    interpretation: 'The encoded word is the whole header value; ISO-8859-1 (=?iso-8859-1?B?...?=) is accepted as well.',
  },
  {
    id: 'SIG-28',
    level: 'MUST',
    section: `${A}8`,
    statement: 'Signatures follow draft-cavage HTTP signatures as profiled by XS2A section 11.',
    testedBy: 'automated',
    interpretation:
      'Draft 10 semantics ((request-target), no (created)); the suite signer is itself checked against the draft test vectors.',
  },
  {
    id: 'SIG-29',
    level: 'MAY',
    section: `${A}8`,
    statement: 'The bank may sign response bodies; a signed response carries a Digest that matches its body.',
    testedBy: 'automated',
  },
  {
    id: 'SIG-30',
    level: 'SHOULD',
    section: `${A}8`,
    statement: 'The TPP should verify signed responses.',
    testedBy: 'manual:binds the TPP (TPP-17); the suite verifies when a signature is present (SIG-29)',
  },
]);
