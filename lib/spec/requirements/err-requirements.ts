/** ERR: error body, status codes of the signing basket operation, message codes, error rules 1-8. */
import { MESSAGE_CODES } from '../schemas/common-schemas.js';
import { ANY_CLIENT_ERROR, kept, relaxed, variant } from './requirement-review.js';
import { BELOW_SERVER_ERROR_STATUSES, CLIENT_ERROR_STATUSES, defineArea } from './requirement-types.js';

const B = 'Errors > Error body > ';
const SB = 'Errors > Status codes of the signing basket operation > ';
const C = 'Errors > Message codes > ';
const R = 'Errors > Rule ';

/** For a code the Berlin Group defines: its status comes from there. */
const BG_CODE =
  'The spec lists the code but maps codes to conditions only through rules 1-8 ("not shown beyond the rules above"). The Berlin Group gives the code its status and meaning, so the code is checked at SHOULD level (another code is a WARNING); statuses the spec itself names stay MUST under their own entries.';
/** For a code of the spec's list that the Berlin Group does not have. */
const OWN_CODE =
  "The spec lists the code without a condition or status, and the Berlin Group does not define it; the condition and status here are the project's reading of its name, so the check is a SHOULD (another fitting code is a WARNING).";

const SOURCE = (schemas: string): string => `NextGenPSD2 XS2A 1.3 OpenAPI 1.3.8, schema ${schemas}`;

