// Validation of payment initiation bodies: field rules of the specification, the
// structured-address rule, periodic and bulk payments, product rules.

import { addDays, parseIsoDate } from './clock.js';
import { COUNTRIES, CURRENCIES, hasDownstreamRejectedChar, isValidBic, isValidIban, isValidNoBban, minorUnits } from './codes.js';
import { isObject } from './context.js';
import { ApiError, formatError } from './errors.js';
import { SCALE, parseDecimal } from './money.js';
import type { PaymentItem, PaymentService } from './model.js';

/** Canonical payment products; the key is the path segment. */
export const PRODUCTS: Record<string, string> = {
  'sepa-credit-transfers': 'sepa-credit-transfers',
  'domestic-norway-credit-transfers': 'domestic-norway-credit-transfers',
  'norwegian-domestic-credit-transfers': 'domestic-norway-credit-transfers',
  'norwegian-cross-border-credit-transfers': 'norwegian-cross-border-credit-transfers',
  'norwegian-domestic-payment-to-self': 'norwegian-domestic-payment-to-self',
};
export const DOMESTIC = 'domestic-norway-credit-transfers';
export const NCBCT = 'norwegian-cross-border-credit-transfers';
export const TO_SELF = 'norwegian-domestic-payment-to-self';
export const SEPA = 'sepa-credit-transfers';

/**
 * Products the structured-address rule applies to: "Structured-address rule for payments" names no product, so
 * every one; but "When mandatory address parts are missing and cannot be inferred, the service returns an error",
 * and the creditor of a payment to self is the PSU, whose data "The service infers … itself".
 */
const STRUCTURED_ADDRESS_PRODUCTS = new Set([SEPA, DOMESTIC, NCBCT]);
/** Enforcement date of the structured-address rule in the sandbox. */
const STRUCTURED_ADDRESS_SANDBOX_DATE = '2026-08-13';

const FREQUENCIES = [
  'Daily',
  'Weekly',
  'EveryTwoWeeks',
  'Monthly',
  'EveryTwoMonths',
  'Quarterly',
  'SemiAnnual',
  'Annual',
  'MonthlyVariable',
];
const MAX_EXECUTION_DAYS_AHEAD = 365;

interface TppMessage {
  category: 'ERROR' | 'WARNING';
  code: string;
  path?: string;
  text?: string;
}

interface AccountRefInput {
  iban: string | undefined;
  bban: string | undefined;
  currency: string;
}

export interface RuleContext {
  product: string;
  today: string;
  amountAsString: boolean;
  warnings: TppMessage[];
}

interface ValidatedPayment {
  debtor: AccountRefInput;
  items: PaymentItem[];
  executionDate: string | undefined;
  /** the accepted body, echoed by the details endpoint */
  request: Record<string, unknown>;
  duplicateExtra: string;
}

const cp = (s: string): number => [...s].length;

function str(
  v: unknown,
  path: string,
  o: { required?: boolean; max?: number; nonEmpty?: boolean; text?: boolean } = {},
): string | undefined {
  if (v === undefined || v === null) {
    if (o.required) throw formatError(`${path} is required`);
    return undefined;
  }
  if (typeof v !== 'string') throw formatError(`${path} must be a string`);
  if ((o.nonEmpty || o.required) && v.trim() === '') throw formatError(`${path} must not be empty`);
  if (o.max !== undefined && cp(v) > o.max) throw formatError(`${path} is longer than ${o.max} characters`);
  if (o.text && hasDownstreamRejectedChar(v)) {
    throw formatError(`${path} contains a character the payment system cannot process`);
  }
  return v;
}

function obj(v: unknown, path: string, required: boolean): Record<string, unknown> | undefined {
  if (v === undefined || v === null) {
    if (required) throw formatError(`${path} is required`);
    return undefined;
  }
  if (!isObject(v)) throw formatError(`${path} must be an object`);
  return v;
}

function currency(v: unknown, path: string): string {
  const c = str(v, path, { required: true }) ?? '';
  if (!CURRENCIES.has(c)) throw formatError(`${path} "${c}" is not a supported ISO 4217 currency code`);
  return c;
}

