/**
 * Identifiers of the shape of the ones they stand for, drawn from a seed (a keyed hash of the original): what
 * a masked recording writes instead of a PSU's identifiers, so that a judge reading it still finds every
 * identifier well-formed (a UUID, a national identity number with its check digits, an IBAN with its own),
 * and the same original always gets the same stand-in.
 */
import { composeIBAN, electronicFormatIBAN, extractIBAN } from 'ibantools';
import { withAccountCheckDigit } from './bank-accounts.js';
import { nationalIdDigitsOf, withNationalIdCheckDigits } from './national-ids.js';

/** A version-4 UUID made of the seed's first 16 bytes. */
export function lookalikeUuid(seed: Uint8Array): string {
  const hex = Buffer.from(seed.subarray(0, 16)).toString('hex');
  const variant = ((parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A national identity number (someone born 1950-1999) with both check digits right. */
export function lookalikeNationalId(seed: Uint8Array): string {
  for (let i = 0; i + 4 <= seed.length; i += 4) {
    const n = Buffer.from(seed).readUInt32BE(i);
    const born = new Date(Date.UTC(1950 + (n % 50), (n >>> 6) % 12, 1 + ((n >>> 10) % 28)));
    const id = withNationalIdCheckDigits(nationalIdDigitsOf(born, (n >>> 15) % 500));
    if (id !== undefined) return id;
  }
  return '01010150065'; // no seed word gave check digits (1 in 11 each): a fixed valid one
}

/** An IBAN of the same country and length: a Norwegian one with its account check digit, others with their digits drawn anew. */
export function lookalikeIban(iban: string, seed: Uint8Array): string {
  const compact = electronicFormatIBAN(iban) ?? iban;
  const country = compact.slice(0, 2);
  const digits = (count: number, from = 0) =>
    [...Buffer.from(seed)]
      .slice(from, from + count)
      .map((byte) => String(byte % 10))
      .join('');
  if (country === 'NO') {
    for (let from = 0; from + 10 <= seed.length; from += 2) {
      const bban = withAccountCheckDigit(digits(10, from));
      const composed = bban === undefined ? null : composeIBAN({ countryCode: 'NO', bban });
      if (composed !== null) return composed;
    }
  }
  let at = 0;
  const bban = [...(extractIBAN(compact).bban ?? compact.slice(4))]
    .map((char) => (/[0-9]/.test(char) ? String((seed[at++ % seed.length] ?? 0) % 10) : char))
    .join('');
  // ISO 13616: the check digits make the whole, rearranged, 1 mod 97.
  const numeric = `${bban}${country}00`.replace(/[A-Z]/g, (letter) => String(letter.charCodeAt(0) - 55));
  const remainder = [...numeric].reduce((r, char) => (r * 10 + Number(char)) % 97, 0);
  return `${country}${String(98 - remainder).padStart(2, '0')}${bban}`;
}
