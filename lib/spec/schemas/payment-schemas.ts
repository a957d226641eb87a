/**
 * Payment schemas: the specification's payment initiation request and 201 response and the payment
 * status; periodic and bulk payments and payment details following Berlin Group 1.3 (the specification
 * says "not shown"), with the specification's own field rules reused.
 *
 * The request's fields are written here as the specification's table gives them, each rule with the
 * requirement id of its row (PAY-01 to PAY-35, limits LIM-09 to LIM-14), so the schema reads like the
 * table. Amount and Address are shared and referenced.
 */
import { BIC_PATTERN, IBAN_MAX_LENGTH, IBAN_PATTERN } from '../patterns.js';
import { named, ref, req } from './base.js';
import type { JsonSchema } from './base.js';

export const FREQUENCY_CODES = [
  'Daily',
  'Weekly',
  'EveryTwoWeeks',
  'Monthly',
  'EveryTwoMonths',
  'Quarterly',
  'SemiAnnual',
  'Annual',
  'MonthlyVariable',
] as const;
export const DAYS_OF_EXECUTION = Array.from({ length: 31 }, (_, i) => String(i + 1));
export const MONTHS_OF_EXECUTION = Array.from({ length: 12 }, (_, i) => String(i + 1));

/** An IBAN field of a payment: required/type, length and ISO 13616 form each with their own ids. */
function paymentIban(typeIds: string[], lengthIds: string[], formIds: string[]): JsonSchema {
  return {
    type: 'string',
    ...req(...typeIds),
    allOf: [
      { maxLength: IBAN_MAX_LENGTH, ...req(...lengthIds) },
      { pattern: IBAN_PATTERN, format: 'iban', ...req(...formIds) },
    ],
  };
}

/** creditorAccount or debtorAccount of a payment: iban and currency, both required. */
function paymentAccount(objectId: string, iban: JsonSchema, currencyId: string): JsonSchema {
  return {
    type: 'object',
    required: ['iban', 'currency'],
    ...req(objectId),
    properties: {
      iban,
      currency: ref('CurrencyCode', req(currencyId)),
    },
  };
}

const creditorAccount = paymentAccount('PAY-15', paymentIban(['PAY-16'], ['PAY-17', 'LIM-12'], ['PAY-18']), 'PAY-19');
const debtorAccount = paymentAccount('PAY-28', paymentIban(['PAY-29'], ['PAY-29', 'LIM-12'], ['PAY-29', 'PAY-18']), 'PAY-30');

/** Fields a payment shares with a bulk payment entry (everything on the creditor side). */
const creditorSide: Record<string, JsonSchema> = {
  endToEndIdentification: {
    type: 'string',
    ...req('PAY-01'),
    allOf: [{ maxLength: 35, ...req('PAY-02', 'LIM-09') }],
  },
  instructedAmount: ref('PaymentAmount', req('PAY-03')),
  creditorName: {
    type: 'string',
    ...req('PAY-13'),
    allOf: [{ maxLength: 70, ...req('PAY-14', 'LIM-10') }],
  },
  creditorAccount,
  creditorAgent: { type: 'string', pattern: BIC_PATTERN, format: 'bic', ...req('ADR-03') },
  creditorAddress: ref('Address', req('PAY-20')),
  remittanceInformationUnstructured: {
    type: 'string',
    ...req('PAY-33'),
    allOf: [
      { minLength: 1, ...req('PAY-31') },
      { maxLength: 140, ...req('PAY-32', 'LIM-13') },
    ],
  },
};

export const PaymentInitiationRequest = named(
  'PaymentInitiationRequest',
  'Body of POST /v1/payments/sepa-credit-transfers (and the other single-payment products).',
  {
    type: 'object',
    required: ['instructedAmount', 'creditorName', 'creditorAccount', 'debtorAccount'],
    ...req('END-01'),
    properties: {
      ...creditorSide,
      debtorAccount,
      requestedExecutionDate: ref('IsoDate', req('PAY-35')),
    },
  },
);

/** A name or town the structured-address rule asks for: not empty (ADR-14, ADR-15), not only spaces (ADR-16). */
function availableText(emptyId: string): JsonSchema {
  // An empty string breaks only its own rule: the blank rule looks at non-empty strings alone.
  return {
    allOf: [
      { type: 'string', minLength: 1, ...req(emptyId) },
      { type: 'string', pattern: '^$|\\S', ...req('ADR-16') },
    ],
  };
}

