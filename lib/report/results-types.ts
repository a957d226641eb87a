/** The shape of results.json: what a CI gate, a bank's QA team and a TPP each read. */
import type { Selection } from './selection.js';

export const REQUIREMENT_VERDICTS = [
  'PASS',
  'FAIL',
  'WARNING',
  'NOT_EVALUATED',
  'NOT_TESTABLE',
  'SKIPPED',
  'KNOWN_DEVIATION',
  'INTERRUPTED',
] as const;
/**
 * Catalogue entries no scenario exercised in this run are listed too, so a report never hides what it did
 * not check: NOT_COVERED (automated, but no scenario exists yet, or a filter left it out), OUT_OF_SCOPE (it needs
 * what no target of this kind can offer: lib/spec/scopes.ts) and MANUAL.
 * ATTESTED: a person checked it (`run --attestations FILE`) and recorded it passed; an attested failure is
 * FAIL, with the attestation beside it.
 */
export const REQUIREMENT_STATUSES = [...REQUIREMENT_VERDICTS, 'NOT_COVERED', 'OUT_OF_SCOPE', 'MANUAL', 'ATTESTED'] as const;
export type RequirementStatus = (typeof REQUIREMENT_STATUSES)[number];

/**
 * A scenario's outcome. FAIL: a MUST check failed. ERROR: the scenario stopped outside its checks (the suite
 * or the target's configuration is at fault, or the bank answered so far off that it could not go on); its
 * unjudged requirements are NOT_EVALUATED. INTERRUPTED: network or browser trouble. FLAKY: retried, and
 * passed only on a later attempt (flaky is failing: the run cannot be CONFORMANT).
 */
export const TEST_STATUSES = ['PASS', 'FAIL', 'ERROR', 'FLAKY', 'NOT_TESTABLE', 'SKIPPED', 'INTERRUPTED'] as const;
export type TestStatus = (typeof TEST_STATUSES)[number];

/** INTERRUPTED: the run was stopped (SIGINT, SIGTERM, global timeout); the report shows what ran. */
export type RunVerdict = 'CONFORMANT' | 'NON_CONFORMANT' | 'INCOMPLETE' | 'INTERRUPTED';

export type CheckVerdict = 'PASS' | 'FAIL' | 'NOT_EVALUATED';

/** One judged requirement inside a scenario run. */
export interface CheckRecord {
  requirement: string;
  verdict: CheckVerdict;
  /** `scenario`: a check the scenario made; `invariant`: a rule checked on every exchange. */
  source: 'scenario' | 'invariant';
  /** For FAIL and NOT_EVALUATED: what was expected and found, or why it could not be judged. */
  message?: string;
  /**
   * What the check saw, short (`HTTP 400 FORMAT_ERROR`, `X-Request-ID: 1c0…`), PASS included; for merged
   * passes the distinct values seen, joined with ` | `.
   */
  actual?: string;
  /** How many times this verdict was reached (PASS records are merged). */
  count?: number;
}

export interface RecordedHttpMessage {
  method?: string;
  url?: string;
  status?: number;
  headers: Record<string, string>;
  /** The body; cut to its first characters when `bodyFile` is there (lib/report/evidence-bounds.ts). */
  body?: string;
  /** The whole body's size in bytes, when `body` is cut. */
  bodyBytes?: number;
  /** The whole body, a file of the report folder, when `body` is cut. */
  bodyFile?: string;
}

/** A scenario's robustness probes, when not all are kept: how many were sent, kept whole, and answered with each status. */
export interface ProbeCount {
  sent: number;
  kept: number;
  byStatus: Record<string, number>;
}

/** One request and its response, masked. PASS tests keep only the summary line (OBUK style). */
export interface EvidenceExchange {
  id: string;
  startedAt: string;
  durationMs: number;
  summary: string;
  request?: RecordedHttpMessage;
  response?: RecordedHttpMessage;
  error?: string;
  /** The request was malformed on purpose: what is wrong with it. */
  malformed?: string;
  /** The deliberate defects the TPP client applied while signing it (replayed as they were; the v3 name of signingDefects). */
  faults?: unknown[];
  /** The request as a curl command (full exchanges only): Date and Signature marked to be regenerated. */
  curl?: string;
}

export interface TestEvidence {
  exchanges: EvidenceExchange[];
  /** Browser redirects captured at TPP-Redirect-URI, masked. */
  redirects: { url: string; pages: string[] }[];
  /** Files kept by Playwright (screenshots, traces) and bodies kept whole, relative to the report folder. */
  files: { name: string; path: string; contentType: string }[];
  /** Its robustness probes, when only some are kept in `exchanges`. */
  probes?: ProbeCount;
}

export interface TestRecord {
  /** Playwright's id of this test run. */
  id: string;
  /** The scenario's stable id (`SIG-04.a`): the same in every run, in JUnit and in the HTML report. */
  scenario: string;
  title: string;
  file: string;
  line: number;
  /** The gauntlet case this run of the scenario was made under, if any (test/gauntlet). */
  gauntletCase?: string;
  /** The requirement ids the scenario declares it checks. */
  requirements: string[];
  status: TestStatus;
  /** Why a test was not run or could not be judged (missing capability, safety policy, interruption). */
  reason?: string;
  durationMs: number;
  error?: string;
  warnings: string[];
  /** Every check made, scenario and invariants (passes merged per requirement); of every attempt when retried. */
  checks: CheckRecord[];
  /** When the scenario was retried: each attempt's outcome, in order. */
  attempts?: { status: TestStatus; error?: string }[];
  evidence: TestEvidence;
}

