/**
 * The TPP report names, for each TPP rule no exchange concerned, the call that would exercise it (the hint
 * kept beside the rule in lib/tpp-judge); a bank-side report does not.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { tppRuleCard } from '../../lib/tpp-judge/index.js';
import { TrafficJudging } from '../../lib/traffic/judging.js';
import type { ReportContext } from '../../lib/traffic/report.js';

const CONTEXT: ReportContext = {
  runId: 'hints',
  startedAt: new Date(),
  finishedAt: new Date(),
  tool: { name: 'xs2a-conformance', version: 'test' },
  target: { name: 'made here', environment: 'sandbox', baseUrl: '', embedded: false, faults: [] },
  source: 'made here',
  maskPersonalData: true,
};

test('a TPP rule the traffic never reached is NOT_COVERED with the call that exercises it; a manual one without', () => {
  const judging = new TrafficJudging({ judgeBank: true, basePath: '' });
  judging.observe({
    id: 'one',
    startedAt: new Date(),
    durationMs: 1,
    request: { method: 'GET', url: 'https://bank.example/v1/accounts', headers: {}, body: new Uint8Array(0) },
  });
  const tpp = judging.tppResults(CONTEXT);
  const balances = tpp.requirements.find((r) => r.id === 'TPP-43');
  assert.equal(balances?.status, 'NOT_COVERED');
  assert.equal(balances?.reason, `no exchange of the traffic concerned it; to exercise it: ${tppRuleCard('TPP-43')?.hint ?? ''}`);
  assert.equal(tpp.requirements.find((r) => r.id === 'TPP-17')?.status, 'MANUAL');
  const bankNotCovered = judging.bankResults(CONTEXT).requirements.filter((r) => r.status === 'NOT_COVERED');
  assert.ok(bankNotCovered.every((r) => !(r.reason ?? '').includes('to exercise it')));
});
