// Payment validation: whether a payment initiation request is one the bank takes. Every rule of the
// specification's payment request table is checked through the project's payment schemas (each error names the
// requirement of its row), then the rules the schema does not hold: the structured-address rule from its
// enforcement date by the bank's clock, a positive amount, an execution date not in the past; then a lack of
// funds and logical duplicates. A refused payment leaves nothing behind. Each fault here switches off or bends one
// rule where it is decided; each variant is another bank's reading of a freedom the text leaves.
import { minorUnitsOf } from '../../lib/spec/codelists.js';
import type { PaymentProduct, PaymentService } from '../../lib/spec/payment-products.js';
import type { SchemaName } from '../../lib/spec/schemas/index.js';
import { failedRequirements, type ReadableError } from '../../lib/validate/index.js';
import { BankError } from '../bank-errors.js';
import { tppOf, type BankContext } from '../http/bank-context.js';
import { day } from '../serialisation.js';
import type { PaymentBody } from '../state/payment-store.js';
import { defineFault, defineVariant } from '../switches.js';

/** Structured-address rule 5: enforced in the sandbox (this bank) from this day. */
export const STRUCTURED_ADDRESS_ENFORCED_FROM = '2026-08-13';

const SCHEMA_OF: Record<PaymentService, SchemaName> = {
  payments: 'PaymentInitiationRequest',
  'periodic-payments': 'PeriodicPaymentInitiationRequest',
  'bulk-payments': 'BulkPaymentInitiationRequest',
};

/** The one schema error an amount written as a JSON number gets (its amount is of type string: PAY-04, FMT-10). */
const amountNotAString = (error: ReadableError) => error.pointer.endsWith('/amount') && error.rule.startsWith('type');

/**
 * Faults that switch off one rule of the request table: the bank then ignores every schema error that
 * names one of `ignores` (an error may name several rows, e.g. a 35-character IBAN breaks length and form),
 * of those only the errors `when` picks, where one schema error stands for two defects (a missing amount and an amount
 * written as a number both name PAY-04 and FMT-10).
 */
