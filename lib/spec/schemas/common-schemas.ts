/**
 * Shared sub-schemas: leaf formats, Amount, AccountReference, Address, Link, tppMessages, states,
 * balances. Every other schema references these with `$ref`.
 *
 * Where one value is bound by rules of different requirements (an amount's precision, scale and minor
 * units), each rule sits in its own `allOf` member with its own `x-requirement`, so an error names the
 * one requirement it breaks. The `x-requirement` at the root of a registry schema is a default: where
 * the schema is used, an `x-requirement` next to its `$ref` (or nearer the value) comes first (see
 * lib/validate/readable-errors.ts).
 */
import {
  AMOUNT_PRECISION_PATTERN,
  AMOUNT_SCALE_PATTERN,
  AMOUNT_SYNTAX_PATTERN,
  BIC_PATTERN,
  IBAN_MAX_LENGTH,
  IBAN_PATTERN,
} from '../patterns.js';
import { named, ref, req } from './base.js';
import type { JsonSchema } from './base.js';

/** transactionStatus values of the specification ("Payment initiation response", "States"). */
export const TRANSACTION_STATUSES = ['ACCP', 'ACSC', 'ACSP', 'ACTC', 'ACWC', 'ACWP', 'RCVD', 'PDNG', 'RJCT', 'CANC', 'PART'] as const;
/** scaStatus values of the specification (upper case, unlike Berlin Group). */
export const SCA_STATUSES = [
  'RECEIVED',
  'PSU_IDENTIFIED',
  'PSU_AUTHENTICATED',
  'SCA_METHOD_SELECTED',
  'STARTED',
  'FINALISED',
  'FAILED',
  'EXEMPTED',
] as const;
/**
 * The message codes of the specification ("Errors"): the 23 listed, REFERENCE_MIX_INVALID ("also seen") and
 * RESOURCE_BLOCKED (shown for the signing basket 400). tppMessages and error bodies both take them.
 */
export const MESSAGE_CODES = [
  'SYSTEM_ERROR',
  'BAD_REQUEST',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'HTTP_HEADER_REQUIRED',
  'QUERY_PARAMETER_REQUIRED',
  'SCA_NOT_FOUND',
  'SCA_EXPIRED',
  'SCA_INVALID',
  'FORMAT_ERROR',
  'RESOURCE_UNKNOWN',
  'PSU_CREDENTIALS_INVALID',
  'CONSENT_UNKNOWN',
  'CONSENT_INVALID',
  'CONSENT_EXPIRED',
  'ACCESS_EXCEEDED',
  'PRODUCT_UNKNOWN',
  'PRODUCT_INVALID',
  'KID_MISSING',
  'KID_INVALID',
  'PAYMENT_FAILED',
  'EXECUTION_DATE_INVALID',
  'REFERENCE_MIX_INVALID',
  'RESOURCE_BLOCKED',
] as const;
export type MessageCode = (typeof MESSAGE_CODES)[number];
export const LINK_VERBS = ['GET', 'PUT', 'POST', 'DELETE'] as const;
/** Berlin Group balanceType (interimBooked is the specification's card-account balance). */
export const BALANCE_TYPES = [
  'closingBooked',
  'expected',
  'openingBooked',
  'interimAvailable',
  'interimBooked',
  'forwardAvailable',
  'nonInvoiced',
] as const;

/** The Berlin Group currencyCode pattern: the shape of any ISO 4217 code, current or not, listed or not. */
const CURRENCY_CODE_SHAPE = '^[A-Z]{3}$';

export const CurrencyCode = named('CurrencyCode', "ISO 4217 code of the specification's currency list.", {
  type: 'string',
  format: 'currency-code',
  ...req('PAY-10'),
});

/**
 * A currency the bank reports (an account's, a transaction's): the Berlin Group currencyCode, three capital
 * letters. The specification's list binds the payment request (Currency), not the accounts a bank keeps.
 */
export const ReportedCurrency = named('ReportedCurrency', 'A three-letter currency code (Berlin Group currencyCode).', {
  type: 'string',
  pattern: CURRENCY_CODE_SHAPE,
  ...req('FMT-09'),
});

export const Iban = named('Iban', 'IBAN in electronic form (ISO 13616-1), at most 34 characters, valid mod-97 check digits.', {
  type: 'string',
  maxLength: IBAN_MAX_LENGTH,
  pattern: IBAN_PATTERN,
  format: 'iban',
  ...req('PAY-18', 'LIM-12'),
});

export const Bic = named('Bic', 'BICFI (ISO 9362).', {
  type: 'string',
  pattern: BIC_PATTERN,
  format: 'bic',
  ...req('ADR-03'),
});

