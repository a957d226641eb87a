// Account information: accounts, card accounts, balances, transactions, transaction details.

import {
  CONSENT_RENEWAL_MS,
  explicitContext,
  grantOf,
  lookupPsu,
  psuPresent,
  requireSession,
  resolveContext,
  scaRequired,
} from './access.js';
import { DAY_MS, addDays, parseIsoDate } from './clock.js';
import { link, type ApiResult, type Ctx } from './context.js';
import { ApiError, formatError, notFound } from './errors.js';
import { formatAmount } from './money.js';
import {
  agreementIdOf,
  type Account,
  type Balance,
  type CardAccount,
  type CardTransaction,
  type ContextKey,
  type Customer,
  type Grant,
  type MoneyAmount,
  type Transaction,
} from './model.js';

const UNATTENDED_CALLS_PER_DAY = 4;
const UNATTENDED_MAX_AGE_DAYS = 90;
const DEFAULT_PAGE_SIZE = 200;
const MAX_PAGE_SIZE = 1000;

interface Access {
  customer: Customer;
  contextKey: ContextKey;
  grant: Grant;
  attended: boolean;
}

/** PSU, context, SCA session (PSU present) and consent of an account information request. */
function aisAccess(ctx: Ctx): Access {
  const psu = lookupPsu(ctx);
  if (psu.kind === 'none') {
    throw scaRequired(ctx, 'SCA_NOT_FOUND', 'The PSU is not identified: SCA and consent are required', { kind: 'consent' });
  }
  if (psu.kind === 'unknown') {
    throw scaRequired(ctx, 'PSU_CREDENTIALS_INVALID', `${psu.header} cannot be matched to a PSU of this bank for this TPP`, {
      kind: 'consent',
    });
  }
  const customer = psu.customer;
  const contextKey = resolveContext(ctx, customer);
  const flow = {
    kind: 'consent' as const,
    expectedCustomer: customer.customerNumber,
    ...(explicitContext(ctx) ? { fixedContext: contextKey } : {}),
  };
  const attended = psuPresent(ctx);
  if (attended) requireSession(ctx, customer, flow);
  const grant = grantOf(ctx, customer, contextKey);
  if (!grant || grant.accountIds.size === 0) {
    throw scaRequired(ctx, 'CONSENT_UNKNOWN', 'The PSU has given no consent to this TPP in this context', flow);
  }
  if (ctx.world.now() - grant.lastScaAt > CONSENT_RENEWAL_MS) {
    throw scaRequired(ctx, 'CONSENT_EXPIRED', 'The consent needs a renewed SCA (every 180 days)', flow);
  }
  return { customer, contextKey, grant, attended };
}

function accountInContext(ctx: Ctx, access: Access, a: Account): boolean {
  if (a.status === 'deleted') return false;
  const agreementId = agreementIdOf(access.contextKey);
  if (agreementId === undefined) return a.customerNumber === access.customer.customerNumber;
  const agreement = ctx.world.agreements.get(agreementId);
  return agreement !== undefined && ctx.world.rolesIn(agreement, access.customer.customerNumber, a.resourceId).has('VIEW');
}

function cardInContext(ctx: Ctx, access: Access, c: CardAccount): boolean {
  if (c.status === 'deleted') return false;
  const agreementId = agreementIdOf(access.contextKey);
  if (agreementId === undefined) return c.customerNumber === access.customer.customerNumber;
  const agreement = ctx.world.agreements.get(agreementId);
  return agreement !== undefined && agreement.owner === access.customer.customerNumber && c.customerNumber === agreement.owner;
}

function consentFlow(access: Access, ctx: Ctx): { kind: 'consent'; expectedCustomer: string; fixedContext?: ContextKey } {
  return {
    kind: 'consent',
    expectedCustomer: access.customer.customerNumber,
    ...(explicitContext(ctx) ? { fixedContext: access.contextKey } : {}),
  };
}

