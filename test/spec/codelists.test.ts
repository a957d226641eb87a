/**
 * The code lists against the specification's own text ("Payment initiation request": the currency list
 * and the country list, copied here verbatim), and the minor units of the currencies.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import currencyCodes from 'currency-codes';
import {
  CASH_ACCOUNT_TYPES,
  COUNTRIES,
  CURRENCIES,
  NON_CURRENT_CURRENCIES,
  SPEC_CURRENCY_CODES,
  currencyOf,
  isCashAccountType,
  isCountry,
  isCurrency,
  minorUnitsOf,
} from '../../lib/spec/codelists.js';

// The specification's lists, as printed there.
const SPEC_CURRENCY_TEXT =
  'AED, AFN, ALL, AMD, ANG, AOA, ARS, AUD, AWG, AZN, BAM, BBD, BDT, BGN, BHD, BIF, BMD, BND, BOB, BRL, BSD, BTN, BWP, BYR, BZD, CAD, CDF, CHF, CLP, CNY, COP, CRC, CUC, CUP, CVE, CZK, DJF, DKK, DOP, DZD, EGP, ERN, ETB, EUR, FJD, FKP, GBP, GEL, GGP, GHS, GIP, GMD, GNF, GTQ, GYD, HKD, HNL, HRK, HTG, HUF, IDR, ILS, IMP, INR, IQD, IRR, ISK, JEP, JMD, JOD, JPY, KES, KGS, KHR, KMF, KPW, KRW, KWD, KYD, KZT, LAK, LBP, LKR, LRD, LSL, LYD, MAD, MDL, MGA, MKD, MMK, MNT, MOP, MRO, MUR, MVR, MWK, MXN, MYR, MZN, NAD, NGN, NIO, NOK, NPR, NZD, OMR, PAB, PEN, PGK, PHP, PKR, PLN, PYG, QAR, RON, RSD, RUB, RWF, SAR, SBD, SCR, SDG, SEK, SGD, SHP, SLL, SOS, SPL, SRD, STD, SVC, SYP, SZL, THB, TJS, TMT, TND, TOP, TRY, TTD, TVD, TWD, TZS, UAH, UGX, USD, UYU, UZS, VEF, VND, VUV, WST, XAF, XCD, XDR, XOF, XPF, YER, ZAR, ZMW, ZWD.';
const SPEC_COUNTRY_TEXT =
  'AF, AX, AL, DZ, AS, AD, AO, AI, AQ, AG, AR, AM, AW, AU, AT, AZ, BH, BS, BD, BB, BY, BE, BZ, BJ, BM, BT, BO, BQ, BA, BW, BV, BR, IO, BN, BG, BF, BI, KH, CM, CA, CV, KY, CF, TD, CL, CN, CX, CC, CO, KM, CG, CD, CK, CR, CI, HR, CU, CW, CY, CZ, DK, DJ, DM, DO, EC, EG, SV, GQ, ER, EE, ET, FK, FO, FJ, FI, FR, GF, PF, TF, GA, GM, GE, DE, GH, GI, GR, GL, GD, GP, GU, GT, GG, GN, GW, GY, HT, HM, VA, HN, HK, HU, IS, IN, ID, IR, IQ, IE, IM, IL, IT, JM, JP, JE, JO, KZ, KE, KI, KP, KR, KW, KG, LA, LV, LB, LS, LR, LY, LI, LT, LU, MO, MK, MG, MW, MY, MV, ML, MT, MH, MQ, MR, MU, YT, MX, FM, MD, MC, MN, ME, MS, MA, MZ, MM, NA, NR, NP, NL, NC, NZ, NI, NE, NG, NU, NF, MP, NO, OM, PK, PW, PS, PA, PG, PY, PE, PH, PN, PL, PT, PR, QA, RE, RO, RU, RW, BL, SH, KN, LC, MF, PM, VC, WS, SM, ST, SA, SN, RS, SC, SL, SG, SX, SK, SI, SB, SO, ZA, GS, SS, ES, LK, SD, SR, SJ, SZ, SE, CH, SY, TW, TJ, TZ, TH, TL, TG, TK, TO, TT, TN, TR, TM, TC, TV, UG, UA, AE, GB, US, UM, UY, UZ, VU, VE, VN, VG, VI, WF, EH, YE, ZM, ZW.';

const parse = (text: string): string[] => text.replace(/\.$/, '').split(', ');

describe('currency list', () => {
  const spec = parse(SPEC_CURRENCY_TEXT);

  it('has the 162 codes of the specification', () => {
    assert.equal(spec.length, 162);
    assert.equal(CURRENCIES.length, 162);
    assert.equal(SPEC_CURRENCY_CODES.length, 162);
  });

  it("equals the specification's list, in its order", () => {
    assert.deepEqual(
      CURRENCIES.map((c) => c.code),
      spec,
    );
    assert.deepEqual([...SPEC_CURRENCY_CODES], spec);
  });

  it('has no duplicate', () => {
    assert.equal(new Set(spec).size, spec.length);
  });

  it('spot-checks the ISO 4217 minor units', () => {
    const expected: Record<string, number> = {
      JPY: 0,
      BHD: 3,
      EUR: 2,
      NOK: 2,
      CLP: 0,
      KWD: 3,
      ISK: 0,
      KRW: 0,
      TND: 3,
      USD: 2,
      SEK: 2,
      XOF: 0,
    };
    for (const [code, units] of Object.entries(expected)) assert.equal(minorUnitsOf(code), units, code);
  });

  it('gives every currency 0 to 3 minor units', () => {
    for (const c of CURRENCIES) assert.ok(Number.isInteger(c.minorUnits) && c.minorUnits >= 0 && c.minorUnits <= 3, c.code);
  });

  it('takes the minor units of current ISO codes from currency-codes', () => {
    for (const c of CURRENCIES.filter((x) => x.status === 'iso')) {
      assert.equal(c.source, 'currency-codes');
      assert.equal(c.minorUnits, currencyCodes.code(c.code)?.digits, c.code);
    }
  });

  it('documents the codes that are not current ISO 4217 codes', () => {
    const nonIso = CURRENCIES.filter((c) => c.status === 'non-iso').map((c) => c.code);
    const withdrawn = CURRENCIES.filter((c) => c.status === 'withdrawn').map((c) => c.code);
    assert.deepEqual(nonIso, ['GGP', 'IMP', 'JEP', 'SPL', 'TVD']);
    assert.deepEqual(withdrawn, ['BYR', 'HRK', 'MRO', 'SLL', 'STD', 'VEF', 'ZWD']);
    for (const code of [...nonIso, ...withdrawn]) {
      const c = currencyOf(code);
      assert.ok(c?.note && c.note.length > 10, code);
      assert.equal(c?.source, 'codelists');
      assert.equal(currencyCodes.code(code), undefined, `${code} is in currency-codes: it is current after all`);
    }
    assert.deepEqual(Object.keys(NON_CURRENT_CURRENCIES).sort(), [...nonIso, ...withdrawn].sort());
  });

  it('gives the non-current codes their documented minor units', () => {
    assert.equal(minorUnitsOf('BYR'), 0);
    for (const code of ['GGP', 'IMP', 'JEP', 'SPL', 'TVD', 'HRK', 'MRO', 'SLL', 'STD', 'VEF', 'ZWD'])
      assert.equal(minorUnitsOf(code), 2, code);
  });

  it('accepts exactly the listed codes, in upper case', () => {
    for (const code of spec) assert.ok(isCurrency(code), code);
    for (const code of ['eur', 'BYN', 'MRU', 'VES', 'STN', 'XAU', 'EU', 'EURO', '', 5]) assert.equal(isCurrency(code), false, String(code));
    assert.equal(minorUnitsOf('BYN'), undefined);
  });
});

describe('country list', () => {
  const spec = parse(SPEC_COUNTRY_TEXT);

  it('has the 249 codes of the specification', () => {
    assert.equal(spec.length, 249);
    assert.equal(COUNTRIES.length, 249);
  });

  it("equals the specification's list, in its order", () => {
    assert.deepEqual([...COUNTRIES], spec);
  });

  it('has no duplicate', () => {
    assert.equal(new Set(spec).size, spec.length);
  });

  it('accepts exactly the listed codes, in upper case', () => {
    for (const code of spec) assert.ok(isCountry(code), code);
    for (const code of ['no', 'XK', 'EU', 'UK', 'NOR', '', null]) assert.equal(isCountry(code), false, String(code));
  });
});

describe('cashAccountType code list (ISO 20022 ExternalCashAccountType1Code)', () => {
  it('holds the 23 codes, four capital letters each, without repeats', () => {
    assert.equal(CASH_ACCOUNT_TYPES.length, 23);
    assert.equal(new Set(CASH_ACCOUNT_TYPES).size, 23);
    for (const code of CASH_ACCOUNT_TYPES) assert.match(code, /^[A-Z]{4}$/);
  });

  it('has the codes the sandbox and the Berlin Group use, CARD and the later NFCA and VACC included', () => {
    for (const code of ['CACC', 'CARD', 'CASH', 'LOAN', 'SVGS', 'TAXE', 'TRAN', 'OTHR', 'NFCA', 'VACC'])
      assert.ok(isCashAccountType(code), code);
  });

  it('refuses other values', () => {
    for (const code of ['ABCD', 'cacc', 'CUR', 'CURRENT', '', 42]) assert.equal(isCashAccountType(code), false, String(code));
  });
});
