// The TPP's notion of "now", for the Date header. Injectable so tests can
// sign at a chosen instant and suites can simulate a skewed TPP clock.
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock stopped at one instant. */
export function fixedClock(at: Date): Clock {
  return { now: () => new Date(at.getTime()) };
}
