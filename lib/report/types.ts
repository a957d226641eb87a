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
export type RequirementVerdict = (typeof REQUIREMENT_VERDICTS)[number];

/**
 * Catalogue entries no scenario exercised in this run are listed too, so a report never hides what it did
 * not check: NOT_COVERED (automated, but no scenario exists yet, or a filter left it out) and MANUAL.
 */
export const REQUIREMENT_STATUSES = [...REQUIREMENT_VERDICTS, 'NOT_COVERED', 'MANUAL'] as const;
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
  /** How many times this verdict was reached (PASS records are merged). */
  count?: number;
}

export interface RecordedHttpMessage {
  method?: string;
  url?: string;
  status?: number;
  headers: Record<string, string>;
  body?: string;
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
}

export interface TestEvidence {
  exchanges: EvidenceExchange[];
  /** Browser redirects captured at TPP-Redirect-URI, masked. */
  redirects: { url: string; pages: string[] }[];
  /** Files kept by Playwright (screenshots, traces), relative to the report folder. */
  files: { name: string; path: string; contentType: string }[];
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
  /** What the entry rests on; anything but `specification` fills a gap the specification leaves. */
  basis: string;
  fillsGap: boolean;
  source?: string;
  status: RequirementStatus;
  reason?: string;
  interpretation?: string;
  /** Scenario ids (stable) that judged it. */
  tests: string[];
  /** The last day a KNOWN_DEVIATION is excused (the target's `until`), when it has one. */
  deviationUntil?: string;
  /** A listed deviation that no longer fails: the deviation list is out of date. */
  deviationUnexpectedlyPasses?: boolean;
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

export interface RunResults {
  schemaVersion: 2;
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
  /** Errors outside any scenario (a suite file that did not load), when there were any. */
  runErrors?: string[];
  exitCode: number;
  summary: {
    tests: Record<TestStatus, number> & { total: number };
    requirements: Record<RequirementStatus, number> & { total: number };
  };
  requirements: RequirementRecord[];
  tests: TestRecord[];
  gauntlet?: GauntletCaseResult[];
}
