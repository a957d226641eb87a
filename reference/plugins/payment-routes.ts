// Payment initiation (PIS): POST /v1/{payment-service}/{payment-product}, its details,
// status and cancellation. Every rule of the specification's payment request table is
// checked through the project's payment schemas (each error names the requirement of
// its row), then the rules the schema does not hold: the structured-address rule from
// its enforcement date by the bank's clock, a positive amount, an execution date not
// in the past, logical duplicates. A refused payment leaves nothing behind.
//
// Every payment needs its own SCA with dynamic linking: the 201 carries scaRedirect,
// and the PSU confirms amount and creditor on the bank's page (sca-pages/payment-confirmation-page.ts).
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { minorUnitsOf } from '../../lib/spec/codelists.js';
import type { SchemaName } from '../../lib/spec/schemas/index.js';
import { failedRequirements, type ReadableError } from '../../lib/validate/index.js';
import { BankError } from '../bank-errors.js';
import { defineFault, defineVariant } from '../switches.js';
import { day, reportedAmountsUnbound } from '../serialisation.js';
import { HIDDEN_BEFORE_APPROVAL, PAYMENT_SERVICES, paymentProductOf, type PaymentProduct, type PaymentService } from '../../lib/spec/payment-products.js';
import type { Payment, PaymentBody } from '../state/payment-store.js';
import { paymentHeaders } from '../services/payment-headers.js';
import { resolvePsuId } from '../services/psu-id-lookup.js';
import { scaChallenge } from '../services/sca-answers.js';
import { apiHref, header, tppOf } from '../http/request-context.js';

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
  { name: 'payment-ignores-missing-amount', ignores: ['PAY-03', 'PAY-04'], breaks: ['PAY-03', 'PAY-04'], when: (error: ReadableError) => !amountNotAString(error) },
  { name: 'payment-accepts-amount-as-number', ignores: ['FMT-10'], breaks: ['FMT-10'], when: amountNotAString },
  { name: 'payment-ignores-amount-precision', ignores: ['PAY-05'], breaks: ['PAY-05', 'LIM-17'] },
  { name: 'payment-ignores-amount-fraction-digits', ignores: ['PAY-06', 'PAY-07'], breaks: ['PAY-06', 'PAY-07', 'LIM-17'] },
  { name: 'payment-ignores-amount-form', ignores: ['PAY-09', 'FMT-09'], breaks: ['PAY-09'] },
  { name: 'payment-ignores-currency-list', ignores: ['PAY-10', 'PAY-19', 'PAY-30'], breaks: ['PAY-10', 'PAY-11', 'PAY-19', 'PAY-30'] },
  { name: 'payment-ignores-creditor-name', ignores: ['PAY-13', 'PAY-14', 'ADR-04'], breaks: ['PAY-13', 'PAY-14', 'LIM-10', 'ADR-04'] },
  { name: 'payment-ignores-creditor-account', ignores: ['PAY-15', 'PAY-16', 'PAY-17', 'PAY-18'], breaks: ['PAY-15', 'PAY-16', 'PAY-17', 'PAY-18', 'LIM-12'] },
  // A creditorAddress that is a string breaks the structured-address rule by the same error (it names PAY-20 too).
  { name: 'payment-ignores-address-fields', ignores: ['PAY-20', 'PAY-21', 'PAY-22'], breaks: ['PAY-20', 'PAY-21', 'PAY-22', 'LIM-11'] },
  { name: 'payment-ignores-address-country', ignores: ['PAY-25', 'PAY-26', 'PAY-27', 'ADR-06'], breaks: ['PAY-25', 'PAY-26', 'PAY-27', 'LIM-14', 'ADR-06', 'ADR-07'] },
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
].map(({ name, ignores, breaks, when }: { name: string; ignores: string[]; breaks: string[]; when?: (error: ReadableError) => boolean }) => ({
  fault: defineFault(name, { description: `the bank does not check payment rule${ignores.length > 1 ? 's' : ''} ${ignores.join(', ')}`, breaks }),
  ignores,
  when: when ?? (() => true),
}));

