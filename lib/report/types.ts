/** The shape of results.json: what a CI gate, a bank's QA team and a TPP each read. */

export const REQUIREMENT_VERDICTS = [
  'PASS',
  'FAIL',
  'WARNING',
  'NOT_TESTABLE',
  'SKIPPED',
  'KNOWN_DEVIATION',
  'INTERRUPTED',
] as const;
export type RequirementVerdict = (typeof REQUIREMENT_VERDICTS)[number];

/**
 * Catalogue entries no test exercised in this run are listed too, so a report never hides what it did not
 * check: NOT_COVERED (automated, but no suite test exists yet, or a filter left it out) and MANUAL.
 */
export type RequirementStatus = RequirementVerdict | 'NOT_COVERED' | 'MANUAL';

/** A test's own outcome uses the same words; WARNING and KNOWN_DEVIATION arise when folding into requirements. */
export type TestStatus = 'PASS' | 'FAIL' | 'NOT_TESTABLE' | 'SKIPPED' | 'INTERRUPTED';

export type RunVerdict = 'CONFORMANT' | 'NON_CONFORMANT' | 'INCOMPLETE';

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
}

export interface TestEvidence {
  exchanges: EvidenceExchange[];
  /** Browser redirects captured at TPP-Redirect-URI, masked. */
  redirects: { url: string; pages: string[] }[];
  /** Files kept by Playwright (screenshots, traces), relative to the report folder. */
  files: { name: string; path: string; contentType: string }[];
}

export interface TestRecord {
  id: string;
  title: string;
  file: string;
  line: number;
  requirements: string[];
  status: TestStatus;
  /** Why a test was not run or could not be judged (missing capability, safety policy). */
  reason?: string;
  durationMs: number;
  error?: string;
  warnings: string[];
  evidence: TestEvidence;
}

export interface RequirementRecord {
  id: string;
  area: string;
  level: string;
  section: string;
  statement: string;
  status: RequirementStatus;
  reason?: string;
  interpretation?: string;
  tests: string[];
  /** A listed deviation that no longer fails: the deviation list is out of date. */
  deviationUnexpectedlyPasses?: boolean;
}

export interface RunResults {
  schemaVersion: 1;
  tool: { name: string; version: string };
  runId: string;
  target: { name: string; environment: string; baseUrl: string; embedded: boolean; faults: string[] };
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  filtered: boolean;
  verdict: RunVerdict;
  verdictReasons: string[];
  exitCode: number;
  summary: {
    tests: Record<TestStatus, number> & { total: number };
    requirements: Record<RequirementStatus, number> & { total: number };
  };
  requirements: RequirementRecord[];
  tests: TestRecord[];
}
