/**
 * What the tests of a TPP under test (sloppy-client.ts, careful-client.ts) read in each mode of judging: the
 * rules each case broke as the sandbox's answer header or the proxy's console named them, and as an audit of
 * the proxy's HAR finds them; and the rules a report fails.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../lib/cli/package-root.js';
import { startProxySession, type ProxySession } from '../../lib/cli/proxy-session.js';
import { exchangeOfEntry, readHarEntries } from '../../lib/har/index.js';
import type { RunResults } from '../../lib/report/results-types.js';
import { requestHeader } from '../../lib/tpp-judge/index.js';
import { TrafficJudging } from '../../lib/traffic/judging.js';
import { CASE_HEADER, caseName, SLOPPY_CASES } from './sloppy-client.js';

/** Rules each case broke, by case name, as a mode saw them. */
export type Caught = Map<string, Set<string>>;

export function record(caught: Caught, currentCase: string, rules: readonly string[]): void {
  const set = caught.get(currentCase) ?? new Set<string>();
  for (const rule of rules) set.add(rule);
  caught.set(currentCase, set);
}

/**
 * The judging proxy in front of the embedded reference bank, trusting the test TPPs' CA (in `dir`), every
 * observation recorded in `caught` under the case `currentCase()` names. Its HAR is kept as sent: an audit of
 * signatures and digests needs it (masked, TPP-04 and TPP-15 are left unjudged there).
 */
export function judgingProxy(dir: string, trustedCaPem: string, caught: Caught, currentCase: () => string): Promise<ProxySession> {
  const trustFile = join(dir, 'trusted-ca.pem');
  writeFileSync(trustFile, trustedCaPem);
  return startProxySession({
    target: 'reference',
    targetsFile: join(PACKAGE_ROOT, 'targets.yaml'),
    port: 0,
    host: '127.0.0.1',
    caOut: join(dir, 'proxy-ca.pem'),
    trustCaFiles: [trustFile],
    reportDir: join(dir, 'reports'),
    unmasked: true,
    onObservation: ({ broken }) => record(caught, currentCase(), broken),
  });
}

/** The rules a case was caught on, sorted. */
export function caughtOn(caught: Caught, name: string): string[] {
  return [...(caught.get(name) ?? [])].sort();
}

/** Each sloppy case caught on exactly its rule, and the careful warm-up on nothing. */
export function assertEachCaseCaughtAlone(caught: Caught, mode: string): void {
  assert.deepEqual(caughtOn(caught, 'warm-up'), [], `${mode}: the careful warm-up broke nothing`);
  const wrong = SLOPPY_CASES.filter((c) => caughtOn(caught, caseName(c)).join() !== c.rule).map(
    (c) => `${caseName(c)}: caught ${caughtOn(caught, caseName(c)).join(', ') || 'nothing'}`,
  );
  assert.deepEqual(wrong, [], `${mode}: every case caught on exactly its rule`);
}

/** The rules a report fails (FAIL, or WARNING for a SHOULD). */
export function failedIn(results: RunResults): string[] {
  return results.requirements
    .filter((r) => r.status === 'FAIL' || r.status === 'WARNING')
    .map((r) => r.id)
    .sort();
}

/** The rules a report fails at MUST level (FAIL). */
export function mustFailedIn(results: RunResults): string[] {
  return results.requirements
    .filter((r) => r.status === 'FAIL')
    .map((r) => r.id)
    .sort();
}

/**
 * The audit of a HAR of the proxy in front of the embedded bank it started (so the traffic begins with the
 * bank): each case's findings, the PSU's browser counted with the case whose request came last.
 */
export async function caughtInHar(harFile: string, trustedCaPem: string): Promise<{ caught: Caught; entries: number }> {
  const judging = new TrafficJudging({
    judgeBank: true,
    basePath: '',
    environment: 'sandbox',
    trustedCaPems: [trustedCaPem],
    fromBankStart: true,
  });
  const caught: Caught = new Map();
  const caseOf = new Map<string, string>();
  let current = 'before';
  let entries = 0;
  for await (const entry of readHarEntries(harFile)) {
    const exchange = exchangeOfEntry(entry, entries++);
    current = requestHeader(exchange, CASE_HEADER) ?? current;
    caseOf.set(exchange.id, current);
    record(caught, current, judging.observe(exchange).broken);
  }
  judging.finish();
  for (const summary of judging.tppTally.summaries()) {
    for (const rule of summary.rules.values())
      for (const failure of rule.failures) record(caught, caseOf.get(failure.exchange) ?? '?', [rule.rule]);
  }
  return { caught, entries };
}