const refusesPeriodic = defineFault('periodic-payments-refused', { description: 'well-formed periodic payments are refused', breaks: ['PAY-44'] });
const refusesBulk = defineFault('bulk-payments-refused', { description: 'well-formed bulk payments are refused', breaks: ['PAY-45'] });
const fieldRefusalCode = defineFault('payment-field-refusal-code', {
  description: 'a payment breaking a rule of the request table is refused with code PAYMENT_FAILED instead of FORMAT_ERROR',
  breaks: ['ERR-21'],
});
const optionalReadingsAs422 = defineFault('payment-optional-readings-as-422', {
  description: 'what the specification lets a bank accept or refuse with 400 (city, fewer fraction digits, no BIC, a remittance text over 140 characters, a logical duplicate) gets 422',
  breaks: ['PAY-23', 'PAY-47', 'ADR-13', 'END-04', 'PAY-32', 'LIM-13'],
});
const enforcedEarly = defineFault('payment-address-rule-always-enforced', { description: 'the structured-address rule is enforced whatever the date', breaks: ['ADR-09'] });
const acceptsZeroAmount = defineFault('payment-accepts-zero-amount', { description: 'a payment of zero or a negative amount is accepted', breaks: ['PAY-48'] });
const acceptsPastExecutionDate = defineFault('payment-accepts-past-execution-date', { description: 'a requestedExecutionDate in the past is accepted', breaks: ['ERR-33'] });
const refusesDomesticProduct = defineFault('payment-refuses-other-products', {
  description: 'products other than sepa-credit-transfers refuse a SEPA-shaped body',
  breaks: ['PAY-46'],
});
const smallPaymentsExempt = defineVariant('sca-exemption-small-payments', {
  description: 'a single payment of at most 10.00 (in its currency) is exempted from SCA: 201 without scaRedirect, approved at once (ACTC)',
  allowedBy: 'Authentication 9: "The service may exempt a transaction from SCA or require SCA on any transaction."',
  source: 'Specification, Authentication 9',
});
const EXEMPT_UP_TO = 10;
const DOMESTIC = 'domestic-norway-credit-transfers';
const periodicAndBulkDomesticOnly = defineVariant('periodic-and-bulk-domestic-only', {
  description: 'periodic and bulk payments are offered for domestic-norway-credit-transfers only: other products answer 403 PRODUCT_INVALID',
  allowedBy: 'Berlin Group: "The ASPSP will publish which of the payment products/endpoints will be supported"; the specification shows periodic and bulk payments without saying for which products',
  source: 'Berlin Group 1.3.8, path parameter payment-product and MessageCode403_PIS (PRODUCT_INVALID); Specification, Errors rules 7 and 8',
});
const noBulkPayments = defineVariant('no-bulk-payments', {
  description: 'bulk payments are not offered: POST /v1/bulk-payments/{product} answers 404 NOT_FOUND, as a path the interface does not have',
  allowedBy:
    'Berlin Group 1.3.8: "it is only necessary to support a certain subset of the methods defined in this API definition"; the specification names bulk payments only to keep them out of signing baskets (Errors rule 7)',
  source: 'Berlin Group 1.3.8, info; Specification, Errors rule 7',
});
const someFrequencies = defineVariant('periodic-some-frequencies', {
  description: 'periodic payments are offered with the frequencies Weekly, Monthly, Quarterly and Annual only: another frequency is refused (400 FORMAT_ERROR)',
  allowedBy: 'Berlin Group 1.3.8 frequencyCode lists the ISO 20022 codes a frequency is written in; which standing orders a bank offers is its own ("only necessary to support a certain subset")',
  source: 'Berlin Group 1.3.8, schema frequencyCode and info',
});
const OFFERED_FREQUENCIES: readonly unknown[] = ['Weekly', 'Monthly', 'Quarterly', 'Annual'];
const sepaInEuroOnly = defineVariant('sepa-in-euro-only', {
  description: 'a sepa-credit-transfers payment in another currency than EUR is refused (400 FORMAT_ERROR): SEPA credit transfers are euro payments',
  allowedBy:
    'The request table types the currency "one of the currency list below" without saying which currencies a product takes; a SEPA credit transfer is a payment in euro (the SEPA scheme), and the Berlin Group lets the bank publish its products',
  source: 'Specification, Payment initiation request (sepa-credit-transfers); Berlin Group 1.3.8, path parameter payment-product',
});