export const ERR = defineArea('ERR', [
  // ---- Error body ----
  {
    id: 'ERR-01',
    level: 'MUST',
    section: `${B}id`,
    statement: 'An error response body carries id, a string identifying this occurrence of the error.',
    testedBy: 'automated',
    everyExchange: true,
    interpretation:
      'The table has no "required" column; only message is said to be possibly absent, so id, system, status and code are required in every error body of the interface. An answer to a request that names no operation of the interface (an unknown path, a method the path does not take), or that is refused before it reaches one (413, 414, 431), may come from a gateway in front of it, in its own form, and is not judged here.',
    review: [
      variant(
        'assertion',
        "the error body demanded of every 4xx, a gateway's own 404, 405 and 413 included (invariants)",
        ['gateway-error-pages'],
        "The error body is the interface's: a request that names no operation of it (a path it does not have, a method a path does not take) or that is refused before it reaches one (413, 414, 431) may be answered by what stands in front of the interface in its own form. The invariants judge the error body, its code and JSON only on answers of the interface's operations.",
      ),
    ],
  },
  {
    id: 'ERR-02',
    level: 'MUST',
    section: `${B}system`,
    statement: 'An error response body carries system, a string naming the system that produced the error.',
    testedBy: 'automated',
    everyExchange: true,
    review: [
      variant(
        'assertion',
        "the error body demanded of every 4xx, a gateway's own 404, 405 and 413 included (invariants)",
        ['gateway-error-pages'],
        "The error body is the interface's: a request that names no operation of it (a path it does not have, a method a path does not take) or that is refused before it reaches one (413, 414, 431) may be answered by what stands in front of the interface in its own form. The invariants judge the error body, its code and JSON only on answers of the interface's operations.",
      ),
    ],
  },
  {
    id: 'ERR-03',
    level: 'MUST',
    section: `${B}status`,
    statement: 'An error response body carries status, a number equal to the HTTP status of the response.',
    testedBy: 'automated',
    everyExchange: true,
    review: [
      variant(
        'assertion',
        "the error body demanded of every 4xx, a gateway's own 404, 405 and 413 included (invariants)",
        ['gateway-error-pages'],
        "The error body is the interface's: a request that names no operation of it (a path it does not have, a method a path does not take) or that is refused before it reaches one (413, 414, 431) may be answered by what stands in front of the interface in its own form. The invariants judge the error body, its code and JSON only on answers of the interface's operations.",
      ),
    ],
  },
  {
    id: 'ERR-04',
    level: 'MUST',
    section: `${B}code`,
    statement: 'An error response body carries code, a string naming the error.',
    testedBy: 'automated',
    everyExchange: true,
    interpretation:
      'Any upper-snake-case code passes here; whether it is the expected one is checked by the entry of the rule or message code concerned.',
    review: [
      variant(
        'assertion',
        "the error body demanded of every 4xx, a gateway's own 404, 405 and 413 included (invariants)",
        ['gateway-error-pages'],
        "The error body is the interface's: a request that names no operation of it (a path it does not have, a method a path does not take) or that is refused before it reaches one (413, 414, 431) may be answered by what stands in front of the interface in its own form. The invariants judge the error body, its code and JSON only on answers of the interface's operations.",
      ),
    ],
  },
  {
    id: 'ERR-05',
    level: 'MUST',
    section: `${B}message`,
    statement: 'An error response body may carry message, the error text, as a string; it may be absent (e.g. for SYSTEM_ERROR).',
    testedBy: 'automated',
    everyExchange: true,
    review: [
      variant(
        'assertion',
        "the error body demanded of every 4xx, a gateway's own 404, 405 and 413 included (invariants)",
        ['gateway-error-pages'],
        "The error body is the interface's: a request that names no operation of it (a path it does not have, a method a path does not take) or that is refused before it reaches one (413, 414, 431) may be answered by what stands in front of the interface in its own form. The invariants judge the error body, its code and JSON only on answers of the interface's operations.",
      ),
    ],
  },
  // ---- Signing basket authorisation status codes ----
  {
    id: 'ERR-06',
    level: 'MUST',
    section: `${SB}201`,
    statement: 'A successful start of a signing basket authorisation answers 201.',
    testedBy: 'automated',
    expect: { status: [201] },
    interpretation:
      'The operation may also answer 401 with an scaRedirect body when SCA is required (ERR-08, the status list of the operation): that answer is not a failed start but another one the spec names, and leaves this entry not evaluated.',
  },
  {
    id: 'ERR-07',
    level: 'INFO',
    section: `${SB}400`,
    statement: 'The spec shows RESOURCE_BLOCKED for a 400 of the basket authorisation, without saying when a basket is blocked.',
    testedBy:
      'manual:"blocked" is defined neither by the spec nor by the Berlin Group OpenAPI, so no condition can be provoked or demanded',
    expect: { status: [400], codes: ['RESOURCE_BLOCKED'] },
    interpretation:
      'Nothing says what makes a basket blocked: one bank may refuse a second authorisation as blocked, another a basket whose payments moved on, a third never. With no condition there is no duty to judge, so the entry is context only; RESOURCE_BLOCKED stays a code of the list (MSG-02).',
  },
  {
    id: 'ERR-08',
    level: 'MUST',
    section: `${SB}401`,
    statement:
      'When the PSU must authenticate, the basket authorisation answers 401 with a body holding an scaRedirect link (or 201 with it, see below).',
    testedBy: 'automated',
    expect: { status: [201, 401] },
    interpretation:
      'The spec also shows 201 with links for a started authorisation (STA-02). The suite passes either 201 (scaStatus STARTED with scaRedirect) or 401 (error body with scaRedirect) when SCA is due; both hand the PSU to the SCA site.',
    review: [
      kept(
        'refusal',
        'a 401 body (or 201) with scaRedirect',
        'Errors: "401 unauthorised (body with scaRedirect link)" for the basket operation; a started authorisation answers "STARTED and links".',
      ),
    ],
  },
  {
    id: 'ERR-09',
    level: 'MUST',
    section: `${SB}404`,
    statement: 'Starting the authorisation of an unknown signing basket answers 404 with code RESOURCE_UNKNOWN.',
    testedBy: 'automated',
    expect: { status: [404], codes: ['RESOURCE_UNKNOWN'] },
    review: [
      kept(
        'refusal',
        'an unknown basket answered 404 RESOURCE_UNKNOWN',
        'Errors: for the signing basket operation "404 (code RESOURCE_UNKNOWN is shown)", the code the Berlin Group gives an addressed resource the ASPSP does not know.',
      ),
    ],
  },
  {
    id: 'ERR-10',
    level: 'MUST',
    section: `${SB}500`,
    statement: 'An internal failure during basket authorisation answers 500 with code SYSTEM_ERROR.',
    testedBy: 'needs-capability:fault-injection',
    expect: { status: [500], codes: ['SYSTEM_ERROR'] },
    review: [
      kept(
        'refusal',
        'an internal failure answered 500 SYSTEM_ERROR',
        'Errors: for the signing basket operation "500 internal error (code SYSTEM_ERROR)".',
      ),
    ],
  },
  // ---- Message codes ----
  {
    id: 'ERR-11',
    level: 'SHOULD',
    section: `${C}SYSTEM_ERROR`,
    statement: 'SYSTEM_ERROR names an internal failure of the bank, with status 500; its message may be absent.',
    testedBy: 'needs-capability:fault-injection',
    basis: 'interpretation',
    expect: { status: [500], codes: ['SYSTEM_ERROR'] },
    interpretation: `The spec pairs SYSTEM_ERROR with 500 only for the basket operation (ERR-10); elsewhere the pairing is carried over. ${OWN_CODE}`,
  },
  {
    id: 'ERR-12',
    level: 'INFO',
    section: `${C}BAD_REQUEST`,
    statement: 'BAD_REQUEST is a generic 400 code for a malformed request that no more specific code describes.',
    testedBy: 'manual:a fallback code with no single trigger; the suite accepts it only where an entry lists it',
    basis: 'interpretation',
    expect: { status: [400], codes: ['BAD_REQUEST'] },
  },
  {
    id: 'ERR-13',
    level: 'SHOULD',
    section: `${C}FORBIDDEN`,
    statement: 'A refusal of a TPP whose PSD2 role does not allow the service (an AIS-only TPP initiating a payment) carries FORBIDDEN.',
    testedBy: 'needs-capability:test-ca-trusted',
    basis: 'interpretation',
    expect: { codes: ['FORBIDDEN'] },
    interpretation: `The Berlin Group code for it, ROLE_INVALID, is not in the spec's list; FORBIDDEN is the list's code for a refused permission. The status is SIG-08's. ${OWN_CODE}`,
  },
  {
    id: 'ERR-14',
    level: 'SHOULD',
    section: `${C}NOT_FOUND`,
    statement: 'A request for a path the interface does not have answers 404 with NOT_FOUND (or RESOURCE_UNKNOWN).',
    testedBy: 'automated',
    basis: 'interpretation',
    expect: { status: [404], codes: ['NOT_FOUND', 'RESOURCE_UNKNOWN'] },
    interpretation: `404 is the HTTP status for a target that does not exist; both list codes describe it. ${OWN_CODE}`,
    review: [
      variant(
        'assertion',
        'ERR-14.a: the 404 of an unknown path judged for the error body and code',
        ['gateway-error-pages'],
        "Its status is judged; a gateway's own 404 page carries no code, which leaves the code unjudged (a SHOULD), and the error body is not demanded of it.",
      ),
    ],
  },
  {
    id: 'ERR-15',
    level: 'SHOULD',
    section: `${C}CONFLICT`,
    statement: 'A refusal of a logical duplicate payment sent without allowLogicalDuplicate=true answers 409 with CONFLICT.',
    testedBy: 'automated',
    basis: 'interpretation',
    expect: { status: [409], codes: ['CONFLICT'] },
    interpretation: `Whether the bank refuses at all is its choice (END-04: 201, 400 and 409 pass there); this entry only judges the code of a refusal. The Berlin Group has no CONFLICT code. ${OWN_CODE}`,
  },
  {
    id: 'ERR-16',
    level: 'SHOULD',
    section: `${C}HTTP_HEADER_REQUIRED`,
    statement:
      'The 400 for a missing required header (X-Request-ID, TPP-Session-ID, Date, ...) carries HTTP_HEADER_REQUIRED, FORMAT_ERROR or BAD_REQUEST.',
    testedBy: 'automated',
    basis: 'interpretation',
    expect: { status: [400], codes: ['HTTP_HEADER_REQUIRED', 'FORMAT_ERROR', 'BAD_REQUEST'] },
    interpretation: `HTTP_HEADER_REQUIRED names the case exactly; FORMAT_ERROR (what the Berlin Group uses for a missing mandatory field) and the generic BAD_REQUEST pass too. The missing Signature is SIG-05. ${OWN_CODE}`,
  },
  {
    id: 'ERR-17',
    level: 'INFO',
    section: `${C}QUERY_PARAMETER_REQUIRED`,
    statement: 'QUERY_PARAMETER_REQUIRED (400) names a missing required query parameter.',
    testedBy: 'manual:the spec names no required query parameter (a transaction listing works without parameters)',
    basis: 'interpretation',
    expect: { status: [400], codes: ['QUERY_PARAMETER_REQUIRED'] },
  },
  {
    id: 'ERR-18',
    level: 'SHOULD',
    section: `${C}SCA_NOT_FOUND`,
    statement: 'A status request for an authorisation id the bank does not know answers 404 with SCA_NOT_FOUND or RESOURCE_UNKNOWN.',
    testedBy: 'automated',
    basis: 'interpretation',
    expect: { status: [404], codes: ['SCA_NOT_FOUND', 'RESOURCE_UNKNOWN'] },
    interpretation: `The authorisation status path is the Berlin Group one; RESOURCE_UNKNOWN is its code for an unknown id in the path. ${OWN_CODE}`,
  },
  {
    id: 'ERR-19',
    level: 'SHOULD',
    section: `${C}SCA_EXPIRED`,
    statement: 'A request in an SCA session that has expired answers 401 with scaRedirect for a new SCA, with code SCA_EXPIRED.',
    testedBy: 'needs-capability:clock-control',
    basis: 'interpretation',
    expect: { status: [401], codes: ['SCA_EXPIRED'] },
    interpretation: `The new SCA itself is MUST (SES-04); the code is the reading of its name. ${OWN_CODE}`,
  },
  {
    id: 'ERR-20',
    level: 'SHOULD',
    section: `${C}SCA_INVALID`,
    statement: 'The code parameter of the error redirect after a failed SCA is SCA_INVALID, or PSU_CREDENTIALS_INVALID for a failed login.',
    testedBy: 'needs-capability:sca-abort',
    basis: 'berlin-group',
    source: SOURCE(
      'MessageCode400_PIS, MessageCode400_AIS (SCA_INVALID), MessageCode401_PIS, MessageCode401_AIS (PSU_CREDENTIALS_INVALID)',
    ),
    expect: { codes: ['SCA_INVALID', 'PSU_CREDENTIALS_INVALID'] },
    interpretation: `The spec says only "error code" for the redirect parameter. ${BG_CODE}`,
  },
  {
    id: 'ERR-21',
    level: 'SHOULD',
    section: `${C}FORMAT_ERROR`,
    statement:
      'The 400 for a body, header or parameter that breaks a field rule (PAY, ADR, HDR formats) carries FORMAT_ERROR or BAD_REQUEST.',
    testedBy: 'automated',
    basis: 'berlin-group',
    source: SOURCE('MessageCode400_PIS and MessageCode400_AIS (FORMAT_ERROR)'),
    expect: { status: [400], codes: ['FORMAT_ERROR', 'BAD_REQUEST'] },
    interpretation: `Every PAY and ADR refusal is tested for its status under its own id (400 at SHOULD for a rule of the field table, any 4xx at MUST where the text says a refusal); this id carries the check of the code. The Berlin Group uses FORMAT_ERROR; the spec's generic BAD_REQUEST passes too. ${BG_CODE}`,
  },
  {
    id: 'ERR-22',
    level: 'SHOULD',
    section: `${C}RESOURCE_UNKNOWN`,
    statement: 'An unknown paymentId, account id or basket id in the path answers 404 (or 403) with RESOURCE_UNKNOWN.',
    testedBy: 'automated',
    basis: 'berlin-group',
    source: SOURCE('MessageCode404_PIS, MessageCode404_AIS, MessageCode404_SBS and MessageCode403_AIS (RESOURCE_UNKNOWN)'),
    expect: { status: [403, 404], codes: ['RESOURCE_UNKNOWN'] },
    interpretation: `For baskets the spec shows it (ERR-09, MUST). The Berlin Group lists the code under 404 and under 403, e.g. for an account id outside the consent. ${BG_CODE}`,
  },
  {
    id: 'ERR-23',
    level: 'SHOULD',
    section: `${C}PSU_CREDENTIALS_INVALID`,
    statement:
      'A PSU identification the bank does not know (an unknown X-PSU-IDENTITY or PSU-ID) is answered with a fresh SCA (401 with scaRedirect), or with an error carrying PSU_CREDENTIALS_INVALID (401).',
    testedBy: 'automated',
    basis: 'berlin-group',
    source: SOURCE('MessageCode401_PIS and MessageCode401_AIS (PSU_CREDENTIALS_INVALID)'),
    expect: { status: [401], codes: ['PSU_CREDENTIALS_INVALID'] },
    interpretation: `Judged on the path the bank takes. A 401 with scaRedirect starts a fresh SCA, the answer the spec gives a request without a valid SCA (SES-01), and carries no error code: it passes. An error body (no scaRedirect) is the other path, and its code should be PSU_CREDENTIALS_INVALID. Serving data never passes (PSU-07). ${BG_CODE}`,
    review: [
      relaxed(
        'contradiction',
        'NOT_EVALUATED against a bank that answers an unknown PSU with a fresh SCA, which PSU-07 passes',
        'A requirement whose condition the bank legally never produces is judged on the path it took: the fresh SCA passes, the error path is judged by its code.',
      ),
    ],
  },
  {
    id: 'ERR-24',
    level: 'INFO',
    section: `${C}CONSENT_UNKNOWN`,
    statement: 'CONSENT_UNKNOWN names a consent reference the bank does not know.',
    testedBy: 'manual:with bank-offered consent the TPP sends no consent reference the suite could falsify',
    basis: 'berlin-group',
    source: SOURCE('MessageCode400_AIS and MessageCode403_AIS (CONSENT_UNKNOWN)'),
    expect: { status: [400, 403], codes: ['CONSENT_UNKNOWN'] },
  },
  {
    id: 'ERR-25',
    level: 'SHOULD',
    section: `${C}CONSENT_INVALID`,
    statement:
      'A refused read of an account the PSU has not consented to (or has deselected) carries CONSENT_INVALID (401) or RESOURCE_UNKNOWN (403, 404).',
    testedBy: 'automated',
    basis: 'berlin-group',
    source: SOURCE('MessageCode401_AIS (CONSENT_INVALID), MessageCode403_AIS and MessageCode404_AIS (RESOURCE_UNKNOWN)'),
    expect: { status: [401, 403, 404], codes: ['CONSENT_INVALID', 'RESOURCE_UNKNOWN'] },
    interpretation: `Returning the account data fails (END-09); a 401 with scaRedirect asking for consent carries no error code and is not judged here. ${BG_CODE}`,
  },
  {
    id: 'ERR-26',
    level: 'SHOULD',
    section: `${C}CONSENT_EXPIRED`,
    statement: 'Account access after the 180-day SCA renewal period answers 401 with CONSENT_EXPIRED (or SCA_EXPIRED).',
    testedBy: 'needs-capability:clock-control',
    basis: 'berlin-group',
    source: SOURCE('MessageCode401_AIS (CONSENT_EXPIRED)'),
    expect: { status: [401], codes: ['CONSENT_EXPIRED', 'SCA_EXPIRED'] },
    interpretation: `The renewal itself is MUST (SCA-09); the spec speaks of renewing the SCA, so its SCA_EXPIRED fits as well. ${BG_CODE}`,
  },
  {
    id: 'ERR-27',
    level: 'SHOULD',
    section: `${C}ACCESS_EXCEEDED`,
    statement: 'An account read beyond the 4-per-24-hours limit of calls without PSU-IP-Address answers 429 with ACCESS_EXCEEDED.',
    testedBy: 'automated',
    basis: 'berlin-group',
    source: SOURCE('MessageCode429_AIS (ACCESS_EXCEEDED)'),
    expect: { status: [429], codes: ['ACCESS_EXCEEDED'] },
    interpretation: `The refusal itself is MUST (LIM-03, LIM-04), whatever its status. ${BG_CODE}`,
  },
  {
    id: 'ERR-28',
    level: 'SHOULD',
    section: `${C}PRODUCT_UNKNOWN`,
    statement: 'A payment initiation for a payment product the bank does not have answers 404 with PRODUCT_UNKNOWN.',
    testedBy: 'automated',
    basis: 'berlin-group',
    source: SOURCE('MessageCode404_PIS (PRODUCT_UNKNOWN)'),
    expect: { status: [404], codes: ['PRODUCT_UNKNOWN'] },
    interpretation: BG_CODE,
  },
  {
    id: 'ERR-29',
    level: 'INFO',
    section: `${C}PRODUCT_INVALID`,
    statement: 'PRODUCT_INVALID (403) names a known payment product that is not allowed for this request or PSU.',
    testedBy: 'manual:the spec does not say which product and payment-service combinations are not allowed',
    basis: 'berlin-group',
    source: SOURCE('MessageCode403_PIS (PRODUCT_INVALID)'),
    expect: { status: [403], codes: ['PRODUCT_INVALID'] },
  },
  {
    id: 'ERR-30',
    level: 'SHOULD',
    section: `${C}KID_MISSING`,
    statement: 'The 400 for a Signature header without a keyId carries KID_MISSING.',
    testedBy: 'automated',
    basis: 'interpretation',
    expect: { status: [400], codes: ['KID_MISSING'] },
    interpretation: `Status 400 is MUST (ERR-37); the code is checked here. The Berlin Group has no such code (its REQUIRED_KID_MISSING is another matter). ${OWN_CODE}`,
  },
  {
    id: 'ERR-31',
    level: 'SHOULD',
    section: `${C}KID_INVALID`,
    statement: 'The 400 for a keyId that is malformed or does not match the TPP-Signature-Certificate carries KID_INVALID.',
    testedBy: 'automated',
    basis: 'interpretation',
    expect: { status: [400], codes: ['KID_INVALID'] },
    interpretation: `Status 400 is MUST (ERR-37); the code is checked here. ${OWN_CODE}`,
  },
  {
    id: 'ERR-32',
    level: 'SHOULD',
    section: `${C}PAYMENT_FAILED`,
    statement:
      'A payment the debtor cannot cover is refused at initiation with 400 PAYMENT_FAILED, or taken and its lack of funds reported through its status.',
    testedBy: 'automated',
    basis: 'berlin-group',
    source: SOURCE('MessageCode400_PIS (PAYMENT_FAILED)'),
    expect: { status: [400], codes: ['PAYMENT_FAILED'] },
    interpretation: `Judged on the path the bank takes. The spec reports a lack of funds through the status too ("ACCP can be reported when funds are lacking", STA-06), so a payment taken (201) passes here, its status being STA-06's and ERR-39's; a payment refused at initiation, where the bank takes a payable payment from the same account, should say PAYMENT_FAILED. ${BG_CODE}`,
    review: [
      relaxed(
        'contradiction',
        'NOT_EVALUATED against a bank that reports the lack of funds through the status, which STA-06 and ERR-39 pass',
        'A requirement whose condition the bank legally never produces is judged on the path it took: a payment taken passes, a refusal is judged by its code.',
      ),
    ],
  },
  {
    id: 'ERR-33',
    level: 'SHOULD',
    section: `${C}EXECUTION_DATE_INVALID`,
    statement: 'A requestedExecutionDate in the past is refused with 400 EXECUTION_DATE_INVALID.',
    testedBy: 'automated',
    basis: 'berlin-group',
    source: SOURCE('MessageCode400_PIS (EXECUTION_DATE_INVALID)'),
    expect: { status: [400], codes: ['EXECUTION_DATE_INVALID'] },
    interpretation: `The spec does not say a past date is refused; a bank that executes it at once is not in breach of the spec, so the refusal as well as its code is SHOULD. ${BG_CODE}`,
  },
  {
    id: 'ERR-34',
    level: 'MUST',
    section: `${C}REFERENCE_MIX_INVALID`,
    statement: 'REFERENCE_MIX_INVALID (400) answers a signing basket that would hold a bulk or periodic payment.',
    testedBy: 'automated',
    expect: { status: [400], codes: ['REFERENCE_MIX_INVALID'] },
    interpretation: 'At basket creation or at the start of its authorisation, see BSK-12.',
    review: [
      kept(
        'refusal',
        'refused with 400 REFERENCE_MIX_INVALID',
        'Errors rule 7: "Bulk or periodic payment added to a signing basket gives 400 REFERENCE_MIX_INVALID."',
      ),
    ],
  },
  // ---- Rules ----
  {
    id: 'ERR-35',
    level: 'MUST',
    section: `${R}1`,
    statement: 'A missing or invalid request signature gives 400.',
    testedBy: 'automated',
    expect: { status: [400] },
    interpretation: 'Same rule as Authentication 3 (SIG-04, SIG-06); the codes are chosen there.',
    review: [kept('refusal', 'refused with 400', 'Errors rule 1: "Missing or invalid signature gives 400."')],
  },
  {
    id: 'ERR-36',
    level: 'MUST',
    section: `${R}2`,
    statement: 'A character the downstream system cannot process gives 400.',
    testedBy: 'automated',
    expect: { status: [201, 400] },
    interpretation: 'Same rule and test as FMT-04: whether a downstream system refuses the character cannot be seen, so 201 passes too.',
    review: [
      kept(
        'refusal',
        'a character the downstream system cannot process refused with 400',
        'Errors rule 2: "A character the downstream system cannot process gives 400."',
      ),
    ],
  },
  {
    id: 'ERR-37',
    level: 'MUST',
    section: `${R}3`,
    statement: 'A keyId (KID) error gives 400, not 401.',
    testedBy: 'automated',
    expect: { status: [400] },
    review: [kept('refusal', 'refused with 400', 'Errors rule 3: "A KID error gives 400 (not 401)."')],
  },
  {
    id: 'ERR-38',
    level: 'MUST',
    section: `${R}4`,
    statement: 'A corporate request without PSU-CORPORATE-ID gives 400: a payment initiation in context CORPORATE without it is refused.',
    testedBy: 'needs-capability:corporate-psu',
    expect: { status: [400] },
    interpretation:
      'See SCA-17 for which request is unmistakably corporate (PSU-Context CORPORATE on a payment initiation) and the readings that leave an account read with only a corporate PSU-ID open.',
    review: [kept('refusal', 'refused with 400', 'Errors rule 4: "A corporate request without PSU-CORPORATE-ID gives 400."')],
  },
  {
    id: 'ERR-39',
    level: 'MUST',
    section: `${R}5`,
    statement: 'Insufficient funds give a proper error response (4xx with the error body) or a rejected status, never a 5xx.',
    testedBy: 'automated',
    expect: { status: [200, 201, ...CLIENT_ERROR_STATUSES] },
    interpretation:
      'The suite pays far more than any sandbox balance. Passing outcomes: 4xx with an error body at initiation, or a 201 whose status (200) reads RJCT, or ACCP with fundsAvailable false (STA-06).',
    review: [
      kept(
        'refusal',
        'a proper error or a rejected status, never a 5xx',
        'Errors rule 5: "Insufficient funds give a proper error response, not 500."',
      ),
    ],
  },
  {
    id: 'ERR-40',
    level: 'MUST',
    section: `${R}6`,
    statement: 'Missing address parts that the structured-address rule requires give an error response (a 4xx).',
    testedBy: 'automated',
    expect: { status: CLIENT_ERROR_STATUSES },
    interpretation: 'Same rule and test as ADR-07 (and ADR-13 for the inferable BIC).',
    review: [ANY_CLIENT_ERROR],
  },
  {
    id: 'ERR-41',
    level: 'MUST',
    section: `${R}7`,
    statement: 'Adding a bulk or periodic payment to a signing basket gives 400 with code REFERENCE_MIX_INVALID.',
    testedBy: 'automated',
    expect: { status: [400], codes: ['REFERENCE_MIX_INVALID'] },
    interpretation: 'At basket creation or at the start of its authorisation, see BSK-12.',
    review: [
      kept(
        'refusal',
        'refused with 400 REFERENCE_MIX_INVALID',
        'Errors rule 7: "Bulk or periodic payment added to a signing basket gives 400 REFERENCE_MIX_INVALID."',
      ),
    ],
  },
  {
    id: 'ERR-42',
    level: 'MUST',
    section: `${R}8`,
    statement:
      'A periodic payment with frequency MonthlyVariable and a month identifier listed twice is rejected: refused with a 4xx at initiation, or reported RJCT.',
    testedBy: 'automated',
    expect: { status: CLIENT_ERROR_STATUSES },
    interpretation:
      'Month identifiers are the Berlin Group monthsOfExecution values "1" to "12", which must all differ. "Is rejected" has two literal readings: a refusal at initiation (any 4xx: 400 is the status of every other malformed payment, and the code is checked under ERR-21), or a payment taken and then rejected, its transactionStatus RJCT (right away, or once the PSU has authorised it, when the bank checks the standing order). Both pass; a payment the PSU can authorise and that is then not RJCT fails.',
    review: [
      ANY_CLIENT_ERROR,
      variant(
        'assertion',
        "ERR-42.a: a MonthlyVariable payment refused by a bank that offers no MonthlyVariable judged as the duplicate's refusal",
        ['periodic-some-frequencies'],
        'The control a refusal is compared with is now the same MonthlyVariable payment without the duplicate: where the bank refuses that too, the refusal says nothing of the duplicate.',
      ),
    ],
  },
  // ---- Rules that hold for every response (checked on every exchange) ----
  {
    id: 'ERR-43',
    level: 'SHOULD',
    section: 'Errors > Message codes',
    statement:
      "The code of an error body is one of the specification's message codes (the 23 listed, REFERENCE_MIX_INVALID and RESOURCE_BLOCKED).",
    testedBy: 'automated',
    everyExchange: true,
    basis: 'interpretation',
    expect: { codes: MESSAGE_CODES },
    interpretation:
      'Two readings. The list is headed "Message codes in tppMessages" and the error body types code only as "error code": a Berlin Group code in an error body (SIGNATURE_MISSING, TIMESTAMP_INVALID, CONSENT_EXPIRED at 401 ...) keeps the letter. Or: the Errors part gives one list, and every code it shows in an error answer (RESOURCE_UNKNOWN, SYSTEM_ERROR, REFERENCE_MIX_INVALID, RESOURCE_BLOCKED) is of it. A TPP that reads codes from the list is served best by the second, so a code outside it is a WARNING, never a FAIL; the entries of the rules that name a code (ERR-09, ERR-10, ERR-34, ERR-41) still demand that code.',
    review: [
      variant(
        'assertion',
        "the error body demanded of every 4xx, a gateway's own 404, 405 and 413 included (invariants)",
        ['gateway-error-pages'],
        "The error body is the interface's: a request that names no operation of it (a path it does not have, a method a path does not take) or that is refused before it reaches one (413, 414, 431) may be answered by what stands in front of the interface in its own form. The invariants judge the error body, its code and JSON only on answers of the interface's operations.",
      ),
    ],
  },
  {
    id: 'ERR-44',
    level: 'MUST',
    section: 'Errors > Rules',
    statement: 'A malformed request is never answered with a 5xx: where it is refused, the status is a 4xx.',
    testedBy: 'automated',
    everyExchange: true,
    expect: { status: BELOW_SERVER_ERROR_STATUSES },
    basis: 'berlin-group',
    source:
      'NextGenPSD2 XS2A 1.3 Implementation Guidelines, section 14.11 (HTTP return codes): 4xx for errors of the TPP request, 5xx for errors of the ASPSP; OpenAPI 1.3.8 MessageCode400_* (FORMAT_ERROR)',
    interpretation:
      'The specification gives 400 for each malformed case it names (signature, downstream characters, KID, corporate id) and 500 only as SYSTEM_ERROR, so a request the suite deliberately malforms must not get a 5xx. Whether it must be refused at all is the business of the entry the request is about: some refusals are only SHOULD (HDR-15, END-28, PAY-48) or MAY (PAY-47, SIG-19), and acceptance does not breach this rule.',
    review: [
      variant(
        'assertion',
        'ERR-44.a-c: a refusal of an unknown path, a wrong method or an oversized body must carry the error body',
        ['gateway-error-pages'],
        'What ERR-44 states is kept (a 4xx, never a 5xx); the error body of such a refusal is not demanded (see ERR-01).',
      ),
    ],
  },
  {
    id: 'ERR-45',
    level: 'SHOULD',
    section: 'Errors > Rules',
    statement: 'A well-formed request is not answered with a 5xx.',
    testedBy: 'automated',
    everyExchange: true,
    basis: 'interpretation',
    expect: { status: BELOW_SERVER_ERROR_STATUSES },
    interpretation:
      "A 500 SYSTEM_ERROR is allowed for an internal failure of the bank, so a single 5xx is not a breach of the specification; it is a WARNING here, while the scenario's own check of the status fails the rule the request was about.",
  },
]);
