/**
 * The audit of recorded traffic: a HAR between a TPP (or several) and a bank, read entry by entry and judged
 * on both sides as if it were happening (signatures, headers, bodies, statuses and codes, the PSU's
 * redirects, the stateful rules in order). Memory stays flat whatever the file's size: one entry at a time
 * is held, and the judges keep bounded state.
 *
 * The file's marks (a request broken on purpose, a 5xx asked for) excuse an entry only when this
 * installation sealed them (lib/har: markStandingOf); the others are ignored, and counted, so that neither
 * side can excuse its own traffic.
 */
import { exchangeOfEntry, markStandingOf, readHarEntries } from '../har/index.js';
import { TrafficJudging, type TrafficJudgingOptions } from './judging.js';

export interface AuditResult {
  judging: TrafficJudging;
  entries: number;
  /** Entries whose marks this installation sealed (obeyed), and entries whose marks it did not (ignored). */
  marks: { verified: number; unverified: number };
  startedAt: Date;
  finishedAt: Date;
}

export async function auditHar(harFile: string, options: Omit<TrafficJudgingOptions, 'judgeBank'>): Promise<AuditResult> {
  const startedAt = new Date();
  const judging = new TrafficJudging({ ...options, judgeBank: true });
  const marks = { verified: 0, unverified: 0 };
  let entries = 0;
  for await (const entry of readHarEntries(harFile)) {
    const exchange = exchangeOfEntry(entry, entries);
    const standing = markStandingOf(entry);
    if (standing !== 'none') marks[standing] += 1;
    judging.observe(exchange);
    entries += 1;
  }
  judging.finish();
  return { judging, entries, marks, startedAt, finishedAt: new Date() };
}
