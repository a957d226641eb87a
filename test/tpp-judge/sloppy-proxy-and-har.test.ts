/**
 * The sloppy TPP through the judging proxy (in front of the embedded reference bank, its SCA pages reached
 * through the proxy too), and the HAR the proxy wrote, audited afterwards: each case is caught on exactly
 * the rule it breaks, live and from the recording; the warm-up of a careful TPP breaks nothing; and the
 * reports list exactly the rules the cases broke.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { ProxySession } from '../../lib/cli/proxy-session.js';
import { JUDGED_RULE_IDS } from '../../lib/tpp-judge/index.js';
import { scratchDir } from '../support/scratch.js';
import { assertEachCaseCaughtAlone, caughtInHar, failedIn, judgingProxy, type Caught } from './judged-modes.js';
import { caseName, tppPki, runSloppyTpp, SLOPPY_CASES, TestTpp } from './sloppy-client.js';

describe('the sloppy TPP through the judging proxy, and its HAR audited', () => {
  const dir = scratchDir('xs2a-sloppy-proxy-');
  const pki = tppPki();
  const live: Caught = new Map();
  let session: ProxySession;
  let stopped: Awaited<ReturnType<ProxySession['stop']>>;

  before(async () => {
    let current = 'before';
    session = await judgingProxy(dir, pki.trustedCa.certificatePem, live, () => current);
    const tpp = new TestTpp({ baseUrl: session.baseUrl, caPem: session.caPem }, pki);
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

  test('there is a case for every rule the judge judges, and every case is named once', () => {
    assert.deepEqual([...new Set(SLOPPY_CASES.map((c) => c.rule))], [...JUDGED_RULE_IDS]);
    assert.equal(new Set(SLOPPY_CASES.map(caseName)).size, SLOPPY_CASES.length);
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
    assert.ok(
      stopped.bank.requirements.some((r) => r.id === 'ERR-01' && r.status === 'PASS'),
      'the error bodies were judged',
    );
  });

  test('in the HAR the proxy wrote, each case is caught on exactly its rule', async () => {
    const { caught, entries } = await caughtInHar(session.harFile, pki.trustedCa.certificatePem);
    assert.ok(entries > SLOPPY_CASES.length, `the HAR holds the traffic (${entries} entries)`);
    assertEachCaseCaughtAlone(caught, 'HAR');
  });
});
