/** HDR: every row of the payment initiation header table (Endpoints > POST /v1/payments/sepa-credit-transfers > Headers). */
import { FAILS_VALIDATION, HEADER_FORM, REQUIRED_HEADER, lowered, relaxed, variant } from './requirement-review.js';
import { CLIENT_ERROR_STATUSES, defineArea } from './requirement-types.js';

const H = 'Endpoints > POST /v1/payments/sepa-credit-transfers > Headers > ';

const REQUIRED =
  '"Required: yes" is the TPP\'s duty; the bank\'s answer to a request without the header is not written. Refusing it with 400, the status the spec gives its other refusals, is what a bank SHOULD do (a WARNING otherwise); the code is checked under ERR-16. PSU-ID and PSU-IP-Address are read otherwise, see their entries.';

const REFUSED = { status: [400] } as const;

export const HDR = defineArea('HDR', [
  {
    id: 'HDR-01',
    level: 'SHOULD',
    section: `${H}x-accept-fix`,
    statement: 'x-accept-fix is required: a payment initiation without it gets 400.',
    testedBy: 'automated',
    expect: REFUSED,
    interpretation: `${REQUIRED} An empty value is allowed and asks for no early fix; values and their effects are under VER.`,
    review: [
      REQUIRED_HEADER,
      lowered(
        'assertion',
        'HDR-01.a: a payment initiation without x-accept-fix must be refused',
        "A bank that serves it keeps every sentence of the header table (it states the TPP's duty and the header's form, not the refusal): the check is now a SHOULD, a WARNING where the bank serves it.",
      ),
    ],
  },
  {
    id: 'HDR-02',
    level: 'SHOULD',
    section: `${H}X-Request-ID`,
    statement: 'X-Request-ID is required: a request without it gets 400.',
    testedBy: 'automated',
    expect: REFUSED,
    interpretation: `${REQUIRED} On requests whose header set the spec does not show, the Berlin Group requires it as well (OpenAPI 1.3.8, parameter X-Request-ID). Any non-empty string is accepted, though the Berlin Group types it a UUID; the suite sends UUIDs.`,
    review: [REQUIRED_HEADER],
  },
  {
    id: 'HDR-03',
    level: 'SHOULD',
    section: `${H}X-Request-ID`,
    statement: 'The response repeats the X-Request-ID of the request.',
    testedBy: 'automated',
    everyExchange: true,
    basis: 'berlin-group',
    source: 'NextGenPSD2 XS2A 1.3 OpenAPI 1.3.8, response header X-Request-ID (required in every response)',
    interpretation: 'Not stated by the spec; the Berlin Group requires it in responses, hence SHOULD.',
    review: [
      variant(
        'assertion',
        "X-Request-ID demanded back on a gateway's own refusal",
        ['gateway-error-pages'],
        "The Berlin Group requires it in the responses of its operations; a gateway's answer to a request that names none is not one.",
      ),
    ],
  },
  {
    id: 'HDR-04',
    level: 'INFO',
    section: `${H}X-Request-ID`,
    statement: 'The TPP sets a new X-Request-ID for every call.',
    testedBy: 'manual:binds the TPP, judged on its traffic as TPP-23; the spec does not say how the bank treats a repeated id',
  },
  {
    id: 'HDR-05',
    level: 'SHOULD',
    section: `${H}TPP-Session-ID`,
    statement: 'TPP-Session-ID is required: a payment initiation without it gets 400.',
    testedBy: 'automated',
    expect: REFUSED,
    interpretation: `${REQUIRED} The header sets of other requests are not shown, and the Berlin Group does not have the header, so its absence elsewhere is not judged here.`,
    review: [
      REQUIRED_HEADER,
      lowered(
        'assertion',
        'HDR-05.a: a payment initiation without TPP-Session-ID must be refused',
        "A bank that serves it keeps every sentence of the header table (it states the TPP's duty and the header's form, not the refusal): the check is now a SHOULD, a WARNING where the bank serves it.",
      ),
    ],
  },
  {
    id: 'HDR-06',
    level: 'SHOULD',
    section: `${H}TPP-Redirect-URI`,
    statement: 'TPP-Redirect-URI is required: a payment initiation without it gets 400.',
    testedBy: 'automated',
    expect: REFUSED,
    interpretation: `${REQUIRED} On the other requests it is the TPP's to send too (SCA-04), and a bank may serve a read without it that needs no SCA.`,
    review: [REQUIRED_HEADER],
  },
  {
    id: 'HDR-07',
    level: 'SHOULD',
    section: `${H}Digest`,
    statement: 'Digest is required: a payment initiation without it gets 400.',
    testedBy: 'automated',
    expect: REFUSED,
    interpretation: `${REQUIRED} Judged on payment initiation, whose table the row is; on a request without a body the Berlin Group asks for Digest with every Signature, which a bank may or may not hold to. For requests without a body the suite sends the digest of the empty body; the bank must accept that.`,
    review: [REQUIRED_HEADER],
  },
  {
    id: 'HDR-08',
    level: 'MUST',
    section: `${H}Digest`,
    statement: 'Digest is the base64 SHA-256 or SHA-512 hash of the exact body bytes: a request with either is accepted.',
    testedBy: 'automated',
    interpretation:
      'Written as in RFC 3230 and RFC 5843: "SHA-256=<base64>" or "SHA-512=<base64>". A Digest in another algorithm is HDR-33.',
    review: [
      relaxed(
        'beyond-text',
        'a Digest in MD5 refused with 400',
        'The row names the two algorithms a TPP uses; it does not say what the bank answers a third. The MUST keeps what the row states (both accepted); the refusal of another algorithm is HDR-33, a SHOULD.',
      ),
    ],
  },
  {
    id: 'HDR-09',
    level: 'MUST',
    section: `${H}Digest`,
    statement: 'A Digest that does not match the body gets 400.',
    testedBy: 'automated',
    expect: REFUSED,
    interpretation:
      'A wrong digest makes the signed request fail validation (Authentication 3), hence 400; the code is checked under SIG-07.',
    review: [FAILS_VALIDATION],
  },
  {
    id: 'HDR-10',
    level: 'MUST',
    section: `${H}TPP-Signature-Certificate`,
    statement: 'TPP-Signature-Certificate is required and holds the signing certificate in base64: missing or undecodable gets 400.',
    testedBy: 'automated',
    expect: REFUSED,
    interpretation: 'Base64 of the DER certificate (a PEM body without armour and line breaks).',
    review: [FAILS_VALIDATION],
  },
  {
    id: 'HDR-11',
    level: 'MUST',
    section: `${H}Signature`,
    statement: 'Signature is required and holds the HTTP message signature (rules under SIG).',
    testedBy: 'automated',
  },
  {
    id: 'HDR-12',
    level: 'MUST',
    section: `${H}PSU-ID`,
    statement:
      'PSU-ID, once the TPP has one, carries the psu-id UUID; a value that is not a UUID gets no data: any 4xx, such as 400 or 401 with scaRedirect.',
    testedBy: 'automated',
    expect: { status: CLIENT_ERROR_STATUSES },
    interpretation:
      'The table marks it required, but the first request of a PSU cannot carry it (Authentication 12): without PSU-ID the bank answers with scaRedirect, not 400. A value that is no UUID may be refused as malformed (400) or treated as an unknown PSU (401 with scaRedirect, or any refusal PSU-07 passes); each keeps the data back.',
    review: [
      relaxed(
        'contradiction',
        '400 or 401 only, while PSU-07 passes any 4xx for a PSU-ID the bank never issued',
        'A value that is no UUID names no PSU the bank issued an id to: what passes for an unknown PSU-ID (PSU-07, any refusal, never data) passes here.',
      ),
    ],
  },
  {
    id: 'HDR-13',
    level: 'SHOULD',
    section: `${H}PSU-IP-Address`,
    statement: 'PSU-IP-Address is required on payment initiation (the PSU is present): without it the request gets 400.',
    testedBy: 'automated',
    expect: REFUSED,
    interpretation:
      'A payment is always initiated by a present PSU, so the must-send half of the Limits sentence applies; unattended calls exist only for account reads.',
    review: [REQUIRED_HEADER],
  },
  {
    id: 'HDR-14',
    level: 'MUST',
    section: `${H}PSU-IP-Address`,
    statement:
      'An account read without PSU-IP-Address is an unattended call: served (200) within the Limits, not refused as a missing header.',
    testedBy: 'automated',
    expect: { status: [200] },
    interpretation: 'Limits says the header must not be sent when the PSU is absent, so its absence on account reads cannot be an error.',
  },
  {
    id: 'HDR-15',
    level: 'SHOULD',
    section: `${H}PSU-IP-Address`,
    statement: 'PSU-IP-Address holds an IPv4 or IPv6 address: another value gets 400.',
    testedBy: 'automated',
    basis: 'berlin-group',
    source: 'NextGenPSD2 XS2A 1.3 OpenAPI 1.3.8, header parameter PSU-IP-Address_mandatory (format ipv4)',
    expect: REFUSED,
    interpretation:
      'The spec types the header "string" and does not ask the bank to check it; the Berlin Group gives it the ipv4 format. Not checking it is a WARNING; IPv6 is accepted, as an IP address of the PSU may be one.',
  },
  {
    id: 'HDR-16',
    level: 'MUST',
    section: `${H}X-PSU-IDENTITY`,
    statement: 'X-PSU-IDENTITY, a Norwegian national identity number or D-number, is accepted instead of PSU-ID.',
    testedBy: 'automated',
    interpretation:
      'Judged where the header table names it: a payment initiation naming the PSU by X-PSU-IDENTITY (the sandbox customer number) and no PSU-ID is taken. On an account read, where the spec does not name the header, a bank may read it or ignore it. Which header wins when both are sent is not said, so the suite never sends both.',
  },
  {
    id: 'HDR-17',
    level: 'MUST',
    section: `${H}X-PSU-IDENTITY`,
    statement: 'An X-PSU-IDENTITY that cannot be a national identity number or D-number (not 11 digits) gets no data: a 4xx.',
    testedBy: 'automated',
    expect: { status: CLIENT_ERROR_STATUSES },
    interpretation:
      'Both numbers have 11 digits. Their mod-11 check digits are not demanded: the sandbox logs in with mocked numbers, which need not carry valid ones. Refusing the value (400), asking for SCA (401) or any other refusal passes; an unknown but well-formed number is ERR-23.',
    review: [
      relaxed(
        'contradiction',
        '400 or 401 only, while an unknown PSU may get any 4xx (PSU-07, ERR-23)',
        'No status is named for a PSU identification the bank cannot use: any refusal passes, data never.',
      ),
    ],
  },
  {
    id: 'HDR-18',
    level: 'MUST',
    section: `${H}PSU-Corporate-ID`,
    statement: 'PSU-Corporate-ID is optional and carries the corporate agreement identifier (psu-corporate-id).',
    testedBy: 'needs-capability:corporate-psu',
    expect: { status: [200] },
    interpretation:
      'Carrying the agreement is observed as: PSU-ID with the psu-corporate-id of the redirect is served (200) in that agreement. Optional: private requests without it are served (SCA-13).',
  },
  {
    id: 'HDR-19',
    level: 'SHOULD',
    section: `${H}PSU-Context`,
    statement: 'PSU-Context takes PRIVATE or CORPORATE: any other value gets 400.',
    testedBy: 'automated',
    expect: REFUSED,
    interpretation:
      'The header table is that of payment initiation, so the refusal is judged there; on an account read, where the spec does not name the header, a bank may also ignore it.',
    review: [
      HEADER_FORM,
      lowered(
        'assertion',
        'HDR-19.a, .b: a PSU-Context outside PRIVATE and CORPORATE (or empty) must be refused',
        "A bank that serves it keeps every sentence of the header table (it states the TPP's duty and the header's form, not the refusal): the check is now a SHOULD, a WARNING where the bank serves it.",
      ),
    ],
  },
  {
    id: 'HDR-20',
    level: 'MUST',
    section: `${H}PSU-Context`,
    statement: 'PSU-Context is required for single-SCA payment initiation.',
    testedBy: 'manual:the spec does not say how a request selects single-SCA initiation, so the refusal cannot be provoked',
    interpretation:
      'The suite sends PSU-Context on the payment initiations of a consented PSU (CORPORATE with PSU-CORPORATE-ID, else PRIVATE), which satisfies the rule whatever single-SCA means for the target.',
    review: [
      relaxed(
        'contradiction',
        'the interpretation said the suite sends PSU-Context on every payment initiation with a PSU-ID, which it did not',
        "Implemented: a consented debtor's payments carry PSU-Context (CORPORATE with PSU-CORPORATE-ID, else PRIVATE), suites/payments/payment-bodies.ts consentedDebtor.",
      ),
    ],
  },
  {
    id: 'HDR-21',
    level: 'MUST',
    section: `${H}TPP-Redirect-Preferred`,
    statement: 'TPP-Redirect-Preferred takes true or false and defaults to true: without it, or with true, SCA goes through the redirect.',
    testedBy: 'automated',
  },
  {
    id: 'HDR-22',
    level: 'MUST',
    section: `${H}TPP-Redirect-Preferred`,
    statement:
      "TPP-Redirect-Preferred: false, which asks for biometric authentication in the bank's mobile app where available, is a value the bank takes: the request is not refused for it.",
    testedBy: 'automated',
    interpretation:
      'The header row makes false a value of the header, with an effect "where available". What the suite can observe over the network is that false is taken: the answer is the one the request gets without the header (served, or asked for SCA with an scaRedirect link, the only SCA approach of Authentication 9). The biometric prompt itself shows on the PSU\'s device, in the bank\'s app: that is SCA-23 (Authentication 16), which needs the app (capability mobile-app).',
  },
  {
    id: 'HDR-23',
    level: 'MUST',
    section: `${H}TPP-Brand-Logging-Information`,
    statement: 'TPP-Brand-Logging-Information, the brand shown to the PSU, is accepted and changes nothing in the answer.',
    testedBy: 'automated',
  },
  {
    id: 'HDR-24',
    level: 'MUST',
    section: `${H}Accept, Accept-Charset, Accept-Encoding, Accept-Language`,
    statement:
      'Accept, Accept-Charset, Accept-Encoding and Accept-Language are accepted; the answer states its Content-Type, and its Content-Encoding or Content-Language where it applies one.',
    testedBy: 'automated',
    interpretation:
      'Checked with Accept: application/json, Accept-Charset: utf-8, Accept-Encoding: gzip and Accept-Language: nb. The bank need not compress or translate; a compressed answer must name its Content-Encoding.',
  },
  {
    id: 'HDR-25',
    level: 'MUST',
    section: `${H}Host`,
    statement: 'Host, the server domain with an optional port, is accepted in either form.',
    testedBy: 'automated',
  },
  {
    id: 'HDR-26',
    level: 'MUST',
    section: `${H}PSU-IP-Port`,
    statement: 'PSU-IP-Port, the forwarded port of the PSU, is accepted.',
    testedBy: 'automated',
  },
  {
    id: 'HDR-27',
    level: 'MUST',
    section: `${H}PSU-User-Agent, PSU-Accept, PSU-Accept-Charset, PSU-Accept-Encoding, PSU-Accept-Language`,
    statement:
      'The forwarded PSU headers PSU-User-Agent, PSU-Accept, PSU-Accept-Charset, PSU-Accept-Encoding and PSU-Accept-Language are accepted.',
    testedBy: 'automated',
  },
  {
    id: 'HDR-28',
    level: 'SHOULD',
    section: `${H}PSU-HTTP-Method`,
    statement: 'PSU-HTTP-Method takes GET, POST, PUT, PATCH or DELETE: another value gets 400.',
    testedBy: 'automated',
    expect: REFUSED,
    interpretation:
      'The header table is that of payment initiation, so the refusal is judged there; on an account read, where the spec does not name the header, a bank may also ignore it.',
    review: [HEADER_FORM],
  },
  {
    id: 'HDR-29',
    level: 'SHOULD',
    section: `${H}PSU-Device-ID`,
    statement: 'PSU-Device-ID carries a UUID: another value gets 400.',
    testedBy: 'automated',
    expect: REFUSED,
    interpretation:
      'The header table is that of payment initiation, so the refusal is judged there; on an account read, where the spec does not name the header, a bank may also ignore it.',
    review: [
      HEADER_FORM,
      lowered(
        'assertion',
        'HDR-29.a, .b: a PSU-Device-ID that is no UUID (or empty) must be refused',
        "A bank that serves it keeps every sentence of the header table (it states the TPP's duty and the header's form, not the refusal): the check is now a SHOULD, a WARNING where the bank serves it.",
      ),
    ],
  },
  {
    id: 'HDR-30',
    level: 'MUST',
    section: `${H}PSU-Geo-Location`,
    statement: 'PSU-Geo-Location, the geo location of the PSU request, is accepted.',
    testedBy: 'automated',
    interpretation: 'Any string is accepted; the suite sends the Berlin Group form "GEO:59.9139;10.7522".',
  },
  {
    id: 'HDR-31',
    level: 'MUST',
    section: 'Endpoints > Headers',
    statement: 'Header names are matched case-insensitively (x-request-id and X-Request-ID are the same header).',
    testedBy: 'automated',
    interpretation:
      'HTTP, on which the interface is built, makes field names case-insensitive (RFC 7230, section 3.2), and the spec itself writes the same header as PSU-Corporate-ID, PSU-CORPORATE-ID and psu-corporate-id.',
  },
  {
    id: 'HDR-32',
    level: 'SHOULD',
    section: `${H}PSU-ID`,
    statement:
      'A payment initiation names its PSU with PSU-ID or its alternative X-PSU-IDENTITY: with neither it is refused (400) or asked for SCA (401), not created.',
    testedBy: 'automated',
    expect: { status: [400, 401] },
    interpretation:
      'The header table marks PSU-ID required and X-PSU-IDENTITY its alternative, so a payment of no PSU is refused, or the bank first identifies the PSU (401 with scaRedirect). HDR-12 reads the required PSU-ID loosely for a first account request, whose SCA identifies the PSU; a payment created (201) for a PSU identified only in its own SCA stretches that reading to a write: a WARNING, not a FAIL. The code of a 400 is checked under ERR-16.',
    review: [
      variant(
        'assertion',
        'HDR-32.a: a bulk payment of no PSU answered 404 by a bank without bulk payments warned of',
        ['no-bulk-payments'],
        'Another answer than 400 or 401 counts against the missing PSU only where the bank takes the same payment naming its PSU: a service it does not offer is not judged here.',
      ),
    ],
  },
  {
    id: 'HDR-33',
    level: 'SHOULD',
    section: `${H}Digest`,
    statement: 'A Digest in an algorithm the row does not name (MD5) is refused with 400.',
    testedBy: 'automated',
    basis: 'interpretation',
    expect: REFUSED,
    interpretation:
      "The row names SHA-256 and SHA-512; a Digest in another algorithm cannot be checked against the body as the row asks, so the body's integrity is not shown. Refusing it (400, the status of a signature failing validation) is the safe practice, but the text does not say the bank must: a WARNING otherwise. The code is checked under SIG-07.",
    review: [
      lowered(
        'beyond-text',
        'split from HDR-08: a Digest in MD5 refused with 400',
        'Not written: the row tells the TPP which algorithms to use. SHOULD.',
      ),
    ],
  },
]);
