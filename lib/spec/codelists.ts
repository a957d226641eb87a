/**
 * Code lists of the specification (open-banking-interface-spec.md, "Payment initiation request"):
 * the currency list and the country list, exactly as the specification gives them and in its order;
 * and the ISO 20022 cashAccountType codes the specification refers to ("follows ISO 20022 mapping").
 *
 * Minor units come from the `currency-codes` package (ISO 4217 list one, see CURRENCY_DATA_PUBLISHED)
 * where it knows the code. The specification's list also holds codes that are not current ISO 4217
 * codes; for those the minor units and a note are recorded here (see NON_CURRENT_CURRENCIES).
 *
 * Decision (documented, see also lib/validate/README.md): every code of the specification's list is a
 * valid `currency-code`, including the withdrawn and the non-ISO ones, because the specification says
 * "one of the currency list below". The `status` of each entry lets a suite warn about them.
 */
import currencyCodes from 'currency-codes';

/** The specification's currency list, in the specification's order (162 codes). */
export const SPEC_CURRENCY_CODES = [
  'AED',
  'AFN',
  'ALL',
  'AMD',
  'ANG',
  'AOA',
  'ARS',
  'AUD',
  'AWG',
  'AZN',
  'BAM',
  'BBD',
  'BDT',
  'BGN',
  'BHD',
  'BIF',
  'BMD',
  'BND',
  'BOB',
  'BRL',
  'BSD',
  'BTN',
  'BWP',
  'BYR',
  'BZD',
  'CAD',
  'CDF',
  'CHF',
  'CLP',
  'CNY',
  'COP',
  'CRC',
  'CUC',
  'CUP',
  'CVE',
  'CZK',
  'DJF',
  'DKK',
  'DOP',
  'DZD',
  'EGP',
  'ERN',
  'ETB',
  'EUR',
  'FJD',
  'FKP',
  'GBP',
  'GEL',
  'GGP',
  'GHS',
  'GIP',
  'GMD',
  'GNF',
  'GTQ',
  'GYD',
  'HKD',
  'HNL',
  'HRK',
  'HTG',
  'HUF',
  'IDR',
  'ILS',
  'IMP',
  'INR',
  'IQD',
  'IRR',
  'ISK',
  'JEP',
  'JMD',
  'JOD',
  'JPY',
  'KES',
  'KGS',
  'KHR',
  'KMF',
  'KPW',
  'KRW',
  'KWD',
  'KYD',
  'KZT',
  'LAK',
  'LBP',
  'LKR',
  'LRD',
  'LSL',
  'LYD',
  'MAD',
  'MDL',
  'MGA',
  'MKD',
  'MMK',
  'MNT',
  'MOP',
  'MRO',
  'MUR',
  'MVR',
  'MWK',
  'MXN',
  'MYR',
  'MZN',
  'NAD',
  'NGN',
  'NIO',
  'NOK',
  'NPR',
  'NZD',
  'OMR',
  'PAB',
  'PEN',
  'PGK',
  'PHP',
  'PKR',
  'PLN',
  'PYG',
  'QAR',
  'RON',
  'RSD',
  'RUB',
  'RWF',
  'SAR',
  'SBD',
  'SCR',
  'SDG',
  'SEK',
  'SGD',
  'SHP',
  'SLL',
  'SOS',
  'SPL',
  'SRD',
  'STD',
  'SVC',
  'SYP',
  'SZL',
  'THB',
  'TJS',
  'TMT',
  'TND',
  'TOP',
  'TRY',
  'TTD',
  'TVD',
  'TWD',
  'TZS',
  'UAH',
  'UGX',
  'USD',
  'UYU',
  'UZS',
  'VEF',
  'VND',
  'VUV',
  'WST',
  'XAF',
  'XCD',
  'XDR',
  'XOF',
  'XPF',
  'YER',
  'ZAR',
  'ZMW',
  'ZWD',
] as const;

