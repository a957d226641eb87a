/**
 * The audit of recorded traffic: a HAR between a TPP (or several) and a bank, read entry by entry and judged
 * on both sides as if it were happening (signatures, headers, bodies, statuses and codes, the PSU's
 * redirects, the stateful rules in order). Memory stays flat whatever the file's size: one entry at a time
 * is held, and the judges keep bounded state.
 */
import { exchangeOfEntry, readHarEntries } from '../har/index.js';
import { TrafficJudging, type TrafficJudgingOptions } from './judging.js';

export interface AuditResult {
  judging: TrafficJudging;
  entries: number;
  startedAt: Date;
  finishedAt: Date;
}

export async function auditHar(harFile: string, options: Omit<TrafficJudgingOptions, 'judgeBank'>): Promise<AuditResult> {
  const startedAt = new Date();
  const judging = new TrafficJudging({ ...options, judgeBank: true });
  let entries = 0;
  for await (const entry of readHarEntries(harFile)) {
    judging.observe(exchangeOfEntry(entry, entries));
    entries += 1;
  }
  judging.finish();
  return { judging, entries, startedAt, finishedAt: new Date() };
}
