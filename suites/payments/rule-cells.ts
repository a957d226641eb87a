/**
 * The cells of the rule table (lib/spec/rule-table.ts), as the scenarios of its rows judge them: each row's
 * scenario goes through the row's judged cells (payment service by product) and judges the row's rule in
 * each, naming the cell in what it prints.
 */
import { requirementById } from '../../lib/spec/requirements.js';
import type { PaymentService } from '../../lib/spec/payment-products.js';
import { judgedCells, RULE_TABLE, scenariosOf, type Cell } from '../../lib/spec/rule-table.js';
import {
  errorCodeOf,
  isSuccess,
  jsonBodyOf,
  scaRedirectOf,
  type CheckResult,
  type ScaAttempt,
  type ScenarioFixtures,
  type TppClient,
  type TppResponse,
} from '../../lib/fixtures/index.js';
import {
  initiate,
  paymentFrom,
  paymentIdOf,
  paymentOf,
  paymentPath,
  refusedAlike,
  statusOf,
  type Debtor,
  type Patch,
  type Payer,
  type PaymentBody,
  type Where,
} from './payment-bodies.js';

export type { Cell };

/** The judged cells of a row of the rule table, by its key (its scenario id). */
export function cellsOf(key: string): Cell[] {
  return judgedCells(key);
}

/**
 * The scenarios of a row of the rule table that has one per cell (or per service), each with the cells it
 * judges: the suite registers one scenario for each.
 */
export function cellScenarios(key: string): { id: string; cells: Cell[] }[] {
  const found = RULE_TABLE.find((r) => r.key === key);
  if (found === undefined) throw new Error(`the rule table has no row ${key}`);
  return scenariosOf(found).map((id) => ({ id, cells: judgedCells(id) }));
}

/** A cell as the reader wants it: "bulk-payments of norwegian-cross-border-credit-transfers". */
export function cellName({ service, product }: Where): string {
  return `${service} of ${product}`;
}

const KIND: Readonly<Record<PaymentService, readonly [string, string]>> = {
  payments: ['a payment', 'payments'],
  'periodic-payments': ['a periodic payment', 'periodic payments'],
  'bulk-payments': ['a bulk payment', 'bulk payments'],
};

/** What a scenario of some cells is about, for its title: "a bulk payment of sepa-credit-transfers", "payments of every product". */
export function cellsName(cells: readonly Where[]): string {
  const [first] = cells;
  if (first === undefined) return 'no payment';
  if (cells.length === 1) return `${KIND[first.service][0]} of ${first.product}`;
  const services = [...new Set(cells.map((c) => c.service))];
  return services.length === 1 ? `${KIND[first.service][1]} of every product` : 'payments of every service and product';
}

/** The cells of a scenario, judged one after the other. */
export async function forEach<T>(cells: readonly T[], judge: (cell: T) => Promise<void>): Promise<void> {
  for (const cell of cells) await judge(cell);
}

/** The service and product of a cell, as initiation options. */
export function where({ service, product }: Where): Where {
  return { service, product };
}

/** Whether a response's status is among those the requirement's catalogue entry expects. */
export function expected(requirement: string, response: TppResponse): boolean {
  return requirementById(requirement)?.expect?.status?.includes(response.status) ?? false;
}

/** Whether a response's error code, if it carries one, is among those the requirement's catalogue entry expects. */
function expectedCode(requirement: string, response: TppResponse): boolean {
  const code = errorCodeOf(response);
  return typeof code !== 'string' || (requirementById(requirement)?.expect?.codes?.includes(code) ?? false);
}

