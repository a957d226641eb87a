// Limits on reads the TPP makes without the PSU (no PSU-IP-Address): at most 4
// balance reads and 4 transaction reads per account in 24 hours, counted per TPP
// (a TPP's quota is its own) and kind, over a sliding window of the bank's clock.
import { DAY_MS } from '../serialisation.js';

export const UNATTENDED_READS_PER_DAY = 4;
/** How far back a transaction read without the PSU reaches. */
export const UNATTENDED_HISTORY_DAYS = 90;

export type UnattendedRead = 'balances' | 'transactions';

export class UnattendedReads {
  private readonly readsAt = new Map<string, number[]>();

  /**
   * Counts a read; false when the quota of the last 24 hours is used up (the read is then refused, not
   * counted). `windowNeverMoves`: reads older than a day still count.
   */
  take(tppId: string, accountId: string, kind: UnattendedRead, now: Date, windowNeverMoves: () => boolean = () => false): boolean {
    const key = `${tppId}\n${accountId}\n${kind}`;
    const reads = this.readsAt.get(key) ?? [];
    const old = reads.some((at) => now.getTime() - at >= DAY_MS);
    const recent = old && !windowNeverMoves() ? reads.filter((at) => now.getTime() - at < DAY_MS) : reads;
    const allowed = recent.length < UNATTENDED_READS_PER_DAY;
    if (allowed) recent.push(now.getTime());
    this.readsAt.set(key, recent);
    return allowed;
  }

  clear(): void {
    this.readsAt.clear();
  }
}
