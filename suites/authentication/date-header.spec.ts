/**
 * Authentication 4 and Limits: the Date header must be correct within 60 seconds. The boundary cases freeze
 * the target's clock at a known second (capability clock-control; they change global state, so they run in
 * the serial project), or, where the target judges Dates by the real time, take the real time to the second;
 * without clock control they are NOT_TESTABLE rather than flaky. Cases with a 5 s margin read the
 * target's clock from its Date response header and need nothing.
 */
import {
  notTestable,
  scenario,
  test,
  type Check,
  type ScenarioFixtures,
  type TppClient,
  type TppResponse,
} from '../../lib/fixtures/index.js';

/** How far the target's clock is from ours, read from the Date header of one of its responses. */
async function targetClockOffsetMs(tpp: TppClient, path: string): Promise<number> {
  const sentAt = Date.now();
  const response = await tpp.get(path);
  const date = Date.parse(response.headers['date'] ?? '');
  if (Number.isNaN(date)) notTestable('the target sends no Date response header to read its clock from');
  // The header is truncated to the second: its middle is the best estimate.
  return date + 500 - (sentAt + Date.now()) / 2;
}

type Judge = (check: Check, response: TppResponse) => void;

/** Outside the window: refused (SIG-12, LIM-01: a 4xx; served or asked for SCA is taken), with a code that names the problem (SIG-13). */
const refused: Judge = (check, response) => {
  const status = check.refused('SIG-12', response);
  check.refused('LIM-01', response);
  check.code('SIG-13', response, { after: status });
};
/** Inside the window: accepted (LIM-01). */
const accepted: Judge = (check, response) => check.accepted('LIM-01', response);

const when = (seconds: number, past: string, future: string) => `${Math.abs(seconds)} s ${seconds < 0 ? past : future}`;

/** What a request behind the real time may take to reach the bank and be judged there. */
const NETWORK_SECONDS = 0.5;

/**
 * A Date `skewSeconds` off the real time, for a target that judges Dates by it (sandbox.dates: real-time), which
 * no scenario can freeze: the header holds whole seconds, so the second is taken toward the real time for a Date
 * inside the window (half a second more for the network on one behind it) and away from it for one
 * outside: the deviation the bank measures is then at most the skew inside and beyond 60 s outside, whatever the
 * fraction of the second the request leaves in.
 */
function realTimeSkewed(skewSeconds: number, inside: boolean): Date {
  const at = Date.now() / 1000 + skewSeconds;
  const towardNow = skewSeconds < 0 ? Math.ceil(at + NETWORK_SECONDS) : Math.floor(at);
  const awayFromNow = skewSeconds < 0 ? Math.floor(at) : Math.ceil(at);
  return new Date((inside ? towardNow : awayFromNow) * 1000);
}

// The exact boundary on the clock that judges Dates: the target's own, frozen at a whole second, or the real time.
for (const [id, skewSeconds] of [
  ['SIG-12.a', -61],
  ['SIG-12.b', 61],
  ['LIM-01.a', -60],
  ['LIM-01.b', 60],
  ['LIM-01.c', -59],
  ['LIM-01.d', 59],
] as const) {
  const inside = Math.abs(skewSeconds) <= 60;
  test(
    ...scenario(
      id,
      `a Date ${when(skewSeconds, 'in the past', 'in the future')} is ${inside ? 'accepted' : 'refused'}`,
      { checks: inside ? ['LIM-01'] : ['SIG-12', 'LIM-01', 'SIG-13'], needs: ['clock-control'], globalState: 'freezes the target clock' },
      async ({ newTpp, sandboxClock, paths, check }: ScenarioFixtures) => {
        await sandboxClock.freeze(new Date(Math.floor(Date.now() / 1000) * 1000));
        // Frozen, the target's clock dates the scenario's requests (sandbox-fixtures.ts): the skew is exact.
        const tpp = sandboxClock.judgesDates
          ? newTpp({ clockSkewSeconds: skewSeconds })
          : newTpp({ clock: { now: () => realTimeSkewed(skewSeconds, inside) } });
        const response = await tpp.request({
          method: 'GET',
          path: paths('accounts'),
          ...(inside ? {} : { malformed: `a Date ${skewSeconds} s off` }),
        });
        (inside ? accepted : refused)(check, response);
      },
    ),
  );
}

// Without clock control: the target's clock read from its Date response header (one-second resolution), and
// a 5 s margin on each side of the limit, so network delay cannot decide the outcome.
for (const [id, skewSeconds] of [
  ['SIG-12.c', -65],
  ['SIG-12.d', 65],
  ['LIM-01.e', -55],
  ['LIM-01.f', 55],
] as const) {
  const inside = Math.abs(skewSeconds) <= 60;
  test(
    ...scenario(
      id,
      `a Date ${when(skewSeconds, "behind the target's clock", "ahead of the target's clock")} is ${inside ? 'accepted' : 'refused'}`,
      { checks: inside ? ['LIM-01'] : ['SIG-12', 'LIM-01', 'SIG-13'] },
      async ({ tpp, newTpp, paths, check }) => {
        const offsetMs = await targetClockOffsetMs(tpp, paths('accounts'));
        const skewed = newTpp({ clock: { now: () => new Date(Date.now() + offsetMs + skewSeconds * 1000) } });
        // The same read again, its scaRedirect not followed: only the Date is tried.
        const onPurpose = inside
          ? { deliberate: 'the read asked again without following its scaRedirect' }
          : { malformed: `a Date ${skewSeconds} s off` };
        const response = await skewed.request({ method: 'GET', path: paths('accounts'), ...onPurpose });
        (inside ? accepted : refused)(check, response);
      },
    ),
  );
}

// Far outside the window, so it holds without clock control and against any target.
test(
  ...scenario(
    'SIG-12.e',
    'a Date 10 minutes in the past is refused',
    { checks: ['SIG-12', 'SIG-13'] },
    async ({ newTpp, paths, check }) => {
      const response = await newTpp({ clockSkewSeconds: -600 }).request({
        method: 'GET',
        path: paths('accounts'),
        malformed: 'a Date 600 s in the past',
      });
      const status = check.refused('SIG-12', response);
      check.code('SIG-13', response, { after: status });
    },
  ),
);