const RULE_FAULTS = [
  { name: 'payment-ignores-end-to-end-length', ignores: ['PAY-02'], breaks: ['PAY-02', 'LIM-09'] },
  {
    name: 'payment-ignores-missing-amount',
    ignores: ['PAY-03', 'PAY-04'],
    breaks: ['PAY-03', 'PAY-04'],
    when: (error: ReadableError) => !amountNotAString(error),
  },
  { name: 'payment-accepts-amount-as-number', ignores: ['FMT-10'], breaks: ['FMT-10'], when: amountNotAString },
  { name: 'payment-ignores-amount-precision', ignores: ['PAY-05'], breaks: ['PAY-05', 'LIM-17'] },
  { name: 'payment-ignores-amount-fraction-digits', ignores: ['PAY-06', 'PAY-07'], breaks: ['PAY-06', 'PAY-07', 'LIM-17'] },
  { name: 'payment-ignores-amount-form', ignores: ['PAY-09', 'FMT-09'], breaks: ['PAY-09'] },
  { name: 'payment-ignores-currency-list', ignores: ['PAY-10', 'PAY-19', 'PAY-30'], breaks: ['PAY-10', 'PAY-11', 'PAY-19', 'PAY-30'] },
  { name: 'payment-ignores-creditor-name', ignores: ['PAY-13', 'PAY-14', 'ADR-04'], breaks: ['PAY-13', 'PAY-14', 'LIM-10', 'ADR-04'] },
  {
    name: 'payment-ignores-creditor-account',
    ignores: ['PAY-15', 'PAY-16', 'PAY-17', 'PAY-18'],
    breaks: ['PAY-15', 'PAY-16', 'PAY-17', 'PAY-18', 'LIM-12'],
  },
  // A creditorAddress that is a string breaks the structured-address rule by the same error (it names PAY-20 too).
  { name: 'payment-ignores-address-fields', ignores: ['PAY-20', 'PAY-21', 'PAY-22'], breaks: ['PAY-20', 'PAY-21', 'PAY-22', 'LIM-11'] },
  {
    name: 'payment-ignores-address-country',
    ignores: ['PAY-25', 'PAY-26', 'PAY-27', 'ADR-06'],
    breaks: ['PAY-25', 'PAY-26', 'PAY-27', 'LIM-14', 'ADR-06', 'ADR-07'],
  },
  { name: 'payment-ignores-debtor-account', ignores: ['PAY-28', 'PAY-29'], breaks: ['PAY-28', 'PAY-29', 'LIM-12'] },
  // A text over 140 characters may be taken (and truncated, PAY-32): only the empty one shows.
  { name: 'payment-ignores-remittance-length', ignores: ['PAY-31', 'PAY-32'], breaks: ['PAY-31'] },
  { name: 'payment-ignores-execution-date-form', ignores: ['PAY-35'], breaks: ['PAY-35'] },
  { name: 'payment-ignores-creditor-agent', ignores: ['ADR-03'], breaks: ['ADR-03'] },
  // A payment without any creditorAddress lacks town and country alike: it gets through too (ADR-06).
  { name: 'payment-ignores-creditor-town', ignores: ['ADR-05'], breaks: ['ADR-05', 'ADR-06', 'ADR-07', 'ERR-40', 'ADR-01', 'ADR-08'] },
  { name: 'periodic-payment-ignores-duplicate-months', ignores: ['ERR-42'], breaks: ['ERR-42'] },
  // [blind-spots] required texts of the structured-address rule, and the bulk shape.
  { name: 'payment-accepts-empty-creditor-name', ignores: ['ADR-14'], breaks: ['ADR-14'] },
  { name: 'payment-accepts-empty-town-name', ignores: ['ADR-15'], breaks: ['ADR-15'] },
  { name: 'payment-accepts-blank-names', ignores: ['ADR-16'], breaks: ['ADR-16'] },
  { name: 'bulk-payment-accepts-no-payments', ignores: ['PAY-51'], breaks: ['PAY-51'] },
  { name: 'bulk-entry-accepts-bulk-fields', ignores: ['PAY-52'], breaks: ['PAY-52'] },
].map(
  ({ name, ignores, breaks, when }: { name: string; ignores: string[]; breaks: string[]; when?: (error: ReadableError) => boolean }) => ({
    fault: defineFault(name, {
      description: `the bank does not check payment rule${ignores.length > 1 ? 's' : ''} ${ignores.join(', ')}`,
      breaks,
    }),
    ignores,
    when: when ?? (() => true),
  }),
);

const refusesPeriodic = defineFault('periodic-payments-refused', {
  description: 'well-formed periodic payments are refused',
  breaks: ['PAY-44'],
});
const refusesBulk = defineFault('bulk-payments-refused', { description: 'well-formed bulk payments are refused', breaks: ['PAY-45'] });
const fieldRefusalCode = defineFault('payment-field-refusal-code', {
  description: 'a payment breaking a rule of the request table is refused with code PAYMENT_FAILED instead of FORMAT_ERROR',
  breaks: ['ERR-21'],
});
const optionalReadingsAs422 = defineFault('payment-optional-readings-as-422', {
  description:
    'what the specification lets a bank accept or refuse with 400 (city, fewer fraction digits, no BIC, a remittance text over 140 characters, a logical duplicate) gets 422',
  breaks: ['PAY-23', 'PAY-47', 'ADR-13', 'END-04', 'PAY-32', 'LIM-13'],
});
const enforcedEarly = defineFault('payment-address-rule-always-enforced', {
  description: 'the structured-address rule is enforced whatever the date',
  breaks: ['ADR-09'],
});
const acceptsZeroAmount = defineFault('payment-accepts-zero-amount', {
  description: 'a payment of zero or a negative amount is accepted',
  breaks: ['PAY-48'],
});
const acceptsPastExecutionDate = defineFault('payment-accepts-past-execution-date', {
  description: 'a requestedExecutionDate in the past is accepted',
  breaks: ['ERR-33'],
});
const refusesDomesticProduct = defineFault('payment-refuses-other-products', {
  description: 'products other than sepa-credit-transfers refuse a SEPA-shaped body',
  breaks: ['PAY-46'],
});

