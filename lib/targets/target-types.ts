import type { SandboxOperation, SandboxOperationName } from '../spec/sandbox-operations.js';
import { CAPABILITIES, type Capability } from '../spec/requirements/requirement-types.js';

/** The shape of one entry of targets.yaml after validation (before `${VAR}` interpolation of its strings). */

export const ENVIRONMENTS = ['sandbox', 'staging', 'production'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

/**
 * What a target can do beyond the specification's interface (the catalogue's list, with what each means).
 * A test that needs a capability the target lacks is reported NOT_TESTABLE with the capability named.
 */
export const TARGET_CAPABILITIES = Object.keys(CAPABILITIES) as Capability[];
export type TargetCapability = Capability;

/** One page of a target's SCA site, recognised by its URL (and what it shows), and what the PSU does on it. */
export interface ScaPageRule {
  match: string;
  /**
   * A selector the page must show for the rule to apply: for a bank whose pages share one URL (each step a
   * form posted back to the same address), what tells them apart, e.g. `body[data-step=consent]`.
   */
  when?: string;
  /** An optional page (a context choice shown only to some PSUs) need not appear. */
  optional?: boolean;
  steps: ScaStep[];
}

export type ScaStep =
  | { fill: { selector: string; value: string } }
  | { click: { selector: string } }
  | { check: { selector: string; all?: boolean } }
  | { uncheck: { selector: string; all?: boolean } }
  | { select: { selector: string; value: string } }
  | { wait: { selector?: string; url?: string } }
  /** Reads the text of an element into the capture, under `as` (e.g. the payment shown to the PSU). */
  | { read: { selector: string; as: string } };

export interface PsuConfig {
  nationalId?: string;
  /** The context the PSU picks during SCA; CORPORATE needs an agreement. */
  context?: 'PRIVATE' | 'CORPORATE';
  /** Which corporate agreement to pick, as the SCA site names it (used by the target's steps as {{psu.agreement}}). */
  agreement?: string;
}

export interface TppConfig {
  /** PEM file path (relative to targets.yaml) or inline PEM. */
  certificate?: string;
  privateKey?: string;
  /** Generate a test certificate from the suite's own test CA instead of loading one. */
  generate?: boolean;
  organizationIdentifier?: string;
  organizationName?: string;
  redirectUri: string;
  /** A second TPP (capability second-tpp) when the first is loaded from files; generated alongside a generated one. */
  second?: { certificate: string; privateKey: string };
  /**
   * The CA the target trusts for test TPP certificates, with its key (PEM files relative to targets.yaml, or inline
   * PEM). The run issues its generated TPP certificates and the certificate variants (expired, fewer roles) from
   * it: a bank that checks certificates as production does (capability test-ca-trusted) cannot trust a CA made
   * for the run.
   */
  testCa?: { certificate: string; privateKey: string };
}

export interface SandboxConfig {
  /**
   * Which clock judges a request's Date once the sandbox clock is moved: `bank-clock` (the moved one: the
   * default) or `real-time` (the bank's clock moves its rules, never the Date it checks).
   */
  dates?: 'bank-clock' | 'real-time';
  /** How the target offers each operation: its method, path and body template; null where it has none. */
  operations?: Partial<Record<SandboxOperationName, SandboxOperation | null>>;
}

export interface Deviation {
  requirement: string;
  reason: string;
  until?: string;
}

export const SCA_DRIVERS = ['browser', 'http'] as const;
export type ScaDriver = (typeof SCA_DRIVERS)[number];

export interface TargetConfig {
  /**
   * The embedded reference bank: `true`, or its options (faults always on; `variants`: legal readings of the
   * specification it takes instead of its own; `pages`: which SCA page set it serves).
   */
  embedded?: boolean | { faults?: string[]; variants?: string[]; pages?: string };
  baseUrl?: string;
  environment: Environment;
  description?: string;
  tls?: { ca?: string };
  tpp?: TppConfig;
  psus?: Record<string, PsuConfig>;
  sca?: ScaPageRule[];
  /**
   * Named variations of the SCA pages for tests that need the PSU to act differently (consent to one account
   * only, cancel…). A variant's rule replaces the base rule with the same `match`; others are added.
   */
  scaVariants?: Record<string, ScaPageRule[]>;
  /**
   * What drives the SCA pages: `browser` (the default: Chromium, as a PSU would) or `http` (their forms over
   * HTTP, no script: for banks whose SCA pages work without it; lib/sca/http-flow.ts).
   */
  scaDriver?: ScaDriver;
  capabilities?: TargetCapability[];
  paths?: Record<string, string>;
  /** The sandbox operations the specification names without their shape (lib/spec/sandbox-operations.ts), and its clock. */
  sandbox?: SandboxConfig;
  deviations?: Deviation[];
  timeouts?: { requestMs?: number; scaMs?: number };
  /** How many scenarios the bank takes at once (its rate limits): the run's workers against it, unless told otherwise. */
  concurrency?: number;
}

export interface TargetsFile {
  targets: Record<string, TargetConfig>;
}