/** The specification's country list (ISO 3166-1 alpha-2), in the specification's order (249 codes). */
export const COUNTRIES = [
  'AF',
  'AX',
  'AL',
  'DZ',
  'AS',
  'AD',
  'AO',
  'AI',
  'AQ',
  'AG',
  'AR',
  'AM',
  'AW',
  'AU',
  'AT',
  'AZ',
  'BH',
  'BS',
  'BD',
  'BB',
  'BY',
  'BE',
  'BZ',
  'BJ',
  'BM',
  'BT',
  'BO',
  'BQ',
  'BA',
  'BW',
  'BV',
  'BR',
  'IO',
  'BN',
  'BG',
  'BF',
  'BI',
  'KH',
  'CM',
  'CA',
  'CV',
  'KY',
  'CF',
  'TD',
  'CL',
  'CN',
  'CX',
  'CC',
  'CO',
  'KM',
  'CG',
  'CD',
  'CK',
  'CR',
  'CI',
  'HR',
  'CU',
  'CW',
  'CY',
  'CZ',
  'DK',
  'DJ',
  'DM',
  'DO',
  'EC',
  'EG',
  'SV',
  'GQ',
  'ER',
  'EE',
  'ET',
  'FK',
  'FO',
  'FJ',
  'FI',
  'FR',
  'GF',
  'PF',
  'TF',
  'GA',
  'GM',
  'GE',
  'DE',
  'GH',
  'GI',
  'GR',
  'GL',
  'GD',
  'GP',
  'GU',
  'GT',
  'GG',
  'GN',
  'GW',
  'GY',
  'HT',
  'HM',
  'VA',
  'HN',
  'HK',
  'HU',
  'IS',
  'IN',
  'ID',
  'IR',
  'IQ',
  'IE',
  'IM',
  'IL',
  'IT',
  'JM',
  'JP',
  'JE',
  'JO',
  'KZ',
  'KE',
  'KI',
  'KP',
  'KR',
  'KW',
  'KG',
  'LA',
  'LV',
  'LB',
  'LS',
  'LR',
  'LY',
  'LI',
  'LT',
  'LU',
  'MO',
  'MK',
  'MG',
  'MW',
  'MY',
  'MV',
  'ML',
  'MT',
  'MH',
  'MQ',
  'MR',
  'MU',
  'YT',
  'MX',
  'FM',
  'MD',
  'MC',
  'MN',
  'ME',
  'MS',
  'MA',
  'MZ',
  'MM',
  'NA',
  'NR',
  'NP',
  'NL',
  'NC',
  'NZ',
  'NI',
  'NE',
  'NG',
  'NU',
  'NF',
  'MP',
  'NO',
  'OM',
  'PK',
  'PW',
  'PS',
  'PA',
  'PG',
  'PY',
  'PE',
  'PH',
  'PN',
  'PL',
  'PT',
  'PR',
  'QA',
  'RE',
  'RO',
  'RU',
  'RW',
  'BL',
  'SH',
  'KN',
  'LC',
  'MF',
  'PM',
  'VC',
  'WS',
  'SM',
  'ST',
  'SA',
  'SN',
  'RS',
  'SC',
  'SL',
  'SG',
  'SX',
  'SK',
  'SI',
  'SB',
  'SO',
  'ZA',
  'GS',
  'SS',
  'ES',
  'LK',
  'SD',
  'SR',
  'SJ',
  'SZ',
  'SE',
  'CH',
  'SY',
  'TW',
  'TJ',
  'TZ',
  'TH',
  'TL',
  'TG',
  'TK',
  'TO',
  'TT',
  'TN',
  'TR',
  'TM',
  'TC',
  'TV',
  'UG',
  'UA',
  'AE',
  'GB',
  'US',
  'UM',
  'UY',
  'UZ',
  'VU',
  'VE',
  'VN',
  'VG',
  'VI',
  'WF',
  'EH',
  'YE',
  'ZM',
  'ZW',
] as const;

