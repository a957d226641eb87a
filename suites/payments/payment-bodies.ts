/**
 * Payment bodies for the payment scenarios: one well-formed payment of every payment service and product
 * that meets every rule of the request table and the structured-address rule, and the one change each
 * scenario makes to it (a patch of the single-payment fields, put where the field lives: a bulk payment's
 * debtor side on the bulk, its creditor side on its first payment). Each payment goes to a creditor IBAN
 * of its own, so no two scenarios send logical duplicates of each other, and is paid from an account of the
 * PSU it names (a bank refuses a debtor account that is not the PSU's): one of the accounts the PSU's consent
 * lists, in that account's currency.
 */
import type { PaymentProduct, PaymentService } from '../../lib/spec/payment-products.js';
import { requirementById } from '../../lib/spec/requirements.js';
import type { PathName } from '../../lib/spec/paths.js';
import {
  accountsOf,
  type ConsentedPsu,
  errorCodeOf,
  jsonBodyOf,
  notTestable,
  PrerequisiteUnmet,
  randomNorwegianIban,
  type ScenarioFixtures,
  servedOrScaAsked,
  type TppClient,
  type TppResponse,
} from '../../lib/fixtures/index.js';

export type PaymentBody = Record<string, unknown>;

/** A change to the fields of a single payment; `undefined` removes a field. */
export type Patch = Record<string, unknown>;

/** A payment service and product: where a payment is initiated (a cell of the rule table). */
export interface Where {
  service: PaymentService;
  product: PaymentProduct;
}

/** `fields` with the patch applied: a field set to undefined is removed. */
function patched(fields: Record<string, unknown>, patch: Patch): Record<string, unknown> {
  const out: Record<string, unknown> = { ...fields, ...patch };
  for (const [key, value] of Object.entries(out)) if (value === undefined) delete out[key];
  return out;
}

export type Account = { iban: string; currency: string };

/** The accounts a payment is made from: the debtor, and another account of the same PSU (the creditor of a payment to self). */
export interface From {
  account: Account;
  /** Another account of the PSU, when it has one. */
  otherAccount?: Account;
}

/** The creditor of every payment, as the PSU is shown it (PAY-49). */
export const CREDITOR_NAME = 'Kari Nordmann';

/** A SEPA credit transfer from the account meeting every rule; `changes` replace top-level fields (undefined removes one). */
export function sepaPayment(from: From, changes: Patch = {}): PaymentBody {
  return patched(
    {
      endToEndIdentification: 'E2E-CONFORMANCE-1',
      instructedAmount: { amount: '12.50', currency: 'EUR' },
      creditorName: CREDITOR_NAME,
      creditorAccount: { iban: randomNorwegianIban(), currency: 'EUR' },
      creditorAgent: 'DNBANOKKXXX',
      creditorAddress: address(),
      debtorAccount: from.account,
      remittanceInformationUnstructured: 'Invoice 2026-001',
    },
    changes,
  );
}

/** The creditor address of every payment (the structured-address rule met), with `changes` (undefined removes a part). */
export function address(changes: Patch = {}): Record<string, unknown> {
  return patched({ street: 'Storgata', buildingNumber: '1', postalCode: '0155', townName: 'Oslo', country: 'NO' }, changes);
}

/** sepaPayment with a changed creditorAddress (undefined removes a part). */
export function withAddress(from: From, changes: Patch): PaymentBody {
  return sepaPayment(from, { creditorAddress: address(changes) });
}

export const PRODUCTS = {
  sepa: 'sepa-credit-transfers',
  domestic: 'domestic-norway-credit-transfers',
  ncbct: 'norwegian-cross-border-credit-transfers',
  toSelf: 'norwegian-domestic-payment-to-self',
} as const satisfies Record<string, PaymentProduct>;

/**
 * The payment a product takes: SEPA in euros; the Norwegian products (domestic, NCBCT, to self) in kroner; a
 * payment to self goes to the PSU's other account, where it has one.
 */
function singlePayment(product: PaymentProduct, patch: Patch, from: From): PaymentBody {
  const own = product === PRODUCTS.toSelf ? from.otherAccount : undefined;
  const amount = own === undefined ? '150.00' : amountOfItsOwn(String(100 + Math.floor(Math.random() * 900)));
  const nok =
    product !== PRODUCTS.sepa
      ? { instructedAmount: { amount, currency: 'NOK' }, creditorAccount: own ?? { iban: randomNorwegianIban(), currency: 'NOK' } }
      : {};
  return sepaPayment(from, { ...nok, ...patch });
}