function consentedAccount(ctx: Ctx, access: Access, id: string): Account {
  const a = ctx.world.accounts.get(id);
  if (!a || !accountInContext(ctx, access, a)) throw notFound(`Account ${id} is unknown`);
  if (!access.grant.accountIds.has(id)) {
    throw scaRequired(ctx, 'CONSENT_INVALID', 'The consent does not cover this account', consentFlow(access, ctx));
  }
  return a;
}

function consentedCard(ctx: Ctx, access: Access, id: string): CardAccount {
  const c = ctx.world.cardAccounts.get(id);
  if (!c || !cardInContext(ctx, access, c)) throw notFound(`Card account ${id} is unknown`);
  if (!access.grant.accountIds.has(id)) {
    throw scaRequired(ctx, 'CONSENT_INVALID', 'The consent does not cover this card account', consentFlow(access, ctx));
  }
  return c;
}

/** Unattended access (no PSU-IP-Address): at most 4 calls per 24 hours per account and kind. */
function checkQuota(ctx: Ctx, access: Access, kind: string, id: string): () => void {
  if (access.attended) return () => undefined;
  const key = `${kind}|${id}`;
  const now = ctx.world.now();
  const recent = (ctx.world.quotas.get(key) ?? []).filter((t) => t > now - DAY_MS && t <= now);
  if (recent.length >= UNATTENDED_CALLS_PER_DAY) {
    throw new ApiError(
      429,
      'ACCESS_EXCEEDED',
      `At most ${UNATTENDED_CALLS_PER_DAY} ${kind} calls per 24 hours without the PSU (no PSU-IP-Address)`,
    );
  }
  return () => {
    recent.push(now);
    ctx.world.quotas.set(key, recent);
  };
}

// ---------------------------------------------------------------- serialisation

export function amountJson(m: MoneyAmount): { currency: string; amount: string } {
  return { currency: m.currency, amount: formatAmount(m.amount, m.currency) };
}

const LEGACY_CASH_TYPES: Record<string, string> = {
  CACC: 'CURRENT',
  SVGS: 'SAVINGS',
  TAXE: 'TAX',
  LOAN: 'LOAN',
  CARD: 'CARD',
  SLRY: 'SALARY',
};

function cashAccountType(ctx: Ctx, iso: string): string {
  return ctx.fixes.has('cash-account-type-iso') ? iso : (LEGACY_CASH_TYPES[iso] ?? 'OTHER');
}

function accountRef(a: Account): Record<string, string> {
  const r: Record<string, string> = {};
  if (a.iban) r.iban = a.iban;
  else if (a.bban) r.bban = a.bban;
  r.currency = a.currency;
  return r;
}

function accountJson(ctx: Ctx, a: Account): Record<string, unknown> {
  const base = `/v1/accounts/${a.resourceId}`;
  return {
    resourceId: a.resourceId,
    ...(a.iban ? { iban: a.iban } : {}),
    ...(a.bban ? { bban: a.bban } : {}),
    currency: a.currency,
    name: a.name,
    product: a.product,
    cashAccountType: cashAccountType(ctx, a.cashAccountType),
    status: a.status,
    bic: a.bic,
    usage: a.usage,
    ...(a.ownerName !== undefined ? { ownerName: a.ownerName } : {}),
    _links: { balances: link(`${base}/balances`), transactions: link(`${base}/transactions`) },
  };
}

function cardJson(ctx: Ctx, c: CardAccount): Record<string, unknown> {
  const base = `/v1/card-accounts/${c.resourceId}`;
  const name = ctx.fixes.has('longer-names') ? c.name : c.name.slice(0, 35);
  return {
    resourceId: c.resourceId,
    maskedPan: c.maskedPan,
    currency: c.currency,
    name,
    product: c.product,
    status: c.status,
    usage: c.usage,
    ...(c.ownerName !== undefined ? { ownerName: c.ownerName } : {}),
    ...(c.creditLimit ? { creditLimit: amountJson(c.creditLimit) } : {}),
    _links: { balances: link(`${base}/balances`), transactions: link(`${base}/transactions`) },
  };
}

