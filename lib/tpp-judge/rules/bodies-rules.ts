/**
 * Request bodies: JSON in UTF-8 (Data format), and the payment initiation body against the project's schema
 * of the specification's field table (lib/spec/schemas, validated by lib/validate): the same schema the
 * suite holds the bank to, read here from the TPP's side. Each schema error goes to one TPP rule: missing
 * fields and wrong types, currencies and amounts, and the structured address once enforced.
 */
import { memoisedWeak } from '../../support/memo.js';
import { validateAgainst, type ReadableError, type ValidationResult } from '../../validate/index.js';
import { PASS, fail, judged, unjudged, type Outcome, type Rule, type RuleContext } from '../rule.js';

/** The requirements of the currency list and the amount rule (precision, scale, minor units, written form). */
const AMOUNT_AND_CURRENCY = new Set(['PAY-05', 'PAY-06', 'PAY-07', 'PAY-09', 'PAY-10', 'PAY-11', 'PAY-19', 'PAY-30', 'LIM-17']);

/** Structured-address enforcement (Resources > Structured-address rule 5); an environment not known gets the later date. */
const ENFORCED_FROM: Record<string, number> = { sandbox: Date.UTC(2026, 7, 13), production: Date.UTC(2026, 10, 15) };

function isAmountOrCurrency(error: ReadableError): boolean {
  if (error.rule === 'required' || error.rule.startsWith('type')) return false;
  return (error.requirement ?? '').split(',').some((id) => AMOUNT_AND_CURRENCY.has(id.trim()));
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/** The request body as JSON: undefined without a body, an Outcome when it is not JSON in UTF-8. */
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

/** A payment initiation of the product whose field table the spec gives, with a JSON body. */
function sepaPayment(c: RuleContext): { value: unknown } | Outcome | undefined {
  const path = c.call.path;
  if (c.call.method !== 'POST' || path?.name !== 'paymentInitiation') return undefined;
  if (path.parameters.paymentService !== 'payments' || path.parameters.paymentProduct !== 'sepa-credit-transfers') return undefined;
  const body = jsonBody(c);
  if (body === undefined) return unjudged('the payment initiation has no body');
  return 'problem' in body ? unjudged('the body is not JSON in UTF-8 (TPP-45)') : body;
}

/** The body validated once per request, whichever rule asks first. */
const VALIDATIONS = new WeakMap<object, ValidationResult>();

function validated(c: RuleContext, value: unknown): ValidationResult {
  return memoisedWeak(VALIDATIONS, c.exchange, () => validateAgainst('PaymentInitiationRequest', value));
}

function schemaOutcome(errors: readonly ReadableError[], expected: string): Outcome {
  if (errors.length === 0) return PASS;
  return fail(expected, errors.map((error) => error.message).join('; '));
}

function paymentRule(id: string, expected: string, pick: (errors: readonly ReadableError[], c: RuleContext) => readonly ReadableError[] | Outcome | undefined): Rule {
  return {
    id,
    judge: (c) => {
      const payment = sepaPayment(c);
      if (payment === undefined || !('value' in payment)) return payment;
      const picked = pick(validated(c, payment.value).errors, c);
      if (picked === undefined || !Array.isArray(picked)) return picked as Outcome | undefined;
      return schemaOutcome(picked, expected);
    },
  };
}

export const BODY_RULES: readonly Rule[] = [
  {
    id: 'TPP-45',
    judge: (c) => {
      const body = jsonBody(c);
      if (body === undefined) return undefined;
      return judged(!('problem' in body), 'a JSON body in UTF-8', () => ('problem' in body ? body.problem : ''));
    },
  },
  paymentRule('TPP-46', 'a body following the field table of the payment initiation request', (errors) => errors.filter((error) => !isAmountOrCurrency(error))),
  paymentRule('TPP-47', 'currencies of the list and amounts within precision 18, scale 5 and the minor units', (errors) => errors.filter(isAmountOrCurrency)),
  {
    id: 'TPP-48',
    judge: (c) => {
      const payment = sepaPayment(c);
      if (payment === undefined || !('value' in payment)) return payment;
      const from = ENFORCED_FROM[c.settings.environment ?? ''] ?? ENFORCED_FROM.production ?? 0;
      if (c.clock === undefined) return unjudged("the bank's clock is not known for this exchange (no Date in its answer)");
      if (c.clock.earliest < from) return undefined; // not enforced yet
      const errors = validateAgainst('PaymentInitiationRequestStructuredAddress', payment.value).errors.filter((error) => /\bADR-/.test(error.requirement ?? ''));
      return schemaOutcome(errors, 'creditor agent BIC, creditor name, town name and country code (the structured-address rule)');
    },
  },
  {
    id: 'TPP-49',
    judge: (c) => {
      const name = c.call.path?.name;
      if (c.call.method !== 'POST' || (name !== 'consents' && name !== 'bankOfferedConsents')) return undefined;
      return judged(name === 'bankOfferedConsents', 'consent asked through /v1/bank-offered-consents', () => `POST ${c.call.pathname}, deprecated`);
    },
  },
  {
    id: 'TPP-50',
    judge: (c) => {
      const payment = sepaPayment(c);
      if (payment === undefined || !('value' in payment)) return payment;
      const city = validated(c, payment.value).warnings.find((warning) => warning.pointer === '/creditorAddress/city');
      return judged(city === undefined, 'the creditor town in creditorAddress.townName', () => city?.message ?? '');
    },
  },
];
