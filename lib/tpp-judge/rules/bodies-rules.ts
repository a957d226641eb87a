/**
 * Request bodies: JSON in UTF-8 (Data format), and every payment initiation body, of every payment service
 * and product, against the project's schemas (lib/spec/schemas, validated by lib/validate): the same schemas
 * the suite holds the bank to, read here from the TPP's side. The field table and the Limits table state
 * their rules for a payment, whatever its product; periodic and bulk payments add the Berlin Group's shapes.
 * Each schema error goes to one TPP rule, by the requirement it enforces: the field table, currencies and
 * amounts, the periodic and bulk shapes, months of execution named twice, and the structured address once
 * enforced.
 */
import { paymentProductOf, PAYMENT_SERVICES, type PaymentService } from '../../spec/payment-products.js';
import { memoisedWeak } from '../../support/memo.js';
import { validateAgainst, type ReadableError, type SchemaName, type ValidationResult } from '../../validate/index.js';
import { CLOCK_UNKNOWN, PASS, fail, judged, unjudged, type Outcome, type Rule, type RuleContext } from '../rule.js';

/** The requirements of the currency list and the amount rule (precision, scale, minor units, written form). */
const AMOUNT_AND_CURRENCY = new Set(['PAY-05', 'PAY-06', 'PAY-07', 'PAY-09', 'PAY-10', 'PAY-11', 'PAY-19', 'PAY-30', 'LIM-17']);
/** The Berlin Group's shapes of periodic and bulk payments (the specification shows neither). */
const BERLIN_GROUP_SHAPES = new Set(['PAY-44', 'PAY-45', 'PAY-52']);
/** Errors rule 8: a MonthlyVariable periodic payment naming a month twice. */
const MONTHS_TWICE = 'ERR-42';
/** The bank's own SHOULD (an empty bulk pays nothing): the Berlin Group sets no minimum, so it binds no TPP. */
const NOT_THE_TPPS = new Set(['PAY-51']);

/** Structured-address enforcement (Resources > Structured-address rule 5); an environment not known gets the later date. */
const ENFORCED_FROM: Record<string, number> = { sandbox: Date.UTC(2026, 7, 13), production: Date.UTC(2026, 10, 15) };

/** The schemas of each payment service's body: its shape, and its shape under the structured-address rule. */
const SCHEMAS: Readonly<Record<PaymentService, { body: SchemaName; structuredAddress: SchemaName }>> = {
  payments: { body: 'PaymentInitiationRequest', structuredAddress: 'PaymentInitiationRequestStructuredAddress' },
  'periodic-payments': { body: 'PeriodicPaymentInitiationRequest', structuredAddress: 'PaymentInitiationRequestStructuredAddress' },
  'bulk-payments': { body: 'BulkPaymentInitiationRequest', structuredAddress: 'BulkPaymentInitiationRequestStructuredAddress' },
};

const ANY_PAYMENT = 'a payment initiation with a JSON body: POST /v1/{payments|periodic-payments|bulk-payments}/{product}';

function requirementsOf(error: ReadableError): string[] {
  return (error.requirement ?? '').split(',').map((id) => id.trim());
}

/** The TPP rule a schema error of a payment body breaks, or undefined for none of the TPP's. */
function ruleOf(error: ReadableError): 'TPP-46' | 'TPP-47' | 'TPP-53' | 'TPP-54' | undefined {
  const ids = requirementsOf(error);
  if (ids.some((id) => NOT_THE_TPPS.has(id))) return undefined;
  if (ids.includes(MONTHS_TWICE)) return error.rule.startsWith('uniqueItems') ? 'TPP-54' : 'TPP-53';
  if (ids.some((id) => BERLIN_GROUP_SHAPES.has(id))) return 'TPP-53';
  const amountOrCurrency = error.rule !== 'required' && !error.rule.startsWith('type') && ids.some((id) => AMOUNT_AND_CURRENCY.has(id));
  return amountOrCurrency ? 'TPP-47' : 'TPP-46';
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/** The request body as JSON: undefined without a body, a problem when it is not JSON in UTF-8. */
function jsonBody(c: RuleContext): { value: unknown } | { problem: string } | undefined {
  const { body } = c.exchange.request;
  if (body.length === 0) return undefined;
  let text: string;
  try {
    text = decoder.decode(body);
  } catch {
    return { problem: 'a body that is not valid UTF-8' };
  }
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    return { problem: `a body that is not JSON (${(error as Error).message})` };
  }
}

interface PaymentBody {
  value: unknown;
  service: PaymentService;
}

/** A payment initiation of a service and product of the interface, with a JSON body; an Outcome when its body cannot be judged. */
function paymentOf(c: RuleContext): PaymentBody | Outcome | undefined {
  const path = c.call.path;
  if (c.call.method !== 'POST' || path?.name !== 'paymentInitiation') return undefined;
  const service = PAYMENT_SERVICES.find((known) => known === path.parameters.paymentService);
  if (service === undefined || paymentProductOf(path.parameters.paymentProduct ?? '') === undefined) return undefined;
  const body = jsonBody(c);
  if (body === undefined) return unjudged('the payment initiation has no body');
  return 'problem' in body ? unjudged('the body is not JSON in UTF-8 (TPP-45)') : { value: body.value, service };
}

