/**
 * Authentication 4 and Limits: the Date header must be correct within 60 seconds. The boundary cases need
 * the target's clock frozen at a known second; without clock control they are NOT_TESTABLE rather than
 * flaky (a request's Date has one-second resolution and the network adds delay).
 */
import { expect, needsCapability, notTestable, req, test, writesToTarget } from '../../lib/fixtures/index.js';
import type { TppClient } from '../../lib/tpp/index.js';

/** How far the target's clock is from ours, read from the Date header of one of its responses. */
async function targetClockOffsetMs(tpp: TppClient, path: string): Promise<number> {
  const sentAt = Date.now();
  const response = await tpp.get(path);
  const date = Date.parse(response.headers['date'] ?? '');
  if (Number.isNaN(date)) notTestable('the target sends no Date response header to read its clock from');
  // The header is truncated to the second: its middle is the best estimate.
  return date + 500 - (sentAt + Date.now()) / 2;
}

// The clock is the target's, shared by every test: freezing it must not overlap with another freeze, so
// these tests run one after another in one worker ('default' mode: in order, but a failure skips nothing).
test.describe.configure({ mode: 'default' });

const CASES = [
  { skewSeconds: -61, accepted: false },
  { skewSeconds: 61, accepted: false },
  { skewSeconds: -60, accepted: true },
  { skewSeconds: 60, accepted: true },
  { skewSeconds: -59, accepted: true },
  { skewSeconds: 59, accepted: true },
] as const;

test.describe('Authentication 4: Date within 60 s of the bank clock', () => {
  for (const { skewSeconds, accepted } of CASES) {
    const when = `${Math.abs(skewSeconds)} s ${skewSeconds < 0 ? 'in the past' : 'in the future'}`;
    const title = accepted ? `a Date ${when} is accepted` : `a Date ${when} gets 400`;
    test(title, req('SIG-12', 'LIM-01'), async ({ target, newTpp, sandboxClock, paths }) => {
      needsCapability(target, 'clock-control');
      writesToTarget(target, 'moves the sandbox clock');
      const bankNow = new Date(Math.floor(Date.now() / 1000) * 1000);
      await sandboxClock.freeze(bankNow);
      const tpp = newTpp({ clock: { now: () => new Date(bankNow.getTime() + skewSeconds * 1000) } });
      const response = await tpp.get(paths('accounts'));
      if (accepted) expect(response).toHaveStatus([200, 401]);
      else expect(response).toBeErrorResponse({ status: 400 });
    });
  }

  // Without clock control: the target's clock read from its own Date response header (one-second resolution),
  // and a 5 s margin on each side of the limit, so network delay cannot decide the outcome.
  for (const { skewSeconds, accepted } of [
    { skewSeconds: -65, accepted: false },
    { skewSeconds: 65, accepted: false },
    { skewSeconds: -55, accepted: true },
    { skewSeconds: 55, accepted: true },
  ]) {
    const when = `${Math.abs(skewSeconds)} s ${skewSeconds < 0 ? 'behind' : 'ahead of'} the target's clock`;
    test(accepted ? `a Date ${when} is accepted` : `a Date ${when} gets 400`, req('SIG-12', 'LIM-01'), async ({ tpp, newTpp, paths }) => {
      const offsetMs = await targetClockOffsetMs(tpp, paths('accounts'));
      const skewed = newTpp({ clock: { now: () => new Date(Date.now() + offsetMs + skewSeconds * 1000) } });
      const response = await skewed.get(paths('accounts'));
      if (accepted) expect(response).toHaveStatus([200, 401]);
      else expect(response).toBeErrorResponse({ status: 400 });
    });
  }

  // Far outside the window, so these hold without clock control and against any target.
  test('a Date 10 minutes in the past gets 400', req('SIG-12'), async ({ newTpp, paths }) => {
    const response = await newTpp({ clockSkewSeconds: -600 }).get(paths('accounts'));
    expect(response).toBeErrorResponse({ status: 400 });
  });

  test('the 400 for a Date outside the window carries code TIMESTAMP_INVALID', req('SIG-13'), async ({ newTpp, paths }) => {
    const response = await newTpp({ clockSkewSeconds: 600 }).get(paths('accounts'));
    expect(response).toBeErrorResponse({ status: 400, codes: ['TIMESTAMP_INVALID'] });
  });
});
