/**
 * The data formats: dates and date-times, UUID, currency and country codes, and the amount rule (IBAN, BIC
 * and national identity numbers: test/identifiers).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  POSITIVE_AMOUNT_PATTERN,
  checkAmount,
  fractionDigitsOf,
  isCountryCode,
  isCurrencyCode,
  isIsoDate,
  isIsoDateTime,
  isUuid,
} from '../../lib/validate/formats.js';

const accept = (fn: (v: string) => boolean, values: string[]): void => {
  for (const v of values) assert.equal(fn(v), true, `should accept ${JSON.stringify(v)}`);
};
const reject = (fn: (v: string) => boolean, values: string[]): void => {
  for (const v of values) assert.equal(fn(v), false, `should reject ${JSON.stringify(v)}`);
};

describe('iso-date', () => {
  it('accepts calendar dates, leap days included', () => {
    accept(isIsoDate, ['2026-08-13', '2024-02-29', '2000-02-29', '1999-12-31']);
  });

  it('rejects impossible dates and other forms', () => {
    reject(isIsoDate, [
      '2026-02-29',
      '1900-02-29',
      '2026-13-01',
      '2026-00-10',
      '2026-04-31',
      '20260813',
      '2026-8-13',
      '13.08.2026',
      '2026-08-13T00:00:00Z',
      '',
    ]);
  });
});

describe('iso-date-time', () => {
  it("accepts the specification's form and RFC 3339 variants (fractions, Z, any offset)", () => {
    accept(isIsoDateTime, [
      '2026-08-13T10:15:00+00:00',
      '2026-08-13T10:15:00+02:00',
      '2026-08-13T10:15:00-05:30',
      '2026-08-13T10:15:00Z',
      '2026-08-13T10:15:00.123Z',
      '2026-08-13T10:15:00.5+01:00',
    ]);
  });

  it('rejects a missing offset or seconds, impossible values, lower case, a space separator', () => {
    reject(isIsoDateTime, [
      '2026-08-13T10:15:00',
      '2026-08-13T10:15+00:00',
      '2026-08-13T24:00:00Z',
      '2026-08-13T10:60:00Z',
      '2026-02-30T10:15:00Z',
      '2026-08-13t10:15:00z',
      '2026-08-13 10:15:00Z',
      '2026-08-13T10:15:00+25:00',
      '2026-08-13T10:15:00+0200',
      '',
    ]);
  });
});

describe('uuid', () => {
  it('accepts RFC 4122 UUIDs in either case', () => {
    accept(isUuid, [
      '3dc3d5b3-7023-4848-9853-f5400a64e80f',
      '3DC3D5B3-7023-4848-9853-F5400A64E80F',
      'c232ab00-9414-11ec-b3c8-9f6bdeced846',
    ]);
  });

  it('rejects other forms, the nil UUID and a non-RFC 4122 variant', () => {
    reject(isUuid, [
      '3dc3d5b370234848 9853f5400a64e80f',
      '3dc3d5b3-7023-4848-9853-f5400a64e80',
      '{3dc3d5b3-7023-4848-9853-f5400a64e80f}',
      '00000000-0000-0000-0000-000000000000',
      '3dc3d5b3-7023-4848-c853-f5400a64e80f',
      'urn:uuid:3dc3d5b3-7023-4848-9853-f5400a64e80f',
      '',
    ]);
  });
});

describe('currency-code and country-code', () => {
  it("follow the specification's lists", () => {
    accept(isCurrencyCode, ['NOK', 'EUR', 'BYR', 'SPL']);
    reject(isCurrencyCode, ['BYN', 'nok', 'XAU']);
    accept(isCountryCode, ['NO', 'AX', 'BQ']);
    reject(isCountryCode, ['XK', 'no', 'NOR']);
  });
});

describe('amount rule', () => {
  it('counts fraction digits', () => {
    assert.equal(fractionDigitsOf('10'), 0);
    assert.equal(fractionDigitsOf('10.5'), 1);
    assert.equal(fractionDigitsOf('-0.125'), 3);
  });

  it('allows fewer fraction digits than the minor units, not more (at-most, the default)', () => {
    for (const [amount, currency] of [
      ['10', 'EUR'],
      ['10.5', 'EUR'],
      ['10.50', 'EUR'],
      ['100', 'JPY'],
      ['1.125', 'BHD'],
      ['0.001', 'KWD'],
      ['-3.5', 'NOK'],
    ]) {
      assert.equal(checkAmount(amount as string, currency), null, `${amount} ${currency}`);
    }
    for (const [amount, currency] of [
      ['10.123', 'EUR'],
      ['100.5', 'JPY'],
      ['1.1254', 'BHD'],
      ['1.0', 'CLP'],
    ]) {
      assert.equal(checkAmount(amount as string, currency)?.rule, 'amount-minor-units', `${amount} ${currency}`);
    }
  });

  it('in exact mode, requires exactly the minor units', () => {
    assert.equal(checkAmount('10.50', 'EUR', 'exact'), null);
    assert.equal(checkAmount('100', 'JPY', 'exact'), null);
    assert.equal(checkAmount('10', 'EUR', 'exact')?.rule, 'amount-minor-units');
    assert.equal(checkAmount('10.5', 'EUR', 'exact')?.rule, 'amount-minor-units');
  });

  it('checks precision 18 (leading zeros not counted) and scale 5', () => {
    assert.equal(checkAmount('123456789012345678', 'JPY'), null);
    assert.equal(checkAmount('0000123456789012345678', 'JPY'), null);
    assert.equal(checkAmount('1234567890123456.78', 'EUR'), null);
    assert.equal(checkAmount('1234567890123456789', 'JPY')?.rule, 'amount-precision');
    assert.equal(checkAmount('12345678901234567.89', 'EUR')?.rule, 'amount-precision');
    assert.equal(checkAmount('1.123456', 'XXX')?.rule, 'amount-scale');
  });

  it('checks precision 18 whatever the sign (a 19-digit negative amount once passed)', () => {
    assert.equal(checkAmount('-1234567890123456789', 'JPY')?.rule, 'amount-precision');
    assert.equal(checkAmount('-12345678901234567.89', 'EUR')?.rule, 'amount-precision');
    assert.equal(checkAmount('-123456789012345678', 'JPY'), null);
    assert.equal(checkAmount('-0000123456789012345678', 'JPY'), null);
    assert.equal(checkAmount('-1234567890123456.78', 'EUR'), null);
  });

  it('keeps a positive-amount pattern for the SHOULD-level check PAY-48, outside the schemas', () => {
    const positive = new RegExp(POSITIVE_AMOUNT_PATTERN, 'u');
    for (const amount of ['1', '0.01', '10.00']) assert.ok(positive.test(amount), amount);
    for (const amount of ['0', '0.00', '-1', '+1']) assert.ok(!positive.test(amount), amount);
  });

  it('refuses other syntax', () => {
    for (const amount of ['1e5', '1,5', ' 1', '1.', '.5', '+1', '', '1.2.3'])
      assert.equal(checkAmount(amount, 'EUR')?.rule, 'amount-syntax', amount);
  });

  it('leaves an unknown currency to the currency-code format', () => {
    assert.equal(checkAmount('1.123', 'XYZ'), null);
    assert.equal(checkAmount('1.123', undefined), null);
  });
});
