/**
 * The sloppy TPP through the judging proxy (in front of the embedded reference bank, its SCA pages reached
 * through the proxy too), and the HAR the proxy wrote, audited afterwards: each case is caught on exactly
 * the rule it breaks, live and from the recording; the warm-up of a careful TPP breaks nothing; and the
 * reports list exactly the rules the cases broke.
 */
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startProxySession, type ProxySession } from '../../lib/cli/proxy-session.js';
import { PACKAGE_ROOT } from '../../lib/cli/package-root.js';
import { exchangeOfEntry, readHarEntries } from '../../lib/har/index.js';
import type { RunResults } from '../../lib/report/results-types.js';
import { JUDGED_RULE_IDS, requestHeader } from '../../lib/tpp-judge/index.js';
import { TrafficJudging } from '../../lib/traffic/judging.js';
import { scratchDir } from '../support/scratch.js';
import { CASE_HEADER, sloppyPki, runSloppyTpp, SLOPPY_CASES, SloppyTpp } from './sloppy-client.js';

/** Rules each case broke, by case, as a mode saw them. */
type Caught = Map<string, Set<string>>;

function record(caught: Caught, currentCase: string, rules: readonly string[]): void {
  const set = caught.get(currentCase) ?? new Set<string>();
  for (const rule of rules) set.add(rule);
  caught.set(currentCase, set);
}

/** Each case caught on exactly its rule, and the warm-up on nothing. */
function assertEachCaseCaughtAlone(caught: Caught, mode: string): void {
  assert.deepEqual([...(caught.get('warm-up') ?? [])], [], `${mode}: the careful warm-up broke nothing`);
  const wrong = SLOPPY_CASES.filter((c) => [...(caught.get(c.rule) ?? [])].join() !== c.rule).map((c) => `${c.rule}: caught ${[...(caught.get(c.rule) ?? [])].join(', ') || 'nothing'}`);
  assert.deepEqual(wrong, [], `${mode}: every case caught on exactly its rule`);
}

/** The rules a report fails (FAIL, or WARNING for a SHOULD). */
function failedIn(results: RunResults): string[] {
  return results.requirements.filter((r) => r.status === 'FAIL' || r.status === 'WARNING').map((r) => r.id).sort();
}

describe('the sloppy TPP through the judging proxy, and its HAR audited', () => {
  const dir = scratchDir('xs2a-sloppy-proxy-');
  const pki = sloppyPki();
  const live: Caught = new Map();
  let session: ProxySession;
  let stopped: Awaited<ReturnType<ProxySession['stop']>>;

  before(async () => {
    const trustFile = join(dir, 'trusted-ca.pem');
    writeFileSync(trustFile, pki.trustedCa.certificatePem);
    let current = 'before';
    session = await startProxySession({
      target: 'reference',
      targetsFile: join(PACKAGE_ROOT, 'targets.yaml'),
      port: 0,
      host: '127.0.0.1',
      caOut: join(dir, 'proxy-ca.pem'),
      trustCaFiles: [trustFile],
      reportDir: join(dir, 'reports'),
      // The HAR as sent, as an audit of signatures and digests needs it (masked, TPP-04 and TPP-15 are left unjudged there).
      unmasked: true,
      onObservation: ({ broken }) => record(live, current, broken),
    });
    const tpp = new SloppyTpp({ baseUrl: session.baseUrl, caPem: session.caPem }, pki);
    try {
      await runSloppyTpp(tpp, (rule) => {
        current = rule;
      });
    } finally {
      await tpp.close();
      stopped = await session.stop();
    }
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  test('there is a case for every rule the judge judges', () => {
    assert.deepEqual(SLOPPY_CASES.map((c) => c.rule), [...JUDGED_RULE_IDS]);
  });

  test('live, each case is caught on exactly its rule as it passes the proxy', () => {
    assertEachCaseCaughtAlone(live, 'proxy');
  });

  test("the proxy's TPP report fails exactly the rules the cases broke, and exits 1", () => {
    assert.deepEqual(failedIn(stopped.tpp), [...JUDGED_RULE_IDS]);
    assert.equal(stopped.exitCode, 1);
  });

  test("the bank's answers to all of it keep the bank's rules", () => {
    assert.deepEqual(failedIn(stopped.bank), []);
    assert.ok(stopped.bank.requirements.some((r) => r.id === 'ERR-01' && r.status === 'PASS'), 'the error bodies were judged');
  });

  test('in the HAR the proxy wrote, each case is caught on exactly its rule', async () => {
    const judging = new TrafficJudging({ judgeBank: true, basePath: '', environment: 'sandbox', trustedCaPems: [pki.trustedCa.certificatePem] });
    const fromHar: Caught = new Map();
    const caseOf = new Map<string, string>();
    let current = 'before';
    let index = 0;
    for await (const entry of readHarEntries(session.harFile)) {
      const exchange = exchangeOfEntry(entry, index++);
      // The PSU's browser belongs to the case whose request came last.
      current = requestHeader(exchange, CASE_HEADER) ?? current;
      caseOf.set(exchange.id, current);
      record(fromHar, current, judging.observe(exchange).broken);
    }
    judging.finish();
    for (const summary of judging.tppTally.summaries()) {
      for (const rule of summary.rules.values()) for (const failure of rule.failures) record(fromHar, caseOf.get(failure.exchange) ?? '?', [rule.rule]);
    }
    assert.ok(index > SLOPPY_CASES.length, `the HAR holds the traffic (${index} entries)`);
    assertEachCaseCaughtAlone(fromHar, 'HAR');
  });
});