/** Amount rules: string, precision 18, scale 5, fraction digits within the currency's minor units, positive. */
function amount(v: unknown, path: string, cur: string, rc: RuleContext): bigint {
  let text: string;
  if (typeof v === 'string') text = v;
  else if (typeof v === 'number' && !rc.amountAsString) text = String(v);
  else if (v === undefined || v === null) throw formatError(`${path} is required`);
  else throw formatError(`${path} must be a string (amounts are serialised as strings)`);
  const p = parseDecimal(text);
  if (!p || text.startsWith('-')) throw formatError(`${path} must be a positive decimal number such as "123.45"`);
  if (p.fractionDigits > SCALE) throw formatError(`${path} has more than ${SCALE} fraction digits`);
  if (p.totalDigits > 18) throw formatError(`${path} has more than 18 digits`);
  const units = minorUnits(cur);
  if (p.fractionDigits > units) throw formatError(`${path} has ${p.fractionDigits} fraction digits; ${cur} has ${units} minor units`);
  if (p.value <= 0n) throw formatError(`${path} must be greater than zero`);
  return p.value;
}

function accountRef(v: unknown, path: string, allowBban: boolean): AccountRefInput {
  const o = obj(v, path, true) ?? {};
  const ibanRaw = str(o.iban, `${path}.iban`, { max: 34 });
  const bbanRaw = allowBban ? str(o.bban, `${path}.bban`) : undefined;
  if (ibanRaw === undefined && bbanRaw === undefined) throw formatError(`${path}.iban is required`);
  let iban: string | undefined;
  if (ibanRaw !== undefined) {
    iban = ibanRaw.replace(/\s+/g, '');
    if (!isValidIban(iban)) throw formatError(`${path}.iban is not a valid IBAN (ISO 13616-1)`);
    iban = iban.toUpperCase();
  }
  let bban: string | undefined;
  if (bbanRaw !== undefined) {
    bban = bbanRaw.replace(/[\s.]/g, '');
    if (!isValidNoBban(bban)) throw formatError(`${path}.bban is not a valid Norwegian account number`);
  }
  return { iban, bban, currency: currency(o.currency, `${path}.currency`) };
}

interface CreditorData {
  item: PaymentItem;
  request: Record<string, unknown>;
}

