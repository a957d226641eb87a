/**
 * Constraints of Berlin Group shapes the requirement catalogue (lib/spec/requirements.ts) has no id for
 * yet. They are annotated `x-requirement-pending` (a note, never an invented id): an error they raise
 * names no requirement and says so. Each is listed in the report to the catalogue's owner.
 */
export const PENDING = {
  periodic: 'periodic payment body (Berlin Group 1.3: startDate, endDate, executionRule, frequency, dayOfExecution)',
  bulk: 'bulk payment body (Berlin Group 1.3: batchBookingPreferred, debtorAccount, requestedExecutionTime, payments)',
} as const;

/** The annotation: `{ 'x-requirement-pending': note }`. */
export function pending(note: string): { 'x-requirement-pending': string } {
  return { 'x-requirement-pending': note };
}
