// Norwegian account numbers: an 11-digit BBAN (4-digit bank code, 6-digit account
// number, mod-11 check digit) and its IBAN (NO, ISO 13616 mod-97 check digits).

const BBAN_WEIGHTS = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];

/** The mod-11 check digit for the first 10 digits, or undefined when none exists. */
function mod11CheckDigit(first10: string): number | undefined {
  const sum = [...first10].reduce((acc, digit, i) => acc + Number(digit) * BBAN_WEIGHTS[i]!, 0);
  const check = 11 - (sum % 11);
  if (check === 11) return 0;
  return check === 10 ? undefined : check;
}

export function isValidBban(bban: string): boolean {
  return /^\d{11}$/.test(bban) && mod11CheckDigit(bban.slice(0, 10)) === Number(bban[10]);
}

/**
 * The first valid BBAN at or after `bankCode` + `accountNumber` (6 digits): some
 * numbers have no mod-11 check digit and are skipped, as banks do.
 */
export function bbanFrom(bankCode: string, accountNumber: number): string {
  for (let n = accountNumber; n < 1_000_000; n++) {
    const first10 = `${bankCode}${String(n).padStart(6, '0')}`;
    const check = mod11CheckDigit(first10);
    if (check !== undefined) return `${first10}${check}`;
  }
  throw new Error(`no valid account number from ${bankCode}${accountNumber}`);
}

/** ISO 7064 mod 97-10 over a string of digits and letters (letters as 10..35). */
function mod97(value: string): number {
  const digits = [...value.toUpperCase()].map((c) => (/[A-Z]/.test(c) ? String(c.charCodeAt(0) - 55) : c)).join('');
  let remainder = 0;
  for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  return remainder;
}

export function norwegianIban(bban: string): string {
  const check = 98 - mod97(`${bban}NO00`);
  return `NO${String(check).padStart(2, '0')}${bban}`;
}

export function isValidIban(iban: string): boolean {
  return /^[A-Z]{2}\d{2}[A-Z0-9]{1,30}$/.test(iban) && mod97(`${iban.slice(4)}${iban.slice(0, 4)}`) === 1;
}
