/**
 * What the runner hands to Playwright's workers: the resolved target (base URL, CA, TPP certificate, PSUs,
 * SCA rules, capabilities) in a JSON file named by XS2A_RUN_CONTEXT. The TPP private key travels as a file
 * path only, so it never lands in an environment dump, a log or a report.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import type { Deviation, SandboxConfig, Environment, PsuConfig, ScaDriver, ScaPageRule, TargetCapability } from './target-types.js';

export const RUN_CONTEXT_ENV = 'XS2A_RUN_CONTEXT';

/** One TPP identity the suite can act as: its certificate and key, and the bank it talks to. */
export interface TppProfile {
  certificatePem: string;
  /** The private key stays in a file of the run's private folder; only its path travels. */
  privateKeyFile: string;
  /** Another bank than the target's (a gauntlet fault that breaks a whole bank gets a bank of its own). */
  baseUrl?: string;
  caPem?: string;
  /** The certificate was made for this run, by the test CA (not loaded from the target's files). */
  generated?: true;
}

/** The TPP profile every scenario acts as, unless it asks for another. */
export const DEFAULT_PROFILE = 'default';
/** The profile of a second TPP (capability second-tpp). */
export const SECOND_PROFILE = 'second';

/**
 * The gauntlet (test/gauntlet): each case switches some of the embedded reference bank's behaviour switches on
 * for one TPP profile only, and the scenarios it names run once more as that TPP. A fault case must fail
 * exactly what the fault breaks; a variant case (a legal reading of the specification) must fail nothing; a
 * census case switches nothing on and runs one scenario, so that the bank can tell which switches it asked.
 */
export interface GauntletCase {
  /** Unique: `fault:NAME`, `variant:NAME`, `variants:NAME`, `census:SCENARIO`. */
  name: string;
  kind: 'fault' | 'variant' | 'census';
  profile: string;
  /** The switches on for that profile (faults and variants by name). */
  switches: string[];
  /** A fault case's: the requirements the fault breaks (its declaration in the reference bank). */
  breaks: string[];
  /** The scenarios to run under it; by default every scenario that declares one of `breaks`. */
  scenarios?: string[];
}

export interface GauntletPlan {
  cases: GauntletCase[];
}

export interface RunTarget {
  name: string;
  environment: Environment;
  baseUrl: string;
  embedded: boolean;
  faults: string[];
  /** Variants (legal readings of the specification) the embedded bank takes for every TPP. */
  variants: string[];
  /** PEM of the CA the suite trusts for this target (explicit, never the system store). */
  caPem?: string;
  tpp: { redirectUri: string };
  /** The TPP identities of this run by profile name: always `default`; `second` with capability second-tpp. */
  tpps: Record<string, TppProfile>;
  /**
   * Key files of the worlds a scenario that changes global state may run in beside the others, each made by the first
   * scenario of its lane (lib/fixtures/world-lanes.ts):
   * only for a bank known to keep a sandbox world per TPP key (the embedded one), whose TPPs the run's test CA issues.
   */
  worldLaneKeyFiles?: string[];
  /**
   * The CA that issued generated TPP certificates (its key in the run's private folder): issues certificate variants
   * (test-ca-trusted). `given`: the target's own (tpp.testCa), which the bank trusts; otherwise made for the run.
   */
  testCa?: { certificatePem: string; privateKeyFile: string; given?: true };
  psus: Record<string, PsuConfig>;
  sca: ScaPageRule[];
  scaVariants: Record<string, ScaPageRule[]>;
  /** What drives the SCA pages (targets.yaml `scaDriver`, or `run --sca-driver`). */
  scaDriver: ScaDriver;
  capabilities: TargetCapability[];
  paths: Record<string, string>;
  /** targets.yaml `sandbox`: its operations (on top of the vendor's defaults) and the clock of its Date. */
  sandbox: SandboxConfig;
  deviations: Deviation[];
  timeouts: { requestMs: number; scaMs: number };
  /** How many scenarios the bank takes at once (targets.yaml `concurrency`): the run's workers unless told otherwise. */
  concurrency?: number;
}

/** Worlds of their own for scenarios that change global state, on a bank with a world per TPP key. */
export const WORLD_LANES = 3;

/** How long one request and one SCA flow may take, unless a target says otherwise (targets.yaml `timeouts`). */
export const DEFAULT_TIMEOUTS: RunTarget['timeouts'] = { requestMs: 10_000, scaMs: 20_000 };
/** Playwright's limit for one scenario at the default timeouts. */
const DEFAULT_SCENARIO_MS = 30_000;

/**
 * Playwright's limit for one scenario: 30 s at the default timeouts, stretched in proportion when the target
 * declares longer ones, so that a bank given 60 s per SCA flow is never cut off by the scenario's limit first.
 */
export function scenarioTimeoutMs(timeouts: RunTarget['timeouts'] = DEFAULT_TIMEOUTS): number {
  return Math.round(
    DEFAULT_SCENARIO_MS * Math.max(1, timeouts.requestMs / DEFAULT_TIMEOUTS.requestMs, timeouts.scaMs / DEFAULT_TIMEOUTS.scaMs),
  );
}

