/**
 * What the runner hands to Playwright's workers: the resolved target (base URL, CA, TPP certificate, PSUs,
 * SCA rules, capabilities) in a JSON file named by XS2A_RUN_CONTEXT. The TPP private key travels as a file
 * path only, so it never lands in an environment dump, a log or a report.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { Deviation, Environment, PsuConfig, ScaPageRule, TargetCapability } from './types.js';

export const RUN_CONTEXT_ENV = 'XS2A_RUN_CONTEXT';

export interface RunTarget {
  name: string;
  environment: Environment;
  baseUrl: string;
  embedded: boolean;
  faults: string[];
  /** PEM of the CA the suite trusts for this target (explicit, never the system store). */
  caPem?: string;
  tpp: { certificatePem: string; privateKeyFile: string; redirectUri: string };
  psus: Record<string, PsuConfig>;
  sca: ScaPageRule[];
  scaVariants: Record<string, ScaPageRule[]>;
  capabilities: TargetCapability[];
  paths: Record<string, string>;
  deviations: Deviation[];
  timeouts: { requestMs: number; scaMs: number };
}

export interface RunContext {
  runId: string;
  /** reports/ — the reporter writes <reportRoot>/<runId>/ and <reportRoot>/latest/. */
  reportRoot: string;
  startedAt: string;
  tool: { name: string; version: string };
  /** A --grep, --shard or file filter was given: the run cannot certify. */
  filtered: boolean;
  maskPersonalData: boolean;
  target: RunTarget;
}

export function writeRunContext(path: string, context: RunContext): void {
  writeFileSync(path, JSON.stringify(context, null, 2), { mode: 0o600 });
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