function balanceJson(b: Balance): Record<string, unknown> {
  return {
    balanceAmount: amountJson({ amount: b.amount, currency: b.currency }),
    balanceType: b.balanceType,
    ...(b.creditLimitIncluded !== undefined ? { creditLimitIncluded: b.creditLimitIncluded } : {}),
    ...(b.lastChangeDateTime ? { lastChangeDateTime: b.lastChangeDateTime } : {}),
    ...(b.referenceDate ? { referenceDate: b.referenceDate } : {}),
    ...(b.lastCommittedTransaction ? { lastCommittedTransaction: b.lastCommittedTransaction } : {}),
  };
}

function txListJson(accountId: string, t: Transaction): Record<string, unknown> {
  const booked = t.bookingDate !== undefined;
  return {
    ...(booked ? { transactionId: t.transactionId } : {}),
    ...(booked && t.entryReference ? { entryReference: t.entryReference } : {}),
    ...(t.bookingDate ? { bookingDate: t.bookingDate } : {}),
    ...(t.valueDate ? { valueDate: t.valueDate } : {}),
    transactionAmount: amountJson({ amount: t.amount, currency: t.currency }),
    ...(t.creditorName ? { creditorName: t.creditorName } : {}),
    ...(t.debtorName ? { debtorName: t.debtorName } : {}),
    remittanceInformationUnstructured: t.remittance,
    ...(booked ? { _links: { transactionDetails: link(`/v1/accounts/${accountId}/transactions/${t.transactionId}`) } } : {}),
  };
}

function txDetailsJson(t: Transaction): Record<string, unknown> {
  const out: Record<string, unknown> = {
    transactionId: t.transactionId,
    ...(t.entryReference ? { entryReference: t.entryReference } : {}),
    ...(t.endToEndId ? { endToEndId: t.endToEndId } : {}),
    ...(t.bookingDate ? { bookingDate: t.bookingDate } : {}),
    ...(t.valueDate ? { valueDate: t.valueDate } : {}),
    transactionAmount: amountJson({ amount: t.amount, currency: t.currency }),
    ...(t.creditorId ? { creditorId: t.creditorId } : {}),
    ...(t.creditorName ? { creditorName: t.creditorName } : {}),
    ...(t.creditorAccount ? { creditorAccount: t.creditorAccount } : {}),
    ...(t.ultimateCreditor ? { ultimateCreditor: t.ultimateCreditor } : {}),
    ...(t.debtorName ? { debtorName: t.debtorName } : {}),
    ...(t.debtorAccount ? { debtorAccount: t.debtorAccount } : {}),
    ...(t.ultimateDebtor ? { ultimateDebtor: t.ultimateDebtor } : {}),
    ...(t.remittance.length ? { remittanceInformationUnstructured: t.remittance.join(' ') } : {}),
    ...(t.purposeCode ? { purposeCode: t.purposeCode } : {}),
    ...(t.bankTransactionCode ? { bankTransactionCode: t.bankTransactionCode } : {}),
    ...(t.proprietaryBankTransactionCode ? { proprietaryBankTransactionCode: t.proprietaryBankTransactionCode } : {}),
    ...(t.additionalInformation ? { additionalInformation: t.additionalInformation } : {}),
  };
  for (const [suffix, value] of Object.entries(t.proprietary)) out[`additionalInformationProprietary${suffix}`] = value;
  return out;
}

