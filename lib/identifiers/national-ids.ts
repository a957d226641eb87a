/**
 * Norwegian national identity numbers (fødselsnummer, and D-numbers): birth date DDMMYY, a 3-digit
 * individual number, and two mod-11 check digits.
 */
import { randomInt } from 'node:crypto';
import { NorwegianId } from 'norwegian-national-id-validator';
import { mod11CheckDigit } from './mod11.js';

const FIRST_CHECK_WEIGHTS = [3, 7, 6, 1, 8, 9, 4, 5, 2];
const SECOND_CHECK_WEIGHTS = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];

/**
 * The form X-PSU-IDENTITY takes: 11 digits. Its check digits are not demanded (HDR-17): a sandbox logs in
 * with mocked numbers, which need not carry valid ones.
 */
export function hasNationalIdForm(value: string): boolean {
  return /^\d{11}$/.test(value);
}

/** A fødselsnummer or D-number with both check digits right (H-numbers and FH-numbers are not national identity numbers). */
export function isNorwegianNationalId(value: string): boolean {
  if (!hasNationalIdForm(value)) return false;
  const id = NorwegianId(value);
  return id.isValid() && (id.isBirthNumber() || id.isDNumber());
}

/** The 9 digits of birth date and individual number with their two check digits, or undefined when either would be 10. */
export function withNationalIdCheckDigits(first9: string): string | undefined {
  const k1 = mod11CheckDigit(first9, FIRST_CHECK_WEIGHTS);
  if (k1 === undefined) return undefined;
  const k2 = mod11CheckDigit(`${first9}${k1}`, SECOND_CHECK_WEIGHTS);
  return k2 === undefined ? undefined : `${first9}${k1}${k2}`;
}

/** The birth date and individual number of someone born 1900-1999 (individual numbers 000-499 are that century's). */
export function nationalIdDigitsOf(born: Date, individualNumber: number): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(born.getUTCDate())}${two(born.getUTCMonth() + 1)}${two(born.getUTCFullYear() % 100)}${String(individualNumber).padStart(3, '0')}`;
}

/** A valid national identity number of someone born 1950-1999, drawn at random. */
export function randomNationalId(): string {
  for (;;) {
    const born = new Date(Date.UTC(1950 + randomInt(50), randomInt(12), 1 + randomInt(28)));
    const id = withNationalIdCheckDigits(nationalIdDigitsOf(born, randomInt(500)));
    if (id !== undefined) return id;
  }
}
