/**
 * TPP: the rules the specification addresses to the TPP, judged on a TPP's own traffic rather than by the
 * suite: by the judging sandbox (`serve --judge`), the judging proxy (`proxy`) and the audit of recorded
 * traffic (`audit`), all through lib/tpp-judge. The bank-side entries that only said "binds the TPP" (HDR-04,
 * SIG-15, SIG-30, LIM-19, GEN-13) point here.
 *
 * The same trust rules hold as for the bank: a rule is MUST only where the text says so, a reading the text
 * allows passes, and a judgement the traffic cannot support is left unjudged (NOT_EVALUATED), never guessed.
 * Where a rule needs the bank's clock, the bank's own clock is used (the sandbox's, or the Date of the bank's
 * answer); where it needs the PSU's browser, it is judged only when that traffic was seen.
 */
import { lowered } from './requirement-review.js';
import { defineArea } from './requirement-types.js';

const A = 'Authentication ';
const H = 'Endpoints > POST /v1/payments/sepa-credit-transfers > Headers > ';
const ID = 'Resources > Identifiers of the PSU > ';

const SIGNING_PROFILE = 'NextGenPSD2 XS2A 1.3 Implementation Guidelines, section 11 on signatures (named by Authentication 8)';

const PSU_PRESENT_ENDPOINTS =
  'Judged on payment initiation and on the start of a signing basket authorisation (the same header set): the only requests the text shows with the header set, and a payment is always initiated by a present PSU. The header sets of other requests are not shown, so they are not judged here.';

const BANK_CLOCK =
  "Measured against the bank clock: the sandbox clock of the TPP (serve --judge), else the Date of the bank answer, widened by the time the exchange took and the one-second resolution of the header. Where a sandbox keeps a clock per TPP, what the answers given in the TPP's world show of it is learnt, and an answer dated on the real time while that clock stands elsewhere (a request refused before the bank knew the TPP, a sandbox reset) is read against the TPP's clock. An exchange whose bank clock the traffic does not show is not judged.";

const BROWSER_SEEN =
  'Needs the PSU redirect, seen in the SCA pages the sandbox serves, in the SCA traffic through the proxy, or in the browser entries of a recording; where no redirect was seen the rule is not judged.';

const SESSION_CHOSEN =
  "The TPP chooses its TPP-Session-IDs: one for several PSUs (TPP-42 reports it, a SHOULD) or a new one per request are both its choice, so an identifier is held to what the bank gave the TPP in any session, never to the last redirect of the request's session.";

const FROM_BANK_START =
  'An identifier the traffic never gave the TPP is a finding only where the traffic begins with the bank (the judging sandbox; the proxy in front of the embedded bank it started); elsewhere the TPP may have obtained it before the traffic began, and it is not judged.';

const EVERY_PAYMENT =
  'Judged on the bodies of every payment service (payments, periodic-payments, bulk-payments: each of its payments) and product (sepa-credit-transfers, domestic-norway-credit-transfers, NCBCT, norwegian-domestic-payment-to-self), with the project schemas (PaymentInitiationRequest, PeriodicPaymentInitiationRequest, BulkPaymentInitiationRequest).';