function cardTxJson(ctx: Ctx, t: CardTransaction): Record<string, unknown> {
  let tAmount = t.transactionAmount;
  let oAmount = t.originalAmount;
  if (!ctx.fixes.has('cardaccount-switch-originalamount-and-transactionamount') && oAmount) {
    [tAmount, oAmount] = [oAmount, tAmount];
  }
  return {
    cardTransactionId: t.cardTransactionId,
    ...(t.terminalId ? { terminalId: t.terminalId } : {}),
    ...(t.transactionDate ? { transactionDate: t.transactionDate } : {}),
    ...(t.bookingDate ? { bookingDate: t.bookingDate } : {}),
    transactionAmount: amountJson(tAmount),
    ...(oAmount ? { originalAmount: amountJson(oAmount) } : {}),
    ...(t.markupFee ? { markupFee: amountJson(t.markupFee) } : {}),
    ...(t.markupFeePercentage ? { markupFeePercentage: t.markupFeePercentage } : {}),
    ...(t.cardAcceptorId ? { cardAcceptorId: t.cardAcceptorId } : {}),
    ...(t.cardAcceptorAddress ? { cardAcceptorAddress: t.cardAcceptorAddress } : {}),
    ...(t.merchantCategoryCode ? { merchantCategoryCode: t.merchantCategoryCode } : {}),
    ...(t.maskedPan ? { maskedPAN: t.maskedPan } : {}),
    ...(t.transactionDetails ? { transactionDetails: t.transactionDetails } : {}),
    ...(t.invoiced !== undefined ? { invoiced: t.invoiced } : {}),
    ...(t.proprietaryBankTransactionCode ? { proprietaryBankTransactionCode: t.proprietaryBankTransactionCode } : {}),
  };
}

// ---------------------------------------------------------------- transaction queries

interface TxQuery {
  bookingStatus: 'booked' | 'pending' | 'both';
  bookingStatusText: string;
  dateFrom: string | undefined;
  dateTo: string | undefined;
  limit: number;
  offset: number;
  limitGiven: boolean;
}

function parseTxQuery(ctx: Ctx, access: Access): TxQuery {
  const q = ctx.query;
  const bs = q.get('bookingStatus');
  let bookingStatus: TxQuery['bookingStatus'];
  if (bs === null || bs === 'booked') bookingStatus = 'booked';
  else if (bs === 'pending') bookingStatus = 'pending';
  else if (bs === 'both' || bs === 'all') bookingStatus = 'both';
  else throw formatError('Query parameter bookingStatus must be booked, pending, both or all');
  const date = (name: string): string | undefined => {
    const v = q.get(name);
    if (v === null) return undefined;
    if (parseIsoDate(v) === undefined) throw formatError(`Query parameter ${name} must be an ISO 8601 date (YYYY-MM-DD)`);
    return v;
  };
  let dateFrom = date('dateFrom');
  const dateTo = date('dateTo');
  if (dateFrom !== undefined && dateTo !== undefined && dateFrom > dateTo) {
    throw new ApiError(400, 'PERIOD_INVALID', 'dateFrom is after dateTo');
  }
  if (!access.attended) {
    const oldest = addDays(ctx.world.today(), -UNATTENDED_MAX_AGE_DAYS);
    if (dateFrom !== undefined && dateFrom < oldest) {
      throw new ApiError(
        400,
        'PERIOD_INVALID',
        `Without the PSU (no PSU-IP-Address) transactions are available for the last ${UNATTENDED_MAX_AGE_DAYS} days only (from ${oldest})`,
      );
    }
    dateFrom = dateFrom ?? oldest;
  }
  const int = (name: string, min: number, max: number): number | undefined => {
    const v = q.get(name);
    if (v === null) return undefined;
    if (!/^\d{1,9}$/.test(v) || Number(v) < min || Number(v) > max)
      throw formatError(`Query parameter ${name} must be an integer from ${min} to ${max}`);
    return Number(v);
  };
  const limit = int('limit', 1, MAX_PAGE_SIZE);
  const offset = int('offset', 0, 1e9) ?? 0;
  return {
    bookingStatus,
    bookingStatusText: bs ?? 'booked',
    dateFrom,
    dateTo,
    limit: limit ?? DEFAULT_PAGE_SIZE,
    offset,
    limitGiven: limit !== undefined,
  };
}

