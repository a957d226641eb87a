// Decimal amounts as scaled bigints (5 fraction digits, the contract scale), formatting with
// the currency's minor units, and the sandbox's fixed exchange rates.

import { minorUnits } from './codes.js';

export const SCALE = 5;
const FACTOR = 10n ** BigInt(SCALE);

interface ParsedAmount {
  value: bigint; // scaled by 10^5
  fractionDigits: number;
  totalDigits: number;
}

/** Parses a decimal string "123", "-12.50". Returns undefined when not a plain decimal. */
export function parseDecimal(text: string): ParsedAmount | undefined {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) return undefined;
  const [, sign = '', intPart = '', frac = ''] = m;
  const fracScaled = (frac + '00000').slice(0, SCALE);
  let value = BigInt(intPart) * FACTOR + BigInt(fracScaled);
  if (sign === '-') value = -value;
  return { value, fractionDigits: frac.length, totalDigits: intPart.replace(/^0+(?=\d)/, '').length + frac.length };
}

/** Formats a scaled amount with the currency's minor units (rounding half away from zero). */
export function formatAmount(value: bigint, currency: string): string {
  const units = Math.min(minorUnits(currency), SCALE);
  const drop = 10n ** BigInt(SCALE - units);
  const neg = value < 0n;
  let abs = neg ? -value : value;
  abs = (abs + drop / 2n) / drop; // rounded to `units` digits
  const base = 10n ** BigInt(units);
  const intPart = abs / base;
  const frac = abs % base;
  const s = units > 0 ? `${intPart.toString()}.${frac.toString().padStart(units, '0')}` : intPart.toString();
  return neg && abs !== 0n ? '-' + s : s;
}

/** Accepts an amount given as a JSON string or number (mock data); returns the scaled value. */
export function amountFromJson(v: unknown): bigint | undefined {
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return undefined;
    return parseDecimal(v.toFixed(SCALE))?.value;
  }
  if (typeof v === 'string') {
    const p = parseDecimal(v.trim());
    if (!p || p.fractionDigits > SCALE) return undefined;
    return p.value;
  }
  return undefined;
}

// Sandbox exchange rates: value of one unit in NOK. Unknown currencies count 1:1 with NOK.
const NOK_RATES: Record<string, number> = {
  NOK: 1,
  EUR: 11.5,
  USD: 10.8,
  GBP: 13.6,
  SEK: 1.0,
  DKK: 1.54,
  CHF: 12.3,
  JPY: 0.072,
  PLN: 2.65,
  ISK: 0.078,
  CAD: 7.8,
  AUD: 7.1,
};

export function convert(value: bigint, from: string, to: string): bigint {
  if (from === to) return value;
  const rFrom = NOK_RATES[from] ?? 1;
  const rTo = NOK_RATES[to] ?? 1;
  // integer arithmetic on rates with 6 decimals
  const a = BigInt(Math.round(rFrom * 1e6));
  const b = BigInt(Math.round(rTo * 1e6));
  return (value * a) / b;
}

export function scaled(units: number): bigint {
  return BigInt(Math.round(units * 100)) * (FACTOR / 100n);
}
