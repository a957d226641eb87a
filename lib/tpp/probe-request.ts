// What a robustness probe is, sent and answered (the generator, with fast-check, is malformed-requests.ts:
// loaded only by the run that sends probes).
import type { SigningDefect } from './signing-defects.js';

/** One malformed request, as the TPP client sends it. */
export interface ProbeRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  omitHeaders: string[];
  rawBody?: Buffer;
  signingDefects: SigningDefect[];
  /** What is wrong with it, in words (the shrunk counterexample is printed with it). */
  defects: string[];
}

/** What came back: an answer, or none (the connection dropped, or no answer in time). */
export type ProbeOutcome = { status: number; contentType: string | undefined; body: string } | { error: string };

export interface ProbeRun {
  runs: number;
  /** The shrunk request that fails, and why; undefined when every probe held. */
  counterexample?: { request: ProbeRequest; failure: string; shrinks: number; seed: number };
}

/** The request as a reader wants it in a report: method, path and every defect. */
export function describeProbe(request: ProbeRequest): string {
  return `${request.method} ${request.path.length > 120 ? `${request.path.slice(0, 120)}…` : request.path} with ${request.defects.join('; ') || 'no defect beyond the path'}`;
}
