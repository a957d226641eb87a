/**
 * Payment bodies for the payment scenarios: one well-formed SEPA credit transfer that meets every rule of
 * the request table and the structured-address rule, and the one change each scenario makes to it. Each
 * payment goes to a creditor IBAN of its own, so no two scenarios send logical duplicates of each other.
 */
import type { PathName } from '../../lib/spec/paths.js';
import { jsonBodyOf, PrerequisiteUnmet, servedOrScaAsked, type ConsentedPsu, type ScenarioFixtures, type TppClient, type TppResponse } from '../../lib/fixtures/index.js';

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

/** Headers every payment initiation carries beyond the TPP client's own (the header table of the endpoint). */
export const PAYMENT_HEADERS = { 'x-accept-fix': 'amount-as-string' } as const;

/** The request of POST /v1/{payment-service}/{payment-product}, to send as it is or to break on purpose. */
export function initiationRequest(paths: ScenarioFixtures['paths'], body: unknown, options: Initiation = {}) {
  const path = paths('paymentInitiation', { paymentService: options.service ?? 'payments', paymentProduct: options.product ?? PRODUCTS.sepa });
  return {
    method: 'POST',
    path: `${path}${options.query ?? ''}`,
    json: body,
    // Required on payment initiation; amount-as-string is the default already, so it changes nothing.
    headers: { ...PAYMENT_HEADERS, ...options.headers },
    ...(options.malformed ? { malformed: options.malformed } : {}),
  };
}

/** POST /v1/{payment-service}/{payment-product}. */
export function initiate(tpp: TppClient, paths: ScenarioFixtures['paths'], body: unknown, options: Initiation = {}): Promise<TppResponse> {
  return tpp.request(initiationRequest(paths, body, options));
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

export interface Debtor {
  /** A TPP client in the PSU's session, sending its PSU-ID. */
  tpp: TppClient;
  psuId: string;
  psu: ConsentedPsu['psu'];
  account: { iban: string; currency: string };
}

/**
 * The worker's consented PSU and its first account with an IBAN: a debtor whose payments the PSU can
 * approve in SCA (the bank checks that the debtor account is the PSU's).
 */
export async function consentedDebtor({ newTpp, consentedPsu, paths }: Pick<ScenarioFixtures, 'newTpp' | 'consentedPsu' | 'paths'>): Promise<Debtor> {
  const { psuId, sessionId, psu } = await consentedPsu();
  const tpp = newTpp({ sessionId, headers: { 'PSU-ID': psuId } });
  const accounts = (jsonBodyOf(await tpp.get(paths('accounts'))) as { accounts?: { iban?: unknown; currency?: unknown }[] } | undefined)?.accounts ?? [];
  const account = accounts.find((a) => typeof a.iban === 'string' && typeof a.currency === 'string');
  if (account === undefined) throw new PrerequisiteUnmet('the consented PSU has no account with an IBAN to pay from');
  return { tpp, psuId, psu, account: { iban: String(account.iban), currency: String(account.currency) } };
}

/** A payment in the debtor account's currency, of `amount`, from the debtor. */
export function paymentFrom(debtor: Debtor, amount: string): PaymentBody {
  return sepaPayment({ instructedAmount: { amount, currency: debtor.account.currency }, creditorAccount: { iban: randomNorwegianIban(), currency: debtor.account.currency } }, debtor.account);
}

/** transactionStatus and fundsAvailable of a payment, as its status request reports them. */
export async function statusOf(tpp: TppClient, paths: ScenarioFixtures['paths'], paymentId: string, options: Initiation = {}): Promise<{ response: TppResponse; transactionStatus?: unknown; fundsAvailable?: unknown }> {
  const response = await tpp.get(paymentPath(paths, 'paymentStatus', paymentId, options));
  const body = jsonBodyOf(response) as { transactionStatus?: unknown; fundsAvailable?: unknown } | undefined;
  return { response, transactionStatus: body?.transactionStatus, fundsAvailable: body?.fundsAvailable };
}

/** The amount and creditor account of a payment in this currency (a creditor IBAN of its own). */
export function inCurrency(currency: string, amount = '12.50'): PaymentBody {
  return { instructedAmount: { amount, currency }, creditorAccount: { iban: randomNorwegianIban(), currency } };
}

/** The currency the suite pays in on a product: euro on SEPA credit transfers, kroner on the Norwegian products. */
export function currencyOf(product: string): string {
  return product === PRODUCTS.sepa ? 'EUR' : 'NOK';
}

export type PaymentService = NonNullable<Initiation['service']>;

/**
 * The products tried, in order, for a service: the Berlin Group lets the bank publish which payment products
 * it offers for periodic and bulk payments (a bank may offer them for its domestic product only).
 */
const PRODUCTS_TO_TRY = [PRODUCTS.sepa, PRODUCTS.domestic, PRODUCTS.ncbct] as const;

/**
 * Initiates `service` on the first product the bank takes it for (served, or asked for SCA), the body made
 * for that product (`body(product)`, a fresh creditor each time). When no product takes it, the last answer,
 * with `product` undefined.
 */
export async function initiateOnOfferedProduct(
  tpp: TppClient,
  paths: ScenarioFixtures['paths'],
  service: PaymentService,
  body: (product: string) => PaymentBody,
  options: Omit<Initiation, 'service' | 'product'> = {},
): Promise<{ response: TppResponse; product?: string; tried: string }> {
  const tried: string[] = [];
  let last: TppResponse | undefined;
  for (const product of PRODUCTS_TO_TRY) {
    last = await initiate(tpp, paths, body(product), { ...options, service, product });
    tried.push(`${product}: HTTP ${last.status}`);
    if (servedOrScaAsked(last)) return { response: last, product, tried: tried.join(', ') };
  }
  return { response: last as TppResponse, tried: tried.join(', ') };
}

/** A periodic payment (Berlin Group 1.3 shape) with this frequency; MonthlyVariable gets its months. */
export function periodicPayment(frequency: string, changes: PaymentBody = {}): PaymentBody {
  return sepaPayment({
    startDate: '2030-01-15',
    endDate: '2031-01-15',
    executionRule: 'following',
    dayOfExecution: '15',
    frequency,
    ...(frequency === 'MonthlyVariable' ? { monthsOfExecution: ['1', '4', '7', '10'] } : {}),
    ...changes,
  });
}

/** A bulk payment (Berlin Group 1.3 shape) of two credit transfers, in euro unless another currency is given. */
export function bulkPayment(currency = 'EUR'): PaymentBody {
  const entry = () => {
    const { debtorAccount: _debtor, ...rest } = sepaPayment(inCurrency(currency));
    return rest;
  };
  return { batchBookingPreferred: true, debtorAccount: { iban: SOME_DEBTOR_IBAN, currency: 'NOK' }, payments: [entry(), entry()] };
}

/**
 * The batch times are not given, only that there are 5 a day: whenever they are, a day and a minute hold at
 * least one of them (a bank may run them all in its morning).
 */
const PAST_A_BATCH_RUN_SECONDS = 24 * 3600 + 60;

/** Moves the target clock past the next sandbox batch run; returns a TPP for the PSU whose Date follows the moved clock. */
export async function pastNextBatchRun({ sandboxClock, newTpp }: Pick<ScenarioFixtures, 'sandboxClock' | 'newTpp'>, psuId: string): Promise<TppClient> {
  await sandboxClock.shift(PAST_A_BATCH_RUN_SECONDS);
  return newTpp({ clock: { now: () => new Date(Date.now() + PAST_A_BATCH_RUN_SECONDS * 1000) }, headers: { 'PSU-ID': psuId } });
}