/** The body validated once per request, whichever rule asks first. */
const VALIDATIONS = new WeakMap<object, ValidationResult>();

function validated(c: RuleContext, payment: PaymentBody): ValidationResult {
  return memoisedWeak(VALIDATIONS, c.exchange, () => validateAgainst(SCHEMAS[payment.service].body, payment.value));
}

function schemaOutcome(errors: readonly ReadableError[], expected: string): Outcome {
  if (errors.length === 0) return PASS;
  return fail(expected, errors.map((error) => error.message).join('; '));
}

/** A rule judging the schema errors of a payment body that are its own; `applies` narrows it to the services it concerns. */
function paymentRule(
  id: 'TPP-46' | 'TPP-47' | 'TPP-53' | 'TPP-54',
  expected: string,
  hint: string,
  applies: (service: PaymentService, value: unknown) => boolean = () => true,
): Rule {
  return {
    id,
    hint,
    judge: (c) => {
      const payment = paymentOf(c);
      if (payment === undefined || !('service' in payment)) return payment;
      if (!applies(payment.service, payment.value)) return undefined;
      return schemaOutcome(
        validated(c, payment).errors.filter((error) => ruleOf(error) === id),
        expected,
      );
    },
  };
}

/** Whether a body is a MonthlyVariable periodic payment naming its months (what TPP-54 is about). */
function namesMonths(service: PaymentService, value: unknown): boolean {
  const body = value as { frequency?: unknown; monthsOfExecution?: unknown } | null;
  return (
    service === 'periodic-payments' &&
    typeof body === 'object' &&
    body !== null &&
    body.frequency === 'MonthlyVariable' &&
    Array.isArray(body.monthsOfExecution)
  );
}

export const BODY_RULES: readonly Rule[] = [
  {
    id: 'TPP-45',
    hint: 'any request with a body (POST /v1/payments/sepa-credit-transfers)',
    judge: (c) => {
      const body = jsonBody(c);
      if (body === undefined) return undefined;
      return judged(!('problem' in body), 'a JSON body in UTF-8', () => ('problem' in body ? body.problem : ''));
    },
  },
  paymentRule('TPP-46', 'a body following the field table of the payment initiation request', ANY_PAYMENT),
  paymentRule('TPP-47', 'currencies of the list and amounts within precision 18, scale 5 and the minor units', ANY_PAYMENT),
  {
    id: 'TPP-48',
    hint: `${ANY_PAYMENT}, once the structured-address rule is enforced (13 August 2026 in the sandbox, 15 November 2026 in production)`,
    judge: (c) => {
      const payment = paymentOf(c);
      if (payment === undefined || !('service' in payment)) return payment;
      const from = ENFORCED_FROM[c.settings.environment ?? ''] ?? ENFORCED_FROM.production ?? 0;
      if (c.clock === undefined) return unjudged(CLOCK_UNKNOWN);
      if (c.clock.earliest < from) return undefined; // not enforced yet
      const errors = validateAgainst(SCHEMAS[payment.service].structuredAddress, payment.value).errors.filter((error) =>
        requirementsOf(error).some((id) => id.startsWith('ADR-')),
      );
      return schemaOutcome(errors, 'creditor agent BIC, creditor name, town name and country code (the structured-address rule)');
    },
  },
  {
    id: 'TPP-49',
    hint: 'POST /v1/bank-offered-consents (or the deprecated /v1/consents)',
    judge: (c) => {
      const name = c.call.path?.name;
      if (c.call.method !== 'POST' || (name !== 'consents' && name !== 'bankOfferedConsents')) return undefined;
      return judged(
        name === 'bankOfferedConsents',
        'consent asked through /v1/bank-offered-consents',
        () => `POST ${c.call.pathname}, deprecated`,
      );
    },
  },
  {
    id: 'TPP-50',
    hint: `${ANY_PAYMENT}, naming the creditor's town`,
    judge: (c) => {
      const payment = paymentOf(c);
      if (payment === undefined || !('service' in payment)) return payment;
      const city = validated(c, payment).warnings.find((warning) => /\/creditorAddress\/city$/.test(warning.pointer));
      return judged(city === undefined, 'the creditor town in creditorAddress.townName', () => city?.message ?? '');
    },
  },
  paymentRule(
    'TPP-53',
    'a periodic payment with startDate and frequency of the Berlin Group codes, a bulk payment with debtorAccount at the bulk and its payments without one',
    'POST /v1/periodic-payments/{product} or /v1/bulk-payments/{product} with a JSON body',
    (service) => service !== 'payments',
  ),
  paymentRule(
    'TPP-54',
    'each month of execution named once',
    'POST /v1/periodic-payments/{product} with frequency MonthlyVariable and monthsOfExecution',
    namesMonths,
  ),
];