/** One credit transfer (single payment, periodic payment, or element of a bulk). */
function creditTransfer(b: Record<string, unknown>, path: string, rc: RuleContext): CreditorData {
  const p = (f: string): string => (path ? `${path}.${f}` : f);
  const endToEndId = str(b.endToEndIdentification, p('endToEndIdentification'), { max: 35, text: true });
  const ia = obj(b.instructedAmount, p('instructedAmount'), true) ?? {};
  const cur = currency(ia.currency, p('instructedAmount.currency'));
  const value = amount(ia.amount, p('instructedAmount.amount'), cur, rc);
  const creditorName = str(b.creditorName, p('creditorName'), { required: true, max: 70, text: true }) ?? '';
  const domestic = rc.product === DOMESTIC || rc.product === TO_SELF;
  const creditorAccount = accountRef(b.creditorAccount, p('creditorAccount'), domestic);
  const creditorAgent = str(b.creditorAgent, p('creditorAgent'));
  if (creditorAgent !== undefined && !isValidBic(creditorAgent)) throw formatError(`${p('creditorAgent')} is not a valid BIC`);
  const addr = obj(b.creditorAddress, p('creditorAddress'), false);
  let townName: string | undefined;
  let country: string | undefined;
  const address: Record<string, string> = {};
  if (addr) {
    const ap = (f: string): string => `${p('creditorAddress')}.${f}`;
    const keep = (k: string, v: string | undefined): void => {
      if (v !== undefined) address[k] = v;
    };
    keep('street', str(addr.street, ap('street'), { max: 70, text: true }));
    keep('buildingNumber', str(addr.buildingNumber, ap('buildingNumber'), { max: 16, text: true }));
    keep('postalCode', str(addr.postalCode, ap('postalCode'), { max: 16, text: true }));
    const city = str(addr.city, ap('city'), { max: 35, text: true });
    keep('city', city);
    townName = str(addr.townName, ap('townName'), { max: 35, text: true });
    keep('townName', townName);
    if (city !== undefined) {
      rc.warnings.push({
        category: 'WARNING',
        code: 'FORMAT_ERROR',
        path: ap('city'),
        text: 'Address.city is deprecated; use Address.townName',
      });
      townName = townName ?? city;
    }
    country = str(addr.country, ap('country'), { required: true });
    if (country === undefined || country.length !== 2 || !COUNTRIES.has(country)) {
      throw formatError(`${ap('country')} must be an ISO 3166-1 alpha-2 country code of the country list`);
    }
    address.country = country;
  }
  const remittance = str(b.remittanceInformationUnstructured, p('remittanceInformationUnstructured'), {
    max: 140,
    nonEmpty: true,
    text: true,
  });

  if (rc.product === DOMESTIC || rc.product === TO_SELF) {
    if (cur !== 'NOK') throw formatError(`${p('instructedAmount.currency')} must be NOK for ${rc.product}`);
    if (creditorAccount.iban !== undefined && !creditorAccount.iban.startsWith('NO')) {
      throw formatError(`${p('creditorAccount')} must be a Norwegian account for ${rc.product}`);
    }
  }
  if (STRUCTURED_ADDRESS_PRODUCTS.has(rc.product)) {
    const missing: string[] = [];
    if (creditorAgent === undefined) missing.push(p('creditorAgent'));
    if (townName === undefined || townName.trim() === '') missing.push(p('creditorAddress.townName'));
    if (country === undefined) missing.push(p('creditorAddress.country'));
    if (missing.length) {
      const text = `Structured address: the creditor agent BIC, creditor name, creditor town name and creditor country code are required; missing ${missing.join(', ')}`;
      if (rc.today >= STRUCTURED_ADDRESS_SANDBOX_DATE) throw formatError(text);
      rc.warnings.push({ category: 'WARNING', code: 'FORMAT_ERROR', path: missing[0] ?? '', text: text.slice(0, 512) });
    }
  }
  if (rc.product === NCBCT && b.regulatoryReporting !== undefined) {
    if (!Array.isArray(b.regulatoryReporting) || b.regulatoryReporting.length > 10 || !b.regulatoryReporting.every(isObject)) {
      throw formatError(`${p('regulatoryReporting')} must be an array of at most 10 objects`);
    }
    if (JSON.stringify(b.regulatoryReporting).length > 4000) throw formatError(`${p('regulatoryReporting')} is too large`);
  }

  const request: Record<string, unknown> = {};
  if (endToEndId !== undefined) request.endToEndIdentification = endToEndId;
  request.instructedAmount = { currency: cur, amount: typeof ia.amount === 'string' ? ia.amount : String(ia.amount) };
  request.creditorAccount = {
    ...(creditorAccount.iban ? { iban: creditorAccount.iban } : {}),
    ...(creditorAccount.bban ? { bban: creditorAccount.bban } : {}),
    currency: creditorAccount.currency,
  };
  if (creditorAgent !== undefined) request.creditorAgent = creditorAgent;
  request.creditorName = creditorName;
  if (addr) request.creditorAddress = address;
  if (remittance !== undefined) request.remittanceInformationUnstructured = remittance;
  if (rc.product === NCBCT && b.regulatoryReporting !== undefined) request.regulatoryReporting = b.regulatoryReporting;
  return {
    item: {
      amount: value,
      currency: cur,
      creditorName,
      creditorIban: creditorAccount.iban,
      creditorBban: creditorAccount.bban,
      remittance,
      endToEndId,
    },
    request,
  };
}

function executionDate(v: unknown, path: string, today: string): string | undefined {
  const d = str(v, path);
  if (d === undefined) return undefined;
  if (parseIsoDate(d) === undefined) throw formatError(`${path} must be an ISO 8601 date (YYYY-MM-DD)`);
  if (d < today) throw new ApiError(400, 'EXECUTION_DATE_INVALID', `${path} ${d} is in the past`);
  if (d > addDays(today, MAX_EXECUTION_DAYS_AHEAD)) {
    throw new ApiError(400, 'EXECUTION_DATE_INVALID', `${path} ${d} is more than ${MAX_EXECUTION_DAYS_AHEAD} days ahead`);
  }
  return d;
}