const productUnknownAs400 = defineFault('payment-unknown-product-as-400', { description: 'an unknown payment product gets 400 FORMAT_ERROR instead of 404 PRODUCT_UNKNOWN', breaks: ['ERR-28'] });
const refusesDuplicatesAlways = defineFault('payment-refuses-allowed-duplicates', { description: 'a logical duplicate is refused even with allowLogicalDuplicate=true', breaks: ['END-02'] });
const duplicateAsBadRequest = defineFault('payment-duplicate-code', { description: 'a refused logical duplicate gets 400 FORMAT_ERROR instead of 409 CONFLICT', breaks: ['ERR-15'] });
const allowDuplicateAnyValue = defineFault('payment-allow-duplicate-any-value', { description: 'allowLogicalDuplicate values other than true or false are read as false', breaks: ['END-03'] });
const refusesUtf8Remittance = defineFault('payment-refuses-utf8-remittance', { description: 'remittance text with Norwegian letters is refused', breaks: ['PAY-33'] });
const refusesWithoutEndToEnd = defineFault('payment-requires-end-to-end', { description: 'a payment without endToEndIdentification is refused', breaks: ['PAY-01', 'END-01', 'ADR-02'] });
const refusesExactMinorUnits = defineFault('payment-refuses-exact-minor-units', { description: 'an amount with exactly the minor units of its currency is refused', breaks: ['PAY-08'] });
const refusesTownName = defineFault('payment-refuses-town-name', { description: 'creditorAddress.townName is refused (only the deprecated city is known)', breaks: ['PAY-24'] });
const statusWithoutFunds = defineFault('payment-status-misreports-funds', { description: 'a payment accepted without funds (ACCP) is reported with fundsAvailable true', breaks: ['STA-06'] });
const fundsAsText = defineFault('payment-funds-available-as-text', { description: 'fundsAvailable is written as a string', breaks: ['END-07', 'STA-06'] });
// A payment lacking funds in a basket then has no status request that answers (BSK-06).
const insufficientFundsCrash = defineFault('payment-insufficient-funds-500', { description: 'the status of a payment lacking funds crashes the bank (500)', breaks: ['ERR-39', 'ERR-45', 'BSK-06'] });
const fundsRefusedAsFormatError = defineFault('payment-lack-of-funds-refused-as-format-error', {
  description: 'a payment above the debtor balance is refused at initiation with FORMAT_ERROR instead of PAYMENT_FAILED',
  breaks: ['ERR-32'],
});
const exemptInSession = defineFault('payment-exempt-in-session', { description: 'a payment under the TPP-Session-ID of a valid SCA session of its PSU is approved without SCA', breaks: ['SCA-07'] });
const domesticShownEarly = defineFault('domestic-payment-shown-before-approval', { description: 'a domestic payment shows its status before the PSU approved it', breaks: ['END-08'] });
const statusNotFound = defineFault('payment-status-not-found', { description: 'the status of a known payment answers 404', breaks: ['END-06', 'BSK-06'] });
const unknownPaymentAs400 = defineFault('payment-unknown-id-as-400', { description: 'an unknown paymentId gets 400 FORMAT_ERROR instead of 404 RESOURCE_UNKNOWN', breaks: ['ERR-22'] });

const bulkSkipsAddressRule = defineFault('bulk-payment-skips-address-rule', {
  description: 'the structured-address rule is not applied to the payments of a bulk payment',
  breaks: ['ADR-01', 'ADR-05', 'ADR-06', 'ADR-07', 'ADR-08', 'ADR-14', 'ADR-15', 'ADR-16', 'ERR-40'],
});
const executesBeforeItsDate = defineFault('payment-executes-before-its-date', {
  description: 'a payment with a requestedExecutionDate ahead is settled by the next batch run after its approval (instantly, to self), whatever the date',
  breaks: ['SBX-11'],
});

const cancellationIgnored = defineFault('payment-cancellation-ignored', { description: 'a cancelled payment keeps its status', breaks: ['PAY-50'] });

