// The suites' one way to initiate a payment (suites/payments/payment-bodies.ts, `initiate`): a logical duplicate
// that another scenario of the same TPP and PSU made at the same moment never decides a scenario's verdict.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ScenarioFixtures, TppClient, TppResponse } from '../../lib/fixtures/index.js';
import { initiate } from '../../suites/payments/payment-bodies.js';

/** A client whose bank answers the statuses given, in turn; the paths it was sent to. */
function bankAnswering(...statuses: number[]): { tpp: TppClient; sent: string[] } {
  const sent: string[] = [];
  const request = ({ path }: { path: string }) => {
    sent.push(path);
    return Promise.resolve({ status: statuses[sent.length - 1] ?? 500 } as TppResponse);
  };
  return { tpp: { request } as unknown as TppClient, sent };
}
const paths = (() => '/v1/payments/sepa-credit-transfers') as unknown as ScenarioFixtures['paths'];
const INITIATION = '/v1/payments/sepa-credit-transfers';

test("a 409 is answered the specification's way: sent once more with allowLogicalDuplicate=true", async () => {
  const { tpp, sent } = bankAnswering(409, 201);
  assert.equal((await initiate(tpp, paths, {})).status, 201);
  assert.deepEqual(sent, [INITIATION, `${INITIATION}?allowLogicalDuplicate=true`]);
  const withQuery = bankAnswering(409, 201);
  await initiate(withQuery.tpp, paths, {}, { query: '?x=1' });
  assert.deepEqual(withQuery.sent, [`${INITIATION}?x=1`, `${INITIATION}?x=1&allowLogicalDuplicate=true`]);
});

test('any other answer is kept, and so is the 409 of a scenario that judges duplicates or sends the parameter itself', async () => {
  for (const status of [201, 400, 401, 403]) {
    const { tpp, sent } = bankAnswering(status, 201);
    assert.equal((await initiate(tpp, paths, {})).status, status);
    assert.equal(sent.length, 1);
  }
  const judged = bankAnswering(409, 201);
  assert.equal((await initiate(judged.tpp, paths, {}, { judgesDuplicates: true })).status, 409);
  assert.equal(judged.sent.length, 1);
  const ownParameter = bankAnswering(409, 201);
  assert.equal((await initiate(ownParameter.tpp, paths, {}, { query: '?allowLogicalDuplicate=false' })).status, 409);
  assert.equal(ownParameter.sent.length, 1);
});