const someFrequencies = defineVariant('periodic-some-frequencies', {
  description:
    'periodic payments are offered with the frequencies Weekly, Monthly, Quarterly and Annual only: another frequency is refused (400 FORMAT_ERROR)',
  allowedBy:
    'Berlin Group 1.3.8 frequencyCode lists the ISO 20022 codes a frequency is written in; which standing orders a bank offers is its own ("only necessary to support a certain subset")',
  source: 'Berlin Group 1.3.8, schema frequencyCode and info',
});
const OFFERED_FREQUENCIES: readonly unknown[] = ['Weekly', 'Monthly', 'Quarterly', 'Annual'];
const sepaInEuroOnly = defineVariant('sepa-in-euro-only', {
  description:
    'a sepa-credit-transfers payment in another currency than EUR is refused (400 FORMAT_ERROR): SEPA credit transfers are euro payments',
  allowedBy:
    'The request table types the currency "one of the currency list below" without saying which currencies a product takes; a SEPA credit transfer is a payment in euro (the SEPA scheme), and the Berlin Group lets the bank publish its products',
  source: 'Specification, Payment initiation request (sepa-credit-transfers); Berlin Group 1.3.8, path parameter payment-product',
});

const refusesDuplicatesAlways = defineFault('payment-refuses-allowed-duplicates', {
  description: 'a logical duplicate is refused even with allowLogicalDuplicate=true',
  breaks: ['END-02'],
});
const duplicateAsBadRequest = defineFault('payment-duplicate-code', {
  description: 'a refused logical duplicate gets 400 FORMAT_ERROR instead of 409 CONFLICT',
  breaks: ['ERR-15'],
});
const allowDuplicateAnyValue = defineFault('payment-allow-duplicate-any-value', {
  description: 'allowLogicalDuplicate values other than true or false are read as false',
  breaks: ['END-03'],
});
const refusesUtf8Remittance = defineFault('payment-refuses-utf8-remittance', {
  description: 'remittance text with Norwegian letters is refused',
  breaks: ['PAY-33'],
});
const refusesWithoutEndToEnd = defineFault('payment-requires-end-to-end', {
  description: 'a payment without endToEndIdentification is refused',
  breaks: ['PAY-01', 'END-01', 'ADR-02'],
});
const refusesExactMinorUnits = defineFault('payment-refuses-exact-minor-units', {
  description: 'an amount with exactly the minor units of its currency is refused',
  breaks: ['PAY-08'],
});
const refusesTownName = defineFault('payment-refuses-town-name', {
  description: 'creditorAddress.townName is refused (only the deprecated city is known)',
  breaks: ['PAY-24'],
});

const fundsRefusedAsFormatError = defineFault('payment-lack-of-funds-refused-as-format-error', {
  description: 'a payment above the debtor balance is refused at initiation with FORMAT_ERROR instead of PAYMENT_FAILED',
  breaks: ['ERR-32'],
});

const bulkSkipsAddressRule = defineFault('bulk-payment-skips-address-rule', {
  description: 'the structured-address rule is not applied to the payments of a bulk payment',
  breaks: ['ADR-01', 'ADR-05', 'ADR-06', 'ADR-07', 'ADR-08', 'ADR-14', 'ADR-15', 'ADR-16', 'ERR-40'],
});

function enforced(ctx: BankContext): boolean {
  return day(ctx.world.clock.now()) >= STRUCTURED_ADDRESS_ENFORCED_FROM || ctx.switches.breaks(enforcedEarly);
}

/** The schema errors a TPP's bank still enforces (a rule fault switches some off). */
function enforcedErrors(ctx: BankContext, schema: SchemaName, body: unknown, only?: (id: string) => boolean): ReadableError[] {
  const failed = failedRequirements(schema, body);
  const ignored = (error: ReadableError) => (id: string) =>
    RULE_FAULTS.some(({ fault, ignores, when }) => ignores.includes(id) && when(error) && ctx.switches.breaks(fault)) ||
    (id === 'ERR-42' && ctx.switches.reads(duplicateMonthsReportedRejected));
  const errors = new Map<ReadableError, string[]>();
  for (const [id, list] of failed) for (const error of list) errors.set(error, [...(errors.get(error) ?? []), id]);
  return [...errors].filter(([error, ids]) => (only === undefined || ids.some(only)) && !ids.some(ignored(error))).map(([error]) => error);
}