export const IsoDate = named('IsoDate', 'ISO 8601 date YYYY-MM-DD.', {
  type: 'string',
  format: 'iso-date',
  ...req('FMT-05'),
});

export const IsoDateTime = named('IsoDateTime', 'Date-time YYYY-MM-DDThh:mm:ss+00:00 (RFC 3339: fractions and Z accepted).', {
  type: 'string',
  format: 'iso-date-time',
  ...req('FMT-06'),
});

export const Uuid = named('Uuid', 'UUID (RFC 4122).', {
  type: 'string',
  format: 'uuid',
  ...req('PSU-01'),
});

/**
 * An amount the bank answers with (balances, transactions, fees, card purchases): `amount` a string
 * holding a decimal number (FMT-09), `currency` a three-letter code. The rules of the payment request
 * (precision, scale, minor units, the closed currency list) are the payment's (PaymentAmount): a JPY
 * balance of "1500.00", a fee of "1.005" NOK or a card purchase in SSP are amounts as strings.
 */
export const Amount = named('Amount', 'An amount in a response: a decimal number as a string, with a three-letter currency code.', {
  type: 'object',
  required: ['currency', 'amount'],
  ...req('FMT-09'),
  properties: {
    currency: ref('ReportedCurrency', req('FMT-09')),
    amount: { type: 'string', pattern: AMOUNT_SYNTAX_PATTERN, ...req('FMT-09') },
  },
});

/**
 * The amount of a payment (instructedAmount): a code of the specification's currency list (PAY-10), an
 * amount string (PAY-04, FMT-10) in the Berlin Group written form (PAY-09) with precision 18 (PAY-05),
 * scale 5 (PAY-06) and no more fraction digits than the currency's minor units (PAY-07). Zero and negative
 * amounts are not refused here: neither source rules them out (PAY-48 is a SHOULD, checked by the suites),
 * and a schema error is a failure.
 */
export const PaymentAmount = named(
  'PaymentAmount',
  'instructedAmount of a payment: precision 18, scale 5, within the ISO 4217 minor units of its currency.',
  {
    type: 'object',
    required: ['currency', 'amount'],
    ...req('PAY-03'),
    properties: {
      currency: ref('CurrencyCode', req('PAY-10')),
      amount: {
        type: 'string',
        ...req('PAY-04', 'FMT-10'),
        allOf: [
          { pattern: AMOUNT_SYNTAX_PATTERN, ...req('PAY-09') },
          { pattern: AMOUNT_PRECISION_PATTERN, ...req('PAY-05', 'LIM-17') },
          { pattern: AMOUNT_SCALE_PATTERN, ...req('PAY-06', 'LIM-17') },
        ],
      },
    },
    allOf: [{ amountMatchesCurrency: true, ...req('PAY-07', 'LIM-17') }],
  },
);

/** transactionFees of the payment initiation response: currency of the list (Currency), amount a string (PAY-38). */
export const Fee = named('Fee', 'transactionFees: amount a string, currency of the specification list.', {
  type: 'object',
  required: ['currency', 'amount'],
  ...req('PAY-38'),
  properties: {
    currency: ref('CurrencyCode', req('PAY-38')),
    amount: { type: 'string', pattern: AMOUNT_SYNTAX_PATTERN, ...req('PAY-38', 'FMT-09') },
  },
});

/** Berlin Group accountReference: any of iban, bban, pan, maskedPan, msisdn, with an optional currency. */
export const AccountReference = named('AccountReference', 'Reference to an account (Berlin Group 1.3 accountReference).', {
  type: 'object',
  ...req('AIS-11'),
  properties: {
    iban: ref('Iban'),
    bban: { type: 'string', pattern: '^[a-zA-Z0-9]{1,30}$', ...req('AIS-11') },
    pan: { type: 'string', maxLength: 35, ...req('AIS-11') },
    maskedPan: { type: 'string', maxLength: 35, ...req('AIS-11') },
    msisdn: { type: 'string', maxLength: 35, ...req('AIS-11') },
    currency: ref('ReportedCurrency', req('AIS-11')),
  },
});

/** The specification's address (creditorAddress). The Berlin Group names streetName and postCode are not described. */
export const Address = named('Address', "The specification's address; city is deprecated, replaced by townName.", {
  type: 'object',
  required: ['country'],
  ...req('PAY-20'),
  properties: {
    street: { type: 'string', maxLength: 70, ...req('PAY-21', 'LIM-11') },
    buildingNumber: { type: 'string', ...req('PAY-22') },
    postalCode: { type: 'string', ...req('PAY-22') },
    city: { type: 'string', deprecated: true, ...req('PAY-23') },
    townName: { type: 'string', ...req('PAY-24') },
    country: {
      type: 'string',
      ...req('PAY-25'),
      allOf: [
        { minLength: 2, maxLength: 2, ...req('PAY-26', 'LIM-14') },
        { format: 'country-code', ...req('PAY-27') },
      ],
    },
  },
});

