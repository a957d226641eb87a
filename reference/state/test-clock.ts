// The bank's test clock. Every notion of "now" in the bank (Date header check, SCA
// session expiry, consent age, balance dates) comes from here, so a test can move
// time instead of waiting for it.

export type ClockMode = 'system' | 'frozen' | 'offset';

export class TestClock {
  private mode: ClockMode = 'system';
  private frozenAt = 0;
  private offsetMs = 0;

  now(): Date {
    switch (this.mode) {
      case 'frozen':
        return new Date(this.frozenAt);
      case 'offset':
        return new Date(Date.now() + this.offsetMs);
      default:
        return new Date();
    }
  }

  freeze(at: Date): void {
    this.mode = 'frozen';
    this.frozenAt = at.getTime();
  }

  shift(offsetSeconds: number): void {
    this.mode = 'offset';
    this.offsetMs = offsetSeconds * 1000;
  }

  reset(): void {
    this.mode = 'system';
    this.offsetMs = 0;
  }

  describe(): { now: string; mode: ClockMode } {
    return { now: this.now().toISOString(), mode: this.mode };
  }
}