// The other side of the freedoms the specification leaves the bank (PAY-23, PAY-47, ADR-13, END-04): this bank
// takes city, fewer fraction digits and logical duplicates only with allowLogicalDuplicate; these readings differ.
const cityRefused = defineVariant('city-refused', {
  description: 'a creditorAddress with the deprecated city is refused (400 FORMAT_ERROR): only townName is taken',
  allowedBy: 'Versioning, Deprecations: "the Address.city property is removed in favour of Address.townName"',
  source: 'Specification, Versioning > Deprecations; Payment initiation request (city "deprecated, replaced by townName")',
});
const fewerDigitsRefused = defineVariant('fewer-fraction-digits-refused', {
  description: 'an amount with fewer fraction digits than its currency\'s minor units (EUR "10") is refused (400 FORMAT_ERROR)',
  allowedBy:
    'instructedAmount.amount: "the fraction digits must match the ISO 4217 minor units of the currency", read as exactly the minor units',
  source: 'Specification, Payment initiation request',
});
const creditorAgentInferred = defineVariant('creditor-agent-inferred', {
  description:
    'a payment without creditorAgent is taken once the structured-address rule is enforced: the BIC is inferred from the creditor IBAN',
  allowedBy:
    'Structured-address rule 4: "When mandatory address parts are missing and cannot be inferred, the service returns an error"; a BIC can be inferred from the IBAN',
  source: 'Specification, Structured-address rule 3 and 4',
});
const duplicatesAccepted = defineVariant('logical-duplicates-accepted', {
  description: 'a logical duplicate is taken (201) without allowLogicalDuplicate too',
  allowedBy:
    'allowLogicalDuplicate (boolean, optional): "whether logical duplicate payments are allowed"; neither its default nor the answer to a duplicate without it is given',
  source: 'Specification, Endpoints > POST /v1/payments/sepa-credit-transfers',
});
const lackOfFundsRefused = defineVariant('lack-of-funds-refused-at-initiation', {
  description:
    "a payment above the debtor account's balance is refused at initiation with 400 PAYMENT_FAILED, not reported through its status",
  allowedBy: 'Errors rule 5: "Insufficient funds give a proper error response, not 500"; Berlin Group MessageCode400_PIS PAYMENT_FAILED',
  source: 'Specification, Errors rule 5; Berlin Group 1.3.8, MessageCode400_PIS',
});

const duplicateMonthsReportedRejected = defineVariant('duplicate-months-reported-rejected', {
  description:
    'a MonthlyVariable periodic payment naming a month twice is taken (201) and reported rejected: its status reads RJCT from the start',
  allowedBy:
    'Errors rule 8: "MonthlyVariable with duplicate month identifiers is rejected": "rejected" is the name of the transaction status RJCT as much as of a refusal at initiation',
  source: 'Specification, Errors rule 8; Berlin Group 1.3.8, TransactionStatus RJCT ("Rejected")',
});

/** Whether a periodic payment naming a month twice (ERR-42) is taken and reported rejected (RJCT) under its reading. */
export function reportedRejected(ctx: BankContext, service: PaymentService, body: PaymentBody): boolean {
  return (
    service === 'periodic-payments' &&
    failedRequirements(SCHEMA_OF[service], body).has('ERR-42') &&
    ctx.switches.reads(duplicateMonthsReportedRejected)
  );
}

/** What a bank offering less than this one refuses of a well-formed payment (its variants): a frequency, a currency. */
function refuseWhatIsNotOffered(ctx: BankContext, service: PaymentService, product: PaymentProduct, body: PaymentBody): void {
  const frequency = (body as { frequency?: unknown }).frequency;
  if (service === 'periodic-payments' && !OFFERED_FREQUENCIES.includes(frequency) && ctx.switches.reads(someFrequencies)) {
    throw new BankError(400, 'FORMAT_ERROR', `Standing orders are offered weekly, monthly, quarterly or yearly, not ${String(frequency)}`);
  }
  const foreign = paymentsOf(body).some((p) => p.instructedAmount?.currency !== 'EUR');
  if (product === 'sepa-credit-transfers' && foreign && ctx.switches.reads(sepaInEuroOnly))
    throw new BankError(400, 'FORMAT_ERROR', 'A SEPA credit transfer is paid in EUR');
}

