/**
 * The domain's identifiers (lib/identifiers): IBANs (mod-97), Norwegian account numbers (mod-11), BICs
 * and national identity numbers (two mod-11 check digits). Generated numbers are checked against the
 * libraries that judge them independently (ibantools, norwegian-national-id-validator), and every
 * single changed digit is caught.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { isValidBBAN, isValidIBAN } from 'ibantools';
import { validateNorwegianIdNumber } from 'norwegian-national-id-validator';
import { bbanFrom, isBic, isIban, norwegianIban, randomNorwegianIban, withAccountCheckDigit } from '../../lib/identifiers/bank-accounts.js';
import {
  hasNationalIdForm,
  isNorwegianNationalId,
  nationalIdDigitsOf,
  randomNationalId,
  withNationalIdCheckDigits,
} from '../../lib/identifiers/national-ids.js';

const accept = (fn: (v: string) => boolean, values: string[]): void => {
  for (const v of values) assert.equal(fn(v), true, `should accept ${JSON.stringify(v)}`);
};
const reject = (fn: (v: string) => boolean, values: string[]): void => {
  for (const v of values) assert.equal(fn(v), false, `should reject ${JSON.stringify(v)}`);
};

/** `value` with the digit at `position` replaced by another digit. */
function changeDigit(value: string, position: number, by: number): string {
  return `${value.slice(0, position)}${(Number(value[position]) + by) % 10}${value.slice(position + 1)}`;
}
const change = (length: number, from = 0) =>
  fc.record({ position: fc.integer({ min: from, max: length - 1 }), by: fc.integer({ min: 1, max: 9 }) });

const tenDigits = fc.stringMatching(/^\d{10}$/);
/** Norwegian account numbers: 10 digits that have a check digit, and that digit. */
const accountNumbers = tenDigits.map(withAccountCheckDigit).filter((bban): bban is string => bban !== undefined);
/** Birth dates of 1900-1999 (individual numbers 000-499 belong to that century) and their check digits. */
const nationalIds = fc
  .record({
    born: fc.date({ min: new Date(Date.UTC(1900, 0, 1)), max: new Date(Date.UTC(1999, 11, 31)), noInvalidDate: true }),
    individual: fc.integer({ min: 0, max: 499 }),
  })
  .map(({ born, individual }) => withNationalIdCheckDigits(nationalIdDigitsOf(born, individual)))
  .filter((id): id is string => id !== undefined);

describe('iban', () => {
  it('accepts IBANs with valid mod-97 check digits', () => {
    accept(isIban, [
      'NO9386011117947',
      'DE89370400440532013000',
      'GB82WEST12345698765432',
      'FR7612345987650123456789014',
      'SE4550000000058398257466',
      'LC55HEMM000100010012001200023015',
    ]);
  });

  it("asks ISO 13616 only: a BBAN whose national check digit (Norway's mod-11) is wrong passes, its mod-97 being right", () => {
    accept(isIban, ['NO6686011117948']);
  });

  it('rejects a wrong check digit, spaces, lower case, an unknown country, a wrong length', () => {
    reject(isIban, [
      'NO9386011117948',
      'NO93 8601 1117 947',
      'no9386011117947',
      'XX89370400440532013000',
      'NO938601111794',
      'DE8937040044053201300',
      '',
      'NO93860111179470000000000000000000000',
    ]);
  });

  it('the Norwegian IBAN of a valid account number is valid; one changed digit makes it invalid', () => {
    fc.assert(
      fc.property(accountNumbers, change(15, 2), (bban, { position, by }) => {
        const iban = norwegianIban(bban);
        assert.equal(iban.slice(4), bban);
        assert.ok(isIban(iban) && isValidIBAN(iban), iban);
        assert.equal(isIban(changeDigit(iban, position, by)), false, `${iban} changed at ${position}`);
      }),
    );
  });

  it('a random Norwegian IBAN is valid', () => {
    for (let i = 0; i < 200; i++) {
      const iban = randomNorwegianIban();
      assert.ok(isIban(iban), iban);
    }
  });
});