/** The most workers a run starts by default against the embedded bank, which answers from this machine's cores. */
const MOST_LOCAL_WORKERS = 4;
/**
 * Workers against a bank across a network, unless its targets.yaml says how many scenarios it takes at once
 * (`concurrency`): their time is the bank's answers' (a round trip each), not this machine's cores. Measured
 * with every answer 200 ms late on the 2-core machine (scripts/remote-speed.ts): a full run took 166 s with 4
 * workers, 108-134 s with 8 to 16; the scenarios that change global state run alone at the end whatever the count.
 */
const REMOTE_WORKERS = 16;
/** What a worker holds in memory at most (a Playwright worker with its Chromium), to bound the count by the machine's. */
const WORKER_MEMORY = 384 * 1024 * 1024;

/**
 * The run's Playwright workers when the command line gives none: XS2A_WORKERS; else, against the embedded bank
 * (which answers from this machine's own cores), one per core up to four; else the bank's `concurrency`, or
 * sixteen, as many as the machine's memory holds. On two cores, four workers beside the embedded bank took more
 * time than two and a quarter more CPU (the whole suite 24.0 s against 22.9 s; the latitude gauntlet 78 s
 * against 67 s): each worker starts its own Playwright, browser and connections. Without a run context yet (a
 * plain `npx playwright test`, whose global setup starts the bank) the target is not known when Playwright reads
 * its configuration: four.
 */
export function defaultWorkers(
  target: Pick<RunTarget, 'embedded' | 'concurrency'> | undefined,
  env: NodeJS.ProcessEnv = process.env,
  cores = availableParallelism(),
  memory = totalmem(),
): number {
  if (env.XS2A_WORKERS) return Number(env.XS2A_WORKERS);
  if (target === undefined) return MOST_LOCAL_WORKERS;
  if (target.embedded) return Math.min(MOST_LOCAL_WORKERS, cores);
  return Math.max(1, Math.min(target.concurrency ?? REMOTE_WORKERS, Math.floor(memory / WORKER_MEMORY)));
}

export interface RunContext {
  runId: string;
  /** reports/ — the reporter writes <reportRoot>/<runId>/ and <reportRoot>/latest/. */
  reportRoot: string;
  startedAt: string;
  tool: { name: string; version: string };
  maskPersonalData: boolean;
  target: RunTarget;
  gauntlet?: GauntletPlan;
  /** Where the reporter writes the run's traffic as a HAR (`run --har FILE`); the workers then hand it over unmasked. */
  harFile?: string;
  /** The targets file the target came from (absolute): replay goes back to it (lib/cli/run-source.ts). */
  targetsFile?: string;
  /** The targets.yaml entry as written, keys removed: shown in the report's provenance. */
  declaredTarget?: unknown;
  /** The arguments that reached Playwright (filters, workers…), for the provenance. */
  arguments?: string[];
  /** `run --attestations FILE` (checked by the runner before the run): people's verdicts on manual requirements. */
  attestationsFile?: string;
  /** `run --baseline DIR`: an earlier report to compare this run with. */
  baselineDir?: string;
  /**
   * The key of the masker's hashes (lib/report/mask.ts), the same in every worker and the reporter, so that one
   * PSU has one tag across the report. It stays in this private file: without it a tag cannot be reversed by
   * trying every national identity number. Made by writeRunContext when not given.
   */
  maskKey?: string;
}

export function writeRunContext(path: string, context: RunContext): void {
  const withKey: RunContext = { ...context, maskKey: context.maskKey ?? randomBytes(32).toString('base64url') };
  writeFileSync(path, JSON.stringify(withKey, null, 2), { mode: 0o600 });
}

/**
 * What a target's configuration holds that a report must never show: the PSUs' identity numbers and
 * agreements, and every value its SCA steps type or select (a password, a fixed code). Values made of
 * `{{…}}` placeholders are learnt when the flow expands them.
 */
export function secretsOf(target: Pick<RunTarget, 'psus' | 'sca' | 'scaVariants'>): string[] {
  const secrets = Object.values(target.psus).flatMap((psu) => [psu.nationalId, psu.agreement]);
  for (const rule of [...target.sca, ...Object.values(target.scaVariants).flat()]) {
    for (const step of rule.steps) {
      const typed = 'fill' in step ? step.fill.value : 'select' in step ? step.select.value : undefined;
      if (typed !== undefined && !/^\s*\{\{[^}]*\}\}\s*$/.test(typed)) secrets.push(typed);
    }
  }
  return secrets.filter((secret): secret is string => secret !== undefined && secret !== '');
}

/**
 * Where Playwright keeps a run's failure evidence (screenshots, traces, page HTML) until the reporter copies it,
 * masked, into the report: the run's private folder beside the context, removed when the run ends. Nothing of
 * a run lands outside --report-dir.
 */
export function evidenceDirOf(env: NodeJS.ProcessEnv = process.env): string {
  const context = env[RUN_CONTEXT_ENV];
  return context ? join(dirname(context), 'test-results') : 'test-results';
}

/** In a worker or the reporter: the context the runner wrote, or undefined when Playwright runs bare. */
export function readRunContext(env: NodeJS.ProcessEnv = process.env): RunContext | undefined {
  const path = env[RUN_CONTEXT_ENV];
  if (!path) return undefined;
  return JSON.parse(readFileSync(path, 'utf8')) as RunContext;
}

export function requireRunContext(): RunContext {
  const context = readRunContext();
  if (!context) {
    throw new Error(
      'No target: run the suite through `npm test` or `npx xs2a-conformance run --target NAME`, ' +
        'which start the target and hand it to Playwright.',
    );
  }
  return context;
}