/** Refusals of the readings this bank otherwise takes (city, fewer fraction digits), under their variants. */
function refuseOtherReadings(ctx: BankContext, body: PaymentBody, refuse: (message: string) => Error): void {
  if (typeof (body.creditorAddress as { city?: unknown } | undefined)?.city === 'string' && ctx.switches.reads(cityRefused))
    throw refuse('creditorAddress.city is removed: send townName');
  const { amount, currency } = body.instructedAmount ?? {};
  const digits = typeof amount === 'string' ? (amount.split('.')[1] ?? '').length : undefined;
  const minor = typeof currency === 'string' ? minorUnitsOf(currency) : undefined;
  if (digits !== undefined && minor !== undefined && digits < minor && ctx.switches.reads(fewerDigitsRefused))
    throw refuse(`instructedAmount.amount must have ${minor} fraction digits for ${String(currency)}`);
}

/** A payment whose remittance text is over the table's 140 characters, which a bank may take and truncate (PAY-32). */
function remittanceOverLimit(payment: PaymentBody): boolean {
  const remittance = (payment as { remittanceInformationUnstructured?: unknown }).remittanceInformationUnstructured;
  return typeof remittance === 'string' && remittance.length > 140;
}

/** A body one of whose payments (itself, or one of a bulk) uses a freedom the specification leaves to the bank (PAY-23, PAY-47, ADR-13). */
function optionalReading(body: PaymentBody): boolean {
  return paymentsOf(body).some((payment) => {
    const usesCity = typeof (payment.creditorAddress as { city?: unknown } | undefined)?.city === 'string';
    const { amount, currency } = payment.instructedAmount ?? {};
    const minor = typeof currency === 'string' ? minorUnitsOf(currency) : undefined;
    const fewerDigits = typeof amount === 'string' && minor !== undefined && (amount.split('.')[1] ?? '').length < minor;
    return usesCity || fewerDigits || payment.creditorAgent === undefined;
  });
}

/** The single payments of a body: a bulk's payments, or the body itself. */
function paymentsOf(body: PaymentBody): PaymentBody[] {
  const { payments } = body as { payments?: unknown };
  return Array.isArray(payments) ? payments.filter((p): p is PaymentBody => typeof p === 'object' && p !== null) : [body];
}

/**
 * Every rule of the request table, then the rules the schema does not hold, then what a bank offering less
 * refuses (its variants). Throws the refusal; answers the payment a body is.
 */