/**
 * The whole units with cents of their own: a payment to self always goes to the same creditor, and an amount of
 * its own keeps it from being a logical duplicate of another.
 */
function amountOfItsOwn(whole: string): string {
  return `${whole}.${String(Math.floor(Math.random() * 99) + 1).padStart(2, '0')}`;
}

/** Fields of a bulk payment that belong to the bulk, not to its payments (Berlin Group bulk body). */
const BULK_LEVEL = ['debtorAccount', 'requestedExecutionDate', 'requestedExecutionTime', 'batchBookingPreferred', 'payments'];

/**
 * A payment of this service and product meeting every rule, with `patch` applied where each field lives:
 * a periodic payment adds its schedule, a bulk payment holds two payments and carries the debtor side. A
 * bulk's first payment takes `firstPayment` as it is (fields of the bulk's own, put where they do not belong);
 * `everyPayment` goes to each payment of a bulk (and to a single or periodic payment).
 */
export function paymentOf(
  { service, product }: Where,
  from: From,
  patch: Patch & { firstPayment?: Patch; everyPayment?: Patch } = {},
): PaymentBody {
  const { firstPayment = {}, everyPayment = {}, ...fields } = patch;
  if (service === 'periodic-payments') return singlePayment(product, { ...PERIODIC_SCHEDULE, ...everyPayment, ...fields }, from);
  if (service === 'payments') return singlePayment(product, { ...everyPayment, ...fields }, from);
  const bulkPatch = Object.fromEntries(Object.entries(fields).filter(([key]) => BULK_LEVEL.includes(key)));
  const entryPatch = Object.fromEntries(Object.entries(fields).filter(([key]) => !BULK_LEVEL.includes(key)));
  const entry = (changes: Patch) => patched(singlePayment(product, { ...everyPayment, ...changes }, from), { debtorAccount: undefined });
  const payments = [patched(entry(entryPatch), firstPayment), entry({})];
  return patched({ batchBookingPreferred: true, debtorAccount: from.account, payments }, bulkPatch);
}

/** Who pays: a TPP client that names the PSU on every request, and the PSU's accounts to pay from. */
export interface Payer extends From {
  tpp: TppClient;
}

type PayerFixtures = Pick<ScenarioFixtures, 'newTpp' | 'psu' | 'consentedPsu' | 'paths'>;

/**
 * A TPP client that names the PSU on every request: payment initiation requires PSU-ID, or its alternative
 * X-PSU-IDENTITY (HDR-32). This one sends the target's PSU by national identity number, since only an SCA
 * gives a PSU-ID; scenarios whose PSU approves in SCA take `consentedDebtor`, which sends the PSU-ID. The
 * accounts to pay from are the PSU's, as its consent lists them (the worker's consent: one SCA per run).
 */
export async function payer(fixtures: PayerFixtures, name = 'private'): Promise<Payer> {
  const { account, otherAccount } = await consentedDebtor(fixtures, name);
  return {
    tpp: fixtures.newTpp({ headers: psuIdentity(fixtures.psu, name) }),
    account,
    ...(otherAccount === undefined ? {} : { otherAccount }),
  };
}

/** X-PSU-IDENTITY of one of the target's PSUs (NOT_TESTABLE when it declares no national identity number). */
export function psuIdentity(psu: ScenarioFixtures['psu'], name = 'private'): Record<string, string> {
  const { nationalId } = psu(name);
  if (nationalId === undefined)
    notTestable(`the target declares no nationalId for its PSU "${name}", which a payment names in X-PSU-IDENTITY`);
  return { 'X-PSU-IDENTITY': nationalId };
}

export interface Initiation {
  service?: 'payments' | 'periodic-payments' | 'bulk-payments';
  product?: string;
  query?: string;
  /** Why the body is malformed on purpose (the invariants then expect a 4xx). */
  malformed?: string;
  /** Which TPP rule the body leaves on purpose though the bank may accept it (see TppRequest.deliberate). */
  deliberate?: string;
  headers?: Record<string, string>;
  /** The scenario judges the answer to a logical duplicate (END-02): sent once, a 409 kept as it is. */
  judgesDuplicates?: boolean;
}