const linkHref: JsonSchema = { type: 'string', format: 'uri-reference', ...req('MSG-05') };
/** verbs: an array of the four verbs; the specification sets no minimum number of them (MSG-06). */
const linkVerbs = (id: string): JsonSchema => ({
  type: 'array',
  ...req(id),
  items: { type: 'string', enum: [...LINK_VERBS], ...req(id) },
});

/**
 * The specification's Link: href and verbs, both required. It types the _links of the payment initiation
 * response and of the basket authorisation response, its 401 body included (MSG-07).
 */
export const Link = named('Link', "The specification's Link: href and verbs, both required.", {
  type: 'object',
  required: ['href', 'verbs'],
  ...req('MSG-07'),
  properties: { href: linkHref, verbs: linkVerbs('MSG-06') },
});

export const Links = named('Links', 'Map of link name to Link (_links).', {
  type: 'object',
  additionalProperties: ref('Link'),
  ...req('MSG-07'),
});

/**
 * A link the specification does not type (accounts, transactions and their pages, consents, signing
 * baskets, the 401 scaRedirect of an account read): the Berlin Group hrefType. Verbs are optional there,
 * and verbs given outside the Link's four are a SHOULD too (MSG-09).
 */
export const ResourceLink = named('ResourceLink', 'A link of a Berlin Group shaped resource: href required, verbs optional.', {
  type: 'object',
  required: ['href'],
  ...req('MSG-05'),
  properties: { href: linkHref, verbs: linkVerbs('MSG-09') },
});

export const ResourceLinks = named('ResourceLinks', 'Map of link name to ResourceLink (_links of a Berlin Group shaped resource).', {
  type: 'object',
  additionalProperties: ref('ResourceLink'),
  ...req('MSG-05'),
});

export const TppMessage = named('TppMessage', 'tppMessages item.', {
  type: 'object',
  required: ['category', 'code'],
  ...req('PAY-41'),
  properties: {
    category: { type: 'string', enum: ['ERROR', 'WARNING'], ...req('MSG-01') },
    code: { type: 'string', enum: [...MESSAGE_CODES], ...req('MSG-02') },
    path: { type: 'string', ...req('MSG-03') },
    text: { type: 'string', maxLength: 512, ...req('MSG-04', 'LIM-15') },
  },
});

export const PsuMessage = named('PsuMessage', 'Text to show to the PSU, at most 512 characters.', {
  type: 'string',
  maxLength: 512,
  ...req('PAY-42', 'LIM-16'),
});

export const TransactionStatus = named('TransactionStatus', "transactionStatus of a payment (the specification's list).", {
  type: 'string',
  enum: [...TRANSACTION_STATUSES],
  ...req('STA-05'),
});

export const ScaStatus = named('ScaStatus', "scaStatus (the specification's upper-case list).", {
  type: 'string',
  enum: [...SCA_STATUSES],
  ...req('STA-01'),
});

export const Balance = named('Balance', 'One balance (Berlin Group 1.3 balance).', {
  type: 'object',
  required: ['balanceAmount', 'balanceType'],
  ...req('AIS-12'),
  properties: {
    balanceAmount: ref('Amount', req('AIS-12')),
    balanceType: { type: 'string', enum: [...BALANCE_TYPES], ...req('AIS-12') },
    creditLimitIncluded: { type: 'boolean', ...req('AIS-12') },
    lastChangeDateTime: ref('IsoDateTime'),
    referenceDate: ref('IsoDate'),
    lastCommittedTransaction: { type: 'string', maxLength: 35, ...req('AIS-12') },
  },
});

export const BalanceList = named('BalanceList', 'List of balances.', {
  type: 'array',
  items: ref('Balance'),
  ...req('AIS-12'),
});

export const COMMON_SCHEMAS = {
  CurrencyCode,
  ReportedCurrency,
  Iban,
  Bic,
  IsoDate,
  IsoDateTime,
  Uuid,
  Amount,
  PaymentAmount,
  Fee,
  AccountReference,
  Address,
  Link,
  Links,
  ResourceLink,
  ResourceLinks,
  TppMessage,
  PsuMessage,
  TransactionStatus,
  ScaStatus,
  Balance,
  BalanceList,
} satisfies Record<string, JsonSchema>;
