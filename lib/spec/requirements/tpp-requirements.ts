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
  'Measured against the bank clock: the sandbox clock of the TPP (serve --judge), else the Date of the bank answer, widened by the time the exchange took and the one-second resolution of the header. An exchange without a bank Date is not judged.';

const BROWSER_SEEN =
  'Needs the PSU redirect, seen in the SCA pages the sandbox serves, in the SCA traffic through the proxy, or in the browser entries of a recording; where no redirect was seen the rule is not judged.';

export const TPP = defineArea('TPP', [
  // ---- Authentication 3 to 8: signing, the certificate header and Date ----
  {
    id: 'TPP-01', level: 'MUST', section: `${A}3`,
    statement: 'Every request the TPP sends to the interface is signed: it carries a Signature header.',
    testedBy: 'automated',
    interpretation: 'Sandbox operations are requests of the interface too, so they are judged as well.',
  },
  {
    id: 'TPP-02', level: 'MUST', section: `${H}TPP-Signature-Certificate`,
    statement: 'Every request carries TPP-Signature-Certificate: the signing certificate as base64 of its DER, which decodes to an X.509 certificate.',
    testedBy: 'automated',
    basis: 'berlin-group',
    source: `${SIGNING_PROFILE}: TPP-Signature-Certificate accompanies every Signature`,
    interpretation: 'The header table requires it on payment initiation; on the requests whose header set is not shown, the Berlin Group signature profile requires it with every signature, and every request must be signed (TPP-01).',
  },
  {
    id: 'TPP-03', level: 'MUST', section: `${H}Digest`,
    statement: 'Every request carries a Digest header, a GET included (the digest of the empty body).',
    testedBy: 'automated',
    basis: 'berlin-group',
    source: `${SIGNING_PROFILE}: Digest is present whenever a Signature is, and always signed`,
    interpretation: 'The header table requires Digest on payment initiation; elsewhere the signature profile requires it with every signature.',
  },
  {
    id: 'TPP-04', level: 'MUST', section: `${H}Digest`,
    statement: 'Digest is SHA-256=<base64> or SHA-512=<base64> of the exact body bytes sent, and matches them.',
    testedBy: 'automated',
    interpretation: 'Written as RFC 3230 with the RFC 5843 algorithm names, which are case-insensitive; several entries may be given, and each entry in SHA-256 or SHA-512 must match.',
  },
  {
    id: 'TPP-05', level: 'MUST', section: `${A}4`,
    statement: 'Every request carries a Date header.',
    testedBy: 'automated',
    interpretation: 'Authentication 4 asks for a correct Date within 60 s of the bank, which presupposes one, and the signature profile always signs date; every request must be signed (TPP-01).',
  },
  {
    id: 'TPP-06', level: 'MUST', section: 'What the service does > Data format > Dates',
    statement: 'The Date header is an RFC 7231 IMF-fixdate such as "Sun, 06 Nov 1994 08:49:37 GMT".',
    testedBy: 'automated',
    interpretation: 'RFC 7231 obliges senders to generate the IMF-fixdate form (its two obsolete forms are for recipients to read), and the spec names RFC 7231 for dates in headers.',
  },
  {
    id: 'TPP-07', level: 'MUST', section: `${A}4`,
    statement: 'The Date header deviates from the bank clock by at most 60 seconds, ahead or behind.',
    testedBy: 'automated',
    interpretation: `Inclusive bound (60 s is allowed), as LIM-01. ${BANK_CLOCK}`,
  },
  {
    id: 'TPP-08', level: 'MUST', section: `${A}5`,
    statement: 'The Signature header has the four parts keyId, algorithm, headers and signature, each written name="value".',
    testedBy: 'automated',
  },
  {
    id: 'TPP-09', level: 'MUST', section: `${A}5`,
    statement: 'The Signature parts are joined with commas in the order keyId, algorithm, headers, signature.',
    testedBy: 'automated',
    interpretation: 'Authentication 5 gives the order ("joined with commas in this order"); a bank may accept any order, as draft-cavage lets it (SIG-15), but a TPP writes this one. Judged only where all four parts are present (TPP-08).',
  },
  {
    id: 'TPP-10', level: 'MUST', section: `${A}5 > keyId`,
    statement: 'keyId names the signing certificate: its serial and issuer are those of TPP-Signature-Certificate.',
    testedBy: 'automated',
    interpretation: 'Compared by meaning, as the bank compares them (SIG-19): serials as numbers, distinguished names attribute by attribute. The written form is TPP-11.',
  },
  {
    id: 'TPP-11', level: 'MUST', section: `${A}5 > keyId`,
    statement: 'keyId is written SN=<serial in upper-case hexadecimal>,CA=<issuer in RFC 2253 form>, the most specific issuer attribute first.',
    testedBy: 'automated',
    interpretation: 'What the text fixes is judged: the serial has no lower-case hexadecimal digit and no separators (leading zeros may be kept or dropped), and the issuer attributes come in RFC 2253 order, the reverse of the certificate order. Attribute names and escaping vary between RFC 2253 writers, so they are not judged. Judged only where keyId names the certificate (TPP-10).',
  },
  {
    id: 'TPP-12', level: 'MUST', section: `${A}5 > algorithm`,
    statement: 'algorithm is rsa-sha256, and the certificate key is an RSA key.',
    testedBy: 'automated',
  },
  {
    id: 'TPP-13', level: 'MUST', section: `${A}5 > headers`,
    statement: 'The headers part lists the signed header names in lower case, separated by single spaces.',
    testedBy: 'automated',
  },
  {
    id: 'TPP-14', level: 'MUST', section: `${A}6`,
    statement: 'Each signable header the request carries is signed: date, digest and x-request-id, and psu-id, psu-corporate-id and tpp-redirect-uri when present.',
    testedBy: 'automated',
    basis: 'berlin-group',
    source: `${SIGNING_PROFILE}: these header fields are signed when present`,
    interpretation: 'The spec lists them as signable and, for the basket, as included "when present"; the signature profile makes that mandatory. Whether they are present at all is judged by their own entries (TPP-03, TPP-05, TPP-22).',
  },
  {
    id: 'TPP-15', level: 'MUST', section: `${A}5 > signature`,
    statement: 'The signature verifies: Base64(RSA-SHA256) of the signing string built from the listed headers in their order, with the key of TPP-Signature-Certificate.',
    testedBy: 'automated',
    interpretation: 'Authentication 6 builds the signing string; (request-target) is "<lower-case method> <path and query>" as draft-cavage defines it (SIG-28). A listed header the request does not carry cannot be signed, so such a signature does not verify.',
  },
  {
    id: 'TPP-16', level: 'MUST', section: `${A}7`,
    statement: 'A Signature value with characters outside ASCII is sent MIME-encoded per RFC 2047 (=?utf-8?B?…?=), never raw.',
    testedBy: 'automated',
  },
  {
    id: 'TPP-17', level: 'SHOULD', section: `${A}8`,
    statement: 'The TPP verifies the response signatures the bank sends.',
    testedBy: 'manual:what a TPP does with an answer after receiving it is not in its traffic',
  },
  // ---- Authentication 1 and 2: transport and the certificate ----
  {
    id: 'TPP-18', level: 'MUST', section: `${A}2`,
    statement: 'The TPP signs with an eIDAS certificate from a CA the bank trusts.',
    testedBy: 'automated',
    interpretation: 'Judged only where the judge is given the trusted CAs (serve --trust-ca, proxy and audit --trust-ca): a sandbox without them accepts any certificate, and so does the judge.',
  },
  {
    id: 'TPP-19', level: 'MUST', section: `${A}2`,
    statement: 'The signing certificate is valid when the request is sent: not expired, not before its start.',
    testedBy: 'automated',
    interpretation: BANK_CLOCK,
  },
  {
    id: 'TPP-20', level: 'MUST', section: `${A}2`,
    statement: 'The TPP uses only services of its registered role: account information as an account information provider, payments and baskets as a payment initiation provider.',
    testedBy: 'automated',
    interpretation: 'The roles are read from the ETSI TS 119 495 QCStatement of the certificate, as the bank reads them (SIG-08). A certificate without that statement says nothing about the role, so its requests are not judged here.',
  },
  {
    id: 'TPP-21', level: 'MUST', section: `${A}1`,
    statement: 'The TPP connects with TLS 1.2 or higher.',
    testedBy: 'manual:the bank, the sandbox and the proxy refuse older handshakes before any request exists to judge',
  },
  // ---- Headers of the request ----
  {
    id: 'TPP-22', level: 'MUST', section: `${H}X-Request-ID`,
    statement: 'Every request carries a non-empty X-Request-ID.',
    testedBy: 'automated',
    basis: 'berlin-group',
    source: 'NextGenPSD2 XS2A 1.3 OpenAPI 1.3.8, parameter X-Request-ID (required on every operation)',
    interpretation: 'The header table requires it on payment initiation; on requests whose header set is not shown, the Berlin Group requires it on every operation.',
  },
  {
    id: 'TPP-23', level: 'MUST', section: `${H}X-Request-ID`,
    statement: 'X-Request-ID is unique per call: the TPP never sends the same value twice.',
    testedBy: 'automated',
    interpretation: 'A retry is a call of its own, so it gets a new value. The judge remembers the last 100 000 values of each TPP, so a repeat further apart than that is not seen.',
  },
  {
    id: 'TPP-24', level: 'MUST', section: `${A}9`,
    statement: 'Every request to the interface carries TPP-Redirect-URI, since the need for SCA cannot be foreseen.',
    testedBy: 'automated',
    interpretation: 'Sandbox operations never lead to SCA; whether "all requests" includes them is open, so they are not judged (as SCA-04).',
  },
  {
    id: 'TPP-25', level: 'MUST', section: `${H}TPP-Redirect-URI`,
    statement: 'TPP-Redirect-URI is an absolute URI: the address the PSU is sent to after SCA.',
    testedBy: 'automated',
    interpretation: 'Any scheme passes (an app may take the PSU back through its own scheme); a relative or unparsable value cannot be an address to send the PSU to.',
  },
  {
    id: 'TPP-26', level: 'MUST', section: `${H}TPP-Session-ID`,
    statement: 'Payment initiation, and the start of a signing basket authorisation, carry a non-empty TPP-Session-ID.',
    testedBy: 'automated',
    interpretation: PSU_PRESENT_ENDPOINTS,
  },
  {
    id: 'TPP-27', level: 'MUST', section: `${H}x-accept-fix`,
    statement: 'Payment initiation, and the start of a signing basket authorisation, carry the x-accept-fix header (an empty value asks for no fix).',
    testedBy: 'automated',
    interpretation: PSU_PRESENT_ENDPOINTS,
  },
  {
    id: 'TPP-28', level: 'SHOULD', section: 'Versioning > x-accept-fix',
    statement: 'x-accept-fix carries only published fix values, comma-separated.',
    testedBy: 'automated',
    basis: 'interpretation',
    interpretation: 'The header activates published changes; the spec forbids no other value, but an unknown one activates nothing, usually a typing mistake. Whitespace around commas and an empty value pass.',
  },
  {
    id: 'TPP-29', level: 'MUST', section: 'Limits > PSU-IP-Address',
    statement: 'PSU-IP-Address is sent when the PSU is present: on every payment initiation and start of a signing basket authorisation.',
    testedBy: 'automated',
    interpretation: `${PSU_PRESENT_ENDPOINTS} After the SCA redirect the PSU may or may not still be present (a TPP may fetch later, unattended), so those calls are not judged.`,
  },
  {
    id: 'TPP-30', level: 'MUST', section: `${H}PSU-IP-Address`,
    statement: 'PSU-IP-Address, when sent, holds an IP address (IPv4 or IPv6).',
    testedBy: 'automated',
  },
  {
    id: 'TPP-31', level: 'MUST', section: 'Limits > PSU-IP-Address',
    statement: 'PSU-IP-Address is not sent when the TPP acts without the PSU.',
    testedBy: 'manual:whether the PSU is really present cannot be seen in the traffic',
  },
  {
    id: 'TPP-32', level: 'MUST', section: `${ID}psu-id`,
    statement: 'PSU-ID, when sent, is an RFC 4122 UUID.',
    testedBy: 'automated',
  },
  {
    id: 'TPP-33', level: 'MUST', section: `${H}X-PSU-IDENTITY`,
    statement: 'X-PSU-IDENTITY, when sent, is a Norwegian national identity number or D-number: 11 digits.',
    testedBy: 'automated',
    interpretation: 'The check digits are not judged: sandbox PSUs log in with mocked numbers (HDR-17).',
  },
  {
    id: 'TPP-34', level: 'MUST', section: `${H}PSU-Context`,
    statement: 'PSU-Context, when sent, is PRIVATE or CORPORATE.',
    testedBy: 'automated',
  },
  {
    id: 'TPP-35', level: 'MUST', section: `${H}PSU-Context`,
    statement: 'PSU-Context is sent on single-SCA payment initiation.',
    testedBy: 'manual:the spec does not say how a request selects single-SCA initiation (HDR-20)',
  },
  {
    id: 'TPP-36', level: 'MUST', section: `${H}PSU-HTTP-Method`,
    statement: 'PSU-HTTP-Method, when sent, is one of GET, POST, PUT, PATCH, DELETE.',
    testedBy: 'automated',
  },
  {
    id: 'TPP-37', level: 'MUST', section: `${H}PSU-Device-ID`,
    statement: 'PSU-Device-ID, when sent, is a UUID.',
    testedBy: 'automated',
  },
  {
    id: 'TPP-38', level: 'MUST', section: `${H}TPP-Redirect-Preferred`,
    statement: 'TPP-Redirect-Preferred, when sent, is true or false.',
    testedBy: 'automated',
    interpretation: 'The row names false and the default true and no other value; the case of the word is not judged.',
  },
  // ---- The PSU's identifiers and the SCA session ----
  {
    id: 'TPP-39', level: 'MUST', section: `${ID}psu-id`,
    statement: 'The psu-id of the SCA redirect is persisted and sent: later requests in that TPP-Session-ID carry it in PSU-ID.',
    testedBy: 'automated',
    interpretation: `Authentication 12: persist the psu-id, repeat the call with PSU-ID. Judged on the TPP's requests under the TPP-Session-ID of a successful redirect, after it (sandbox operations aside); X-PSU-IDENTITY, the alternative the header table gives, passes too. ${BROWSER_SEEN}`,
  },
  {
    id: 'TPP-40', level: 'MUST', section: `${A}13`,
    statement: 'In corporate context later calls carry PSU-CORPORATE-ID with the psu-corporate-id of the SCA redirect, beside PSU-ID.',
    testedBy: 'automated',
    interpretation: `Judged on the TPP's requests under the TPP-Session-ID of a successful redirect in context CORPORATE, after it. ${BROWSER_SEEN}`,
  },
  {
    id: 'TPP-41', level: 'SHOULD', section: `${A}9`,
    statement: 'The TPP follows scaRedirect: a request that was asked for SCA is not sent again in the same TPP-Session-ID before the PSU has opened the link.',
    testedBy: 'automated',
    basis: 'interpretation',
    interpretation:
      'The TPP "must check every response for an scaRedirect link" and send the PSU to it (Authentication 9 and 12); whether it did shows only when the PSU opens the link. Repeating the same request before that is read as ignoring the link. An scaRedirect on a payment is not judged: the TPP may authorise it later in a signing basket. The link counts as opened when the browser traffic of the SCA site was seen at all; otherwise the rule is not judged.',
  },
  {
    id: 'TPP-42', level: 'SHOULD', section: `${ID}TPP-Session-ID`,
    statement: 'TPP-Session-ID identifies one SCA session: the TPP does not reuse it for the SCA of another PSU.',
    testedBy: 'automated',
    basis: 'interpretation',
    interpretation: `The TPP chooses the id; it "ties a redirect to the originating request and governs the SCA session", which one id shared by two PSUs cannot do. Renewing a session of the same PSU under the same id is allowed (Authentication 10). Judged when a second successful redirect under one id carries another psu-id. ${BROWSER_SEEN}`,
  },
  // ---- Limits ----
  {
    id: 'TPP-43', level: 'SHOULD', section: 'Limits > Calls without PSU-IP-Address (balances)',
    statement: 'Balance reads without PSU-IP-Address stay within 4 per account per 24 hours.',
    testedBy: 'automated',
    interpretation: `"Per 24 hours" is read as any window of 24 hours. Card accounts are counted on their own paths. ${BANK_CLOCK}`,
    basis: 'interpretation',
    review: [lowered('beyond-text', 'MUST stay within 4 unattended reads per account in any 24 hours', 'The Limits table gives the bank\'s limit, "at most 4 per 24 hours", which the bank enforces (LIM-03, LIM-04); it does not make staying within it a duty of the TPP, and "per 24 hours" may also be read per calendar day. A TPP that goes past it is refused: SHOULD, read as any 24 hours.')],
  },
  {
    id: 'TPP-44', level: 'SHOULD', section: 'Limits > Calls without PSU-IP-Address (transactions)',
    statement: 'Transaction reads without PSU-IP-Address stay within 4 per account per 24 hours.',
    testedBy: 'automated',
    interpretation: 'As TPP-43; transaction lists and transaction details of the account count together.',
    basis: 'interpretation',
    review: [lowered('beyond-text', 'MUST stay within 4 unattended reads per account in any 24 hours', 'The Limits table gives the bank\'s limit, "at most 4 per 24 hours", which the bank enforces (LIM-03, LIM-04); it does not make staying within it a duty of the TPP, and "per 24 hours" may also be read per calendar day. A TPP that goes past it is refused: SHOULD, read as any 24 hours.')],
  },
  // ---- Bodies ----
  {
    id: 'TPP-45', level: 'MUST', section: 'What the service does > Data format',
    statement: 'A request body is JSON, encoded in UTF-8.',
    testedBy: 'automated',
  },
  {
    id: 'TPP-46', level: 'MUST', section: 'Resources > Payment initiation request',
    statement: 'A payment initiation body follows the field table: required fields present, types, lengths, IBAN form, country codes and date form as given.',
    testedBy: 'automated',
    interpretation: 'Judged on sepa-credit-transfers single payments, the product whose table the spec gives, with the project schema of that table (PaymentInitiationRequest). Currencies and amounts are TPP-47, the structured address TPP-48, the deprecated city TPP-50.',
  },
  {
    id: 'TPP-47', level: 'MUST', section: 'Resources > Payment initiation request > instructedAmount.amount',
    statement: 'Currencies come from the currency list, and an amount is a decimal string within precision 18 and scale 5 with no more fraction digits than its currency has minor units.',
    testedBy: 'automated',
    interpretation: '"Must match the minor units" is read as at most (fewer digits pass), since exactly is the other reading (PAY-07, PAY-47).',
  },
  {
    id: 'TPP-48', level: 'MUST', section: 'Resources > Structured-address rule 3',
    statement: 'Once the structured-address rule is enforced, a payment carries the creditor agent BIC, creditor name, creditor town name and country code.',
    testedBy: 'automated',
    interpretation: 'Enforced from 13 August 2026 in the sandbox and 15 November 2026 in production, by the bank clock at the request; where the environment is not known, the later date is used. The deprecated city stands for townName (ADR-05).',
  },
  // ---- Versioning ----
  {
    id: 'TPP-49', level: 'SHOULD', section: 'Versioning > Deprecations',
    statement: 'The TPP asks for consent through /v1/bank-offered-consents, not the deprecated /v1/consents.',
    testedBy: 'automated',
    basis: 'interpretation',
    interpretation: 'Deprecated means announced for removal, not forbidden: using it is reported, never failed.',
  },
  {
    id: 'TPP-50', level: 'SHOULD', section: 'Versioning > Deprecations',
    statement: 'A payment names the creditor town in creditorAddress.townName, not the deprecated city.',
    testedBy: 'automated',
    basis: 'interpretation',
    interpretation: 'As TPP-49: the deprecated property is reported, never failed.',
  },
  // ---- What the service does ----
  {
    id: 'TPP-51', level: 'MUST', section: 'What the service does > TPP contact registration',
    statement: 'A contact address the TPP registers is a group or common mailbox.',
    testedBy: 'manual:the dialogue API is not shown, and no traffic tells a personal mailbox from a shared one',
  },
]);
