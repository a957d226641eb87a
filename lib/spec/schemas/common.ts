/**
 * Shared sub-schemas: leaf formats, Amount, AccountReference, Address, Link, tppMessages, states,
 * balances. Every other schema references these with `$ref`.
 *
 * Where one value is bound by rules of different requirements (an amount's precision, scale and minor
 * units), each rule sits in its own `allOf` member with its own `x-requirement`, so an error names the
 * one requirement it breaks. The `x-requirement` at the root of a registry schema is a default: where
 * the schema is used, an `x-requirement` next to its `$ref` (or nearer the value) comes first (see
 * lib/validate/errors.ts).
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
  'RECEIVED', 'PSU_IDENTIFIED', 'PSU_AUTHENTICATED', 'SCA_METHOD_SELECTED', 'STARTED', 'FINALISED', 'FAILED', 'EXEMPTED',
] as const;
/**
 * The message codes of the specification ("Errors"): the 23 listed, REFERENCE_MIX_INVALID ("also seen") and
 * RESOURCE_BLOCKED (shown for the signing basket 400). tppMessages and error bodies both take them.
 */
export const MESSAGE_CODES = [
  'SYSTEM_ERROR', 'BAD_REQUEST', 'FORBIDDEN', 'NOT_FOUND', 'CONFLICT', 'HTTP_HEADER_REQUIRED', 'QUERY_PARAMETER_REQUIRED',
  'SCA_NOT_FOUND', 'SCA_EXPIRED', 'SCA_INVALID', 'FORMAT_ERROR', 'RESOURCE_UNKNOWN', 'PSU_CREDENTIALS_INVALID',
  'CONSENT_UNKNOWN', 'CONSENT_INVALID', 'CONSENT_EXPIRED', 'ACCESS_EXCEEDED', 'PRODUCT_UNKNOWN', 'PRODUCT_INVALID',
  'KID_MISSING', 'KID_INVALID', 'PAYMENT_FAILED', 'EXECUTION_DATE_INVALID', 'REFERENCE_MIX_INVALID', 'RESOURCE_BLOCKED',
] as const;
export type MessageCode = (typeof MESSAGE_CODES)[number];
export const LINK_VERBS = ['GET', 'PUT', 'POST', 'DELETE'] as const;
/** Berlin Group balanceType (interimBooked is the specification's card-account balance). */
export const BALANCE_TYPES = [
  'closingBooked', 'expected', 'openingBooked', 'interimAvailable', 'interimBooked', 'forwardAvailable', 'nonInvoiced',
] as const;

export const CurrencyCode = named('CurrencyCode', "ISO 4217 code of the specification's currency list.", {
  type: 'string',
  format: 'currency-code',
  ...req('PAY-10'),
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
 * An amount of any response or request: `amount` is a string (FMT-09) with precision 18 (PAY-05),
 * scale 5 (PAY-06) and no more fraction digits than the currency's minor units (PAY-07).
 */
export const Amount = named('Amount', 'Amount: a string with precision 18, scale 5, within the ISO 4217 minor units of its currency.', {
  type: 'object',
  required: ['currency', 'amount'],
  ...req('FMT-09'),
  properties: {
    currency: ref('CurrencyCode'),
    amount: {
      type: 'string',
      ...req('FMT-09'),
      allOf: [
        { pattern: AMOUNT_SYNTAX_PATTERN, ...req('FMT-09') },
        { pattern: AMOUNT_PRECISION_PATTERN, ...req('PAY-05', 'LIM-17') },
        { pattern: AMOUNT_SCALE_PATTERN, ...req('PAY-06', 'LIM-17') },
      ],
    },
  },
  allOf: [{ amountMatchesCurrency: true, ...req('PAY-07', 'LIM-17') }],
});

/**
 * The amount of a payment (instructedAmount): an Amount whose written form is the Berlin Group one
 * (PAY-09). Zero and negative amounts are not refused here: neither source rules them out (PAY-48 is a
 * SHOULD, checked by the suites), and a schema error is a failure.
 */
export const PaymentAmount = named('PaymentAmount', 'instructedAmount of a payment: an Amount in the Berlin Group written form.', {
  allOf: [ref('Amount')],
  type: 'object',
  required: ['currency', 'amount'],
  properties: {
    currency: req('PAY-10'),
    amount: {
      type: 'string',
      ...req('PAY-04', 'FMT-10'),
      allOf: [{ pattern: AMOUNT_SYNTAX_PATTERN, ...req('PAY-09') }],
    },
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
    currency: ref('CurrencyCode'),
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
const linkVerbs: JsonSchema = {
  type: 'array',
  ...req('MSG-06'),
  items: { type: 'string', enum: [...LINK_VERBS], ...req('MSG-06') },
};

/**
 * The specification's Link: href and verbs, both required. It types the _links of the payment initiation
 * response, of the basket authorisation response and of a 401 body with scaRedirect (MSG-07).
 */
export const Link = named('Link', "The specification's Link: href and verbs, both required.", {
  type: 'object',
  required: ['href', 'verbs'],
  ...req('MSG-07'),
  properties: { href: linkHref, verbs: linkVerbs },
});

export const Links = named('Links', 'Map of link name to Link (_links).', {
  type: 'object',
  additionalProperties: ref('Link'),
  ...req('MSG-07'),
});

/**
 * A link of a resource the specification does not show (accounts, transactions and their pages,
 * consents, signing baskets): the Berlin Group hrefType, so verbs are optional there (MSG-09 is a
 * SHOULD), but verbs that are given are the Link's verbs.
 */
export const ResourceLink = named('ResourceLink', 'A link of a Berlin Group shaped resource: href required, verbs optional.', {
  type: 'object',
  required: ['href'],
  ...req('MSG-05'),
  properties: { href: linkHref, verbs: linkVerbs },
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
  Iban,
  Bic,
  IsoDate,
  IsoDateTime,
  Uuid,
  Amount,
  PaymentAmount,
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