// The 201 answer, field by field (Resources > Payment initiation response).
const responseFaults = {
  noPaymentId: defineFault('payment-response-without-id', { description: 'the 201 payment response has no paymentId', breaks: ['PAY-36'] }),
  berlinGroupOnlyStatus: defineFault('payment-response-status-unknown', { description: 'the 201 payment response says transactionStatus ACCC (Berlin Group only)', breaks: ['PAY-37', 'STA-05'] }),
  feesAsText: defineFault('payment-fees-as-text', { description: 'transactionFees is a string ("0.00 NOK"), not an amount object', breaks: ['PAY-38'] }),
  feeIndicatorAsText: defineFault('payment-fee-indicator-as-text', { description: 'transactionFeeIndicator is the string "false"', breaks: ['PAY-40'] }),
  tppMessagesObject: defineFault('payment-tpp-messages-not-array', { description: 'tppMessages is an object, not an array', breaks: ['PAY-41'] }),
  psuMessageLong: defineFault('payment-psu-message-too-long', { description: 'psuMessage runs to 600 characters', breaks: ['PAY-42', 'LIM-16'] }),
  linksArray: defineFault('payment-links-not-a-map', { description: '_links is an array of links', breaks: ['PAY-43', 'MSG-07'] }),
  categoryLower: defineFault('tpp-message-category-lower-case', { description: 'a tppMessages category is written "warning"', breaks: ['MSG-01'] }),
  unknownCode: defineFault('tpp-message-unknown-code', { description: 'a tppMessages code is DEPRECATED_FIELD, not in the list', breaks: ['MSG-02'] }),
  pathNumber: defineFault('tpp-message-path-not-text', { description: 'a tppMessages path is a number', breaks: ['MSG-03'] }),
  textLong: defineFault('tpp-message-text-too-long', { description: 'a tppMessages text runs to 600 characters', breaks: ['MSG-04', 'LIM-15'] }),
  hrefNumber: defineFault('payment-link-href-not-text', { description: 'the self link of a payment has a numeric href', breaks: ['MSG-05'] }),
  verbPatch: defineFault('payment-link-verb-patch', { description: 'the status link of a payment lists the verb PATCH', breaks: ['MSG-06'] }),
  scaRedirectPost: defineFault('payment-sca-redirect-post-only', { description: 'the scaRedirect link of a payment lists only POST', breaks: ['MSG-08'] }),
  noScaRedirect: defineFault('payment-without-sca-redirect', { description: 'the 201 payment response has no scaRedirect link', breaks: ['END-05'] }),
};

const LONG_TEXT = 'x'.repeat(600);

function enforced(request: FastifyRequest): boolean {
  return day(request.world.clock.now()) >= STRUCTURED_ADDRESS_ENFORCED_FROM || request.switches.breaks(enforcedEarly);
}

/** The schema errors a TPP's bank still enforces (a rule fault switches some off). */
function enforcedErrors(request: FastifyRequest, schema: SchemaName, body: unknown, only?: (id: string) => boolean): ReadableError[] {
  const failed = failedRequirements(schema, body);
  const ignored = (error: ReadableError) => (id: string) =>
    RULE_FAULTS.some(({ fault, ignores, when }) => ignores.includes(id) && when(error) && request.switches.breaks(fault)) || (id === 'ERR-42' && request.switches.reads(duplicateMonthsReportedRejected));
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
  allowedBy: 'instructedAmount.amount: "the fraction digits must match the ISO 4217 minor units of the currency", read as exactly the minor units',
  source: 'Specification, Payment initiation request',
});
const creditorAgentInferred = defineVariant('creditor-agent-inferred', {
  description: 'a payment without creditorAgent is taken once the structured-address rule is enforced: the BIC is inferred from the creditor IBAN',
  allowedBy: 'Structured-address rule 4: "When mandatory address parts are missing and cannot be inferred, the service returns an error"; a BIC can be inferred from the IBAN',
  source: 'Specification, Structured-address rule 3 and 4',
});
const duplicatesAccepted = defineVariant('logical-duplicates-accepted', {
  description: 'a logical duplicate is taken (201) without allowLogicalDuplicate too',
  allowedBy: 'allowLogicalDuplicate (boolean, optional): "whether logical duplicate payments are allowed"; neither its default nor the answer to a duplicate without it is given',
  source: 'Specification, Endpoints > POST /v1/payments/sepa-credit-transfers',
});
const lackOfFundsRefused = defineVariant('lack-of-funds-refused-at-initiation', {
  description: 'a payment above the debtor account\'s balance is refused at initiation with 400 PAYMENT_FAILED, not reported through its status',
  allowedBy: 'Errors rule 5: "Insufficient funds give a proper error response, not 500"; Berlin Group MessageCode400_PIS PAYMENT_FAILED',
  source: 'Specification, Errors rule 5; Berlin Group 1.3.8, MessageCode400_PIS',
});

