// Code lists and identifier checks: currencies (with ISO 4217 minor units), countries,
// IBAN, Norwegian BBAN, BIC, Norwegian national identity numbers and organisation numbers.

const CURRENCY_LIST =
  'AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN BWP BYR BZD CAD CDF CHF CLP CNY COP CRC CUC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GGP GHS GIP GMD GNF GTQ GYD HKD HNL HRK HTG HUF IDR ILS IMP INR IQD IRR ISK JEP JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRO MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLL SOS SPL SRD STD SVC SYP SZL THB TJS TMT TND TOP TRY TTD TVD TWD TZS UAH UGX USD UYU UZS VEF VND VUV WST XAF XCD XDR XOF XPF YER ZAR ZMW ZWD';

/** The currency list of the specification (payment request, Currency). */
export const CURRENCIES: ReadonlySet<string> = new Set(CURRENCY_LIST.split(' '));

// ISO 4217 minor units where they are not 2. XDR has no minor unit defined in ISO 4217
// ("N.A."): only the contract scale (5) limits it. Codes that are not ISO 4217 codes
// (GGP, IMP, JEP, SPL, TVD) follow the currency they are pegged to (2).
const MINOR_UNITS: Record<string, number> = {
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
  BIF: 0,
  BYR: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  XDR: 5,
};

export function minorUnits(currency: string): number {
  return MINOR_UNITS[currency] ?? 2;
}

const COUNTRY_LIST =
  'AF AX AL DZ AS AD AO AI AQ AG AR AM AW AU AT AZ BH BS BD BB BY BE BZ BJ BM BT BO BQ BA BW BV BR IO BN BG BF BI KH CM CA CV KY CF TD CL CN CX CC CO KM CG CD CK CR CI HR CU CW CY CZ DK DJ DM DO EC EG SV GQ ER EE ET FK FO FJ FI FR GF PF TF GA GM GE DE GH GI GR GL GD GP GU GT GG GN GW GY HT HM VA HN HK HU IS IN ID IR IQ IE IM IL IT JM JP JE JO KZ KE KI KP KR KW KG LA LV LB LS LR LY LI LT LU MO MK MG MW MY MV ML MT MH MQ MR MU YT MX FM MD MC MN ME MS MA MZ MM NA NR NP NL NC NZ NI NE NG NU NF MP NO OM PK PW PS PA PG PY PE PH PN PL PT PR QA RE RO RU RW BL SH KN LC MF PM VC WS SM ST SA SN RS SC SL SG SX SK SI SB SO ZA GS SS ES LK SD SR SJ SZ SE CH SY TW TJ TZ TH TL TG TK TO TT TN TR TM TC TV UG UA AE GB US UM UY UZ VU VE VN VG VI WF EH YE ZM ZW';

/** The country list of the specification (ISO 3166-1 alpha-2). */
export const COUNTRIES: ReadonlySet<string> = new Set(COUNTRY_LIST.split(' '));

function mod97(digits: string): number {
  let rest = 0;
  for (const ch of digits) rest = (rest * 10 + (ch.charCodeAt(0) - 48)) % 97;
  return rest;
}

function ibanNumeric(s: string): string {
  let out = '';
  for (const ch of s) {
    const c = ch.charCodeAt(0);
    out += c >= 65 && c <= 90 ? String(c - 55) : ch;
  }
  return out;
}

/** ISO 13616-1 form: two letters, two check digits, up to 30 alphanumerics, at most 34, mod 97 = 1. */
export function isValidIban(iban: string): boolean {
  if (iban.length > 34) return false;
  if (!/^[A-Z]{2}[0-9]{2}[A-Za-z0-9]{1,30}$/.test(iban)) return false;
  if (!COUNTRIES.has(iban.slice(0, 2))) return false;
  const rearranged = (iban.slice(4) + iban.slice(0, 4)).toUpperCase();
  return mod97(ibanNumeric(rearranged)) === 1;
}

function noMod11(digits: string, weights: number[]): number | undefined {
  let sum = 0;
  weights.forEach((w, i) => {
    sum += w * (digits.charCodeAt(i) - 48);
  });
  const r = 11 - (sum % 11);
  if (r === 11) return 0;
  if (r === 10) return undefined;
  return r;
}

/** Norwegian account number (BBAN): 11 digits, mod 11 check digit. */
export function isValidNoBban(bban: string): boolean {
  if (!/^\d{11}$/.test(bban)) return false;
  const k = noMod11(bban, [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]);
  return k !== undefined && k === bban.charCodeAt(10) - 48;
}

/** Completes 10 digits into a valid Norwegian BBAN, or undefined when no check digit exists. */
export function completeNoBban(first10: string): string | undefined {
  const k = noMod11(first10, [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]);
  return k === undefined ? undefined : first10 + String(k);
}

export function ibanFromBban(country: string, bban: string): string {
  const check = 98 - mod97(ibanNumeric((bban + country + '00').toUpperCase()));
  return country + String(check).padStart(2, '0') + bban;
}

export function isValidBic(bic: string): boolean {
  return /^[A-Z]{6}[A-Z2-9][A-NP-Z0-9]([A-Z0-9]{3})?$/.test(bic);
}

/**
 * Norwegian national identity number (fødselsnummer) or D-number: 11 digits with two mod 11
 * check digits. Only the check digits are verified, not the birth date (sandbox test numbers use
 * shifted day and month fields).
 */
export function isValidNationalId(id: string): boolean {
  if (!/^\d{11}$/.test(id)) return false;
  const k1 = noMod11(id, [3, 7, 6, 1, 8, 9, 4, 5, 2]);
  if (k1 === undefined || k1 !== id.charCodeAt(9) - 48) return false;
  const k2 = noMod11(id, [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]);
  return k2 !== undefined && k2 === id.charCodeAt(10) - 48;
}

/** Norwegian organisation number: 9 digits, mod 11 check digit. */
export function isValidOrgNumber(id: string): boolean {
  if (!/^\d{9}$/.test(id)) return false;
  const k = noMod11(id, [3, 2, 7, 6, 5, 4, 3, 2]);
  return k !== undefined && k === id.charCodeAt(8) - 48;
}

export const UUID_RE = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/**
 * Characters the downstream payment system does not accept: emoji and other pictographs,
 * characters outside the Basic Multilingual Plane, control characters, private-use,
 * surrogate and unassigned code points.
 */
const DOWNSTREAM_REJECTED = /[\p{Extended_Pictographic}\p{Cc}\p{Co}\p{Cs}\p{Cn}\u{10000}-\u{10FFFF}]|\uFE0F|\u200D/u;

export function hasDownstreamRejectedChar(s: string): boolean {
  return DOWNSTREAM_REJECTED.test(s);
}
