/**
 * Payment bodies for the payment scenarios: one well-formed SEPA credit transfer that meets every rule of
 * the request table and the structured-address rule, and the one change each scenario makes to it. Each
 * payment goes to a creditor IBAN of its own, so no two scenarios send logical duplicates of each other.
 */
import type { PathName } from '../../lib/spec/paths.js';
import { jsonBodyOf, type ScenarioFixtures, type TppClient, type TppResponse } from '../../lib/fixtures/index.js';

export type PaymentBody = Record<string, unknown>;

/** A valid Norwegian IBAN (mod-11 account number, mod-97 check digits) drawn at random. */
export function randomNorwegianIban(): string {
  const weights = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
  for (;;) {
    const digits = Array.from({ length: 10 }, () => Math.floor(Math.random() * 10));
    const rest = weights.reduce((sum, w, i) => sum + w * (digits[i] ?? 0), 0) % 11;
    const check = rest === 0 ? 0 : 11 - rest;
    if (check === 10) continue;
    const bban = `${digits.join('')}${check}`;
    const numeric = BigInt(`${bban}${'N'.charCodeAt(0) - 55}${'O'.charCodeAt(0) - 55}00`);
    return `NO${String(98n - (numeric % 97n)).padStart(2, '0')}${bban}`;
  }
}

/** A debtor IBAN for payments that are only initiated, never approved. */
export const SOME_DEBTOR_IBAN = 'NO9386011117947';

/** A SEPA credit transfer meeting every rule; `changes` replace top-level fields (undefined removes one). */
export function sepaPayment(changes: PaymentBody = {}, debtor: { iban: string; currency: string } = { iban: SOME_DEBTOR_IBAN, currency: 'NOK' }): PaymentBody {
  const body: PaymentBody = {
    endToEndIdentification: 'E2E-CONFORMANCE-1',
    instructedAmount: { amount: '12.50', currency: 'EUR' },
    creditorName: 'Kari Nordmann',
    creditorAccount: { iban: randomNorwegianIban(), currency: 'EUR' },
    creditorAgent: 'DNBANOKKXXX',
    creditorAddress: { street: 'Storgata', buildingNumber: '1', postalCode: '0155', townName: 'Oslo', country: 'NO' },
    debtorAccount: debtor,
    remittanceInformationUnstructured: 'Invoice 2026-001',
    ...changes,
  };
  for (const [key, value] of Object.entries(body)) if (value === undefined) delete body[key];
  return body;
}

/** sepaPayment with a changed creditorAddress (undefined removes a part). */
export function withAddress(changes: Record<string, unknown>): PaymentBody {
  const address: Record<string, unknown> = { street: 'Storgata', buildingNumber: '1', postalCode: '0155', townName: 'Oslo', country: 'NO', ...changes };
  for (const [key, value] of Object.entries(address)) if (value === undefined) delete address[key];
  return sepaPayment({ creditorAddress: address });
}

export const PRODUCTS = {
  sepa: 'sepa-credit-transfers',
  domestic: 'domestic-norway-credit-transfers',
  ncbct: 'norwegian-cross-border-credit-transfers',
} as const;

export interface Initiation {
  service?: 'payments' | 'periodic-payments' | 'bulk-payments';
  product?: string;
  query?: string;
  /** Why the body is malformed on purpose (the invariants then expect a 4xx). */
  malformed?: string;
  headers?: Record<string, string>;
}

/** POST /v1/{payment-service}/{payment-product}. */
export function initiate(tpp: TppClient, paths: ScenarioFixtures['paths'], body: unknown, options: Initiation = {}): Promise<TppResponse> {
  const path = paths('paymentInitiation', { paymentService: options.service ?? 'payments', paymentProduct: options.product ?? PRODUCTS.sepa });
  return tpp.request({
    method: 'POST',
    path: `${path}${options.query ?? ''}`,
    json: body,
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.malformed ? { malformed: options.malformed } : {}),
  });
}

/** A path of one payment (details, status) from its initiation's answer. */
export function paymentPath(paths: ScenarioFixtures['paths'], name: Extract<PathName, 'payment' | 'paymentStatus'>, paymentId: string, options: Initiation = {}): string {
  return paths(name, { paymentService: options.service ?? 'payments', paymentProduct: options.product ?? PRODUCTS.sepa, paymentId });
}

/** paymentId of a 201 answer, if any. */
export function paymentIdOf(response: TppResponse): string | undefined {
  const id = (jsonBodyOf(response) as { paymentId?: unknown } | undefined)?.paymentId;
  return typeof id === 'string' && id !== '' ? id : undefined;
}