const duplicateMonthsReportedRejected = defineVariant('duplicate-months-reported-rejected', {
  description: 'a MonthlyVariable periodic payment naming a month twice is taken (201) and reported rejected: its status reads RJCT from the start',
  allowedBy: 'Errors rule 8: "MonthlyVariable with duplicate month identifiers is rejected": "rejected" is the name of the transaction status RJCT as much as of a refusal at initiation',
  source: 'Specification, Errors rule 8; Berlin Group 1.3.8, TransactionStatus RJCT ("Rejected")',
});

/** What a bank offering less than this one refuses of a well-formed payment (its variants): a frequency, a currency. */
function refuseWhatIsNotOffered(request: FastifyRequest, service: PaymentService, product: PaymentProduct, body: PaymentBody): void {
  const frequency = (body as { frequency?: unknown }).frequency;
  if (service === 'periodic-payments' && !OFFERED_FREQUENCIES.includes(frequency) && request.switches.reads(someFrequencies)) {
    throw new BankError(400, 'FORMAT_ERROR', `Standing orders are offered weekly, monthly, quarterly or yearly, not ${String(frequency)}`);
  }
  const foreign = paymentsOf(body).some((p) => p.instructedAmount?.currency !== 'EUR');
  if (product === 'sepa-credit-transfers' && foreign && request.switches.reads(sepaInEuroOnly)) throw new BankError(400, 'FORMAT_ERROR', 'A SEPA credit transfer is paid in EUR');
}

