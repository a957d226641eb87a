/**
 * The transactions of two reads are matched by transactionId, which holds only while a booked transaction
 * keeps its id from one read to the next (AIS-03, judged in END-13.a). A scenario that compares reads first
 * reads the same again and sees whether it does; otherwise what it compares is not evaluated.
 */

/** Whether every transactionId of the first read comes back in the second (one booked in between only adds). */
export function idsKept(first: readonly { transactionId?: string }[], again: readonly { transactionId?: string }[]): boolean {
  const ids = new Set(again.map((t) => t.transactionId));
  return first.every((t) => t.transactionId === undefined || ids.has(t.transactionId));
}

export const IDS_CHANGE = 'booked transactions come back under other transactionIds on a second read (AIS-03): two reads cannot be matched';
