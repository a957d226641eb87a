// Serialisation rules of the specification: amounts as strings with the currency's
// minor units, dates as YYYY-MM-DD, date-times as YYYY-MM-DDThh:mm:ss+00:00.

export interface Amount {
  amount: string;
  currency: string;
}

/** All amounts of this bank are NOK (2 minor units), kept in øre. */
export function amount(amountMinor: number, currency: string): Amount {
  const abs = Math.abs(amountMinor);
  return { amount: `${amountMinor < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`, currency };
}

export function dateTime(date: Date): string {
  return `${date.toISOString().slice(0, 19)}+00:00`;
}

export function day(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export const DAY_MS = 86_400_000;
