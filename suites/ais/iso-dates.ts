/**
 * Dates a scenario orders or sends back in a query must be written as the specification writes them,
 * YYYY-MM-DD (FMT-05, judged on every answer by its schema): dates written otherwise cannot be placed in a
 * period, so what rests on them is not evaluated.
 */
import { isIsoDate } from '../../lib/fixtures/index.js';

/** The dates given (absent ones left out) that are no ISO 8601 calendar date. */
export function notIsoDates(dates: readonly (string | undefined)[]): string[] {
  return dates.filter((date): date is string => date !== undefined && date !== '' && !isIsoDate(date));
}
