// Limits on reads the TPP makes without the PSU (no PSU-IP-Address): at most 4
// balance reads and 4 transaction reads per account in 24 hours, counted per TPP
// (a TPP's quota is its own) and kind, over a sliding window of the bank's clock.
import { DAY_MS } from '../format.js';
import { defineFault, type Faults } from '../faults.js';

const quotaNeverResets = defineFault('unattended-quota-never-resets', {
  description: 'reads without PSU-IP-Address refused once the quota is used up stay refused a day later: the 24-hour window never moves on',
  breaks: ['LIM-04'],
});

export const UNATTENDED_READS_PER_DAY = 4;
/** How far back a transaction read without the PSU reaches. */
export const UNATTENDED_HISTORY_DAYS = 90;

export type UnattendedRead = 'balances' | 'transactions';

export class UnattendedReads {
  private readonly readsAt = new Map<string, number[]>();

  constructor(private readonly faults: Faults) {}

  /** Counts a read; false when the quota of the last 24 hours is used up (the read is then refused, not counted). */
  take(tppId: string, accountId: string, kind: UnattendedRead, now: Date): boolean {
    const key = `${tppId}\n${accountId}\n${kind}`;
    const window = this.faults.on(quotaNeverResets, tppId) ? Number.POSITIVE_INFINITY : DAY_MS;
    const recent = (this.readsAt.get(key) ?? []).filter((at) => now.getTime() - at < window);
    const allowed = recent.length < UNATTENDED_READS_PER_DAY;
    if (allowed) recent.push(now.getTime());
    this.readsAt.set(key, recent);
    return allowed;
  }

  clear(): void {
    this.readsAt.clear();
  }
}
