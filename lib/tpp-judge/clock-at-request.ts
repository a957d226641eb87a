/**
 * The bank's clock at a request, as the rules measure against it (TPP-07, TPP-19, TPP-43, TPP-44, TPP-48).
 *
 * A sandbox may keep a clock per TPP (moved, frozen or reset by its sandbox operations) and date each answer
 * by the clock of the world it answered from: the TPP's own once the TPP is known; the real one for a request
 * refused before that (its signature failed, a header unreadable); the new one for an operation that moved or
 * reset the clock. So what an answer's Date says of the TPP's clock is learnt from the answers given in its
 * world, and an answer dated on the real time while the TPP's clock stands elsewhere is read as the world of
 * no one's: its request came in on the TPP's clock, which the learnt offset gives.
 */
import { bankClockOf, type BankClockReading, type ObservedExchange } from './observed-exchange.js';
import type { ApiCall } from './rule.js';
import type { ClockOffset, TppState } from './state.js';

/** How far two clocks may be apart and still be taken for one (two hosts' clocks, a header's rounding). */
const SAME_CLOCK_MS = 2_000;
/** The resolution of a Date header: the clock it was read from stood up to this much later. */
const DATE_RESOLUTION_MS = 1_000;

/** The requests that may move or reset the bank's clock: their answer is dated on the clock they set. */
export function mayMoveClock(call: ApiCall): boolean {
  const name = call.path?.name;
  return call.method !== 'GET' && (name === 'sandboxClock' || name === 'sandboxInitialize');
}

/** When the request reached the bank, by the recorder's clock: between its start and its answer. */
function recorderClockOf(exchange: ObservedExchange): BankClockReading {
  const start = exchange.startedAt.getTime();
  return { earliest: start, latest: start + exchange.durationMs };
}

/** The bank clock a TPP's learnt offset gives at this exchange. */
function predicted(exchange: ObservedExchange, offset: ClockOffset): BankClockReading {
  const recorder = recorderClockOf(exchange);
  return { earliest: recorder.earliest + offset.min, latest: recorder.latest + offset.max };
}

/** Whether a reading is of the real time (the recorder's clock, give or take two hosts' difference). */
function isRealTime(reading: BankClockReading, exchange: ObservedExchange): boolean {
  const recorder = recorderClockOf(exchange);
  return reading.latest + SAME_CLOCK_MS >= recorder.earliest && reading.earliest - SAME_CLOCK_MS <= recorder.latest;
}

function isMoved(offset: ClockOffset): boolean {
  return offset.min > SAME_CLOCK_MS || offset.max < -SAME_CLOCK_MS;
}

/** The bank's clock at a request, and whether it is the exchange's own reading (then it shows where the TPP's clock stands). */
export interface ClockAtRequest {
  clock: BankClockReading | undefined;
  own: boolean;
}

/** The bank's clock when it received the request (undefined when the traffic cannot tell). */
export function bankClockAt(exchange: ObservedExchange, call: ApiCall, tpp: TppState): ClockAtRequest {
  const offset = tpp.clockOffset;
  // A clock moved or reset by this request dates its answer on the new clock; the sandbox's own reading is taken before.
  if (mayMoveClock(call) && exchange.bankTime === undefined)
    return { clock: offset === undefined ? undefined : predicted(exchange, offset), own: false };
  const own = bankClockOf(exchange);
  if (own !== undefined && offset !== undefined && isMoved(offset) && isRealTime(own, exchange))
    return { clock: predicted(exchange, offset), own: false };
  return { clock: own, own: own !== undefined };
}

/** What the exchange shows of the TPP's clock, learnt after the rules judged it. */
export function learnBankClock(exchange: ObservedExchange, call: ApiCall, tpp: TppState, at: ClockAtRequest): void {
  if (mayMoveClock(call)) {
    // The answer of a move that took is on the new clock; a move refused left the clock where it was.
    const status = exchange.response?.status ?? 0;
    if (status < 200 || status > 299) return;
    const after = bankClockOf({ ...exchange, bankTime: undefined });
    tpp.clockOffset = after === undefined ? undefined : offsetOf(after, exchange);
    return;
  }
  // Learnt only from a reading taken for the TPP's own clock, never from a date of the world of no one.
  if (at.own && at.clock !== undefined) tpp.clockOffset = offsetOf(at.clock, exchange);
}

function offsetOf(reading: BankClockReading, exchange: ObservedExchange): ClockOffset {
  const recorder = recorderClockOf(exchange);
  return { min: reading.earliest - recorder.latest, max: reading.latest + DATE_RESOLUTION_MS - recorder.earliest };
}
