/** ERR: error body, status codes of the signing basket operation, message codes, error rules 1-8. */
import { defineArea } from './types.js';

const B = 'Errors > Error body > ';
const SB = 'Errors > Status codes of the signing basket operation > ';
const C = 'Errors > Message codes > ';
const R = 'Errors > Rule ';

const CODE_LEVEL =
  'The spec lists the codes but maps them to conditions only through rules 1-8; the condition and status here follow the Berlin Group 1.3 meaning of the code, so the code is checked at SHOULD level (a different code is a WARNING) while the status rules stay MUST.';

export const ERR = defineArea('ERR', [
  // ---- Error body ----
  {
    id: 'ERR-01', level: 'MUST', section: `${B}id`,
    statement: 'An error response body carries id, a string identifying this occurrence of the error.',
    testedBy: 'automated',
    everyExchange: true,
    interpretation: 'The table has no "required" column; only message is said to be possibly absent, so id, system, status and code are required in every error body.',
  },
  {
    id: 'ERR-02', level: 'MUST', section: `${B}system`,
    statement: 'An error response body carries system, a string naming the system that produced the error.',
    testedBy: 'automated',
    everyExchange: true,
  },
  {
    id: 'ERR-03', level: 'MUST', section: `${B}status`,
    statement: 'An error response body carries status, a number equal to the HTTP status of the response.',
    testedBy: 'automated',
    everyExchange: true,
  },
  {
    id: 'ERR-04', level: 'MUST', section: `${B}code`,
    statement: 'An error response body carries code, a string naming the error.',
    testedBy: 'automated',
    everyExchange: true,
    interpretation: 'Any upper-snake-case code passes here; whether it is the expected one is checked by the entry of the rule or message code concerned.',
  },
  {
    id: 'ERR-05', level: 'MUST', section: `${B}message`,
    statement: 'An error response body may carry message, the error text, as a string; it may be absent (e.g. for SYSTEM_ERROR).',
    testedBy: 'automated',
    everyExchange: true,
  },
  // ---- Signing basket authorisation status codes ----
  {
    id: 'ERR-06', level: 'MUST', section: `${SB}201`,
    statement: 'A successful start of a signing basket authorisation answers 201.',
    testedBy: 'automated',
  },
  {
    id: 'ERR-07', level: 'MUST', section: `${SB}400`,
    statement: 'Starting the authorisation of a blocked signing basket answers 400 with code RESOURCE_BLOCKED.',
    testedBy: 'automated',
    interpretation: '"Blocked" is not defined. Following the Berlin Group meaning (resource not addressable in its current state), a basket whose authorisation is already finalised is blocked; the suite authorises a basket, then starts its authorisation again.',
  },
  {
    id: 'ERR-08', level: 'MUST', section: `${SB}401`,
    statement: 'When the PSU must authenticate, the basket authorisation answers 401 with a body holding an scaRedirect link.',
    testedBy: 'automated',
    interpretation: 'The spec also shows 201 with links for a started authorisation (STA-02). The suite passes either 201 (scaStatus STARTED with scaRedirect) or 401 (error body with scaRedirect) when SCA is due; both hand the PSU to the SCA site.',
  },
  {
    id: 'ERR-09', level: 'MUST', section: `${SB}404`,
    statement: 'Starting the authorisation of an unknown signing basket answers 404 with code RESOURCE_UNKNOWN.',
    testedBy: 'automated',
  },
  {
    id: 'ERR-10', level: 'MUST', section: `${SB}500`,
    statement: 'An internal failure during basket authorisation answers 500 with code SYSTEM_ERROR.',
    testedBy: 'needs-capability:fault-injection',
  },
  // ---- Message codes ----
  {
    id: 'ERR-11', level: 'SHOULD', section: `${C}SYSTEM_ERROR`,
    statement: 'SYSTEM_ERROR names an internal failure of the bank, with status 500; its message may be absent.',
    testedBy: 'needs-capability:fault-injection',
    interpretation: CODE_LEVEL,
  },
  {
    id: 'ERR-12', level: 'INFO', section: `${C}BAD_REQUEST`,
    statement: 'BAD_REQUEST is a generic 400 code for a malformed request that no more specific code describes.',
    testedBy: 'manual:a fallback code with no single trigger; the suite accepts it only where it lists it',
  },
  {
    id: 'ERR-13', level: 'SHOULD', section: `${C}FORBIDDEN`,
    statement: 'FORBIDDEN (403) answers a TPP whose PSD2 role does not allow the service, e.g. an AIS-only TPP initiating a payment.',
    testedBy: 'needs-capability:test-ca-trusted',
    interpretation: `The spec list has FORBIDDEN but not the Berlin Group ROLE_INVALID, so a role refusal uses FORBIDDEN. ${CODE_LEVEL}`,
  },
  {
    id: 'ERR-14', level: 'SHOULD', section: `${C}NOT_FOUND`,
    statement: 'NOT_FOUND (404) answers a request for a path the interface does not have.',
    testedBy: 'automated',
    interpretation: CODE_LEVEL,
  },
  {
    id: 'ERR-15', level: 'SHOULD', section: `${C}CONFLICT`,
    statement: 'CONFLICT (409) answers a logical duplicate payment sent without allowLogicalDuplicate=true, when the bank detects it.',
    testedBy: 'automated',
    interpretation: `Duplicate detection is the bank's choice (END-04), so 201 also passes; a refusal must be 409 CONFLICT. ${CODE_LEVEL}`,
  },
  {
    id: 'ERR-16', level: 'SHOULD', section: `${C}HTTP_HEADER_REQUIRED`,
    statement: 'HTTP_HEADER_REQUIRED (400) answers a request lacking a required header such as X-Request-ID or TPP-Session-ID.',
    testedBy: 'automated',
    interpretation: `Missing signature headers (Signature, TPP-Signature-Certificate, Digest) may instead carry SIGNATURE_MISSING (SIG-05). ${CODE_LEVEL}`,
  },
  {
    id: 'ERR-17', level: 'INFO', section: `${C}QUERY_PARAMETER_REQUIRED`,
    statement: 'QUERY_PARAMETER_REQUIRED (400) names a missing required query parameter.',
    testedBy: 'manual:the spec names no required query parameter (a transaction listing works without parameters)',
  },
  {
    id: 'ERR-18', level: 'SHOULD', section: `${C}SCA_NOT_FOUND`,
    statement: 'SCA_NOT_FOUND (404) answers a status request for an authorisation id the bank does not know.',
    testedBy: 'automated',
    interpretation: `RESOURCE_UNKNOWN also passes for this case. ${CODE_LEVEL}`,
  },
  {
    id: 'ERR-19', level: 'SHOULD', section: `${C}SCA_EXPIRED`,
    statement: 'SCA_EXPIRED names an SCA session that has expired; the response also links scaRedirect for a new SCA.',
    testedBy: 'needs-capability:clock-control',
    interpretation: CODE_LEVEL,
  },
  {
    id: 'ERR-20', level: 'SHOULD', section: `${C}SCA_INVALID`,
    statement: 'SCA_INVALID names an SCA that failed; it is the code parameter of the error redirect after a failed SCA.',
    testedBy: 'needs-capability:sca-abort',
    interpretation: CODE_LEVEL,
  },
  {
    id: 'ERR-21', level: 'SHOULD', section: `${C}FORMAT_ERROR`,
    statement: 'FORMAT_ERROR (400) answers a body, header or parameter that breaks a field rule (PAY, ADR, HDR formats).',
    testedBy: 'automated',
    interpretation: `Every PAY and ADR refusal is tested at MUST level for its status 400 under its own id; this id carries the check of the code. ${CODE_LEVEL}`,
  },
  {
    id: 'ERR-22', level: 'SHOULD', section: `${C}RESOURCE_UNKNOWN`,
    statement: 'RESOURCE_UNKNOWN (404) answers an unknown paymentId, account id or basket id in the path.',
    testedBy: 'automated',
    interpretation: `For baskets the spec shows it (ERR-09, MUST); for payments and accounts the Berlin Group status 404 is used, 403 also passes for an account id outside the consent. ${CODE_LEVEL}`,
  },
  {
    id: 'ERR-23', level: 'SHOULD', section: `${C}PSU_CREDENTIALS_INVALID`,
    statement: 'PSU_CREDENTIALS_INVALID (401) answers a PSU identification the bank does not know, e.g. an unknown X-PSU-IDENTITY.',
    testedBy: 'automated',
    interpretation: `A 401 with scaRedirect (start a fresh SCA) also passes; serving data never does. ${CODE_LEVEL}`,
  },
  {
    id: 'ERR-24', level: 'INFO', section: `${C}CONSENT_UNKNOWN`,
    statement: 'CONSENT_UNKNOWN names a consent reference the bank does not know.',
    testedBy: 'manual:with bank-offered consent the TPP sends no consent reference the suite could falsify',
  },
  {
    id: 'ERR-25', level: 'SHOULD', section: `${C}CONSENT_INVALID`,
    statement: 'CONSENT_INVALID (401) answers a read of an account the PSU has not consented to (or has deselected).',
    testedBy: 'automated',
    interpretation: `403 or 404 RESOURCE_UNKNOWN also pass; returning the account data fails. ${CODE_LEVEL}`,
  },
  {
    id: 'ERR-26', level: 'SHOULD', section: `${C}CONSENT_EXPIRED`,
    statement: 'CONSENT_EXPIRED (401) answers account access after the 180-day SCA renewal period has passed.',
    testedBy: 'needs-capability:clock-control',
    interpretation: CODE_LEVEL,
  },
  {
    id: 'ERR-27', level: 'SHOULD', section: `${C}ACCESS_EXCEEDED`,
    statement: 'ACCESS_EXCEEDED (429) answers an account read beyond the 4-per-24-hours limit of calls without PSU-IP-Address.',
    testedBy: 'automated',
    interpretation: CODE_LEVEL,
  },
  {
    id: 'ERR-28', level: 'SHOULD', section: `${C}PRODUCT_UNKNOWN`,
    statement: 'PRODUCT_UNKNOWN (404) answers a payment initiation for a payment product the bank does not have.',
    testedBy: 'automated',
    interpretation: CODE_LEVEL,
  },
  {
    id: 'ERR-29', level: 'INFO', section: `${C}PRODUCT_INVALID`,
    statement: 'PRODUCT_INVALID (403) names a known payment product that is not allowed for this request or PSU.',
    testedBy: 'manual:the spec does not say which product and payment-service combinations are not allowed',
  },
  {
    id: 'ERR-30', level: 'SHOULD', section: `${C}KID_MISSING`,
    statement: 'KID_MISSING (400) answers a Signature header without a keyId.',
    testedBy: 'automated',
    interpretation: `Status 400 is MUST (ERR-37); the code is checked here. ${CODE_LEVEL}`,
  },
  {
    id: 'ERR-31', level: 'SHOULD', section: `${C}KID_INVALID`,
    statement: 'KID_INVALID (400) answers a keyId that is malformed or does not match the TPP-Signature-Certificate.',
    testedBy: 'automated',
    interpretation: `Status 400 is MUST (ERR-37); the code is checked here. ${CODE_LEVEL}`,
  },
  {
    id: 'ERR-32', level: 'SHOULD', section: `${C}PAYMENT_FAILED`,
    statement: 'PAYMENT_FAILED (400) answers a payment the bank refuses to execute, e.g. for lack of funds at initiation.',
    testedBy: 'automated',
    interpretation: `Only checked when the bank refuses at initiation; a bank may instead report the lack of funds through the status (STA-06). ${CODE_LEVEL}`,
  },
  {
    id: 'ERR-33', level: 'SHOULD', section: `${C}EXECUTION_DATE_INVALID`,
    statement: 'EXECUTION_DATE_INVALID (400) answers a requestedExecutionDate in the past.',
    testedBy: 'automated',
    interpretation: CODE_LEVEL,
  },
  {
    id: 'ERR-34', level: 'MUST', section: `${C}REFERENCE_MIX_INVALID`,
    statement: 'REFERENCE_MIX_INVALID (400) answers a signing basket that would hold a bulk or periodic payment.',
    testedBy: 'automated',
  },
  // ---- Rules ----
  {
    id: 'ERR-35', level: 'MUST', section: `${R}1`,
    statement: 'A missing or invalid request signature gives 400.',
    testedBy: 'automated',
    expect: { status: [400] },
    interpretation: 'Same rule as Authentication 3 (SIG-04, SIG-06); the codes are chosen there.',
  },
  {
    id: 'ERR-36', level: 'MUST', section: `${R}2`,
    statement: 'A character the downstream system cannot process gives 400.',
    testedBy: 'automated',
    interpretation: 'Same rule and test as FMT-04.',
  },
  {
    id: 'ERR-37', level: 'MUST', section: `${R}3`,
    statement: 'A keyId (KID) error gives 400, not 401.',
    testedBy: 'automated',
  },
  {
    id: 'ERR-38', level: 'MUST', section: `${R}4`,
    statement: 'A corporate request without PSU-CORPORATE-ID gives 400.',
    testedBy: 'needs-capability:corporate-psu',
    interpretation: 'See SCA-17 for what makes a request corporate.',
  },
  {
    id: 'ERR-39', level: 'MUST', section: `${R}5`,
    statement: 'Insufficient funds give a proper error response (4xx with the error body) or a rejected status, never a 5xx.',
    testedBy: 'automated',
    interpretation: 'The suite pays far more than any sandbox balance. Passing outcomes: 4xx with an error body at initiation, or RJCT / ACCP with fundsAvailable false in the status (STA-06).',
  },
  {
    id: 'ERR-40', level: 'MUST', section: `${R}6`,
    statement: 'Missing address parts that the structured-address rule requires give an error response.',
    testedBy: 'automated',
    interpretation: 'Same rule and test as ADR-07.',
  },
  {
    id: 'ERR-41', level: 'MUST', section: `${R}7`,
    statement: 'Adding a bulk or periodic payment to a signing basket gives 400 with code REFERENCE_MIX_INVALID.',
    testedBy: 'automated',
  },
  {
    id: 'ERR-42', level: 'MUST', section: `${R}8`,
    statement: 'A periodic payment with frequency MonthlyVariable and a month identifier listed twice is rejected with 400.',
    testedBy: 'automated',
    interpretation: 'Month identifiers are the Berlin Group monthsOfExecution values "1" to "12"; "rejected" is read as 400 FORMAT_ERROR at initiation.',
  },
  // ---- Rules that hold for every response (checked on every exchange) ----
  {
    id: 'ERR-43', level: 'MUST', section: 'Errors > Message codes',
    statement: "The code of an error body is one of the specification's message codes (the 23 listed, REFERENCE_MIX_INVALID and RESOURCE_BLOCKED).",
    testedBy: 'automated',
    everyExchange: true,
    interpretation: 'The Errors part gives one list of codes. It names it for tppMessages, and every code it shows in an error answer (RESOURCE_UNKNOWN, SYSTEM_ERROR, REFERENCE_MIX_INVALID, and RESOURCE_BLOCKED for the basket 400) is of it, so the error body uses the same list. Berlin Group codes outside it (SIGNATURE_MISSING, TIMESTAMP_INVALID, ...) fail.',
  },
  {
    id: 'ERR-44', level: 'MUST', section: 'Errors > Rules',
    statement: 'A malformed request is refused with a 4xx status, never answered with a 5xx.',
    testedBy: 'automated',
    everyExchange: true,
    basis: 'berlin-group',
    source: 'NextGenPSD2 XS2A 1.3 Implementation Guidelines, section 14.11 (HTTP return codes): 4xx for errors of the TPP request, 5xx for errors of the ASPSP; OpenAPI 1.3.8 MessageCode400_* (FORMAT_ERROR)',
    interpretation: 'The specification gives 400 for each malformed case it names (signature, downstream characters, KID, corporate id) and 500 only as SYSTEM_ERROR; a request the suite deliberately malforms must therefore get a 4xx.',
  },
  {
    id: 'ERR-45', level: 'SHOULD', section: 'Errors > Rules',
    statement: 'A well-formed request is not answered with a 5xx.',
    testedBy: 'automated',
    everyExchange: true,
    basis: 'interpretation',
    interpretation: 'A 500 SYSTEM_ERROR is allowed for an internal failure of the bank, so a single 5xx is not a breach of the specification; it is a WARNING here, while the scenario\'s own check of the status fails the rule the request was about.',
  },
]);