export interface CellJudgement {
  /** The change that breaks (or uses) the rule, on the cell's valid payment. */
  patch: Patch;
  /** Requirements whose expected status the answer must have. */
  requirements: readonly string[];
  /** The requirement judging the code of a refusal, after the statuses held. */
  code?: string;
  /** Why the payment is malformed on purpose (a refusal): the invariants then expect a 4xx. */
  malformed?: string;
  /** A query string for the initiation (`?allowLogicalDuplicate=…`). */
  query?: string;
  /**
   * [tpp-side] Which TPP rule the payment leaves on purpose though the bank may take it (TppRequest.deliberate): the suite's own HAR audits
   * clean.
   */
  deliberate?: string;
  /** A reason the answer cannot be judged (the rule not in force by the target's clock, say), if any. */
  notInForce?: (response: TppResponse) => string | undefined;
  /**
   * Where the cell's valid payment itself has what the rule is about (exact minor units, a townName): the
   * change that makes it a valid payment without it, the control an unexpected answer is compared with (and
   * which TPP rule that leaves on purpose, if any).
   */
  control?: { patch: Patch; deliberate?: string };
}

/**
 * Sends the cell's valid payment with the patch and judges each requirement on the answer. An answer a
 * requirement does not expect (its status, or its code) counts against the bank only when the bank takes
 * the control, the cell's valid payment: one that takes no payment of the suite's there at all (a service
 * or product it does not offer, or something every payment of the suite's has that it objects to) has the
 * cell not evaluated, since its refusal shows nothing about the rule.
 */
export async function judgeCell(
  { check, paths }: Pick<ScenarioFixtures, 'check' | 'paths'>,
  payingPsu: Payer,
  cell: Where,
  judgement: CellJudgement,
): Promise<CheckResult[]> {
  const { patch, requirements, code, malformed, query, notInForce, deliberate, control = { patch: {} } } = judgement;
  const { tpp } = payingPsu;
  const response = await initiate(tpp, paths, paymentOf(cell, payingPsu, patch), {
    ...where(cell),
    ...(malformed ? { malformed } : {}),
    ...(query ? { query } : {}),
    ...(deliberate ? { deliberate } : {}),
  });
  const judged = [...requirements, ...(code ? [code] : [])];
  const outOfForce = notInForce?.(response);
  if (outOfForce !== undefined) {
    check.notEvaluated(judged, `not evaluated for ${cellName(cell)}: ${outOfForce}`);
    return [];
  }
  if (!requirements.every((requirement) => expected(requirement, response)) || (code !== undefined && !expectedCode(code, response))) {
    const unjudged = await refusedAlike(tpp, paths, paymentOf(cell, payingPsu, control.patch), {
      ...where(cell),
      ...(control.deliberate ? { deliberate: control.deliberate } : {}),
    });
    if (unjudged !== undefined) {
      check.notEvaluated(judged, `not evaluated for ${cellName(cell)}: ${unjudged}`);
      return [];
    }
  }
  const results = requirements.map((requirement) => check.status(requirement, response));
  if (code) check.code(code, response, { after: results });
  return results;
}

/** The judged cells of a row, each judged in turn by `judge`; what each answered, in order. */
export async function forEachCell<R>(key: string, judge: (cell: Cell) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (const cell of cellsOf(key)) out.push(await judge(cell));
  return out;
}

/** Runs `work` for each item, at most `limit` at a time (browser flows: each takes a CPU of its own). */
export async function inParallel<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** What the browser checks of a closed link use. */
type Fixtures = Pick<ScenarioFixtures, 'paths' | 'sca' | 'check'>;

/** A payment of the cell from the debtor, with its scaRedirect; or why the cell cannot be judged. */
export async function initiated({ paths }: Pick<ScenarioFixtures, 'paths'>, debtor: Debtor, cell: Where, amount: string) {
  const body = paymentFrom(debtor, amount, cell);
  const response = await initiate(debtor.tpp, paths, body, where(cell));
  const paymentId = paymentIdOf(response);
  const href = scaRedirectOf(response);
  if (paymentId === undefined) return { response, unmet: `the payment was not created (HTTP ${response.status})` } as const;
  if (href === undefined)
    return { response, unmet: 'the payment was created without an scaRedirect (exempted from SCA): it has no link' } as const;
  return { response, paymentId, href, amounts: amountsShown(body) } as const;
}

