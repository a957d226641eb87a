/**
 * Types of the requirement catalogue: every normative statement of the Open Banking Interface Specification
 * gets a stable id (area prefix and number), its section, a level, a one-line statement in the project's own
 * words, how it is tested, and, for an ambiguous rule, the interpretation chosen and why.
 *
 * Ids are never renumbered and never reused: a requirement that no longer applies stays in the catalogue
 * with `retired: true`.
 */

export type RequirementLevel = 'MUST' | 'SHOULD' | 'MAY' | 'INFO';

export const LEVELS: readonly RequirementLevel[] = ['MUST', 'SHOULD', 'MAY', 'INFO'];

/**
 * Capabilities a target can declare in targets.yaml (`capabilities: [...]`). A requirement that needs one is
 * NOT_TESTABLE on a target that lacks it.
 */
export const CAPABILITIES = {
  'sandbox-reset': 'the sandbox initialisation operation may be called (resets to the known state, removes manual data)',
  'sandbox-mock-data': 'the sandbox mock-data operations may be called (create customers, accounts, transactions, set balances and names)',
  'clock-control': 'the target clock can be moved (session expiry, 180-day renewal, 24-hour counters, batch runs, enforcement dates)',
  'second-tpp': 'a second TPP certificate the target accepts, for rules that compare two TPPs',
  'test-ca-trusted':
    'the target validates TPP certificates as production does and trusts the suite test CA (untrusted-CA, expired or role-restricted certificate variants)',
  'corporate-psu': 'a PSU with at least one corporate agreement and its login steps',
  'sca-abort': 'browser steps that make the SCA fail or that cancel it, declared for the target',
  'consent-selection':
    "browser steps that read, select and deselect accounts in the bank's consent page (the checkbox list after SCA), declared for the target",
  'fault-injection':
    'the target can be made to fail internally on request (a sandbox operation that fails the next request of an operation: HTTP 500 paths)',
  'bank-channel':
    "the tester can act as the PSU in the bank's own channels (online bank), outside the TPP flow: sandbox operations that revoke the PSU's consents or change a payment",
  'mobile-app': "the bank's mobile app with biometric authentication is available to the tester",
  'tpp-register':
    "the target checks TPP registration against its copy of the register outside production too, and the tester can withdraw and restore the calling TPP's own authorisation in that copy (sandbox operations)",
  'production-target': 'a production target with real PSUs; writing tests are excluded by the safety policy',
} as const;

export type Capability = keyof typeof CAPABILITIES;

export type TestedBy = 'automated' | `needs-capability:${string}` | `manual:${string}`;

/**
 * What an entry rests on. `specification`: the specification says it. `berlin-group`: the specification
 * leaves a gap ("not shown", no status, no code) and defers to XS2A 1.3, and the Berlin Group text fills it
 * (cited in `source`). `interpretation`: neither says it; the project's reading, never stricter than SHOULD.
 * Entries of the last two kinds fill a gap, and the report shows them as such.
 */
export const BASES = ['specification', 'berlin-group', 'interpretation'] as const;
export type Basis = (typeof BASES)[number];

/**
 * What satisfies a rule, where it names a status or a code. The checks read it from here; a suite never
 * restates a status or a code.
 */
export interface Expectation {
  /** HTTP statuses that satisfy the rule (any one of them). */
  status?: readonly number[];
  /** Error codes that satisfy the rule (any one of them), in the error body's `code`. */
  codes?: readonly string[];
}

/**
 * Every 4xx status: for a rule that any client-error refusal satisfies ("refused", "an error", "4xx"),
 * where the specification names no status.
 */
export const CLIENT_ERROR_STATUSES: readonly number[] = Object.freeze(Array.from({ length: 100 }, (_, i) => 400 + i));

/** Every status below 500: for a rule that only forbids a server error ("never a 5xx"). */
export const BELOW_SERVER_ERROR_STATUSES: readonly number[] = Object.freeze(Array.from({ length: 400 }, (_, i) => 100 + i));