function periodicFields(
  b: Record<string, unknown>,
  rc: RuleContext,
  request: Record<string, unknown>,
): { startDate: string; extra: string } {
  const startDate = str(b.startDate, 'startDate', { required: true }) ?? '';
  if (parseIsoDate(startDate) === undefined) throw formatError('startDate must be an ISO 8601 date (YYYY-MM-DD)');
  if (startDate < rc.today) throw new ApiError(400, 'EXECUTION_DATE_INVALID', `startDate ${startDate} is in the past`);
  const endDate = str(b.endDate, 'endDate');
  if (endDate !== undefined) {
    if (parseIsoDate(endDate) === undefined) throw formatError('endDate must be an ISO 8601 date (YYYY-MM-DD)');
    if (endDate < startDate) throw new ApiError(400, 'EXECUTION_DATE_INVALID', 'endDate is before startDate');
  }
  const frequency = str(b.frequency, 'frequency', { required: true }) ?? '';
  if (!FREQUENCIES.includes(frequency)) throw formatError(`frequency must be one of ${FREQUENCIES.join(', ')}`);
  const executionRule = str(b.executionRule, 'executionRule');
  if (executionRule !== undefined && executionRule !== 'following' && executionRule !== 'preceding') {
    throw formatError('executionRule must be following or preceding');
  }
  const day = str(b.dayOfExecution, 'dayOfExecution');
  if (day !== undefined && !/^([1-9]|[12][0-9]|3[01])$/.test(day))
    throw formatError('dayOfExecution must be "1" to "31" without leading zeros');
  let months: string[] | undefined;
  if (b.monthsOfExecution !== undefined) {
    if (frequency !== 'MonthlyVariable') throw formatError('monthsOfExecution is only allowed with frequency MonthlyVariable');
    if (!Array.isArray(b.monthsOfExecution)) throw formatError('monthsOfExecution must be an array');
    months = b.monthsOfExecution.map((m, i) => {
      if (typeof m !== 'string' || !/^([1-9]|1[0-2])$/.test(m))
        throw formatError(`monthsOfExecution[${i}] must be a month identifier "1" to "12"`);
      return m;
    });
    if (months.length === 0 || months.length > 11) throw formatError('monthsOfExecution must hold 1 to 11 month identifiers');
    if (new Set(months).size !== months.length) throw formatError('monthsOfExecution holds duplicate month identifiers');
  } else if (frequency === 'MonthlyVariable') {
    throw formatError('monthsOfExecution is required with frequency MonthlyVariable');
  }
  request.startDate = startDate;
  if (endDate !== undefined) request.endDate = endDate;
  if (executionRule !== undefined) request.executionRule = executionRule;
  request.frequency = frequency;
  if (day !== undefined) request.dayOfExecution = day;
  if (months) request.monthsOfExecution = months;
  return { startDate, extra: [startDate, endDate ?? '', frequency, day ?? '', (months ?? []).join('.')].join('|') };
}

/** Validates a payment initiation body of any service. Throws ApiError 400. */
export function validatePayment(service: PaymentService, body: Record<string, unknown>, rc: RuleContext): ValidatedPayment {
  const domestic = rc.product === DOMESTIC || rc.product === TO_SELF;
  if (service === 'bulk-payments') {
    const debtor = accountRef(body.debtorAccount, 'debtorAccount', domestic);
    if (body.batchBookingPreferred !== undefined && typeof body.batchBookingPreferred !== 'boolean') {
      throw formatError('batchBookingPreferred must be a boolean');
    }
    const date = executionDate(body.requestedExecutionDate, 'requestedExecutionDate', rc.today);
    if (!Array.isArray(body.payments) || body.payments.length === 0) throw formatError('payments must be a non-empty array');
    if (body.payments.length > 100) throw formatError('a bulk payment holds at most 100 payments');
    const parts = body.payments.map((el, i) => {
      if (!isObject(el)) throw formatError(`payments[${i}] must be an object`);
      return creditTransfer(el, `payments[${i}]`, rc);
    });
    const request: Record<string, unknown> = {
      ...(body.batchBookingPreferred !== undefined ? { batchBookingPreferred: body.batchBookingPreferred } : {}),
      debtorAccount: refJson(debtor),
      ...(date ? { requestedExecutionDate: date } : {}),
      payments: parts.map((x) => x.request),
    };
    return { debtor, items: parts.map((x) => x.item), executionDate: date, request, duplicateExtra: '' };
  }
  const debtor = accountRef(body.debtorAccount, 'debtorAccount', domestic);
  const ct = creditTransfer(body, '', rc);
  const request: Record<string, unknown> = { ...ct.request, debtorAccount: refJson(debtor) };
  if (service === 'periodic-payments') {
    const pf = periodicFields(body, rc, request);
    return { debtor, items: [ct.item], executionDate: pf.startDate, request, duplicateExtra: pf.extra };
  }
  const date = executionDate(body.requestedExecutionDate, 'requestedExecutionDate', rc.today);
  if (date) request.requestedExecutionDate = date;
  return { debtor, items: [ct.item], executionDate: date, request, duplicateExtra: '' };
}

function refJson(r: AccountRefInput): Record<string, string> {
  return { ...(r.iban ? { iban: r.iban } : {}), ...(r.bban ? { bban: r.bban } : {}), currency: r.currency };
}