/**
 * Cancels a payment of the cell (DELETE): why it is no cancelled payment to judge, if it does not read CANC
 * afterwards (a cancellation refused, one still to be authorised, or one the bank answered and ignored). A
 * payment whose status the bank shows no one before its approval (END-08: a domestic transfer) cannot read CANC
 * either: there, the DELETE's own answer says it.
 */
export async function cancel(
  { paths }: Pick<ScenarioFixtures, 'paths'>,
  tpp: TppClient,
  cell: Where,
  paymentId: string,
): Promise<string | undefined> {
  const before = await statusOf(tpp, paths, paymentId, where(cell));
  const deleted = await tpp.request({ method: 'DELETE', path: paymentPath(paths, 'payment', paymentId, where(cell)) });
  if (!isSuccess(deleted)) return `the bank did not cancel the payment (HTTP ${deleted.status}; cancellation is PAY-50's)`;
  // An answer with links asks for the cancellation to be authorised first (Berlin Group 202): not cancelled yet.
  if ((jsonBodyOf(deleted) as { _links?: unknown } | undefined)?._links !== undefined)
    return `the cancellation awaits an authorisation of its own (HTTP ${deleted.status} with links)`;
  const { transactionStatus, response } = await statusOf(tpp, paths, paymentId, where(cell));
  if (transactionStatus === 'CANC') return undefined;
  if (before.transactionStatus === undefined && transactionStatus === undefined) return undefined;
  const read = transactionStatus === undefined ? `HTTP ${response.status}` : `transactionStatus ${JSON.stringify(transactionStatus)}`;
  return `the payment does not read CANC after its cancellation (${read}; cancellation is PAY-50's)`;
}

/**
 * The amounts that show a PSU what a payment is for: its amount, as sent; for a bulk payment, each payment's, or
 * their total (dynamic linking of a batch binds "the total amount of the batch", PSD2 RTS article 5(3)(b)).
 */
function amountsShown(body: PaymentBody): string[] {
  const amounts = ((body.payments as PaymentBody[] | undefined) ?? [body]).map((p) =>
    String((p.instructedAmount as { amount?: unknown } | undefined)?.amount),
  );
  if (amounts.length === 1) return amounts;
  const decimals = amounts[0]?.split('.')[1]?.length ?? 0;
  return [...new Set(amounts), amounts.reduce((sum, a) => sum + Number(a), 0).toFixed(decimals)];
}

/** Statuses a payment does not leave: a rejected or cancelled payment never goes ahead. */
const FINAL = ['RJCT', 'CANC'];

/**
 * Opens a link that should be closed, as the PSU would go through it, and judges `requirement`: no success
 * redirect, and a rejected or cancelled payment still so. (Other statuses may move on by themselves, a
 * batch run say, between two reads: they are not compared.)
 */
export async function judgeClosed(
  { paths, sca, check }: Fixtures,
  debtor: Debtor,
  cell: Where,
  requirement: string,
  link: { href: string; paymentId: string },
  why: string,
): Promise<void> {
  const before = await statusOf(debtor.tpp, paths, link.paymentId, where(cell));
  const again: ScaAttempt = await sca.attempt(link.href, debtor.psu);
  const after = await statusOf(debtor.tpp, paths, link.paymentId, where(cell));
  const revived = FINAL.includes(String(before.transactionStatus)) && after.transactionStatus !== before.transactionStatus;
  const shown = `${again.outcome === 'refused' ? `stopped: ${again.reason}` : `redirect ${again.url}`}; status ${String(before.transactionStatus)} then ${String(after.transactionStatus)}`;
  const rule = `${why} (${cellName(cell)}): its link ends in the failure redirect or an error page, and a rejected or cancelled payment stays so`;
  check.that(requirement, again.outcome !== 'success' && !revived, { expected: rule, actual: shown, response: after.response });
}
