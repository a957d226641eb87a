/**
 * The Playwright matcher toMatchSchema, called directly with a matcher state: plain values, TppResponse-
 * like objects (sync json()), Playwright-like responses (async json()), non-JSON bodies, `.not`, the
 * h2spec-style message, and warnings sent to the sink instead of failing.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { ExpectMatcherState } from '@playwright/test';
import { schemaMatchers, setWarningSink } from '../../lib/validate/matchers.js';
import type { WarningSink } from '../../lib/validate/matchers.js';
import type { SchemaName } from '../../lib/validate/index.js';
import { EXAMPLES } from './fixtures/schema-examples.js';

const state = (isNot = false): ExpectMatcherState => ({ isNot, promise: '', timeout: 5000 }) as unknown as ExpectMatcherState;
const match = (received: unknown, name: string, isNot = false) =>
  schemaMatchers.toMatchSchema.call(state(isNot), received, name as SchemaName);

function tppResponse(bodyText: string): { status: number; headers: Record<string, string>; bodyText: string; json<T>(): T } {
  return {
    status: 201,
    headers: { 'content-type': 'application/json' },
    bodyText,
    json<T>(): T {
      return JSON.parse(bodyText) as T;
    },
  };
}

let warnings: string[] = [];
let previous: WarningSink | undefined;
beforeEach(() => {
  warnings = [];
  previous = setWarningSink((d) => warnings.push(d));
});
afterEach(() => {
  if (previous) setWarningSink(previous);
});

describe('toMatchSchema', () => {
  it('passes on a plain valid value', async () => {
    const result = await match(EXAMPLES.PaymentInitiationResponse, 'PaymentInitiationResponse');
    assert.equal(result.pass, true);
    assert.equal(result.name, 'toMatchSchema');
  });

  it('reads the body of a TppResponse (sync json)', async () => {
    const result = await match(tppResponse(JSON.stringify(EXAMPLES.AccountList)), 'AccountList');
    assert.equal(result.pass, true);
  });

  it('reads the body of a Playwright APIResponse (async json)', async () => {
    const response = { json: () => Promise.resolve(EXAMPLES.ErrorBody), text: () => Promise.resolve(JSON.stringify(EXAMPLES.ErrorBody)) };
    assert.equal((await match(response, 'ErrorBody')).pass, true);
  });

  it('reads redirect query parameters given as URLSearchParams', async () => {
    const query = new URLSearchParams('psu-id=3dc3d5b3-7023-4848-9853-f5400a64e80f&tpp-session-id=s-1&context=PRIVATE');
    assert.equal((await match(query, 'RedirectSuccessQuery')).pass, true);
  });

  it('fails clearly on a body that is not JSON', async () => {
    const result = await match(tppResponse('<html>Bad gateway</html>'), 'ErrorBody');
    assert.equal(result.pass, false);
    const message = result.message();
    assert.match(message, /^Expected: a JSON body matching schema ErrorBody\nActual: {3}the body is not JSON/);
    assert.match(message, /<html>Bad gateway<\/html>/);
  });

  it('fails on an empty body, saying so', async () => {
    const result = await match(tppResponse(''), 'ErrorBody');
    assert.equal(result.pass, false);
    assert.match(result.message(), /the body is empty/);
  });

  it('prints Expected (rules with requirement ids) and Actual (values found), h2spec style', async () => {
    const body = { ...(EXAMPLES.PaymentInitiationResponse as object), transactionStatus: 'ACCC', psuMessage: 'x'.repeat(513) };
    const result = await match(tppResponse(JSON.stringify(body)), 'PaymentInitiationResponse');
    assert.equal(result.pass, false);
    assert.equal(
      result.message(),
      [
        'Expected: a body matching schema PaymentInitiationResponse',
        '  /transactionStatus: one of ACCP, ACSC, ACSP, ACTC, ACWC, ACWP, RCVD, PDNG, RJCT, CANC, PART (PAY-37, STA-05)',
        '  /psuMessage: at most 512 characters (PAY-42, LIM-16)',
        'Actual:',
        '  /transactionStatus = "ACCC"',
        `  /psuMessage = "${'x'.repeat(58)}…`,
      ].join('\n'),
    );
  });

  it('sends unknown properties to the warnings, and passes', async () => {
    const result = await match({ transactionStatus: 'ACSC', extra: 1 }, 'PaymentStatus');
    assert.equal(result.pass, true);
    assert.deepEqual(warnings, ['PaymentStatus: /extra: a property the schema PaymentStatus does not describe (warning), found 1']);
  });

  it('supports .not', async () => {
    const result = await match({ transactionStatus: 'nope' }, 'PaymentStatus', true);
    assert.equal(result.pass, false);
    const passing = await match({ transactionStatus: 'ACSC' }, 'PaymentStatus', true);
    assert.equal(passing.pass, true);
    assert.match(passing.message(), /NOT matching schema PaymentStatus/);
  });

  it('refuses an unknown schema name', async () => {
    const result = await match({}, 'NoSuchSchema');
    assert.equal(result.pass, false);
    assert.match(result.message(), /a schema name, one of .*PaymentInitiationRequest/);
  });

  it('does not throw outside a Playwright test with the default sink', async () => {
    setWarningSink(previous as WarningSink);
    const result = await match({ transactionStatus: 'ACSC', extra: 1 }, 'PaymentStatus');
    assert.equal(result.pass, true);
  });
});