export interface RequirementRecord {
  id: string;
  area: string;
  level: string;
  section: string;
  statement: string;
  /** How the catalogue says it is tested: `automated`, `needs-capability:<name>` or `manual:<why>`. */
  testedBy: string;
  /** Checked on every exchange of every scenario (an invariant), not by the scenarios that declare it. */
  invariant?: boolean;
  /** What the entry rests on; anything but `specification` fills a gap the specification leaves. */
  basis: string;
  fillsGap: boolean;
  source?: string;
  status: RequirementStatus;
  reason?: string;
  interpretation?: string;
  /** Scenario ids (stable) that judged it. */
  tests: string[];
  /** The target's deviation for it (reason and end date); `expired` when its date has passed and it no longer excuses. */
  deviation?: { reason: string; until?: string; expired?: boolean };
  /** A listed deviation that no longer fails: the deviation list is out of date. */
  deviationUnexpectedlyPasses?: boolean;
  /** A person's verdict on a requirement no scenario of this run could judge (ATTESTED, or FAIL). */
  attestation?: Attestation;
}

/** One entry of an attestations file: a person checked a requirement outside the suite. */
export interface Attestation {
  requirement: string;
  verdict: 'PASS' | 'FAIL';
  reviewer: string;
  /** The day it was checked (YYYY-MM-DD). */
  date: string;
  /** Where the evidence is kept (a document, a ticket, a recording). */
  evidence: string;
  note?: string;
}

/** Under the gauntlet: per case, the requirement verdicts of the scenarios run under it. */
export interface GauntletCaseResult {
  case: string;
  kind: 'fault' | 'variant' | 'census';
  /** The switches on for the case's TPP. */
  switches: string[];
  /** A fault case's: what the fault breaks. */
  breaks: string[];
  /** Requirements judged in this case's runs, with their folded status. */
  requirements: { id: string; status: RequirementStatus; reason?: string }[];
  /** Scenario ids run under the case, with the requirements each failed, and why it stopped if it did. */
  scenarios: { scenario: string; status: TestStatus; failed: string[]; reason?: string }[];
}

/** Where a run came from: enough to tell what was run, by whom, against what, with which tools. */
export interface Provenance {
  tool: { name: string; version: string; commit?: string; dirty?: boolean };
  /** SHA-256 of each suite file that had a scenario in the run (path relative to the tool's root). */
  suiteFiles: { path: string; sha256: string }[];
  /** The requirement catalogue: its version (a hash of its content) and size. */
  catalogue: { version: string; requirements: number };
  specification: { title: string; documentation: string; apiRelease: string; framework: string };
  runtime: { node: string; playwright: string; chromium: string; platform: string };
  /** Robustness probes (ERR-44.d): how many and the seed that repeats them. */
  probes: { runs: number; seed: number };
  /** The targets.yaml entry as written (before `${VAR}` interpolation), keys removed, identities masked. */
  declaredTarget: unknown;
  capabilities: string[];
  deviations: { requirement: string; reason: string; until?: string; active: boolean }[];
  /** The TPP certificate the suite acted as: who ran it, when a TPP runs it. */
  tpp?: { subject: string; issuer: string; serialNumber: string; notBefore: string; notAfter: string; sha256: string; generated: boolean };
  /** PSU identifiers masked in the report (the default). */
  masked: boolean;
  /** The runner's arguments that reached Playwright (filters, workers…). */
  arguments: string[];
}

/** What blocks CONFORMANT: every requirement not satisfied, with why. */
export interface MissingRequirement {
  id: string;
  status: RequirementStatus;
  reason: string;
}

/** This run against an earlier one (`run --baseline DIR`). */
export interface BaselineComparison {
  /** The earlier run: its id, start and verdict. */
  runId: string;
  startedAt: string;
  verdict: RunVerdict;
  /** Requirements that held before and fail now (PASS → FAIL or WARNING). */
  regressions: StatusChange[];
  /** Requirements that failed before and hold now. */
  fixes: StatusChange[];
  /** Other status changes (PASS → NOT_EVALUATED, NOT_COVERED → PASS…). */
  changed: StatusChange[];
  /** Scenario ids run now and not before, and the reverse. */
  newScenarios: string[];
  removedScenarios: string[];
  /** Requirements judged now and not before, and the reverse. */
  newRequirements: string[];
  removedRequirements: string[];
  /** A known deviation of the earlier run that passes now: its entry can go. */
  deviationsNowPassing: string[];
}

export interface StatusChange {
  id: string;
  from: RequirementStatus;
  to: RequirementStatus;
}

export interface RunResults {
  schemaVersion: 4;
  /** What was judged: a bank's interface (this suite) or a TPP's client (judged by the reference bank). */
  kind: 'bank-conformance' | 'tpp-conformance';
  tool: { name: string; version: string };
  runId: string;
  /** `variants`: legal readings of the specification the embedded bank took (absent in reports written before they existed). */
  target: { name: string; environment: string; baseUrl: string; embedded: boolean; faults: string[]; variants?: string[] };
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  filtered: boolean;
  /** What the run selected of the suite, and why it is not the whole of it (lib/report/selection.ts). */
  selection?: Selection;
  verdict: RunVerdict;
  verdictReasons: string[];
  /** What keeps the run from CONFORMANT, requirement by requirement (empty when CONFORMANT). */
  missingForConformant: MissingRequirement[];
  /** Errors outside any scenario (a suite file that did not load), when there were any. */
  runErrors?: string[];
  exitCode: number;
  provenance: Provenance;
  summary: {
    tests: Record<TestStatus, number> & { total: number };
    requirements: Record<RequirementStatus, number> & { total: number };
  };
  requirements: RequirementRecord[];
  tests: TestRecord[];
  /** The attestations file of the run, whole (each also sits on its requirement). */
  attestations?: Attestation[];
  baseline?: BaselineComparison;
  gauntlet?: GauntletCaseResult[];
}