/**
 * The structured-address rule for one payment, or one payment of a bulk (rule 1: every creditor): the TPP
 * supplies the creditor agent BIC, a creditor name and the creditor's town name and country code, none of
 * them empty or blank. The deprecated city stands for townName where the bank still accepts it (catalogue
 * ADR-05, PAY-23). It describes what a TPP sends to meet the rule; a bank may still infer a missing BIC (ADR-13).
 */
const structuredAddressParts: JsonSchema = {
  type: 'object',
  required: ['creditorAgent', 'creditorName', 'creditorAddress'],
  ...req('ADR-01'),
  properties: {
    creditorAgent: req('ADR-03'),
    creditorName: { ...req('ADR-04'), ...availableText('ADR-14') },
    creditorAddress: {
      type: 'object',
      required: ['country'],
      ...req('ADR-05', 'ADR-06'),
      properties: {
        country: req('ADR-06'),
      },
      // A city that names a town stands for it; otherwise townName must.
      if: { properties: { city: { type: 'string', pattern: '\\S' } }, required: ['city'] },
      else: { properties: { townName: { ...req('ADR-05'), ...availableText('ADR-15') } }, required: ['townName'] },
    },
  },
};

/**
 * The structured-address rule (enforced from 13 August 2026 in the sandbox, 15 November 2026 in production), for a single or periodic
 * payment.
 */
export const PaymentInitiationRequestStructuredAddress = named(
  'PaymentInitiationRequestStructuredAddress',
  'A payment initiation request that also meets the structured-address rule.',
  { allOf: [ref('PaymentInitiationRequest'), structuredAddressParts] },
);

/** The structured-address rule for a bulk payment: every payment of it names its creditor in full. */
export const BulkPaymentInitiationRequestStructuredAddress = named(
  'BulkPaymentInitiationRequestStructuredAddress',
  'A bulk payment initiation request whose every payment meets the structured-address rule.',
  {
    allOf: [ref('BulkPaymentInitiationRequest')],
    type: 'object',
    properties: { payments: { type: 'array', items: structuredAddressParts } },
  },
);

export const PaymentInitiationResponse = named('PaymentInitiationResponse', 'Body of the 201 answer to a payment initiation.', {
  type: 'object',
  required: ['paymentId', 'transactionStatus'],
  ...req('END-01'),
  properties: {
    paymentId: { type: 'string', minLength: 1, ...req('PAY-36') },
    transactionStatus: ref('TransactionStatus', req('PAY-37', 'STA-05')),
    transactionFees: ref('Fee', req('PAY-38')),
    transactionFeeIndicator: { type: 'boolean', ...req('PAY-40') },
    tppMessages: { type: 'array', items: ref('TppMessage'), ...req('PAY-41') },
    psuMessage: ref('PsuMessage'),
    _links: ref('Links', req('PAY-43', 'MSG-07')),
  },
});

export const PaymentStatus = named('PaymentStatus', 'Body of GET /v1/{payment-service}/{payment-product}/{paymentId}/status.', {
  type: 'object',
  required: ['transactionStatus'],
  ...req('END-06'),
  properties: {
    transactionStatus: ref('TransactionStatus', req('END-06', 'STA-05')),
    fundsAvailable: { type: 'boolean', ...req('END-07', 'STA-06') },
    psuMessage: ref('PsuMessage'),
  },
});

const details = req('PAY-53');

/**
 * Body of GET /v1/{payment-service}/{payment-product}/{paymentId}: Berlin Group paymentInitiationWithStatusResponse
 * (a single or periodic payment: debtorAccount, instructedAmount, creditorAccount, creditorName), or its bulk
 * form (debtorAccount and the payments). A response: accounts are account references, the amount is an
 * amount as any response writes it; the rules of the request table do not judge it (PAY-53).
 */