/** Refusals of the readings this bank otherwise takes (city, fewer fraction digits), under their variants. */
function refuseOtherReadings(request: FastifyRequest, body: PaymentBody, refuse: (message: string) => Error): void {
  if (typeof (body.creditorAddress as { city?: unknown } | undefined)?.city === 'string' && request.switches.reads(cityRefused)) throw refuse('creditorAddress.city is removed: send townName');
  const { amount, currency } = body.instructedAmount ?? {};
  const digits = typeof amount === 'string' ? (amount.split('.')[1] ?? '').length : undefined;
  const minor = typeof currency === 'string' ? minorUnitsOf(currency) : undefined;
  if (digits !== undefined && minor !== undefined && digits < minor && request.switches.reads(fewerDigitsRefused)) throw refuse(`instructedAmount.amount must have ${minor} fraction digits for ${String(currency)}`);
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

/** Every rule of the request table, then the rules the schema does not hold. Throws the refusal. */
function validate(request: FastifyRequest, service: PaymentService, product: PaymentProduct): PaymentBody {
  const body = request.body;
  const refuse = (message: string) => new BankError(400, request.switches.breaks(fieldRefusalCode) ? 'PAYMENT_FAILED' : 'FORMAT_ERROR', message);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw refuse('The body must be a JSON object');

  if ((service === 'periodic-payments' && request.switches.breaks(refusesPeriodic)) || (service === 'bulk-payments' && request.switches.breaks(refusesBulk))) throw refuse(`${service} are not offered`);
  const errors = enforcedErrors(request, SCHEMA_OF[service], body);
  // A remittance text over 140 characters is one of these freedoms (PAY-32), and breaks a rule of the table too: seen before the rules.
  if (paymentsOf(body as PaymentBody).some(remittanceOverLimit) && request.switches.breaks(optionalReadingsAs422)) throw new BankError(422, 'FORMAT_ERROR', 'Unprocessable payment');
  if (errors[0]) throw refuse(errors[0].message);
  if (optionalReading(body as PaymentBody) && request.switches.breaks(optionalReadingsAs422)) throw new BankError(422, 'FORMAT_ERROR', 'Unprocessable payment');
  refuseOtherReadings(request, body as PaymentBody, refuse);
  const bulk = service === 'bulk-payments';
  if (enforced(request) && !(bulk && request.switches.breaks(bulkSkipsAddressRule))) {
    const schema = bulk ? 'BulkPaymentInitiationRequestStructuredAddress' : 'PaymentInitiationRequestStructuredAddress';
    // A bank that infers the creditor's BIC from the IBAN does not ask for creditorAgent (a bulk's payments alike).
    const inferred = (e: ReadableError) => e.pointer.endsWith('/creditorAgent') && request.switches.reads(creditorAgentInferred);
    const address = enforcedErrors(request, schema, body, (id) => id.startsWith('ADR-')).filter((e) => !inferred(e));
    if (address[0]) throw refuse(`Structured-address rule: ${address[0].message}`);
  }
  const payment = body as PaymentBody & Record<string, unknown>;
  if (product !== 'sepa-credit-transfers' && request.switches.breaks(refusesDomesticProduct)) throw refuse(`Product ${product} takes another body`);
  if (paymentsOf(payment).some((p) => p.endToEndIdentification === undefined) && request.switches.breaks(refusesWithoutEndToEnd)) throw refuse('endToEndIdentification is required');
  const text = JSON.stringify(payment);
  if (/[æøåÆØÅ]/.test(text) && request.switches.breaks(refusesUtf8Remittance)) throw refuse('remittanceInformationUnstructured must be ASCII');
  // A character the downstream systems cannot take (an emoji) is refused for every body by the json-body plugin.
  // Entries a rule fault let through may lack an amount: only amount objects are looked at.
  const amounts = paymentsOf(payment).flatMap((p) => (typeof p?.instructedAmount === 'object' && p.instructedAmount !== null ? [p.instructedAmount] : []));
  const fractionDigits = (a: { amount: unknown }) => (typeof a.amount === 'string' ? (a.amount.split('.')[1] ?? '').length : -1);
  if (amounts.some((a) => fractionDigits(a) === minorUnitsOf(a.currency)) && request.switches.breaks(refusesExactMinorUnits)) throw refuse('Unsupported minor units');
  if (typeof (payment.creditorAddress as { townName?: unknown } | undefined)?.townName === 'string' && request.switches.breaks(refusesTownName)) throw refuse('creditorAddress.townName is unknown');
  // Zero has no non-zero digit; a negative amount is emptied by the replace, so it has none either.
  if (amounts.some((a) => typeof a.amount === 'string' && !/[1-9]/.test(a.amount.replace(/^-.*/, ''))) && !request.switches.breaks(acceptsZeroAmount)) {
    throw refuse('The amount must be above zero');
  }
  const executionDate = payment.requestedExecutionDate;
  if (typeof executionDate === 'string' && executionDate < day(request.world.clock.now()) && !request.switches.breaks(acceptsPastExecutionDate)) {
    throw new BankError(400, 'EXECUTION_DATE_INVALID', 'requestedExecutionDate is in the past');
  }
  return payment;
}




function allowLogicalDuplicate(request: FastifyRequest): boolean {
  const value = (request.query as Record<string, unknown>).allowLogicalDuplicate;
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  if (request.switches.breaks(allowDuplicateAnyValue)) return false;
  throw new BankError(400, 'FORMAT_ERROR', 'allowLogicalDuplicate is true or false');
}

/** The 201 body: every field of the response table, a warning where the deprecated city was used. */
function initiationResponse(request: FastifyRequest, payment: Payment, scaLinks: Record<string, unknown>): object {
  const f = responseFaults;
  const self = apiHref(request, `/v1/${payment.service}/${payment.product}/${payment.id}`);
  const scaRedirect = scaLinks.scaRedirect as { href: string } | undefined;
  const links: Record<string, object> = {
    // The Link of the response table: with verbs, whatever the bank writes on the links of untyped answers.
    ...(scaRedirect === undefined || request.switches.breaks(f.noScaRedirect) ? {} : { scaRedirect: { href: scaRedirect.href, verbs: request.switches.breaks(f.scaRedirectPost) ? ['POST'] : ['GET'] } }),
    self: { href: request.switches.breaks(f.hrefNumber) ? 42 : self, verbs: ['GET', 'DELETE'] },
    status: { href: `${self}/status`, verbs: request.switches.breaks(f.verbPatch) ? ['GET', 'PATCH'] : ['GET'] },
  };
  const usesCity = typeof (payment.body.creditorAddress as { city?: unknown } | undefined)?.city === 'string';
  const warning = () => ({
    category: request.switches.breaks(f.categoryLower) ? 'warning' : 'WARNING',
    code: request.switches.breaks(f.unknownCode) ? 'DEPRECATED_FIELD' : 'FORMAT_ERROR',
    path: request.switches.breaks(f.pathNumber) ? 3 : 'creditorAddress.city',
    text: request.switches.breaks(f.textLong) ? LONG_TEXT : 'creditorAddress.city is deprecated: send townName',
  });
  return {
    transactionStatus: request.switches.breaks(f.berlinGroupOnlyStatus) ? 'ACCC' : payment.status,
    ...(request.switches.breaks(f.noPaymentId) ? {} : { paymentId: payment.id }),
    transactionFees: request.switches.breaks(f.feesAsText) ? '0.00 NOK' : request.switches.reads(reportedAmountsUnbound) ? { amount: '1.005', currency: 'NOK' } : { amount: '0.00', currency: 'NOK' },
    transactionFeeIndicator: request.switches.breaks(f.feeIndicatorAsText) ? 'false' : request.switches.reads(reportedAmountsUnbound),
    ...(usesCity ? { tppMessages: request.switches.breaks(f.tppMessagesObject) ? warning() : [warning()] } : {}),
    psuMessage: request.switches.breaks(f.psuMessageLong) ? LONG_TEXT : 'Confirm the payment in your bank.',
    _links: request.switches.breaks(f.linksArray) ? Object.values(links) : links,
  };
}

interface ProductParams {
  product: string;
}
interface PaymentParams extends ProductParams {
  paymentId: string;
}

export const paymentsPlugin = fp(
  (api, _options, done) => {
    // The batch runs happen by the bank clock, whoever asks next: accounts, balances and transactions
    // read after a run show its bookings.
    api.addHook('preHandler', (request, _reply, next) => {
      request.world.payments.settleAll();
      next();
    });

    /** The product a path names (an alias names its product), or 404 PRODUCT_UNKNOWN. */
    function productOf(request: FastifyRequest<{ Params: ProductParams }>): PaymentProduct {
      const { product } = request.params;
      const known = paymentProductOf(product);
      if (known !== undefined) return known;
      if (request.switches.breaks(productUnknownAs400)) throw new BankError(400, 'FORMAT_ERROR', `Unknown payment product ${product}`);
      throw new BankError(404, 'PRODUCT_UNKNOWN', `Unknown payment product ${product}`);
    }

    /** The TPP's payment of this service and product, or 404 RESOURCE_UNKNOWN. */
    function paymentOf(request: FastifyRequest<{ Params: PaymentParams }>, service: PaymentService): Payment {
      const product = productOf(request);
      const tppId = tppOf(request).id;
      const payment = request.world.payments.get(tppId, request.params.paymentId);
      if (payment !== undefined && payment.service === service && payment.product === product) return payment;
      if (request.switches.breaks(unknownPaymentAs400)) throw new BankError(400, 'FORMAT_ERROR', 'Unknown paymentId');
      throw new BankError(404, 'RESOURCE_UNKNOWN', `No ${service} ${product} payment ${request.params.paymentId}`);
    }

    /** Domestic transfers show nothing before the PSU approved them (Endpoints, payment status). */
    function visible(request: FastifyRequest, payment: Payment): void {
      if (payment.status === 'RCVD' && HIDDEN_BEFORE_APPROVAL.includes(payment.product) && !request.switches.breaks(domesticShownEarly)) {
        throw new BankError(403, 'FORBIDDEN', 'Details and status of a domestic transfer are available once the PSU approved it');
      }
    }

    for (const service of PAYMENT_SERVICES) {
      api.post<{ Params: ProductParams }>(`/${service}/:product`, (request, reply) => {
        const product = productOf(request);
        const tpp = tppOf(request);
        if (service !== 'payments' && product !== DOMESTIC && request.switches.reads(periodicAndBulkDomesticOnly)) {
          throw new BankError(403, 'PRODUCT_INVALID', `${service} are offered for ${DOMESTIC} only`);
        }
        if (service === 'bulk-payments' && request.switches.reads(noBulkPayments)) throw new BankError(404, 'NOT_FOUND', 'No such endpoint: bulk payments are not offered');
        const { context } = paymentHeaders(request);
        const body = validate(request, service, product);
        refuseWhatIsNotOffered(request, service, product, body);
        // This bank reports a lack of funds through the payment status (ACCP, fundsAvailable false), not at initiation.
        if (request.world.payments.lacksFunds(body) && request.switches.breaks(fundsRefusedAsFormatError)) throw new BankError(400, 'FORMAT_ERROR', 'Insufficient funds');
        if (request.world.payments.lacksFunds(body) && request.switches.reads(lackOfFundsRefused)) throw new BankError(400, 'PAYMENT_FAILED', 'Insufficient funds on the debtor account');
        const allowDuplicate = allowLogicalDuplicate(request);
        const duplicate = request.world.payments.duplicateOf(tpp.id, body) !== undefined && !request.switches.reads(duplicatesAccepted);
        if (duplicate && (!allowDuplicate || request.switches.breaks(refusesDuplicatesAlways))) {
          if (request.switches.breaks(optionalReadingsAs422)) throw new BankError(422, 'FORMAT_ERROR', 'A logical duplicate');
          if (request.switches.breaks(duplicateAsBadRequest)) throw new BankError(400, 'FORMAT_ERROR', 'A logical duplicate of an earlier payment');
          throw new BankError(409, 'CONFLICT', 'A logical duplicate of an earlier payment: send allowLogicalDuplicate=true to initiate it anyway');
        }
        const psuId = header(request, 'psu-id');
        const lookup = psuId === undefined ? undefined : resolvePsuId(request, psuId);
        const executionDate = body.requestedExecutionDate;
        const executeOn = typeof executionDate === 'string' && !request.switches.breaks(executesBeforeItsDate) ? executionDate : undefined;
        const payment = request.world.payments.create(tpp.id, service, product, body, executeOn);
        if (service === 'periodic-payments' && failedRequirements(SCHEMA_OF[service], body).has('ERR-42') && request.switches.reads(duplicateMonthsReportedRejected)) request.world.payments.reject(payment);
        const inSession = lookup?.kind === 'known' && request.world.sca.sessionState(tpp.id, header(request, 'tpp-session-id') ?? '', lookup.customerNumber) === 'valid';
        const exempt = service === 'payments' && Number(body.instructedAmount?.amount) <= EXEMPT_UP_TO && request.switches.reads(smallPaymentsExempt);
        if ((inSession && request.switches.breaks(exemptInSession)) || exempt) {
          request.world.payments.approve(payment, lookup?.kind === 'known' ? lookup.customerNumber : '');
          void reply.code(201);
          return initiationResponse(request, payment, {});
        }
        // Every payment gets its own SCA (dynamic linking): the challenge is for this payment alone.
        const challenge = scaChallenge(request, {
          paymentIds: [payment.id],
          ...(lookup?.kind === 'known' ? { expectedCustomer: lookup.customerNumber } : {}),
          ...(context === undefined ? {} : { requestedContext: context }),
        });
        const scaLinks = challenge.links;
        void reply.code(201).header('location', apiHref(request, `/v1/${service}/${product}/${payment.id}`));
        return initiationResponse(request, payment, scaLinks);
      });

      api.get<{ Params: PaymentParams }>(`/${service}/:product/:paymentId`, (request) => {
        const payment = paymentOf(request, service);
        visible(request, payment);
        return { ...payment.body, transactionStatus: payment.status };
      });

      api.get<{ Params: PaymentParams }>(`/${service}/:product/:paymentId/status`, (request, reply) => {
        const payment = paymentOf(request, service);
        if (request.switches.breaks(statusNotFound)) throw new BankError(404, 'RESOURCE_UNKNOWN', 'No such payment');
        visible(request, payment);
        if (payment.fundsAvailable === false && request.switches.breaks(insufficientFundsCrash)) {
          void reply.code(500);
          throw new Error('insufficient funds not handled');
        }
        const fundsAvailable = payment.fundsAvailable === false && request.switches.breaks(statusWithoutFunds) ? true : payment.fundsAvailable;
        const funds = fundsAvailable === undefined ? {} : { fundsAvailable: request.switches.breaks(fundsAsText) ? String(fundsAvailable) : fundsAvailable };
        return { transactionStatus: payment.status, ...funds };
      });

      api.delete<{ Params: PaymentParams }>(`/${service}/:product/:paymentId`, (request, reply) => {
        const payment = paymentOf(request, service);
        if (!request.switches.breaks(cancellationIgnored) && !request.world.payments.cancel(payment)) {
          throw new BankError(409, 'CONFLICT', `A payment in status ${payment.status} can no longer be cancelled`);
        }
        void reply.code(204).send();
      });
    }
    done();
  },
  { name: 'payments', decorators: { request: ['world'] }, dependencies: ['signature', 'json-body'] },
);
