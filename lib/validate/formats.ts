/**
 * The data formats of the specification, as plain predicates (used by the AJV formats and keywords in
 * ./ajv.ts, and usable on their own by the suites and the reference bank).
 *
 * Decisions, each documented in lib/validate/README.md:
 * - iso-date-time: the specification's form `YYYY-MM-DDThh:mm:ss+00:00` read as RFC 3339 (catalogue
 *   FMT-06): seconds and an offset are required; fractional seconds are allowed and `Z` counts as
 *   `+00:00`; `T` and `Z` in upper case (ISO 8601). Calendar values are checked (no 2024-02-30, no
 *   24:00:00, no offset +25:00).
 * - amount (catalogue PAY-05 to PAY-09, PAY-47): the Berlin Group form (a dot separator, an optional
 *   leading minus, no exponent, comma or space); at most 18 digits in total, leading zeros of the
 *   integer part not counted (precision 18), whatever the sign; at most 5 fraction digits (scale 5); no
 *   more fraction digits than the currency's ISO 4217 minor units. Fewer are not refused ("10" and
 *   "10.5" for EUR): the specification's "must match" can be read either way (PAY-47), and a schema
 *   error is a failure. The `exact` mode (fraction digits equal to the minor units: "10.00" for EUR, "10"
 *   for JPY) is available for the strict reading. A zero or negative payment amount is left to the
 *   SHOULD-level check PAY-48 (POSITIVE_AMOUNT_PATTERN), not to the schemas.
 * - uuid: RFC 4122 textual form, either case, with the RFC 4122 variant bits and a version 1 to 8.
 * - iban, bic, norwegian-national-id: the identifiers' own predicates, in lib/identifiers (shared with the
 *   reference bank, the fixtures and the suites).
 */
import { isCountry, isCurrency, minorUnitsOf } from '../spec/codelists.js';

export {
  AMOUNT_PRECISION,
  AMOUNT_PRECISION_PATTERN,
  AMOUNT_SCALE,
  AMOUNT_SCALE_PATTERN,
  AMOUNT_SYNTAX_PATTERN,
  BIC_PATTERN,
  IBAN_PATTERN,
  POSITIVE_AMOUNT_PATTERN,
} from '../spec/patterns.js';
import { AMOUNT_PRECISION, AMOUNT_PRECISION_PATTERN, AMOUNT_SCALE, AMOUNT_SCALE_PATTERN, AMOUNT_SYNTAX_PATTERN } from '../spec/patterns.js';

const amountSyntaxRe = new RegExp(AMOUNT_SYNTAX_PATTERN);
const amountPrecisionRe = new RegExp(AMOUNT_PRECISION_PATTERN);
const amountScaleRe = new RegExp(AMOUNT_SCALE_PATTERN);
const dateRe = /^(\d{4})-(\d{2})-(\d{2})$/;
const dateTimeRe = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-](\d{2}):(\d{2}))$/;
const uuidRe = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$/;

export function isCurrencyCode(value: string): boolean {
  return isCurrency(value);
}

export function isCountryCode(value: string): boolean {
  return isCountry(value);
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function validYmd(y: string, m: string, d: string): boolean {
  const year = Number(y);
  const month = Number(m);
  const day = Number(d);
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

function validHms(h: string, mi: string, s: string): boolean {
  return Number(h) <= 23 && Number(mi) <= 59 && Number(s) <= 59;
}

function validOffset(h: string, m: string): boolean {
  return Number(h) <= 23 && Number(m) <= 59;
}

/** ISO 8601 calendar date `YYYY-MM-DD`. */
export function isIsoDate(value: string): boolean {
  const m = dateRe.exec(value);
  return m !== null && validYmd(m[1] ?? '', m[2] ?? '', m[3] ?? '');
}

/** Date-time `YYYY-MM-DDThh:mm:ss[.fraction](Z|+hh:mm|-hh:mm)`: RFC 3339, upper-case T and Z. */
export function isIsoDateTime(value: string): boolean {
  const m = dateTimeRe.exec(value);
  if (m === null) return false;
  const [, y, mo, d, h, mi, s, , , oh, om] = m;
  if (!(validYmd(y ?? '', mo ?? '', d ?? '') && validHms(h ?? '', mi ?? '', s ?? ''))) return false;
  return oh === undefined || validOffset(oh, om ?? '');
}

export function isUuid(value: string): boolean {
  return uuidRe.test(value);
}

export type AmountMode = 'at-most' | 'exact';

export type AmountIssue =
  | { rule: 'amount-syntax'; message: string }
  | { rule: 'amount-precision'; message: string }
  | { rule: 'amount-scale'; message: string }
  | { rule: 'amount-minor-units'; message: string; fractionDigits: number; minorUnits: number };

/** Number of digits after the decimal separator of an amount string ("10" → 0, "10.50" → 2). */
export function fractionDigitsOf(amount: string): number {
  const dot = amount.indexOf('.');
  return dot < 0 ? 0 : amount.length - dot - 1;
}

/**
 * Checks an amount string against the specification's amount rule. Returns null when the amount is
 * fine, or the first rule it breaks. An unknown currency is not this rule's business (the
 * currency-code format reports it), so only the syntax and precision are checked then.
 */
export function checkAmount(amount: string, currency: unknown, mode: AmountMode = 'at-most'): AmountIssue | null {
  if (!amountSyntaxRe.test(amount)) {
    return { rule: 'amount-syntax', message: 'a decimal number with a dot as separator and an optional leading minus' };
  }
  if (!amountPrecisionRe.test(amount)) {
    return { rule: 'amount-precision', message: `at most ${AMOUNT_PRECISION} digits (precision ${AMOUNT_PRECISION})` };
  }
  if (!amountScaleRe.test(amount)) {
    return { rule: 'amount-scale', message: `at most ${AMOUNT_SCALE} fraction digits (scale ${AMOUNT_SCALE})` };
  }
  if (typeof currency !== 'string') return null;
  const minorUnits = minorUnitsOf(currency);
  if (minorUnits === undefined) return null;
  const fractionDigits = fractionDigitsOf(amount);
  const broken = mode === 'exact' ? fractionDigits !== minorUnits : fractionDigits > minorUnits;
  if (broken) {
    const expected = mode === 'exact' ? `exactly ${minorUnits}` : `at most ${minorUnits}`;
    return {
      rule: 'amount-minor-units',
      message: `${expected} fraction digits for ${currency} (ISO 4217 minor units ${minorUnits})`,
      fractionDigits,
      minorUnits,
    };
  }
  return null;
}