export const PaymentDetails = named(
  'PaymentDetails',
  "Body of GET /v1/{payment-service}/{payment-product}/{paymentId}: the payment as initiated, with its transactionStatus (Berlin Group 1.3); a bulk payment's holds its payments.",
  {
    type: 'object',
    required: ['debtorAccount'],
    ...details,
    // AJV's strict mode wants each required property declared beside it; `true` adds no rule
    anyOf: [
      {
        required: ['instructedAmount', 'creditorAccount', 'creditorName'],
        properties: { instructedAmount: true, creditorAccount: true, creditorName: true },
        ...details,
      },
      { required: ['payments'], properties: { payments: true }, ...details },
    ],
    properties: {
      endToEndIdentification: { type: 'string', ...details },
      debtorAccount: ref('AccountReference', details),
      instructedAmount: ref('Amount', details),
      creditorAccount: ref('AccountReference', details),
      creditorAgent: ref('Bic', details),
      creditorName: { type: 'string', ...details },
      creditorAddress: { type: 'object', ...details },
      remittanceInformationUnstructured: { type: 'string', ...details },
      // how a date is written is FMT-05's rule (IsoDate's own), not the shape of the details
      requestedExecutionDate: ref('IsoDate'),
      // a periodic payment's details carry its standing order
      startDate: ref('IsoDate'),
      endDate: ref('IsoDate'),
      executionRule: { type: 'string', ...details },
      frequency: { type: 'string', ...details },
      dayOfExecution: { type: 'string', ...details },
      monthsOfExecution: { type: 'array', ...details },
      payments: { type: 'array', items: { type: 'object', ...details }, ...details },
      transactionStatus: ref('TransactionStatus', req('STA-05')),
    },
  },
);

export const PeriodicPaymentInitiationRequest = named(
  'PeriodicPaymentInitiationRequest',
  'Body of POST /v1/periodic-payments/{payment-product} (Berlin Group 1.3; duplicate months of execution rejected).',
  {
    allOf: [ref('PaymentInitiationRequest')],
    type: 'object',
    required: ['startDate', 'frequency'],
    ...req('PAY-44'),
    properties: {
      startDate: ref('IsoDate'),
      endDate: ref('IsoDate'),
      executionRule: { type: 'string', enum: ['following', 'preceding'], ...req('PAY-44') },
      frequency: { type: 'string', enum: [...FREQUENCY_CODES], ...req('PAY-44') },
      dayOfExecution: { type: 'string', maxLength: 2, enum: DAYS_OF_EXECUTION, ...req('PAY-44') },
      monthsOfExecution: {
        type: 'array',
        maxItems: 11,
        ...req('PAY-44'),
        allOf: [{ uniqueItems: true, ...req('ERR-42') }],
        items: { type: 'string', maxLength: 2, enum: MONTHS_OF_EXECUTION, ...req('ERR-42') },
      },
    },
    if: { properties: { frequency: { const: 'MonthlyVariable' } }, required: ['frequency'] },
    then: { properties: { monthsOfExecution: true }, required: ['monthsOfExecution'], ...req('PAY-44') },
  },
);

/** Fields of a bulk payment that its payments may not carry (Berlin Group: they belong to the bulk). */
const BULK_LEVEL_FIELDS = ['debtorAccount', 'requestedExecutionDate', 'requestedExecutionTime'] as const;

export const BulkPaymentEntry = named(
  'BulkPaymentEntry',
  'One payment of a bulk payment (no debtorAccount, no execution date of its own).',
  {
    type: 'object',
    ...req('PAY-45'),
    required: ['instructedAmount', 'creditorName', 'creditorAccount'],
    properties: { ...creditorSide, ...Object.fromEntries(BULK_LEVEL_FIELDS.map((field) => [field, { not: {}, ...req('PAY-52') }])) },
  },
);

export const BulkPaymentInitiationRequest = named(
  'BulkPaymentInitiationRequest',
  'Body of POST /v1/bulk-payments/{payment-product} (Berlin Group 1.3).',
  {
    type: 'object',
    required: ['debtorAccount', 'payments'],
    ...req('PAY-45'),
    properties: {
      batchBookingPreferred: { type: 'boolean', ...req('PAY-45') },
      debtorAccount,
      requestedExecutionDate: ref('IsoDate', req('PAY-35')),
      requestedExecutionTime: ref('IsoDateTime'),
      // the Berlin Group sets no minimum number of payments (PAY-45); an empty bulk pays nothing (PAY-51, a SHOULD)
      payments: { type: 'array', items: ref('BulkPaymentEntry'), ...req('PAY-45'), allOf: [{ minItems: 1, ...req('PAY-51') }] },
    },
  },
);

export const PAYMENT_SCHEMAS = {
  PaymentInitiationRequest,
  PaymentInitiationRequestStructuredAddress,
  BulkPaymentInitiationRequestStructuredAddress,
  PaymentInitiationResponse,
  PaymentStatus,
  PaymentDetails,
  PeriodicPaymentInitiationRequest,
  BulkPaymentEntry,
  BulkPaymentInitiationRequest,
} satisfies Record<string, JsonSchema>;