function inRange(d: string | undefined, q: TxQuery): boolean {
  if (d === undefined) return q.dateFrom === undefined && q.dateTo === undefined;
  if (q.dateFrom !== undefined && d < q.dateFrom) return false;
  if (q.dateTo !== undefined && d > q.dateTo) return false;
  return true;
}

function pageLinks(path: string, q: TxQuery, total: number, ownLink: Record<string, unknown>): Record<string, unknown> {
  const links: Record<string, unknown> = { ...ownLink };
  if (total <= q.limit && q.offset === 0) return links;
  const href = (offset: number): string => {
    const p = new URLSearchParams();
    p.set('bookingStatus', q.bookingStatusText);
    if (q.dateFrom !== undefined) p.set('dateFrom', q.dateFrom);
    if (q.dateTo !== undefined) p.set('dateTo', q.dateTo);
    p.set('limit', String(q.limit));
    p.set('offset', String(offset));
    return `${path}?${p.toString()}`;
  };
  const lastOffset = total === 0 ? 0 : Math.floor((total - 1) / q.limit) * q.limit;
  links.first = link(href(0));
  if (q.offset > 0) links.previous = link(href(Math.max(0, q.offset - q.limit)));
  if (q.offset + q.limit < total) links.next = link(href(q.offset + q.limit));
  links.last = link(href(lastOffset));
  return links;
}

const byDateDesc =
  <T extends { seq: number }>(dateOf: (t: T) => string | undefined) =>
  (a: T, b: T): number => {
    const da = dateOf(a) ?? '';
    const db = dateOf(b) ?? '';
    if (da !== db) return da < db ? 1 : -1;
    return b.seq - a.seq;
  };

// ---------------------------------------------------------------- handlers

export function getAccounts(ctx: Ctx): ApiResult {
  const access = aisAccess(ctx);
  const accounts = [...access.grant.accountIds]
    .map((id) => ctx.world.accounts.get(id))
    .filter((a): a is Account => a !== undefined && accountInContext(ctx, access, a))
    .map((a) => accountJson(ctx, a));
  return { status: 200, body: { accounts } };
}

export function getAccount(ctx: Ctx, id: string): ApiResult {
  const access = aisAccess(ctx);
  return { status: 200, body: { account: accountJson(ctx, consentedAccount(ctx, access, id)) } };
}

export function getBalances(ctx: Ctx, id: string): ApiResult {
  const access = aisAccess(ctx);
  const a = consentedAccount(ctx, access, id);
  const commit = checkQuota(ctx, access, 'balances', id);
  commit();
  return { status: 200, body: { account: accountRef(a), balances: a.balances.map(balanceJson) } };
}

export function getTransactions(ctx: Ctx, id: string): ApiResult {
  const access = aisAccess(ctx);
  const a = consentedAccount(ctx, access, id);
  const q = parseTxQuery(ctx, access);
  const commit = checkQuota(ctx, access, 'transactions', id);
  const booked = a.transactions
    .filter((t) => t.bookingDate !== undefined && inRange(t.bookingDate, q))
    .sort(byDateDesc((t) => t.bookingDate));
  // the sandbox is not affected by the known issue: pending transactions are filtered too
  const pending = a.transactions.filter((t) => t.bookingDate === undefined && inRange(t.valueDate, q)).sort(byDateDesc((t) => t.valueDate));
  const report: Record<string, unknown> = {};
  let total = 0;
  if (q.bookingStatus !== 'pending') {
    report.booked = booked.slice(q.offset, q.offset + q.limit).map((t) => txListJson(a.resourceId, t));
    total = Math.max(total, booked.length);
  }
  if (q.bookingStatus !== 'booked') {
    report.pending = pending.slice(q.offset, q.offset + q.limit).map((t) => txListJson(a.resourceId, t));
    total = Math.max(total, pending.length);
  }
  const path = `/v1/accounts/${a.resourceId}/transactions`;
  report._links = pageLinks(path, q, total, { account: link(`/v1/accounts/${a.resourceId}`) });
  commit();
  return { status: 200, body: { account: accountRef(a), transactions: report } };
}

