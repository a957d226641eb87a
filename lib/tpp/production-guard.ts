/**
 * Production safety, the one gate every request to a target passes (the TPP client's, and the PSU's side at the
 * bank's SCA site, over HTTP or in Chromium; test/architecture/outbound-requests.test.ts keeps it so): a target
 * declared `environment: production` gets only reads. Whatever a scenario or a fixture asks for, the client refuses before a byte
 * leaves any method but GET (payments, baskets, consents, cancellations…), any sandbox operation (GET included:
 * a production bank has none, and a path that answers there is not one to explore), and any read that burns
 * the rate-limited unattended quota (balances and transactions without PSU-IP-Address: 4 a day per account,
 * which belong to the TPP's real service; a run's budget for them is none).
 */
import { DEFAULT_PATHS, type PathName } from '../spec/paths.js';
import { memoisedWeak } from '../support/memo.js';
import type { Environment } from '../targets/target-types.js';
import { ConformanceError } from '../errors.js';

/** Reads the specification limits to 4 a day per account when the PSU is not present (Limits). */
const QUOTA_READS: readonly PathName[] = [
  'balances',
  'transactions',
  'transactionDetails',
  'cardAccountBalances',
  'cardAccountTransactions',
];

export interface SafetyPolicy {
  environment: Environment;
  /** Who sends (a scenario id), named in a refusal. */
  sender?: string;
  /** The target's path overrides: where its sandbox operations and quota-burning reads are. */
  paths?: Readonly<Record<string, string>>;
}

/** A request the client would not send: the target is production and the request writes, or burns a quota. */
export class ProductionRefusal extends ConformanceError {
  readonly code = 'XC_ERR_PRODUCTION_REFUSAL';
  override name = 'ProductionRefusal';
}

/** Compiled once per set of path overrides (one per target). */
const compiled = new WeakMap<object, { sandbox: RegExp[]; quota: RegExp[] }>();
const NO_OVERRIDES = {};

function patternsFor(overrides: Readonly<Record<string, string>>): { sandbox: RegExp[]; quota: RegExp[] } {
  return memoisedWeak(compiled, overrides, () => {
    const pattern = (name: PathName) => {
      const template = overrides[name] ?? DEFAULT_PATHS[name];
      const source = template
        .split(/\{\w+\}/)
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^/]+');
      return new RegExp(`^${source}(?:/|$)`);
    };
    const names = Object.keys(DEFAULT_PATHS) as PathName[];
    return { sandbox: names.filter((name) => name.startsWith('sandbox')).map(pattern), quota: QUOTA_READS.map(pattern) };
  });
}

/**
 * Why this request may not go to the target, or undefined when it may. `path` is the request's path relative
 * to the target's base URL (no query); `headers` are the headers as they would be sent.
 */
export function productionRefusal(
  policy: SafetyPolicy,
  method: string,
  path: string,
  headers: Readonly<Record<string, string>>,
): string | undefined {
  if (policy.environment !== 'production') return undefined;
  const who = policy.sender ?? 'the TPP client';
  const request = `${method.toUpperCase()} ${path}`;
  const { sandbox, quota } = patternsFor(policy.paths ?? NO_OVERRIDES);
  if (method.toUpperCase() !== 'GET')
    return `not run against production: ${who} would send ${request} (the TPP client sends a production target nothing but GET)`;
  if (sandbox.some((pattern) => pattern.test(path)))
    return `not run against production: ${who} would call the sandbox operation ${request}`;
  const psuPresent = Object.keys(headers).some((name) => name.toLowerCase() === 'psu-ip-address');
  if (!psuPresent && quota.some((pattern) => pattern.test(path))) {
    return `not run against production: ${who} would send ${request} without PSU-IP-Address, which uses up the account's unattended quota (4 a day; a run's budget for them is none)`;
  }
  return undefined;
}

/**
 * Why this request to the bank's SCA site may not go, or undefined when it may: in production, nothing but GET
 * and HEAD (the page a link opens, its redirects and resources). A form a PSU submits there is a login, and a
 * production bank never receives an SCA login from a test, whether a scenario, a step or a page's own script
 * would send it.
 */
export function scaSiteRefusal(policy: SafetyPolicy, method: string, url: string): string | undefined {
  if (policy.environment !== 'production' || ['GET', 'HEAD'].includes(method.toUpperCase())) return undefined;
  return `not run against production: ${policy.sender ?? 'the PSU side of SCA'} would send ${method.toUpperCase()} ${url} to the bank's SCA site (an SCA login: production receives none)`;
}