/** Headers every payment initiation carries beyond the TPP client's own (the header table of the endpoint). */
export const PAYMENT_HEADERS = { 'x-accept-fix': 'amount-as-string' } as const;

/** The request of POST /v1/{payment-service}/{payment-product}, to send as it is or to break on purpose. */
export function initiationRequest(paths: ScenarioFixtures['paths'], body: unknown, options: Initiation = {}) {
  const path = paths('paymentInitiation', {
    paymentService: options.service ?? 'payments',
    paymentProduct: options.product ?? PRODUCTS.sepa,
  });
  return {
    method: 'POST',
    path: `${path}${options.query ?? ''}`,
    json: body,
    // Required on payment initiation; amount-as-string is the default already, so it changes nothing.
    headers: { ...PAYMENT_HEADERS, ...options.headers },
    ...(options.malformed ? { malformed: options.malformed } : {}),
    ...(options.deliberate ? { deliberate: options.deliberate } : {}),
  };
}

/**
 * POST /v1/{payment-service}/{payment-product}. Another payment of the same debtor may be its logical duplicate
 * (same creditor, amount and date: a payment to self has 99 amounts to pick from, and the scenarios of one TPP and
 * one PSU run at once); a bank may refuse it 409, and allowLogicalDuplicate=true is the specification's way to send
 * it anyway. So a 409 is answered so, unless the scenario judges duplicates (`judgesDuplicates`, END-02) or sends the
 * parameter itself (END-03): no other scenario's verdict depends on what another scenario paid at the same moment.
 */
export async function initiate(
  tpp: TppClient,
  paths: ScenarioFixtures['paths'],
  body: unknown,
  options: Initiation = {},
): Promise<TppResponse> {
  const first = await tpp.request(initiationRequest(paths, body, options));
  if (first.status !== 409 || options.judgesDuplicates || options.query?.includes('allowLogicalDuplicate')) return first;
  const query = `${options.query ?? ''}${options.query?.includes('?') ? '&' : '?'}allowLogicalDuplicate=true`;
  return tpp.request(initiationRequest(paths, body, { ...options, query }));
}

/**
 * Why the bank's refusal of a payment says nothing of the rule a scenario judges, if it does not: the bank
 * refuses `control` alike, the same payment without what the rule is about (the valid payment, sent by the
 * same client, of `options`' service and product), for something another rule judges. The one place a
 * scenario learns that the payment it needs cannot be initiated at all; its requirements are then not
 * evaluated, with this reason. Undefined when the bank takes the control (served, or asked for SCA).
 */
export async function refusedAlike(
  tpp: TppClient,
  paths: ScenarioFixtures['paths'],
  control: PaymentBody,
  options: Initiation = {},
): Promise<string | undefined> {
  const response = await initiate(tpp, paths, control, options);
  if (servedOrScaAsked(response)) return undefined;
  const code = errorCodeOf(response);
  const where = `${options.service ?? 'payments'} of ${options.product ?? PRODUCTS.sepa}`;
  return `the bank refuses the suite's valid payment of ${where} as well (HTTP ${response.status}${typeof code === 'string' ? ` ${code}` : ''}), so its answer says nothing of this rule`;
}

/** A path of one payment (details, status) from its initiation's answer. */
export function paymentPath(
  paths: ScenarioFixtures['paths'],
  name: Extract<PathName, 'payment' | 'paymentStatus'>,
  paymentId: string,
  options: Initiation = {},
): string {
  return paths(name, { paymentService: options.service ?? 'payments', paymentProduct: options.product ?? PRODUCTS.sepa, paymentId });
}

