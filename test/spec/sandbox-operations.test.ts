/**
 * Sandbox operations as target data (issue 38): a target's template is filled with what a scenario gives, a
 * value kept as it is where the template names it alone, a member left out where the scenario gives nothing;
 * the vendor's shapes are the defaults, and a target can disown one or describe one that has none.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { describedOperation } from '../../lib/targets/target-sandbox.js';
import { fillPath, fillTemplate, SANDBOX_OPERATIONS } from '../../lib/spec/sandbox-operations.js';

describe('sandbox operation templates', () => {
  test('a placeholder alone keeps the value as it is; inside text it is text; a member the scenario leaves out is left out', () => {
    const body = fillTemplate(
      { offset: '{{offsetSeconds}}', note: 'moved {{offsetSeconds}} s', list: '{{transactions}}', product: '{{product}}' },
      { offsetSeconds: 3600, transactions: [{ amount: '1.00' }], product: undefined },
    );
    assert.deepEqual(body, { offset: 3600, note: 'moved 3600 s', list: [{ amount: '1.00' }] });
  });

  test('a template that names a variable the operation does not give is an error naming it', () => {
    assert.throws(
      () => fillTemplate({ at: 'at {{when}}' }, { at: 'x' }),
      /\{\{when\}\}, which this operation does not give \(it gives: at\)/,
    );
  });

  test('a path is filled URL-encoded', () => {
    assert.equal(
      fillPath('/v1/sandbox/accounts/{accountId}/transactions', { accountId: 'a b/c' }),
      '/v1/sandbox/accounts/a%20b%2Fc/transactions',
    );
  });

  test('the vendor’s shapes are the defaults; a target disowns one with null and describes one that has none', () => {
    assert.deepEqual(describedOperation({}, 'createCustomer'), SANDBOX_OPERATIONS.createCustomer.default);
    assert.equal(describedOperation({}, 'shiftClock'), undefined, 'the clock has no default shape');
    assert.equal(describedOperation({ operations: { initialize: null } }, 'initialize'), undefined);
    const shift = { method: 'POST', path: '/v1/sandbox/clock', body: { advanceSeconds: '{{advanceSeconds}}' } };
    assert.deepEqual(describedOperation({ operations: { shiftClock: shift } }, 'shiftClock'), shift);
  });
});