export type CurrencyCode = (typeof SPEC_CURRENCY_CODES)[number];
export type CountryCode = (typeof COUNTRIES)[number];

/**
 * - `iso`: a current ISO 4217 code (present in the ISO 4217 list one that `currency-codes` carries);
 * - `withdrawn`: a former ISO 4217 code, since replaced or withdrawn;
 * - `non-iso`: never an ISO 4217 code (local issues or unofficial codes).
 */
export type CurrencyStatus = 'iso' | 'withdrawn' | 'non-iso';

export interface Currency {
  code: CurrencyCode;
  /** Number of ISO 4217 minor units (digits after the decimal separator) the currency has. */
  minorUnits: number;
  status: CurrencyStatus;
  /** Where the minor units come from: the `currency-codes` package, or this file (documented below). */
  source: 'currency-codes' | 'codelists';
  note?: string;
}

interface NonCurrent {
  minorUnits: number;
  status: Exclude<CurrencyStatus, 'iso'>;
  note: string;
}

/**
 * The specification's codes that the current ISO 4217 list does not hold, with the minor units used here.
 * Withdrawn codes keep the minor units ISO 4217 gave them while they were current (ISO 4217 list three);
 * non-ISO codes take the minor units of the currency they are pegged to or subdivided like.
 */
export const NON_CURRENT_CURRENCIES: Readonly<Record<string, NonCurrent>> = {
  BYR: { minorUnits: 0, status: 'withdrawn', note: 'Belarusian ruble, replaced by BYN on 2016-07-01; ISO 4217 gave 0 minor units' },
  GGP: {
    minorUnits: 2,
    status: 'non-iso',
    note: 'Guernsey pound, a local issue of the pound sterling (ISO 4217: GBP); 2 minor units like GBP',
  },
  HRK: { minorUnits: 2, status: 'withdrawn', note: 'Croatian kuna, replaced by EUR on 2023-01-01; ISO 4217 gave 2 minor units' },
  IMP: {
    minorUnits: 2,
    status: 'non-iso',
    note: 'Manx pound, a local issue of the pound sterling (ISO 4217: GBP); 2 minor units like GBP',
  },
  JEP: {
    minorUnits: 2,
    status: 'non-iso',
    note: 'Jersey pound, a local issue of the pound sterling (ISO 4217: GBP); 2 minor units like GBP',
  },
  MRO: { minorUnits: 2, status: 'withdrawn', note: 'Mauritanian ouguiya, replaced by MRU on 2018-01-01; ISO 4217 gave 2 minor units' },
  SLL: {
    minorUnits: 2,
    status: 'withdrawn',
    note: 'Sierra Leonean leone, replaced by SLE (redenomination 2022); ISO 4217 gave 2 minor units',
  },
  SPL: {
    minorUnits: 2,
    status: 'non-iso',
    note: 'Seborga luigino, an unofficial micronation token, not legal tender; 2 minor units (100 centesimi)',
  },
  STD: {
    minorUnits: 2,
    status: 'withdrawn',
    note: 'São Tomé and Príncipe dobra, replaced by STN on 2018-01-01; ISO 4217 gave 2 minor units',
  },
  TVD: {
    minorUnits: 2,
    status: 'non-iso',
    note: 'Tuvalu dollar, issued at par with AUD (the ISO 4217 currency of Tuvalu); 2 minor units like AUD',
  },
  VEF: {
    minorUnits: 2,
    status: 'withdrawn',
    note: 'Venezuelan bolívar fuerte, replaced by VES on 2018-08-20; ISO 4217 gave 2 minor units',
  },
  ZWD: {
    minorUnits: 2,
    status: 'withdrawn',
    note: 'Zimbabwe dollar, replaced by ZWN in 2006 (later ZWR, ZWL, ZWG); ISO 4217 gave 2 minor units',
  },
};

/**
 * Notes on codes that ISO 4217 still lists but where the data deserves a remark.
 * XDR: ISO 4217 gives "N.A." minor units; `currency-codes` reports 0 and that value is used.
 */