export function validatePayment(ctx: BankContext, service: PaymentService, product: PaymentProduct, body: unknown): PaymentBody {
  const refuse = (message: string) =>
    new BankError(400, ctx.switches.breaks(fieldRefusalCode) ? 'PAYMENT_FAILED' : 'FORMAT_ERROR', message);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw refuse('The body must be a JSON object');

  if (
    (service === 'periodic-payments' && ctx.switches.breaks(refusesPeriodic)) ||
    (service === 'bulk-payments' && ctx.switches.breaks(refusesBulk))
  )
    throw refuse(`${service} are not offered`);
  const errors = enforcedErrors(ctx, SCHEMA_OF[service], body);
  // A remittance text over 140 characters is one of these freedoms (PAY-32), and breaks a rule of the table too: seen before the rules.
  if (paymentsOf(body as PaymentBody).some(remittanceOverLimit) && ctx.switches.breaks(optionalReadingsAs422))
    throw new BankError(422, 'FORMAT_ERROR', 'Unprocessable payment');
  if (errors[0]) throw refuse(errors[0].message);
  if (optionalReading(body as PaymentBody) && ctx.switches.breaks(optionalReadingsAs422))
    throw new BankError(422, 'FORMAT_ERROR', 'Unprocessable payment');
  refuseOtherReadings(ctx, body as PaymentBody, refuse);
  const bulk = service === 'bulk-payments';
  if (enforced(ctx) && !(bulk && ctx.switches.breaks(bulkSkipsAddressRule))) {
    const schema = bulk ? 'BulkPaymentInitiationRequestStructuredAddress' : 'PaymentInitiationRequestStructuredAddress';
    // A bank that infers the creditor's BIC from the IBAN does not ask for creditorAgent (a bulk's payments alike).
    const inferred = (e: ReadableError) => e.pointer.endsWith('/creditorAgent') && ctx.switches.reads(creditorAgentInferred);
    const address = enforcedErrors(ctx, schema, body, (id) => id.startsWith('ADR-')).filter((e) => !inferred(e));
    if (address[0]) throw refuse(`Structured-address rule: ${address[0].message}`);
  }
  const payment = body as PaymentBody & Record<string, unknown>;
  if (product !== 'sepa-credit-transfers' && ctx.switches.breaks(refusesDomesticProduct))
    throw refuse(`Product ${product} takes another body`);
  if (paymentsOf(payment).some((p) => p.endToEndIdentification === undefined) && ctx.switches.breaks(refusesWithoutEndToEnd))
    throw refuse('endToEndIdentification is required');
  const text = JSON.stringify(payment);
  if (/[æøåÆØÅ]/.test(text) && ctx.switches.breaks(refusesUtf8Remittance)) throw refuse('remittanceInformationUnstructured must be ASCII');
  // A character the downstream systems cannot take (an emoji) is refused for every body by the json-body plugin.
  // Entries a rule fault let through may lack an amount: only amount objects are looked at.
  const amounts = paymentsOf(payment).flatMap((p) =>
    typeof p?.instructedAmount === 'object' && p.instructedAmount !== null ? [p.instructedAmount] : [],
  );
  const fractionDigits = (a: { amount: unknown }) => (typeof a.amount === 'string' ? (a.amount.split('.')[1] ?? '').length : -1);
  if (amounts.some((a) => fractionDigits(a) === minorUnitsOf(a.currency)) && ctx.switches.breaks(refusesExactMinorUnits))
    throw refuse('Unsupported minor units');
  if (typeof (payment.creditorAddress as { townName?: unknown } | undefined)?.townName === 'string' && ctx.switches.breaks(refusesTownName))
    throw refuse('creditorAddress.townName is unknown');
  // Zero has no non-zero digit; a negative amount is emptied by the replace, so it has none either.
  if (
    amounts.some((a) => typeof a.amount === 'string' && !/[1-9]/.test(a.amount.replace(/^-.*/, ''))) &&
    !ctx.switches.breaks(acceptsZeroAmount)
  ) {
    throw refuse('The amount must be above zero');
  }
  const executionDate = payment.requestedExecutionDate;
  if (typeof executionDate === 'string' && executionDate < day(ctx.world.clock.now()) && !ctx.switches.breaks(acceptsPastExecutionDate)) {
    throw new BankError(400, 'EXECUTION_DATE_INVALID', 'requestedExecutionDate is in the past');
  }
  refuseWhatIsNotOffered(ctx, service, product, payment);
  return payment;
}

/**
 * What refuses a valid payment at initiation: a lack of funds (this bank reports it through the payment status,
 * ACCP with fundsAvailable false, unless a fault or a reading says otherwise), a logical duplicate of one of the
 * TPP's payments (409, unless the TPP allows it with allowLogicalDuplicate=true).
 */
export function refuseUnfundedOrDuplicate(ctx: BankContext, body: PaymentBody, allowLogicalDuplicate: unknown): void {
  const { world, switches } = ctx;
  if (world.payments.lacksFunds(body) && switches.breaks(fundsRefusedAsFormatError))
    throw new BankError(400, 'FORMAT_ERROR', 'Insufficient funds');
  if (world.payments.lacksFunds(body) && switches.reads(lackOfFundsRefused))
    throw new BankError(400, 'PAYMENT_FAILED', 'Insufficient funds on the debtor account');
  const allowDuplicate = duplicatesAllowed(ctx, allowLogicalDuplicate);
  const duplicate = world.payments.duplicateOf(tppOf(ctx).id, body) !== undefined && !switches.reads(duplicatesAccepted);
  if (duplicate && (!allowDuplicate || switches.breaks(refusesDuplicatesAlways))) {
    if (switches.breaks(optionalReadingsAs422)) throw new BankError(422, 'FORMAT_ERROR', 'A logical duplicate');
    if (switches.breaks(duplicateAsBadRequest)) throw new BankError(400, 'FORMAT_ERROR', 'A logical duplicate of an earlier payment');
    throw new BankError(
      409,
      'CONFLICT',
      'A logical duplicate of an earlier payment: send allowLogicalDuplicate=true to initiate it anyway',
    );
  }
}

/** The query parameter allowLogicalDuplicate: true or false (absent is false). */
function duplicatesAllowed(ctx: BankContext, value: unknown): boolean {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  if (ctx.switches.breaks(allowDuplicateAnyValue)) return false;
  throw new BankError(400, 'FORMAT_ERROR', 'allowLogicalDuplicate is true or false');
}
