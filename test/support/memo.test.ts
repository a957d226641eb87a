/**
 * The two memos of lib/support/memo.ts: a value is made once per key, whatever it is (undefined and null
 * included: "no such value" is an answer worth keeping too), and the bounded one starts again past its limit.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MEMO_LIMIT, memoised, memoisedWeak } from '../../lib/support/memo.js';

/** A maker that counts its calls and answers what it is given. */
function counting<V>(value: V) {
  const calls = { count: 0 };
  return { calls, make: () => (calls.count++, value) };
}

describe('memoisedWeak', () => {
  for (const value of [undefined, null, 0, '', { derived: true }]) {
    test(`makes ${JSON.stringify(value) ?? 'undefined'} once per key, and again for another key`, () => {
      const memo = new WeakMap<object, unknown>();
      const [a, b] = [{}, {}];
      const { calls, make } = counting(value);
      assert.equal(memoisedWeak(memo, a, make), value);
      assert.equal(memoisedWeak(memo, a, make), value);
      assert.equal(calls.count, 1);
      memoisedWeak(memo, b, make);
      assert.equal(calls.count, 2);
    });
  }
});

describe('memoised', () => {
  test('makes a value once per key, undefined included', () => {
    const memo = new Map<string, undefined>();
    const { calls, make } = counting(undefined);
    memoised(memo, 'k', make);
    memoised(memo, 'k', make);
    assert.equal(calls.count, 1);
  });

  test(`holds at most ${MEMO_LIMIT} entries: past them it starts again`, () => {
    const memo = new Map<number, number>();
    for (let key = 0; key <= MEMO_LIMIT; key++) memoised(memo, key, () => key);
    assert.equal(memo.size, 1);
    assert.equal(memo.get(MEMO_LIMIT), MEMO_LIMIT);
  });
});