export const AREAS = {
  GEN: 'What the service does: roles, environments, consent approach, PSU contexts, TPP contact registration',
  FMT: 'Data format: JSON, UTF-8, unprocessable characters, dates in bodies and headers, amounts as strings',
  SBX: 'Sandbox mock data: known state, initialisation, customers, mock operations, batch processing',
  PAY: 'Payment initiation request and 201 response (sepa-credit-transfers)',
  ADR: 'Structured-address rule for payments and its enforcement dates',
  MSG: 'tppMessages items and the Link object',
  BSK: 'Signing baskets',
  PSU: 'Identifiers of the PSU: psu-id, psu-corporate-id, TPP-Session-ID',
  STA: 'States: scaStatus and transactionStatus',
  SES: 'The SCA session governed by TPP-Session-ID',
  END: 'Endpoints',
  HDR: 'Request headers of payment initiation (and of the requests that share its header set)',
  SIG: 'Authentication 1-8: transport, TPP identity, request signing',
  SCA: 'Authentication 9-16: SCA redirect, sessions, renewal, consent, corporate context, biometrics',
  EVT: 'Events: the PSU redirect after SCA and its query parameters',
  ERR: 'Errors: error body, status codes, message codes, error rules 1-8',
  LIM: 'Limits',
  PAG: 'Pagination of transaction lists',
  AIS: 'Account information facts: accounts, balances, transactions',
  VER: 'Versioning: path prefix, x-accept-fix, deprecations, release-note behaviours',
  TPP: "Rules for the TPP: what a TPP's own requests must do, judged on its traffic (serve --judge, proxy, audit), not by the suite",
} as const;

export type Area = keyof typeof AREAS;

export const AREA_PREFIXES = Object.keys(AREAS) as Area[];

/** The area of the rules that bind the TPP: judged on a TPP's traffic (lib/tpp-judge), never by the suite's scenarios. */
export const TPP_AREA = 'TPP' satisfies Area;

/**
 * What an audit of the catalogue against the specification and Berlin Group 1.3.8 found in an entry, or in a
 * check of it (issue 38): a MUST that says more than its source, a refusal the text does not state, a check
 * stricter than the text, or one entry allowing what another fails.
 */
export const REVIEW_FINDINGS = {
  'beyond-text': 'a MUST entry that says more than the text',
  refusal: 'a MUST refusal or status: stated by the text, or only the rule it enforces',
  assertion: 'a check of a scenario or of the invariants stricter than the source',
  contradiction: 'one entry allows what another fails',
} as const;
export type ReviewFinding = keyof typeof REVIEW_FINDINGS;

/**
 * How a finding was decided: relaxed to what the text says; lowered (SHOULD, MAY or INFO); the other reading
 * made a variant of the reference bank that the whole suite passes; or kept, with the sentence that makes it a MUST.
 */
export const REVIEW_ANSWERS = ['relaxed', 'lowered', 'variant', 'kept'] as const;
export type ReviewAnswer = (typeof REVIEW_ANSWERS)[number];

export interface Review {
  finding: ReviewFinding;
  /** What was found, in a few words ("refused with 400", "PAY-44.a-i: all nine frequencies"). */
  what: string;
  answer: ReviewAnswer;
  /** Why: for `kept` the sentence quoted from its source, for the others what the text says instead. */
  reason: string;
  /** For `variant`: the reference bank's variants that take the other reading. */
  variants?: readonly string[];
}

export interface Requirement {
  /** `^[A-Z]{3}-\d{2,3}$`, the prefix is the area. Stable, never reused. */
  id: string;
  area: Area;
  /** Where the statement comes from, e.g. "Authentication 5 > keyId", "Limits > Clock deviation". */
  section: string;
  level: RequirementLevel;
  /** One line, in the project's own words (< 200 characters). */
  statement: string;
  testedBy: TestedBy;
  /** For an ambiguous rule: the reading the suite and the reference bank apply, and why. */
  interpretation?: string;
  /** What the entry rests on (default `specification`). */
  basis: Basis;
  /** For `berlin-group`: where in NextGenPSD2 XS2A 1.3 (Implementation Guidelines section or OpenAPI 1.3.8 element). */
  source?: string;
  /** Statuses and codes that satisfy the rule, for the checks to read. */
  expect?: Expectation;
  /** Checked on every exchange of every scenario (an invariant), not by scenarios that declare it. */
  everyExchange?: true;
  /** Kept only so the id is never reused. */
  retired?: true;
  /** The audit's findings about this entry and how each was decided (shown by `requirements --json`). */
  review?: readonly Review[];
}

/** A catalogue entry as written in an area file: the area follows from the id prefix, the basis defaults to the specification. */
export type RequirementEntry<A extends Area> = Omit<Requirement, 'area' | 'id' | 'basis'> & { id: `${A}-${string}`; basis?: Basis };

export function defineArea<A extends Area>(area: A, entries: readonly RequirementEntry<A>[]): Requirement[] {
  return entries.map(
    ({ id, section, level, statement, testedBy, interpretation, basis, source, expect, everyExchange, retired, review }) => ({
      id,
      area,
      section,
      level,
      statement,
      testedBy,
      basis: basis ?? 'specification',
      ...(source === undefined ? {} : { source }),
      ...(interpretation === undefined ? {} : { interpretation }),
      ...(expect === undefined ? {} : { expect }),
      ...(everyExchange === undefined ? {} : { everyExchange }),
      ...(retired === undefined ? {} : { retired }),
      ...(review === undefined ? {} : { review }),
    }),
  );
}
