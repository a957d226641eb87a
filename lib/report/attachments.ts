/**
 * What a scenario run hands to the reporter: one JSON attachment (already masked by the fixtures) and a few
 * annotations. The contract between lib/fixtures (in the workers) and lib/report (in the runner).
 */
import { requirementById } from '../spec/requirements.js';
import type { RecordedExchange } from '../tpp/index.js';
import type { CheckRecord, EvidenceExchange } from './results-types.js';

export const EVIDENCE_ATTACHMENT = 'xs2a-evidence';

/** The raw traffic of a scenario run, handed over only when the run records a HAR (`run --har`): unmasked. */
export const TRAFFIC_ATTACHMENT = 'xs2a-traffic';

export interface TrafficPayload {
  /** The scenario's stable id (each exchange's HAR comment). */
  scenario: string;
  exchanges: RecordedExchange[];
  /** The PSU's SCA flows: the pages opened and the redirect to the TPP, with when the redirect came. */
  redirects: { url: string; pages: string[]; at: string }[];
}

export interface EvidencePayload {
  /** Every check the scenario and the invariants made (passes merged per requirement). */
  checks: CheckRecord[];
  exchanges: EvidenceExchange[];
  redirects: { url: string; pages: string[] }[];
  /** Failed MUST checks the worker left to the reporter to raise (lib/report/deferred-failures.ts), masked. */
  deferredFailures?: DeferredFailure[];
}

/**
 * Set in the workers' environment by the conformance reporter when it raises failed checks itself: the worker
 * then records them (DeferredFailure) instead of failing the Playwright test, which would cost a new worker.
 */
export const DEFERRED_FAILURES_ENV = 'XS2A_DEFERRED_FAILURES';

/** A failed check as Playwright would have raised it: the message, and a stack whose first frame is the suite's line. */
export interface DeferredFailure {
  message: string;
  stack: string;
}

/** How a robustness probe's exchange is marked (`malformed`), so that a report can bound them (lib/report/evidence-bounds.ts). */
export const ROBUSTNESS_PROBE = 'robustness probe';

/** A check of a MUST requirement failed: the scenario is FAIL, whatever Playwright says of the test. */
export function mustCheckFailed(checks: readonly CheckRecord[]): boolean {
  return checks.some((c) => c.verdict === 'FAIL' && requirementById(c.requirement)?.level === 'MUST');
}

/** Annotation types the fixtures write and the reporter reads. */
export const ANNOTATIONS = {
  /** The scenario's stable id (`SIG-04.a`). */
  scenario: 'scenario',
  /** The gauntlet case a run is made under. */
  gauntletCase: 'gauntlet-case',
  notTestable: 'not-testable',
  skipped: 'skipped',
  /** The scenario stopped on infrastructure trouble (classified by the error's type). */
  interrupted: 'interrupted',
  /** The scenario stopped outside its checks for another reason. */
  scenarioError: 'scenario-error',
  /** A SHOULD or MAY check that failed, or a schema notice. */
  warning: 'warning',
} as const;