export function getTransactionDetails(ctx: Ctx, id: string, transactionId: string): ApiResult {
  const access = aisAccess(ctx);
  const a = consentedAccount(ctx, access, id);
  const t = a.transactions.find((x) => x.transactionId === transactionId && x.bookingDate !== undefined);
  if (!t) throw notFound(`Transaction ${transactionId} is unknown`);
  if (!access.attended && t.bookingDate !== undefined && t.bookingDate < addDays(ctx.world.today(), -UNATTENDED_MAX_AGE_DAYS)) {
    throw new ApiError(
      400,
      'PERIOD_INVALID',
      `Without the PSU (no PSU-IP-Address) transactions are available for the last ${UNATTENDED_MAX_AGE_DAYS} days only`,
    );
  }
  // Berlin Group 1.3.8, response OK_200_TransactionDetails: "required: - transactionsDetails", whose value is
  // transactionDetailsBody ("required: - transactionDetails"): the transaction nested under both names.
  return { status: 200, body: { transactionsDetails: { transactionDetails: txDetailsJson(t) } } };
}

export function getCardAccounts(ctx: Ctx): ApiResult {
  const access = aisAccess(ctx);
  const cards = [...access.grant.accountIds]
    .map((id) => ctx.world.cardAccounts.get(id))
    .filter((c): c is CardAccount => c !== undefined && cardInContext(ctx, access, c))
    .map((c) => cardJson(ctx, c));
  return { status: 200, body: { cardAccounts: cards } };
}

export function getCardAccount(ctx: Ctx, id: string): ApiResult {
  const access = aisAccess(ctx);
  return { status: 200, body: { cardAccount: cardJson(ctx, consentedCard(ctx, access, id)) } };
}

export function getCardBalances(ctx: Ctx, id: string): ApiResult {
  const access = aisAccess(ctx);
  const c = consentedCard(ctx, access, id);
  const commit = checkQuota(ctx, access, 'balances', id);
  commit();
  return { status: 200, body: { cardAccount: { maskedPan: c.maskedPan }, balances: c.balances.map(balanceJson) } };
}

export function getCardTransactions(ctx: Ctx, id: string): ApiResult {
  const access = aisAccess(ctx);
  const c = consentedCard(ctx, access, id);
  const q = parseTxQuery(ctx, access);
  const commit = checkQuota(ctx, access, 'transactions', id);
  const booked = c.transactions
    .filter((t) => t.bookingDate !== undefined && inRange(t.bookingDate, q))
    .sort(byDateDesc((t) => t.bookingDate));
  const pending = c.transactions
    .filter((t) => t.bookingDate === undefined && inRange(t.transactionDate, q))
    .sort(byDateDesc((t) => t.transactionDate));
  // Berlin Group 1.3.8, cardAccountReport: "required: - booked - _links": the booked list is sent (empty when only
  // pending ones were asked for), unlike an account report, whose booked is optional.
  const report: Record<string, unknown> = { booked: [] };
  let total = 0;
  if (q.bookingStatus !== 'pending') {
    report.booked = booked.slice(q.offset, q.offset + q.limit).map((t) => cardTxJson(ctx, t));
    total = Math.max(total, booked.length);
  }
  if (q.bookingStatus !== 'booked') {
    report.pending = pending.slice(q.offset, q.offset + q.limit).map((t) => cardTxJson(ctx, t));
    total = Math.max(total, pending.length);
  }
  report._links = pageLinks(`/v1/card-accounts/${c.resourceId}/transactions`, q, total, {
    cardAccount: link(`/v1/card-accounts/${c.resourceId}`),
  });
  commit();
  return { status: 200, body: { cardAccount: { maskedPan: c.maskedPan }, cardTransactions: report } };
}
