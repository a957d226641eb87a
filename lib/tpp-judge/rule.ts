/**
 * A TPP rule, as the judge runs it: one catalogue entry (TPP-…), one function that looks at one request in
 * its context and says PASS, FAIL (with what was expected and found) or why it cannot judge; `undefined`
 * when the rule does not concern the request at all. One rule, one requirement: a rule never judges
 * another entry, and a request breaking one rule leaves the others to their own verdicts.
 */
import type { X509Certificate } from 'node:crypto';
import type { PathName } from '../spec/paths.js';
import type { BankClockReading, ObservedExchange } from './observed-exchange.js';
import type { TppState } from './state.js';

export type Outcome =
  | { pass: true }
  | { pass: false; expected: string; actual: string }
  | { unjudged: string }
  /** A failure if the recording turns out to show the PSU's SCA traffic at all (known only at its end). */
  | { deferred: { expected: string; actual: string } };

export const PASS: Outcome = Object.freeze({ pass: true });

/** Why a rule measured against the bank's clock is not judged where the traffic does not show that clock. */
export const CLOCK_UNKNOWN =
  "the bank's clock at this request is not known (no Date in its answer, or a clock moved by the request before the traffic showed where it stood)";

export function fail(expected: string, actual: string): Outcome {
  return { pass: false, expected, actual };
}

export function unjudged(reason: string): Outcome {
  return { unjudged: reason };
}

/** PASS when `holds`, else FAIL with the finding. */
export function judged(holds: boolean, expected: string, actual: () => string): Outcome {
  return holds ? PASS : fail(expected, actual());
}

/** What the request addresses, by the interface's paths (lib/spec/paths.ts with the target's overrides). */
export interface ApiCall {
  method: string;
  /** Path relative to the target's base URL, without the query. */
  pathname: string;
  path?: { name: PathName; parameters: Record<string, string> };
  /** A sandbox operation (mock data, clock, reset): never leads to SCA. */
  sandboxOperation: boolean;
}

/** Settings of one judge: what it knows of the bank. */
export interface JudgeSettings {
  /** The environment the bank says it is (sandbox, production…); undefined when not known (the later enforcement dates then apply). */
  environment?: string;
  /** The CAs the bank trusts for TPP certificates; undefined when any certificate is accepted. */
  trustedCaPems?: readonly string[];
  /**
   * The traffic begins with the bank's life (the judging sandbox; the proxy in front of the embedded bank it
   * started): every psu-id and psu-corporate-id a TPP holds was issued in it, so one the traffic never gave
   * the TPP is one it never obtained. Not given: an identifier not seen may predate the traffic.
   */
  fromBankStart?: boolean;
}

export interface RuleContext {
  readonly exchange: ObservedExchange;
  readonly call: ApiCall;
  readonly tpp: TppState;
  /** Whether the sender is a TPP (a key), not the unidentified sender of requests nobody could be attributed to. */
  readonly identified: boolean;
  readonly settings: JudgeSettings;
  /** The bank's clock at the request, when it can be known. */
  readonly clock: BankClockReading | undefined;
  /** A request header, blank treated as absent. */
  header(name: string): string | undefined;
  /** A request header as sent, blank included. */
  rawHeader(name: string): string | undefined;
  /** The certificate of TPP-Signature-Certificate, when it is one. */
  readonly certificate: X509Certificate | undefined;
  /**
   * Whether the judge would have seen the PSU open this scaRedirect link: true in the sandbox (it serves
   * the SCA pages) and in a proxy the link leads through; undefined when only the end of a recording tells.
   */
  seesScaLink(href: string): boolean | undefined;
  /**
   * The bank's answer, for what stateful rules learn from it (the rules judge the request, not the answer): its status, and any scaRedirect
   * link.
   */
  readonly answer: { status: number; scaRedirect?: string } | undefined;
}

/** A rule the judge judges: its catalogue entry, and the call that exercises it (shown where traffic left it unjudged). */
export interface JudgedRule {
  /** The catalogue entry (TPP-…) it judges, and nothing else. */
  readonly id: string;
  /** The call a TPP makes for the rule to be judged, e.g. "a request with PSU-IP-Address". */
  readonly hint: string;
}

export interface Rule extends JudgedRule {
  judge(context: RuleContext): Outcome | undefined;
}

/** A rule that also learns from the exchange after every rule judged it (stateful rules: what came before). */
export interface Learner {
  learn(context: RuleContext): void;
}
