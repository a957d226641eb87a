/**
 * Account identifiers: IBANs (ISO 13616: the registry's structure via ibantools, mod-97 check digits), Norwegian account numbers
 * (11 digits: bank code, account number, a mod-11 check digit; the BBAN of a Norwegian IBAN) and BICs.
 */
import { randomInt } from 'node:crypto';
import { composeIBAN, countrySpecs, isValidBIC } from 'ibantools';
import { BIC_PATTERN, IBAN_MAX_LENGTH, IBAN_PATTERN } from '../spec/patterns.js';
import { mod11CheckDigit } from './mod11.js';

const ACCOUNT_NUMBER_WEIGHTS = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
const ibanRe = new RegExp(IBAN_PATTERN);
const bicRe = new RegExp(BIC_PATTERN);

/**
 * IBAN in electronic form (no spaces, upper case, at most 34 characters) as ISO 13616-1 has it: its country's
 * length and structure (the IBAN registry) and the mod-97 check digits. A country's own check digits inside the
 * BBAN (the Norwegian account number's mod-11 one) are national rules, not ISO 13616's: not demanded.
 */
export function isIban(value: string): boolean {
  if (value.length > IBAN_MAX_LENGTH || !ibanRe.test(value)) return false;
  const spec = countrySpecs[value.slice(0, 2)];
  const bban = value.slice(4);
  return (
    spec?.chars === value.length &&
    spec.bban_regexp !== undefined &&
    spec.bban_regexp !== null &&
    new RegExp(spec.bban_regexp).test(bban) &&
    mod97(value) === 1
  );
}

/** The ISO 13616 remainder: the IBAN rearranged (country and check digits to the end), letters as numbers, mod 97. */
function mod97(iban: string): number {
  let remainder = 0;
  for (const char of `${iban.slice(4)}${iban.slice(0, 4)}`) {
    const digits = /[A-Z]/.test(char) ? String(char.charCodeAt(0) - 55) : char;
    for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder;
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
