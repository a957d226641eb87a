/**
 * AIS-01: transactions are grouped as booked and pending. What a report's groups must be, as the Berlin Group
 * accountReport has them: each group present an array, no entries under another name; a group with no entry
 * may be left out (accountReport requires only _links).
 */
/** The groups of an account report: its entries are in these lists only. */
const REPORT_GROUPS = ['booked', 'pending', 'information'];

/** Whether `report` (the `transactions` object of an answer) groups its entries so; with what to print when not. */
export function groupedAsBookedAndPending(report: unknown): { passed: boolean; expected: string; actual: string } {
  const groups = typeof report === 'object' && report !== null && !Array.isArray(report) ? (report as Record<string, unknown>) : undefined;
  const outside = Object.entries(groups ?? {})
    .filter(([name, value]) => Array.isArray(value) && !REPORT_GROUPS.includes(name))
    .map(([name]) => name);
  const passed =
    groups !== undefined &&
    REPORT_GROUPS.every((name) => groups[name] === undefined || Array.isArray(groups[name])) &&
    outside.length === 0;
  return {
    passed,
    expected: 'transactions grouped as booked and pending: each group present an array, no entries under another name',
    actual: groups === undefined ? 'no transactions object' : `groups ${Object.keys(groups).join(', ') || '(none)'}`,
  };
}