export const TPP = defineArea('TPP', [
  // ---- Authentication 3 to 8: signing, the certificate header and Date ----
  {
    id: 'TPP-01',
    level: 'MUST',
    section: `${A}3`,
    statement: 'Every request the TPP sends to the interface is signed: it carries a Signature header.',
    testedBy: 'automated',
    interpretation: 'Sandbox operations are requests of the interface too, so they are judged as well.',
  },
  {
    id: 'TPP-02',
    level: 'MUST',
    section: `${H}TPP-Signature-Certificate`,
    statement:
      'Every request carries TPP-Signature-Certificate: the signing certificate as base64 of its DER, which decodes to an X.509 certificate.',
    testedBy: 'automated',
    basis: 'berlin-group',
    source: `${SIGNING_PROFILE}: TPP-Signature-Certificate accompanies every Signature`,
    interpretation:
      'The header table requires it on payment initiation; on the requests whose header set is not shown, the Berlin Group signature profile requires it with every signature, and every request must be signed (TPP-01).',
  },
  {
    id: 'TPP-03',
    level: 'MUST',
    section: `${H}Digest`,
    statement: 'Every request with a body carries a Digest header.',
    testedBy: 'automated',
    basis: 'berlin-group',
    source: `${SIGNING_PROFILE}: Digest accompanies a Signature, and digest is signed when there is a body`,
    interpretation:
      'The header table requires Digest on payment initiation, and defines it as the hash of the body; on other requests with a body the signature profile requires it. A request without a body (a GET) is not judged: the spec says nothing of a Digest there, and the profile reads both ways (Digest with every Signature; digest signed when there is a body), so a TPP may send the digest of the empty body or none (HDR-07).',
  },
  {
    id: 'TPP-04',
    level: 'MUST',
    section: `${H}Digest`,
    statement: 'Digest is SHA-256=<base64> or SHA-512=<base64> of the exact body bytes sent, and matches them.',
    testedBy: 'automated',
    interpretation:
      'Written as RFC 3230 with the RFC 5843 algorithm names, which are case-insensitive; several entries may be given, and each entry in SHA-256 or SHA-512 must match.',
  },
  {
    id: 'TPP-05',
    level: 'MUST',
    section: `${A}4`,
    statement: 'Every request carries a Date header.',
    testedBy: 'automated',
    interpretation:
      'Authentication 4 asks for a correct Date within 60 s of the bank, which presupposes one, and the signature profile always signs date; every request must be signed (TPP-01).',
  },
  {
    id: 'TPP-06',
    level: 'MUST',
    section: 'What the service does > Data format > Dates',
    statement: 'The Date header is an RFC 7231 IMF-fixdate such as "Sun, 06 Nov 1994 08:49:37 GMT".',
    testedBy: 'automated',
    interpretation:
      'RFC 7231 obliges senders to generate the IMF-fixdate form (its two obsolete forms are for recipients to read), and the spec names RFC 7231 for dates in headers.',
  },
  {
    id: 'TPP-07',
    level: 'MUST',
    section: `${A}4`,
    statement: 'The Date header deviates from the bank clock by at most 60 seconds, ahead or behind.',
    testedBy: 'automated',
    interpretation: `Inclusive bound (60 s is allowed), as LIM-01. ${BANK_CLOCK}`,
  },
  {
    id: 'TPP-08',
    level: 'MUST',
    section: `${A}5`,
    statement: 'The Signature header has the four parts keyId, algorithm, headers and signature, each written name="value".',
    testedBy: 'automated',
  },
  {
    id: 'TPP-09',
    level: 'MUST',
    section: `${A}5`,
    statement: 'The Signature parts are joined with commas in the order keyId, algorithm, headers, signature.',
    testedBy: 'automated',
    interpretation:
      'Authentication 5 gives the order ("joined with commas in this order"); a bank may accept any order, as draft-cavage lets it (SIG-15), but a TPP writes this one. Judged only where all four parts are present (TPP-08).',
  },
  {
    id: 'TPP-10',
    level: 'MUST',
    section: `${A}5 > keyId`,
    statement: 'keyId names the signing certificate: its serial and issuer are those of TPP-Signature-Certificate.',
    testedBy: 'automated',
    interpretation:
      'Compared by meaning, as the bank compares them (SIG-19): serials as numbers, distinguished names attribute by attribute. The written form is TPP-11.',
  },
  {
    id: 'TPP-11',
    level: 'MUST',
    section: `${A}5 > keyId`,
    statement:
      'keyId is written SN=<serial in upper-case hexadecimal>,CA=<issuer in RFC 2253 form>, the most specific issuer attribute first.',
    testedBy: 'automated',
    interpretation:
      'What the text fixes is judged: the serial has no lower-case hexadecimal digit and no separators (leading zeros may be kept or dropped), and the issuer attributes come in RFC 2253 order, the reverse of the certificate order. Attribute names and escaping vary between RFC 2253 writers, so they are not judged. Judged only where keyId names the certificate (TPP-10).',
  },
  {
    id: 'TPP-12',
    level: 'MUST',
    section: `${A}5 > algorithm`,
    statement: 'algorithm is rsa-sha256, and the certificate key is an RSA key.',
    testedBy: 'automated',
  },
  {
    id: 'TPP-13',
    level: 'MUST',
    section: `${A}5 > headers`,
    statement: 'The headers part lists the signed header names in lower case, separated by single spaces.',
    testedBy: 'automated',
  },
  {
    id: 'TPP-14',
    level: 'MUST',
    section: `${A}6`,
    statement:
      'Each signable header the request carries is signed: date, digest and x-request-id, and psu-id, psu-corporate-id and tpp-redirect-uri when present.',
    testedBy: 'automated',
    basis: 'berlin-group',
    source: `${SIGNING_PROFILE}: these header fields are signed when present`,
    interpretation:
      'The spec lists them as signable and, for the basket, as included "when present"; the signature profile makes that mandatory. Whether they are present at all is judged by their own entries (TPP-03, TPP-05, TPP-22).',
  },
  {
    id: 'TPP-15',
    level: 'MUST',
    section: `${A}5 > signature`,
    statement:
      'The signature verifies: Base64(RSA-SHA256) of the signing string built from the listed headers in their order, with the key of TPP-Signature-Certificate.',
    testedBy: 'automated',
    interpretation:
      'Authentication 6 builds the signing string; (request-target) is "<lower-case method> <path and query>" as draft-cavage defines it (SIG-28). A listed header the request does not carry cannot be signed, so such a signature does not verify.',
  },
  {
    id: 'TPP-16',
    level: 'MUST',
    section: `${A}7`,
    statement: 'A Signature value with characters outside ASCII is sent MIME-encoded per RFC 2047 (=?utf-8?B?…?=), never raw.',
    testedBy: 'automated',
  },
  {
    id: 'TPP-17',
    level: 'SHOULD',
    section: `${A}8`,
    statement: 'The TPP verifies the response signatures the bank sends.',
    testedBy: 'manual:what a TPP does with an answer after receiving it is not in its traffic',
  },
  // ---- Authentication 1 and 2: transport and the certificate ----
  {
    id: 'TPP-18',
    level: 'MUST',
    section: `${A}2`,
    statement: 'The TPP signs with an eIDAS certificate from a CA the bank trusts.',
    testedBy: 'automated',
    interpretation:
      'Judged only where the judge is given the trusted CAs (serve --trust-ca, proxy and audit --trust-ca): a sandbox without them accepts any certificate, and so does the judge.',
  },
  {
    id: 'TPP-19',
    level: 'MUST',
    section: `${A}2`,
    statement: 'The signing certificate is valid when the request is sent: not expired, not before its start.',
    testedBy: 'automated',
    interpretation: BANK_CLOCK,
  },
  {
    id: 'TPP-20',
    level: 'MUST',
    section: `${A}2`,
    statement:
      'The TPP uses only services of its registered role: account information as an account information provider, payments and baskets as a payment initiation provider.',
    testedBy: 'automated',
    interpretation:
      'The roles are read from the ETSI TS 119 495 QCStatement of the certificate, as the bank reads them (SIG-08). A certificate without that statement says nothing about the role, so its requests are not judged here.',
  },
  {
    id: 'TPP-21',
    level: 'MUST',
    section: `${A}1`,
    statement: 'The TPP connects with TLS 1.2 or higher.',
    testedBy: 'manual:the bank, the sandbox and the proxy refuse older handshakes before any request exists to judge',
  },
  // ---- Headers of the request ----
  {
    id: 'TPP-22',
    level: 'MUST',
    section: `${H}X-Request-ID`,
    statement: 'Every request carries a non-empty X-Request-ID.',
    testedBy: 'automated',
    basis: 'berlin-group',
    source: 'NextGenPSD2 XS2A 1.3 OpenAPI 1.3.8, parameter X-Request-ID (required on every operation)',
    interpretation:
      'The header table requires it on payment initiation; on requests whose header set is not shown, the Berlin Group requires it on every operation.',
  },
  {
    id: 'TPP-23',
    level: 'MUST',
    section: `${H}X-Request-ID`,
    statement: 'X-Request-ID is unique per call: the TPP never sends the same value twice.',
    testedBy: 'automated',
    interpretation:
      'A retry is a call of its own, so it gets a new value. The judge remembers the last 100 000 values of each TPP, so a repeat further apart than that is not seen.',
  },
  {
    id: 'TPP-24',
    level: 'MUST',
    section: `${A}9`,
    statement: 'Every request to the interface carries TPP-Redirect-URI, since the need for SCA cannot be foreseen.',
    testedBy: 'automated',
    interpretation:
      'Sandbox operations never lead to SCA; whether "all requests" includes them is open, so they are not judged (as SCA-04).',
  },
  {
    id: 'TPP-25',
    level: 'MUST',
    section: `${H}TPP-Redirect-URI`,
    statement: 'TPP-Redirect-URI is an absolute URI: the address the PSU is sent to after SCA.',
    testedBy: 'automated',
    interpretation:
      'Any scheme passes (an app may take the PSU back through its own scheme); a relative or unparsable value cannot be an address to send the PSU to.',
  },
  {
    id: 'TPP-26',
    level: 'MUST',
    section: `${H}TPP-Session-ID`,
    statement: 'Payment initiation, and the start of a signing basket authorisation, carry a non-empty TPP-Session-ID.',
    testedBy: 'automated',
    interpretation: PSU_PRESENT_ENDPOINTS,
  },
  {
    id: 'TPP-27',
    level: 'MUST',
    section: `${H}x-accept-fix`,
    statement:
      'Payment initiation, and the start of a signing basket authorisation, carry the x-accept-fix header (an empty value asks for no fix).',
    testedBy: 'automated',
    interpretation: PSU_PRESENT_ENDPOINTS,
  },
  {
    id: 'TPP-28',
    level: 'SHOULD',
    section: 'Versioning > x-accept-fix',
    statement: 'x-accept-fix carries only published fix values, comma-separated.',
    testedBy: 'automated',
    basis: 'interpretation',
    interpretation:
      'The header activates published changes; the spec forbids no other value, but an unknown one activates nothing, usually a typing mistake. Whitespace around commas and an empty value pass.',
  },
  {
    id: 'TPP-29',
    level: 'MUST',
    section: 'Limits > PSU-IP-Address',
    statement: 'PSU-IP-Address is sent when the PSU is present: on every payment initiation and start of a signing basket authorisation.',
    testedBy: 'automated',
    interpretation: `${PSU_PRESENT_ENDPOINTS} After the SCA redirect the PSU may or may not still be present (a TPP may fetch later, unattended), so those calls are not judged.`,
  },
  {
    id: 'TPP-30',
    level: 'MUST',
    section: `${H}PSU-IP-Address`,
    statement: 'PSU-IP-Address, when sent, holds an IP address (IPv4 or IPv6).',
    testedBy: 'automated',
  },
  {
    id: 'TPP-31',
    level: 'MUST',
    section: 'Limits > PSU-IP-Address',
    statement: 'PSU-IP-Address is not sent when the TPP acts without the PSU.',
    testedBy: 'manual:whether the PSU is really present cannot be seen in the traffic',
  },
  {
    id: 'TPP-32',
    level: 'MUST',
    section: `${ID}psu-id`,
    statement: 'PSU-ID, when sent, is an RFC 4122 UUID.',
    testedBy: 'automated',
  },
  {
    id: 'TPP-33',
    level: 'MUST',
    section: `${H}X-PSU-IDENTITY`,
    statement: 'X-PSU-IDENTITY, when sent, is a Norwegian national identity number or D-number: 11 digits.',
    testedBy: 'automated',
    interpretation: 'The check digits are not judged: sandbox PSUs log in with mocked numbers (HDR-17).',
  },
  {
    id: 'TPP-34',
    level: 'MUST',
    section: `${H}PSU-Context`,
    statement: 'PSU-Context, when sent, is PRIVATE or CORPORATE.',
    testedBy: 'automated',
  },
  {
    id: 'TPP-35',
    level: 'MUST',
    section: `${H}PSU-Context`,
    statement: 'PSU-Context is sent on single-SCA payment initiation.',
    testedBy: 'manual:the spec does not say how a request selects single-SCA initiation (HDR-20)',
  },
  {
    id: 'TPP-36',
    level: 'MUST',
    section: `${H}PSU-HTTP-Method`,
    statement: 'PSU-HTTP-Method, when sent, is one of GET, POST, PUT, PATCH, DELETE.',
    testedBy: 'automated',
  },
  {
    id: 'TPP-37',
    level: 'MUST',
    section: `${H}PSU-Device-ID`,
    statement: 'PSU-Device-ID, when sent, is a UUID.',
    testedBy: 'automated',
  },
  {
    id: 'TPP-38',
    level: 'MUST',
    section: `${H}TPP-Redirect-Preferred`,
    statement: 'TPP-Redirect-Preferred, when sent, is true or false.',
    testedBy: 'automated',
    interpretation: 'The row names false and the default true and no other value; the case of the word is not judged.',
  },
  // ---- The PSU's identifiers and the SCA session ----
  {
    id: 'TPP-39',
    level: 'MUST',
    section: `${ID}psu-id`,
    statement:
      'The psu-id of an SCA redirect is persisted and sent in PSU-ID on later requests of its PSU; a PSU-ID sent is one a redirect gave the TPP.',
    testedBy: 'automated',
    interpretation: `Authentication 12: persist the psu-id, repeat the call with PSU-ID. Two findings: a PSU-ID that no redirect gave the TPP; and a request naming no PSU (neither PSU-ID nor X-PSU-IDENTITY, the alternative the header table gives) whose SCA then identified a PSU whose psu-id an earlier SCA of the same TPP-Session-ID had given the TPP: it held the psu-id and did not send it (judged on the redirect). ${FROM_BANK_START} ${SESSION_CHOSEN} ${BROWSER_SEEN}`,
  },
  {
    id: 'TPP-40',
    level: 'MUST',
    section: `${A}13`,
    statement:
      'A call in corporate context carries PSU-CORPORATE-ID beside PSU-ID, with a corporate id the TPP obtained: from an SCA redirect or GET /v1/agreements.',
    testedBy: 'automated',
    interpretation: `Authentication 13 and Errors rule 4: a corporate user request carries PSU-CORPORATE-ID. A call is in corporate context when it says so: PSU-Context CORPORATE, or a PSU-CORPORATE-ID; a PSU-ID alone of a PSU whose SCA ended in corporate context may be read as a private call (the bank's variant corporate-psu-id-alone-read-as-private), so it is not judged. A call that names no PSU starts a flow (the PSU picks the context during SCA), and the consent requests, GET /v1/user and GET /v1/agreements obtain a context rather than act in one: none of them is judged for the header. Where PSU-CORPORATE-ID is sent it is one a redirect (psu-corporate-id) or an answer of GET /v1/agreements gave the TPP. ${FROM_BANK_START} ${SESSION_CHOSEN}`,
  },
  {
    id: 'TPP-41',
    level: 'SHOULD',
    section: `${A}9`,
    statement:
      'The TPP follows scaRedirect: a request that was asked for SCA is not sent again in the same TPP-Session-ID before the PSU has opened the link.',
    testedBy: 'automated',
    basis: 'interpretation',
    interpretation:
      'The TPP "must check every response for an scaRedirect link" and send the PSU to it (Authentication 9 and 12); whether it did shows only when the PSU opens the link. Repeating the same request before that is read as ignoring the link. An scaRedirect on a payment is not judged: the TPP may authorise it later in a signing basket. The link counts as opened when the browser traffic of the SCA site was seen at all; otherwise the rule is not judged.',
  },
  {
    id: 'TPP-42',
    level: 'SHOULD',
    section: `${ID}TPP-Session-ID`,
    statement: 'TPP-Session-ID identifies one SCA session: the TPP does not reuse it for the SCA of another PSU.',
    testedBy: 'automated',
    basis: 'interpretation',
    interpretation: `The TPP chooses the id; it "ties a redirect to the originating request and governs the SCA session", which one id shared by two PSUs cannot do. Renewing a session of the same PSU under the same id is allowed (Authentication 10). Judged when a second successful redirect under one id carries another psu-id. ${BROWSER_SEEN}`,
  },
  // ---- Limits ----
  {
    id: 'TPP-43',
    level: 'SHOULD',
    section: 'Limits > Calls without PSU-IP-Address (balances)',
    statement: 'Balance reads without PSU-IP-Address stay within 4 per account per 24 hours.',
    testedBy: 'automated',
    interpretation: `"Per 24 hours" may be read as any 24 hours or as a calendar day (the bank's, Europe/Oslo, or UTC): a read is reported only when it is past the quota under every reading, and one past it under some readings only is not judged, the reason naming the reading that allows it. Card accounts are counted on their own paths. ${BANK_CLOCK}`,
    basis: 'interpretation',
    review: [
      lowered(
        'beyond-text',
        'MUST stay within 4 unattended reads per account in any 24 hours',
        'The Limits table gives the bank\'s limit, "at most 4 per 24 hours", which the bank enforces (LIM-03, LIM-04); it does not make staying within it a duty of the TPP, and "per 24 hours" may also be read per calendar day. A TPP that goes past it is refused: SHOULD, read as any 24 hours.',
      ),
    ],
  },
  {
    id: 'TPP-44',
    level: 'SHOULD',
    section: 'Limits > Calls without PSU-IP-Address (transactions)',
    statement: 'Transaction reads without PSU-IP-Address stay within 4 per account per 24 hours.',
    testedBy: 'automated',
    interpretation:
      'As TPP-43, and transaction details may be counted with the listings or apart from them: only listings past the quota however counted are reported; details never are.',
    basis: 'interpretation',
    review: [
      lowered(
        'beyond-text',
        'MUST stay within 4 unattended reads per account in any 24 hours',
        'The Limits table gives the bank\'s limit, "at most 4 per 24 hours", which the bank enforces (LIM-03, LIM-04); it does not make staying within it a duty of the TPP, and "per 24 hours" may also be read per calendar day. A TPP that goes past it is refused: SHOULD, read as any 24 hours.',
      ),
    ],
  },
  // ---- Bodies ----
  {
    id: 'TPP-45',
    level: 'MUST',
    section: 'What the service does > Data format',
    statement: 'A request body is JSON, encoded in UTF-8.',
    testedBy: 'automated',
  },
  {
    id: 'TPP-46',
    level: 'MUST',
    section: 'Resources > Payment initiation request',
    statement:
      'A payment initiation body follows the field table: required fields present, types, lengths, IBAN form, country codes and date form as given.',
    testedBy: 'automated',
    interpretation: `The table is given for sepa-credit-transfers; the Limits table states its lengths for every payment, and the suite holds the bank to the table's refusals for every service and product (the rule table), so a TPP is held to it on each. ${EVERY_PAYMENT} Currencies and amounts are TPP-47, the structured address TPP-48, the deprecated city TPP-50, the periodic and bulk shapes TPP-53, months named twice TPP-54.`,
  },
  {
    id: 'TPP-47',
    level: 'MUST',
    section: 'Resources > Payment initiation request > instructedAmount.amount',
    statement:
      'Currencies come from the currency list, and an amount is a decimal string within precision 18 and scale 5 with no more fraction digits than its currency has minor units.',
    testedBy: 'automated',
    interpretation: `"Must match the minor units" is read as at most (fewer digits pass), since exactly is the other reading (PAY-07, PAY-47). The Limits table gives the amount rule for every payment. ${EVERY_PAYMENT}`,
  },
  {
    id: 'TPP-48',
    level: 'MUST',
    section: 'Resources > Structured-address rule 3',
    statement:
      'Once the structured-address rule is enforced, a payment carries the creditor agent BIC, creditor name, creditor town name and country code.',
    testedBy: 'automated',
    interpretation: `Enforced from 13 August 2026 in the sandbox and 15 November 2026 in production, by the bank clock at the request; where the environment is not known, the later date is used. The deprecated city stands for townName (ADR-05). The rule is stated for payments: every creditor of every payment, a bulk's each. ${EVERY_PAYMENT}`,
  },
  // ---- Versioning ----
  {
    id: 'TPP-49',
    level: 'SHOULD',
    section: 'Versioning > Deprecations',
    statement: 'The TPP asks for consent through /v1/bank-offered-consents, not the deprecated /v1/consents.',
    testedBy: 'automated',
    basis: 'interpretation',
    interpretation: 'Deprecated means announced for removal, not forbidden: using it is reported, never failed.',
  },
  {
    id: 'TPP-50',
    level: 'SHOULD',
    section: 'Versioning > Deprecations',
    statement: 'A payment names the creditor town in creditorAddress.townName, not the deprecated city.',
    testedBy: 'automated',
    basis: 'interpretation',
    interpretation: 'As TPP-49: the deprecated property is reported, never failed.',
  },
  // ---- What the service does ----
  {
    id: 'TPP-51',
    level: 'MUST',
    section: 'What the service does > TPP contact registration',
    statement: 'A contact address the TPP registers is a group or common mailbox.',
    testedBy: 'manual:the dialogue API is not shown, and no traffic tells a personal mailbox from a shared one',
  },
  // ---- Added where a rule the specification states had no entry (issue 34) ----
  {
    id: 'TPP-52',
    level: 'SHOULD',
    section: 'What the service does > Data format',
    statement: 'A request header value with characters outside ASCII is UTF-8.',
    testedBy: 'automated',
    interpretation:
      '"Requests and responses use UTF-8" covers a request\'s headers too; the text says "use", not "must", and HTTP lets a field carry other bytes that a recipient treats as opaque (RFC 9110, 5.5; FMT-12): a SHOULD. Judged on the bytes as sent (a recorder\'s latin1 characters read back as bytes); the Signature header is TPP-16\'s, which asks for RFC 2047 there.',
  },
  {
    id: 'TPP-53',
    level: 'MUST',
    section: 'Resources > Payment initiation request > periodic and bulk payments (not shown)',
    statement:
      'A periodic payment carries startDate and a frequency of the Berlin Group codes; a bulk payment carries its payments in an array, debtorAccount and the execution date at the bulk, not in its payments.',
    testedBy: 'automated',
    basis: 'berlin-group',
    source:
      'NextGenPSD2 XS2A 1.3 OpenAPI 1.3.8, schemas periodicPaymentInitiation_json (startDate, frequency required; frequencyCode, executionRule, dayOfExecution, monthsOfExecution), bulkPaymentInitiation_json (payments required) and paymentInitiationBulkElement_json ("These data elements may not be contained in any bulk entry")',
    interpretation:
      "The spec names periodic and bulk payments (Errors rules 7 and 8, baskets) without their shapes, and follows XS2A 1.3 where it shows none: the Berlin Group shapes fill the gap (PAY-44, PAY-45, PAY-52 on the bank's side). The payments inside them follow the field table (TPP-46 to TPP-48). A bulk of no payments is not judged: the Berlin Group sets no minimum.",
  },
  {
    id: 'TPP-54',
    level: 'SHOULD',
    section: 'Errors > Rule 8',
    statement: 'A periodic payment with frequency MonthlyVariable names each month of execution once.',
    testedBy: 'automated',
    interpretation:
      'Errors rule 8 says such a payment "is rejected", which tells the TPP not to send one without a "must": a SHOULD. Month identifiers are the Berlin Group monthsOfExecution values (ERR-42).',
  },
]);
