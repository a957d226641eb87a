/**
 * Account identifiers: IBANs (ISO 13616, mod-97 check digits, via ibantools), Norwegian account numbers
 * (11 digits: bank code, account number, a mod-11 check digit; the BBAN of a Norwegian IBAN) and BICs.
 */
import { randomInt } from 'node:crypto';
import { composeIBAN, isValidBIC, isValidIBAN } from 'ibantools';
import { BIC_PATTERN, IBAN_MAX_LENGTH, IBAN_PATTERN } from '../spec/patterns.js';
import { mod11CheckDigit } from './mod11.js';

const ACCOUNT_NUMBER_WEIGHTS = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
const ibanRe = new RegExp(IBAN_PATTERN);
const bicRe = new RegExp(BIC_PATTERN);

/** IBAN in electronic form (no spaces, upper case, at most 34 characters), its country's structure and mod-97 check digits. */
export function isIban(value: string): boolean {
  return value.length <= IBAN_MAX_LENGTH && ibanRe.test(value) && isValidIBAN(value);
}

/** BIC (BICFI, ISO 9362): the Berlin Group pattern (8 or 11 characters, upper case) and a known country code. */
export function isBic(value: string): boolean {
  return bicRe.test(value) && isValidBIC(value);
}

/** The first 10 digits of a Norwegian account number and their check digit, or undefined when none exists. */
export function withAccountCheckDigit(first10: string): string | undefined {
  const check = mod11CheckDigit(first10, ACCOUNT_NUMBER_WEIGHTS);
  return check === undefined ? undefined : `${first10}${check}`;
}

/**
 * The first valid account number at or after `bankCode` (4 digits) + `accountNumber` (6 digits): some
 * numbers have no mod-11 check digit and are skipped, as banks do.
 */
export function bbanFrom(bankCode: string, accountNumber: number): string {
  for (let n = accountNumber; n < 1_000_000; n++) {
    const bban = withAccountCheckDigit(`${bankCode}${String(n).padStart(6, '0')}`);
    if (bban !== undefined) return bban;
  }
  throw new Error(`no valid account number from ${bankCode}${accountNumber}`);
}

/** The Norwegian IBAN of an account number (NO, mod-97 check digits, the account number). */
export function norwegianIban(bban: string): string {
  const iban = composeIBAN({ countryCode: 'NO', bban });
  if (iban === null) throw new Error(`not a Norwegian account number: ${bban}`);
  return iban;
}

/** A valid Norwegian IBAN drawn at random. */
export function randomNorwegianIban(): string {
  for (;;) {
    const bban = withAccountCheckDigit(String(randomInt(10_000_000_000)).padStart(10, '0'));
    if (bban !== undefined) return norwegianIban(bban);
  }
}