const ISO_NOTES: Readonly<Record<string, string>> = {
  XDR: 'SDR (Special Drawing Right) of the IMF; ISO 4217 gives minor units "N.A.", currency-codes reports 0, which is used',
  ANG: 'Netherlands Antillean guilder; being replaced by XCG (Caribbean guilder) from 2025',
  CUC: 'Cuban convertible peso; withdrawn from circulation in 2021 but still in the ISO 4217 list the library carries',
};

function buildCurrency(code: CurrencyCode): Currency {
  const nonCurrent = NON_CURRENT_CURRENCIES[code];
  if (nonCurrent) {
    return { code, minorUnits: nonCurrent.minorUnits, status: nonCurrent.status, source: 'codelists', note: nonCurrent.note };
  }
  const record = currencyCodes.code(code);
  if (!record) {
    throw new Error(`currency ${code} is neither in currency-codes nor in NON_CURRENT_CURRENCIES`);
  }
  const note = ISO_NOTES[code];
  return { code, minorUnits: record.digits, status: 'iso', source: 'currency-codes', ...(note ? { note } : {}) };
}

/** The specification's currency list, in its order, each with its ISO 4217 minor units. */
export const CURRENCIES: readonly Currency[] = Object.freeze(SPEC_CURRENCY_CODES.map(buildCurrency));

const currencyByCode: ReadonlyMap<string, Currency> = new Map(CURRENCIES.map((c) => [c.code, c]));
const countrySet: ReadonlySet<string> = new Set<string>(COUNTRIES);

/** True when `code` is one of the specification's currency codes (case-sensitive: upper case only). */
export function isCurrency(code: unknown): code is CurrencyCode {
  return typeof code === 'string' && currencyByCode.has(code);
}

/** True when `code` is one of the specification's country codes (case-sensitive: upper case only). */
export function isCountry(code: unknown): code is CountryCode {
  return typeof code === 'string' && countrySet.has(code);
}

/** The currency entry for `code`, or undefined when the specification does not list it. */
export function currencyOf(code: string): Currency | undefined {
  return currencyByCode.get(code);
}

/** ISO 4217 minor units of one of the specification's currencies; undefined for any other code. */
export function minorUnitsOf(code: string): number | undefined {
  return currencyByCode.get(code)?.minorUnits;
}

/**
 * ISO 20022 external code list ExternalCashAccountType1Code (the codes of `cashAccountType`, catalogue
 * AIS-08 and VER-15), from the ISO 20022 External Code Sets; the Berlin Group 1.3.8 OpenAPI names the list
 * for cashAccountType and carries the same codes, commented out, in its schema. Codes added by later
 * releases of the external code sets (NFCA, VACC) are included: a bank may use any code of the list.
 */
export const CASH_ACCOUNT_TYPES = [
  'CACC',
  'CARD',
  'CASH',
  'CHAR',
  'CISH',
  'COMM',
  'CPAC',
  'LLSV',
  'LOAN',
  'MGLD',
  'MOMA',
  'NFCA',
  'NREX',
  'ODFT',
  'ONDP',
  'OTHR',
  'SACC',
  'SLRY',
  'SVGS',
  'TAXE',
  'TRAN',
  'TRAS',
  'VACC',
] as const;

export type CashAccountType = (typeof CASH_ACCOUNT_TYPES)[number];

const cashAccountTypeSet: ReadonlySet<string> = new Set<string>(CASH_ACCOUNT_TYPES);

/** True when `code` is an ExternalCashAccountType1 code (upper case only). */
export function isCashAccountType(code: unknown): code is CashAccountType {
  return typeof code === 'string' && cashAccountTypeSet.has(code);
}

/** The x-accept-fix values of the specification's table of implemented breaking changes (Versioning), all defaults now. */
export const PUBLISHED_FIXES = [
  'amount-as-string',
  'cardaccount-switch-originalamount-and-transactionamount',
  'longer-names',
  'cash-account-type-iso',
] as const;
