// One request and its response (or the error that took its place), kept as
// evidence for the report.
import type { SigningDefect } from './signing-defects.js';

export interface RecordedExchange {
  id: string;
  /** ISO 8601, wall-clock time (not the injected TPP clock). */
  startedAt: string;
  durationMs: number;
  request: { method: string; url: string; headers: Record<string, string>; body?: string };
  response?: { status: number; headers: Record<string, string>; body: string };
  error?: string;
  /** Set when the request is malformed on purpose (what is wrong with it): the invariants then expect a 4xx. */
  malformed?: string;
  /** Set when the scenario asked the target to fail this request internally: its 5xx is expected. */
  failureProvoked?: string;
  /**
   * Set when the request leaves a TPP rule on purpose though the bank may accept it (what it tries): not held against the suite's client in
   * an audit of its traffic.
   */
  deliberate?: string;
  /** The deliberate signingDefects applied while signing, so a replay can make the same request anew. */
  signingDefects?: SigningDefect[];
}