/** paymentId of a 201 answer, if any. */
export function paymentIdOf(response: TppResponse): string | undefined {
  const id = (jsonBodyOf(response) as { paymentId?: unknown } | undefined)?.paymentId;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/** A payer the PSU approves for in SCA: its client sends the PSU-ID (and PSU-CORPORATE-ID in corporate context), in the PSU's session. */
export interface Debtor extends Payer {
  psuId: string;
  psu: ConsentedPsu['psu'];
}

/**
 * The worker's consented PSU (the target's `private` one, or another it names) and its first account with
 * an IBAN: a debtor whose payments the PSU can approve in SCA (the bank checks that the debtor account is
 * the PSU's). A PSU that consented in corporate context pays from the agreement's accounts.
 */
export async function consentedDebtor(
  { newTpp, consentedPsu, paths }: Pick<ScenarioFixtures, 'newTpp' | 'consentedPsu' | 'paths'>,
  psuName?: string,
): Promise<Debtor> {
  const { psuId, sessionId, psu, corporateId } = await consentedPsu(psuName);
  // PSU-Context, "required for single-SCA payment initiation" (HDR-20): whatever makes an initiation single-SCA, it is sent.
  const context: Record<string, string> =
    corporateId === undefined ? { 'PSU-Context': 'PRIVATE' } : { 'PSU-Context': 'CORPORATE', 'PSU-CORPORATE-ID': corporateId };
  const tpp = newTpp({ sessionId, headers: { 'PSU-ID': psuId, ...context } });
  const listed = accountsOf<{ iban?: unknown; currency?: unknown }>(await tpp.get(paths('accounts')));
  const accounts = listed.flatMap((a) =>
    typeof a.iban === 'string' && typeof a.currency === 'string' ? [{ iban: a.iban, currency: a.currency }] : [],
  );
  const [account, otherAccount] = accounts;
  if (account === undefined) throw new PrerequisiteUnmet('the consented PSU has no account with an IBAN to pay from');
  return { tpp, psuId, psu, account, ...(otherAccount === undefined ? {} : { otherAccount }) };
}

/**
 * A payment of `amount` in the debtor account's currency, from the debtor, of this service and product (a
 * SEPA credit transfer by default); a payment to self goes to the PSU's other account.
 */
export function paymentFrom(
  debtor: From,
  amount: string,
  where: Where = { service: 'payments', product: PRODUCTS.sepa },
  patch: Patch = {},
): PaymentBody {
  const { currency } = debtor.account;
  const own = where.product === PRODUCTS.toSelf ? debtor.otherAccount : undefined;
  const creditor = own ?? { iban: randomNorwegianIban(), currency };
  if (own !== undefined) amount = amountOfItsOwn(amount.split('.')[0] ?? '0');
  // Every payment of a bulk in the account's currency, to the same creditor: the funds it needs are plain.
  return paymentOf(where, debtor, {
    everyPayment: { instructedAmount: { amount, currency }, creditorAccount: { iban: creditor.iban, currency } },
    ...patch,
  });
}

/**
 * STA-06 on the status of a payment the debtor cannot cover: an ACCP that carries fundsAvailable reports the lack of
 * funds with false. ACCP without it is a payment accepted before its funds are checked (Berlin Group
 * AcceptedCustomerProfile): no report of the funds at all.
 */
export function reportsFundsHonestly(transactionStatus: unknown, fundsAvailable: unknown): boolean {
  return transactionStatus !== 'ACCP' || fundsAvailable === undefined || fundsAvailable === false;
}

/** transactionStatus and fundsAvailable of a payment, as its status request reports them. */
export async function statusOf(
  tpp: TppClient,
  paths: ScenarioFixtures['paths'],
  paymentId: string,
  options: Initiation = {},
): Promise<{ response: TppResponse; transactionStatus?: unknown; fundsAvailable?: unknown }> {
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

/**
 * The products tried, in order, for a service: the Berlin Group lets the bank publish which payment products
 * it offers for periodic and bulk payments (a bank may offer them for its domestic product only).
 */
const PRODUCTS_TO_TRY = [PRODUCTS.sepa, PRODUCTS.domestic, PRODUCTS.ncbct] as const;

/**
 * Initiates `service` on the first product the bank takes it for (served, or asked for SCA), the body made
 * for that product (`body(product)`, a fresh creditor each time). When no product takes it, the last answer,
 * with `product` undefined, and `unjudged` when the bank refuses the suite's single payment on the
 * specification's own endpoint too (refusedAlike): then the refusals say nothing of the service.
 */
export async function initiateOnOfferedProduct(
  { tpp, ...from }: Payer,
  paths: ScenarioFixtures['paths'],
  service: PaymentService,
  body: (product: PaymentProduct) => PaymentBody,
  options: Omit<Initiation, 'service' | 'product'> = {},
): Promise<{ response: TppResponse; product?: PaymentProduct; tried: string; unjudged?: string; calledMalformed?: boolean }> {
  const tried: string[] = [];
  const answers: TppResponse[] = [];
  for (const product of PRODUCTS_TO_TRY) {
    const answer = await initiate(tpp, paths, body(product), { ...options, service, product });
    answers.push(answer);
    tried.push(`${product}: HTTP ${answer.status}${typeof errorCodeOf(answer) === 'string' ? ` ${String(errorCodeOf(answer))}` : ''}`);
    if (servedOrScaAsked(answer)) return { response: answer, product, tried: tried.join(', ') };
  }
  const unjudged = await refusedAlike(tpp, paths, sepaPayment(from));
  const calledMalformed = answers.every(refusedAsMalformed);
  return {
    response: answers.at(-1) as TppResponse,
    tried: tried.join(', '),
    calledMalformed,
    ...(unjudged === undefined ? {} : { unjudged }),
  };
}

/**
 * A refusal that calls the request malformed: the status and a code ERR-21 expects of a request breaking a field
 * rule. A well-formed payment of a service or product the bank does not offer is refused otherwise (404, 403
 * PRODUCT_INVALID…): only this answer says the bank takes the service but not its Berlin Group shape.
 */
function refusedAsMalformed(response: TppResponse): boolean {
  const { status = [], codes = [] } = requirementById('ERR-21')?.expect ?? {};
  const code = errorCodeOf(response);
  return status.includes(response.status) && typeof code === 'string' && codes.includes(code);
}

/** Days between a periodic payment's initiation and its first execution: a start a bank takes, past the next batch runs. */
const PERIODIC_START_DAYS = 14;

/**
 * The schedule of a periodic payment (Berlin Group 1.3 shape): monthly, from two weeks on, with the required
 * fields only (startDate and frequency): how far ahead a bank takes a standing order, and what its optional
 * endDate, executionRule and dayOfExecution mean for each frequency, are the bank's.
 */
const PERIODIC_SCHEDULE: Patch = {
  startDate: new Date(Date.now() + PERIODIC_START_DAYS * 86_400_000).toISOString().slice(0, 10),
  frequency: 'Monthly',
};

/** A periodic SEPA credit transfer (Berlin Group 1.3 shape) with this frequency; MonthlyVariable gets its months. */
export function periodicPayment(from: From, frequency: string, changes: Patch = {}): PaymentBody {
  const months = frequency === 'MonthlyVariable' ? { monthsOfExecution: ['1', '4', '7', '10'] } : {};
  return paymentOf({ service: 'periodic-payments', product: PRODUCTS.sepa }, from, { frequency, ...months, ...changes });
}

/** A bulk payment (Berlin Group 1.3 shape) of two credit transfers of the product. */
export function bulkPayment(from: From, product: PaymentProduct): PaymentBody {
  return paymentOf({ service: 'bulk-payments', product }, from);
}

/**
 * The batch times are not given, only that there are 5 a day: whenever they are, a day and a minute hold at
 * least one of them (a bank may run them all in its morning).
 */
const PAST_A_BATCH_RUN_SECONDS = 24 * 3600 + 60;

const DAY_MS = 86_400_000;

/** The first weekday at least `days` after today (UTC): an execution date a bank keeps, not moved to a business day. */
export function weekdayAhead(days: number): string {
  const date = new Date(Date.now() + days * DAY_MS);
  while ([0, 6].includes(date.getUTCDay())) date.setTime(date.getTime() + DAY_MS);
  return date.toISOString().slice(0, 10);
}

/**
 * Moves the target clock past the next sandbox batch run, or past those of the execution date `through` (a day
 * and a minute after it); returns a TPP for the PSU (dated as the moved clock says: sandbox-fixtures.ts).
 */
export async function pastNextBatchRun(
  { sandboxClock, newTpp }: Pick<ScenarioFixtures, 'sandboxClock' | 'newTpp'>,
  psuId: string,
  through?: string,
): Promise<TppClient> {
  const days = through === undefined ? 0 : Math.ceil((Date.parse(through) - Date.now()) / DAY_MS);
  await sandboxClock.shift(PAST_A_BATCH_RUN_SECONDS + days * (DAY_MS / 1000));
  return newTpp({ headers: { 'PSU-ID': psuId } });
}