describe('Norwegian account numbers (mod-11)', () => {
  it('an account number with its check digit is valid; one changed digit makes it invalid', () => {
    fc.assert(
      fc.property(accountNumbers, change(11), (bban, { position, by }) => {
        assert.ok(isValidBBAN(bban, 'NO'), bban);
        assert.equal(isValidBBAN(changeDigit(bban, position, by), 'NO'), false, `${bban} changed at ${position}`);
      }),
    );
  });

  it('10 digits whose weighted sum leaves remainder 1 have no check digit', () => {
    // 0000000006: 6 × 2 = 12, remainder 1, so the check digit would be 10.
    assert.equal(withAccountCheckDigit('0000000006'), undefined);
  });

  it('bbanFrom gives the first valid number at or after the one asked for', () => {
    assert.equal(bbanFrom('8601', 111794), '86011117947');
    fc.assert(
      fc.property(fc.stringMatching(/^\d{4}$/), fc.integer({ min: 0, max: 999_000 }), (bank, n) => {
        const bban = bbanFrom(bank, n);
        assert.ok(isValidBBAN(bban, 'NO'), bban);
        assert.ok(bban.startsWith(bank) && Number(bban.slice(4, 10)) >= n && Number(bban.slice(4, 10)) - n <= 2, bban);
      }),
    );
  });
});

describe('bic', () => {
  it('accepts 8 and 11 character BICs', () => {
    accept(isBic, ['DNBANOKK', 'DNBANOKKXXX', 'COBADEFFXXX', 'CHASUS33', 'NEDSZAJJXXX']);
  });

  it('rejects wrong lengths, lower case, a digit in the bank code, an O as second location character', () => {
    reject(isBic, ['DNBANOK', 'DNBANOKKXX', 'dnbanokk', 'DNB4NOKK', 'DNBANOKO', 'DNBANO1K', '']);
  });
});

describe('national identity numbers (two mod-11 check digits)', () => {
  it('accepts fødselsnummer with both check digits (sandbox customers of the facts)', () => {
    accept(isNorwegianNationalId, ['13039319955', '12085592767', '18129215603', '20079518612', '31125461118', '01078900497']);
  });

  it('accepts a D-number (first digit plus 4)', () => {
    accept(isNorwegianNationalId, ['41018036736']);
  });

  it('rejects H-numbers and FH-numbers, which are not national identity numbers', () => {
    reject(isNorwegianNationalId, ['01418011056', '80000010050']);
  });

  it('rejects a wrong first or second check digit, wrong lengths, non-digits', () => {
    reject(isNorwegianNationalId, ['13039319956', '13039319945', '1303931995', '130393199550', '1303931995a', ' 13039319955', '']);
  });

  it('a birth date and individual number with their check digits is valid; one changed digit makes it invalid', () => {
    fc.assert(
      fc.property(nationalIds, change(11), (id, { position, by }) => {
        assert.ok(isNorwegianNationalId(id) && validateNorwegianIdNumber(id), id);
        assert.equal(isNorwegianNationalId(changeDigit(id, position, by)), false, `${id} changed at ${position}`);
      }),
    );
  });

  it('the check digits of a known number', () => {
    assert.equal(withNationalIdCheckDigits('130393199'), '13039319955');
  });

  it('a random national identity number is valid', () => {
    for (let i = 0; i < 200; i++) {
      const id = randomNationalId();
      assert.ok(isNorwegianNationalId(id), id);
    }
  });

  it('the form of X-PSU-IDENTITY is 11 digits, check digits not demanded (HDR-17)', () => {
    accept(hasNationalIdForm, ['13039319955', '12345678901']);
    reject(hasNationalIdForm, ['1303931995', '130393199550', '1303931995a', ' 13039319955', '']);
  });
});
