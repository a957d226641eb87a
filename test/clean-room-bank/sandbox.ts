// Sandbox operations: initialisation, mock data (customers, accounts, card accounts, agreements,
// transactions, balances, owner names), the clock, batch processing, and simulations of what
// happens outside the interface (revocation by the PSU, payment held or stopped).

import { randomUUID } from 'node:crypto';
import { amountJson } from './ais.js';
import { BATCH_HOURS, catchUp, nextRunAfter, runBatch } from './batch.js';
import { DAY_MS, HOUR_MS, isoDateTime, osloLocalToUtc, parseIsoDate, parseIsoDateTime } from './clock.js';
import {
  COUNTRIES,
  CURRENCIES,
  completeNoBban,
  ibanFromBban,
  isValidIban,
  isValidNationalId,
  isValidNoBban,
  isValidOrgNumber,
} from './codes.js';
import { isObject, jsonBody, objectBody, type ApiResult, type Ctx } from './context.js';
import { ApiError, SYSTEM_SANDBOX } from './errors.js';
import { amountFromJson } from './money.js';
import {
  LIMITS,
  TX_STATUSES,
  agreementIdOf,
  corporateContext,
  type Account,
  type AccountReference,
  type AccountStatus,
  type Agreement,
  type Balance,
  type CardAccount,
  type CardTransaction,
  type Customer,
  type Engagement,
  type MoneyAmount,
  type Transaction,
  type TxStatus,
  type World,
} from './model.js';
import { BANK_BIC, seedWorld } from './seed.js';

const sbError = (status: number, code: string, message: string): ApiError =>
  new ApiError(status, code, message, { system: SYSTEM_SANDBOX });
const bad = (message: string): ApiError => sbError(400, 'FORMAT_ERROR', message);
const missing = (what: string): ApiError => sbError(404, 'RESOURCE_UNKNOWN', `${what} is unknown`);
const tooMany = (what: string): ApiError =>
  sbError(429, 'ACCESS_EXCEEDED', `The sandbox holds at most ${what}; call POST /v1/sandbox/initialize to start again`);

const BALANCE_TYPES = [
  'closingBooked',
  'expected',
  'openingBooked',
  'interimAvailable',
  'interimBooked',
  'forwardAvailable',
  'nonInvoiced',
];

function optStr(o: Record<string, unknown>, key: string, max = 140): string | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw bad(`${key} must be a string`);
  if ([...v].length > max) throw bad(`${key} is longer than ${max} characters`);
  return v;
}

function reqStr(o: Record<string, unknown>, key: string, max = 140): string {
  const v = optStr(o, key, max);
  if (v === undefined || v.trim() === '') throw bad(`${key} is required`);
  return v;
}

function optDate(o: Record<string, unknown>, key: string): string | undefined {
  const v = optStr(o, key, 10);
  if (v !== undefined && parseIsoDate(v) === undefined) throw bad(`${key} must be an ISO 8601 date (YYYY-MM-DD)`);
  return v;
}

function optBool(o: Record<string, unknown>, key: string): boolean | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw bad(`${key} must be a boolean`);
  return v;
}

function money(v: unknown, key: string, defaultCurrency: string): MoneyAmount {
  if (isObject(v)) {
    const amount = amountFromJson(v.amount);
    if (amount === undefined) throw bad(`${key}.amount must be a decimal number (string or number)`);
    const currency = v.currency === undefined ? defaultCurrency : v.currency;
    if (typeof currency !== 'string' || !CURRENCIES.has(currency)) throw bad(`${key}.currency must be a currency code`);
    return { amount, currency };
  }
  const amount = amountFromJson(v);
  if (amount === undefined) throw bad(`${key} must be an amount`);
  return { amount, currency: defaultCurrency };
}

function normaliseBalanceType(t: string): string {
  if (BALANCE_TYPES.includes(t)) return t;
  const camel = t.toLowerCase().replace(/[_-]([a-z])/g, (_m: string, c: string) => c.toUpperCase());
  const hit = BALANCE_TYPES.find((b) => b.toLowerCase() === camel.toLowerCase());
  if (!hit) throw bad(`balanceType ${t} is not one of ${BALANCE_TYPES.join(', ')}`);
  return hit;
}

function balances(v: unknown, currency: string, now: number): Balance[] {
  if (!Array.isArray(v)) throw bad('balances must be an array');
  if (v.length > 10) throw bad('at most 10 balances');
  return v.map((b, i) => {
    if (!isObject(b)) throw bad(`balances[${i}] must be an object`);
    const type = normaliseBalanceType(reqStr(b, 'balanceType', 40));
    const m = money(b.balanceAmount ?? b.amount, `balances[${i}].balanceAmount`, currency);
    const out: Balance = { balanceType: type, amount: m.amount, currency: m.currency };
    const cli = optBool(b, 'creditLimitIncluded');
    if (cli !== undefined) out.creditLimitIncluded = cli;
    const rd = optDate(b, 'referenceDate');
    if (rd) out.referenceDate = rd;
    const lc = optStr(b, 'lastChangeDateTime', 40);
    if (lc !== undefined) {
      const t = parseIsoDateTime(lc);
      if (t === undefined) throw bad(`balances[${i}].lastChangeDateTime must be an ISO 8601 date-time`);
      out.lastChangeDateTime = isoDateTime(t);
    } else out.lastChangeDateTime = isoDateTime(now);
    const lct = optStr(b, 'lastCommittedTransaction', 35);
    if (lct) out.lastCommittedTransaction = lct;
    return out;
  });
}

function status(v: unknown): AccountStatus {
  if (typeof v !== 'string') throw bad('status must be enabled, blocked or deleted');
  const s = v.toLowerCase();
  if (s !== 'enabled' && s !== 'blocked' && s !== 'deleted') throw bad('status must be enabled, blocked or deleted');
  return s;
}

function accountRefIn(v: unknown, key: string): AccountReference | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isObject(v)) throw bad(`${key} must be an object`);
  const out: AccountReference = {};
  const iban = optStr(v, 'iban', 34);
  const bban = optStr(v, 'bban', 30);
  if (iban) out.iban = iban;
  if (bban) out.bban = bban;
  return out;
}

function mockTransactionCount(w: World): number {
  let n = 0;
  for (const a of w.accounts.values()) n += a.transactions.length;
  for (const c of w.cardAccounts.values()) n += c.transactions.length;
  return n;
}

function arrayBody(ctx: Ctx, key: string): unknown[] {
  const b = jsonBody(ctx);
  if (Array.isArray(b)) return b;
  if (isObject(b) && Array.isArray(b[key])) return b[key] as unknown[];
  throw bad(`The body must be an array, or an object with an array ${key}`);
}

// ---------------------------------------------------------------- views

function customerView(w: World, c: Customer): Record<string, unknown> {
  return {
    customerNumber: c.customerNumber,
    name: c.name,
    type: c.type,
    townName: c.townName,
    country: c.country,
    manual: c.manual,
    accounts: [...w.accounts.values()]
      .filter((a) => a.customerNumber === c.customerNumber)
      .map((a) => ({ resourceId: a.resourceId, iban: a.iban, bban: a.bban, currency: a.currency, accountName: a.name, status: a.status })),
    cardAccounts: [...w.cardAccounts.values()]
      .filter((a) => a.customerNumber === c.customerNumber)
      .map((a) => ({ resourceId: a.resourceId, maskedPan: a.maskedPan, currency: a.currency, name: a.name, status: a.status })),
    agreements: w.agreementsOf(c.customerNumber).map((a) => a.agreementId),
  };
}

function balanceView(b: Balance): Record<string, unknown> {
  return {
    balanceType: b.balanceType,
    balanceAmount: amountJson({ amount: b.amount, currency: b.currency }),
    ...(b.creditLimitIncluded !== undefined ? { creditLimitIncluded: b.creditLimitIncluded } : {}),
    ...(b.referenceDate ? { referenceDate: b.referenceDate } : {}),
    ...(b.lastChangeDateTime ? { lastChangeDateTime: b.lastChangeDateTime } : {}),
    ...(b.lastCommittedTransaction ? { lastCommittedTransaction: b.lastCommittedTransaction } : {}),
  };
}

function accountView(a: Account): Record<string, unknown> {
  return {
    resourceId: a.resourceId,
    customerNumber: a.customerNumber,
    accountName: a.name,
    iban: a.iban,
    bban: a.bban,
    bic: a.bic,
    currency: a.currency,
    product: a.product,
    cashAccountType: a.cashAccountType,
    status: a.status,
    ownerName: a.ownerName ?? null,
    creditLine: amountJson({ amount: a.creditLine, currency: a.currency }),
    paymentsAllowed: a.paymentsAllowed,
    balances: a.balances.map(balanceView),
    transactionCount: a.transactions.length,
  };
}

function cardView(c: CardAccount): Record<string, unknown> {
  return {
    resourceId: c.resourceId,
    customerNumber: c.customerNumber,
    maskedPan: c.maskedPan,
    currency: c.currency,
    name: c.name,
    product: c.product,
    status: c.status,
    ownerName: c.ownerName ?? null,
    creditLimit: c.creditLimit ? amountJson(c.creditLimit) : null,
    cardId: c.cardId ?? null,
    accountNumber: c.accountNumber ?? null,
    expiry: c.expiry ?? null,
    balances: c.balances.map(balanceView),
    transactionCount: c.transactions.length,
  };
}

function txView(t: Transaction): Record<string, unknown> {
  return {
    transactionId: t.transactionId,
    status: t.bookingDate ? 'booked' : 'pending',
    ...(t.bookingDate ? { bookingDate: t.bookingDate } : {}),
    ...(t.valueDate ? { valueDate: t.valueDate } : {}),
    ...amountJson({ amount: t.amount, currency: t.currency }),
    ...(t.creditorName ? { creditorName: t.creditorName } : {}),
    ...(t.creditorAccount ? { creditorAccount: t.creditorAccount } : {}),
    ...(t.debtorName ? { debtorName: t.debtorName } : {}),
    ...(t.debtorAccount ? { debtorAccount: t.debtorAccount } : {}),
    remittanceInformationUnstructured: t.remittance,
  };
}

function cardTxView(t: CardTransaction): Record<string, unknown> {
  return {
    cardTransactionId: t.cardTransactionId,
    status: t.bookingDate ? 'booked' : 'pending',
    ...(t.transactionDate ? { transactionDate: t.transactionDate } : {}),
    ...(t.bookingDate ? { bookingDate: t.bookingDate } : {}),
    transactionAmount: amountJson(t.transactionAmount),
    ...(t.originalAmount ? { originalAmount: amountJson(t.originalAmount) } : {}),
    ...(t.transactionDetails ? { transactionDetails: t.transactionDetails } : {}),
  };
}

function agreementView(w: World, a: Agreement): Record<string, unknown> {
  return {
    agreementId: a.agreementId,
    owner: a.owner,
    name: a.name,
    engagements: a.engagements.map((e) => ({
      customer: e.customer,
      account: { iban: w.accounts.get(e.accountId)?.iban, resourceId: e.accountId },
      roles: e.roles,
    })),
    manual: a.manual,
  };
}

// ---------------------------------------------------------------- initialise, customers

export function initialize(ctx: Ctx): ApiResult {
  seedWorld(ctx.world);
  return {
    status: 200,
    body: {
      message: 'The sandbox is in its known state',
      customers: [...ctx.world.customers.values()].map((c) => customerView(ctx.world, c)),
    },
  };
}

export function listCustomers(ctx: Ctx): ApiResult {
  return { status: 200, body: { customers: [...ctx.world.customers.values()].map((c) => customerView(ctx.world, c)) } };
}

function findCustomer(w: World, n: string): Customer {
  const c = w.customers.get(n);
  if (!c) throw missing(`Customer ${n}`);
  return c;
}

export function createCustomer(ctx: Ctx): ApiResult {
  const w = ctx.world;
  const b = objectBody(ctx);
  const customerNumber = reqStr(b, 'customerNumber', 11);
  const typeRaw = reqStr(b, 'type', 20).toLowerCase();
  if (typeRaw !== 'private' && typeRaw !== 'corporate') throw bad('type must be private or corporate');
  if (typeRaw === 'private' && !isValidNationalId(customerNumber)) {
    throw bad('customerNumber of a private customer must be a Norwegian national identity number or D-number (11 digits, mod 11)');
  }
  if (typeRaw === 'corporate' && !isValidOrgNumber(customerNumber) && !isValidNationalId(customerNumber)) {
    throw bad(
      'customerNumber of a corporate customer must be an organisation number (9 digits) or an 11-digit number with valid check digits',
    );
  }
  if (w.customers.has(customerNumber)) throw sbError(409, 'CONFLICT', `Customer ${customerNumber} exists`);
  if (w.customers.size >= LIMITS.customers) throw tooMany(`${LIMITS.customers} customers`);
  const country = optStr(b, 'country', 2) ?? 'NO';
  if (!COUNTRIES.has(country)) throw bad('country must be an ISO 3166-1 alpha-2 code');
  const c: Customer = {
    customerNumber,
    name: reqStr(b, 'name', 140),
    type: typeRaw,
    townName: optStr(b, 'townName', 35) ?? 'Oslo',
    country,
    manual: true,
  };
  w.customers.set(customerNumber, c);
  return { status: 201, body: customerView(w, c) };
}

export function getCustomer(ctx: Ctx, n: string): ApiResult {
  return { status: 200, body: customerView(ctx.world, findCustomer(ctx.world, n)) };
}

export function patchCustomer(ctx: Ctx, n: string): ApiResult {
  const c = findCustomer(ctx.world, n);
  const b = objectBody(ctx);
  const name = optStr(b, 'name', 140);
  const town = optStr(b, 'townName', 35);
  const country = optStr(b, 'country', 2);
  if (country !== undefined && !COUNTRIES.has(country)) throw bad('country must be an ISO 3166-1 alpha-2 code');
  if (name !== undefined) c.name = name;
  if (town !== undefined) c.townName = town;
  if (country !== undefined) c.country = country;
  return { status: 200, body: customerView(ctx.world, c) };
}

export function deleteCustomer(ctx: Ctx, n: string): ApiResult {
  const w = ctx.world;
  findCustomer(w, n);
  for (const [id, a] of w.accounts) if (a.customerNumber === n) removeAccount(w, id);
  for (const [id, c] of w.cardAccounts) if (c.customerNumber === n) w.cardAccounts.delete(id);
  for (const [id, a] of w.agreements) {
    if (a.owner === n) removeAgreement(w, id);
    else a.engagements = a.engagements.filter((e) => e.customer !== n);
  }
  for (const [k, g] of w.grants) if (g.customerNumber === n) w.grants.delete(k);
  for (const s of w.sessions.values()) if (s.customerNumber === n) s.invalidated = true;
  w.customers.delete(n);
  return { status: 204 };
}

// ---------------------------------------------------------------- accounts

function removeAccount(w: World, id: string): void {
  w.accounts.delete(id);
  for (const a of w.agreements.values()) a.engagements = a.engagements.filter((e) => e.accountId !== id);
  for (const g of w.grants.values()) g.accountIds.delete(id);
}

function findAccount(w: World, id: string): Account {
  const a = w.accounts.get(id);
  if (!a) throw missing(`Account ${id}`);
  return a;
}

export function listAccounts(ctx: Ctx): ApiResult {
  const n = ctx.query.get('customerNumber');
  const list = [...ctx.world.accounts.values()].filter((a) => n === null || a.customerNumber === n).map(accountView);
  return { status: 200, body: { accounts: list } };
}

export function createAccount(ctx: Ctx): ApiResult {
  const w = ctx.world;
  const b = objectBody(ctx);
  const customer = findCustomer(w, reqStr(b, 'customerNumber', 11));
  if (w.accounts.size >= LIMITS.accounts) throw tooMany(`${LIMITS.accounts} accounts`);
  const currency = reqStr(b, 'currency', 3);
  if (!CURRENCIES.has(currency)) throw bad('currency must be an ISO 4217 code of the currency list');
  let bban = optStr(b, 'bban', 30)?.replace(/[\s.]/g, '');
  let iban = optStr(b, 'iban', 34)?.replace(/\s+/g, '').toUpperCase();
  if (bban !== undefined && !isValidNoBban(bban)) throw bad('bban must be a Norwegian account number (11 digits, mod 11)');
  if (iban !== undefined && !isValidIban(iban)) throw bad('iban is not a valid IBAN');
  if (iban === undefined && bban === undefined) {
    for (let i = 0; i < 1000 && bban === undefined; i++) {
      const candidate = completeNoBban('9711' + String(100000 + Math.floor(Math.random() * 899999)));
      if (candidate && !w.accountByBban(candidate)) bban = candidate;
    }
  }
  if (iban === undefined && bban !== undefined) iban = ibanFromBban('NO', bban);
  if (bban === undefined && iban !== undefined && iban.startsWith('NO') && iban.length === 15) bban = iban.slice(4);
  if (iban !== undefined && w.accountByIban(iban)) throw sbError(409, 'CONFLICT', `An account with IBAN ${iban} exists`);
  if (iban === undefined && bban !== undefined && w.accountByBban(bban))
    throw sbError(409, 'CONFLICT', `An account with BBAN ${bban} exists`);
  const creditLine = b.creditLine === undefined || b.creditLine === null ? 0n : money(b.creditLine, 'creditLine', currency).amount;
  const cashType = (optStr(b, 'cashAccountType', 4) ?? 'CACC').toUpperCase();
  const a: Account = {
    resourceId: randomUUID(),
    customerNumber: customer.customerNumber,
    iban,
    bban,
    bic: BANK_BIC,
    currency,
    name: optStr(b, 'accountName', 70) ?? optStr(b, 'name', 70) ?? 'Konto',
    product: optStr(b, 'product', 35) ?? 'Brukskonto',
    cashAccountType: cashType,
    status: b.status === undefined ? 'enabled' : status(b.status),
    usage: customer.type === 'private' ? 'PRIV' : 'ORGA',
    ownerName: optStr(b, 'ownerName', 140),
    creditLine,
    balances:
      b.balances === undefined
        ? [
            {
              balanceType: 'interimAvailable',
              amount: creditLine,
              currency,
              creditLimitIncluded: creditLine > 0n,
              lastChangeDateTime: isoDateTime(w.now()),
            },
            { balanceType: 'expected', amount: 0n, currency, referenceDate: w.today() },
          ]
        : balances(b.balances, currency, w.now()),
    transactions: [],
    paymentsAllowed: optBool(b, 'paymentsAllowed') ?? true,
    manual: true,
  };
  w.accounts.set(a.resourceId, a);
  return { status: 201, body: accountView(a) };
}

export function getAccountSb(ctx: Ctx, id: string): ApiResult {
  return { status: 200, body: accountView(findAccount(ctx.world, id)) };
}

export function patchAccount(ctx: Ctx, id: string): ApiResult {
  const a = findAccount(ctx.world, id);
  const b = objectBody(ctx);
  const name = optStr(b, 'accountName', 70) ?? optStr(b, 'name', 70);
  const product = optStr(b, 'product', 35);
  const cash = optStr(b, 'cashAccountType', 4);
  const st = b.status === undefined ? undefined : status(b.status);
  const credit = b.creditLine === undefined ? undefined : money(b.creditLine, 'creditLine', a.currency).amount;
  const pay = optBool(b, 'paymentsAllowed');
  if (name !== undefined) a.name = name;
  if (product !== undefined) a.product = product;
  if (cash !== undefined) a.cashAccountType = cash.toUpperCase();
  if (st !== undefined) a.status = st;
  if (credit !== undefined) a.creditLine = credit;
  if (pay !== undefined) a.paymentsAllowed = pay;
  if (b.ownerName !== undefined) a.ownerName = b.ownerName === null ? undefined : optStr(b, 'ownerName', 140);
  return { status: 200, body: accountView(a) };
}

export function deleteAccount(ctx: Ctx, id: string): ApiResult {
  findAccount(ctx.world, id);
  removeAccount(ctx.world, id);
  return { status: 204 };
}

export function putAccountBalances(ctx: Ctx, id: string): ApiResult {
  const a = findAccount(ctx.world, id);
  a.balances = balances(arrayBody(ctx, 'balances'), a.currency, ctx.world.now());
  return { status: 200, body: accountView(a) };
}

function ownerNameBody(ctx: Ctx): string | undefined {
  const b = objectBody(ctx);
  if (b.ownerName === null) return undefined;
  return reqStr(b, 'ownerName', 140);
}

export function putAccountOwnerName(ctx: Ctx, id: string): ApiResult {
  const a = findAccount(ctx.world, id);
  a.ownerName = ownerNameBody(ctx);
  return { status: 200, body: accountView(a) };
}

function readTransaction(w: World, v: unknown, i: number, currency: string, into?: Transaction): Transaction {
  if (!isObject(v)) throw bad(`transactions[${i}] must be an object`);
  const t: Transaction = into ?? { transactionId: randomUUID(), amount: 0n, currency, remittance: [], proprietary: {}, seq: w.nextSeq() };
  if (v.transactionId !== undefined && !into) t.transactionId = reqStr(v, 'transactionId', 100);
  if (v.amount !== undefined || v.transactionAmount !== undefined || !into) {
    const m = money(v.transactionAmount ?? v.amount, `transactions[${i}].amount`, optStr(v, 'currency', 3) ?? currency);
    t.amount = m.amount;
    t.currency = m.currency;
  } else if (v.currency !== undefined) {
    const c = reqStr(v, 'currency', 3);
    if (!CURRENCIES.has(c)) throw bad('currency must be a currency code');
    t.currency = c;
  }
  const setStr = (key: string, max = 140): void => {
    if (v[key] === undefined) return;
    const s = v[key] === null ? undefined : optStr(v, key, max);
    (t as unknown as Record<string, unknown>)[key] = s;
  };
  if (v.bookingDate !== undefined) t.bookingDate = v.bookingDate === null ? undefined : optDate(v, 'bookingDate');
  if (v.valueDate !== undefined) t.valueDate = v.valueDate === null ? undefined : optDate(v, 'valueDate');
  setStr('entryReference', 35);
  setStr('endToEndId', 35);
  setStr('creditorId', 35);
  setStr('creditorName', 70);
  setStr('ultimateCreditor', 70);
  setStr('debtorName', 70);
  setStr('ultimateDebtor', 70);
  setStr('purposeCode', 4);
  setStr('bankTransactionCode', 35);
  setStr('proprietaryBankTransactionCode', 35);
  setStr('additionalInformation', 500);
  if (v.creditorAccount !== undefined) t.creditorAccount = accountRefIn(v.creditorAccount, 'creditorAccount');
  if (v.debtorAccount !== undefined) t.debtorAccount = accountRefIn(v.debtorAccount, 'debtorAccount');
  const rem = v.remittanceInformationUnstructured;
  if (rem !== undefined) {
    if (typeof rem === 'string' && rem.length <= 140) t.remittance = [rem];
    else if (Array.isArray(rem) && rem.length <= 10 && rem.every((x): x is string => typeof x === 'string' && x.length <= 140))
      t.remittance = rem;
    else if (rem === null) t.remittance = [];
    else throw bad('remittanceInformationUnstructured must be a string or an array of at most 10 strings, each at most 140 characters');
  }
  const prop = v.additionalInformationProprietary;
  if (prop !== undefined) {
    if (!isObject(prop)) throw bad('additionalInformationProprietary must be an object of suffix to text');
    t.proprietary = {};
    if (Object.keys(prop).length > 10) throw bad('additionalInformationProprietary holds at most 10 entries');
    for (const [k, val] of Object.entries(prop)) {
      if (typeof val !== 'string' || val.length > 500 || !/^\w{1,30}$/.test(k))
        throw bad('additionalInformationProprietary must map word suffixes to strings of at most 500 characters');
      t.proprietary[k] = val;
    }
  }
  for (const [k, val] of Object.entries(v)) {
    const m = /^additionalInformationProprietary(\w{1,30})$/.exec(k);
    if (m?.[1] && typeof val === 'string' && val.length <= 500 && Object.keys(t.proprietary).length < 10) t.proprietary[m[1]] = val;
  }
  return t;
}

export function listAccountTransactions(ctx: Ctx, id: string): ApiResult {
  const a = findAccount(ctx.world, id);
  return { status: 200, body: { transactions: a.transactions.map(txView) } };
}

export function addAccountTransactions(ctx: Ctx, id: string): ApiResult {
  const a = findAccount(ctx.world, id);
  const list = arrayBody(ctx, 'transactions');
  if (list.length > 1000) throw bad('at most 1000 transactions per call');
  if (a.transactions.length + list.length > LIMITS.transactionsPerAccount)
    throw tooMany(`${LIMITS.transactionsPerAccount} transactions per account`);
  if (mockTransactionCount(ctx.world) + list.length > LIMITS.transactionsPerWorld)
    throw tooMany(`${LIMITS.transactionsPerWorld} transactions in all`);
  const added = list.map((v, i) => readTransaction(ctx.world, v, i, a.currency));
  for (const t of added) {
    if (a.transactions.some((x) => x.transactionId === t.transactionId))
      throw sbError(409, 'CONFLICT', `Transaction ${t.transactionId} exists`);
  }
  a.transactions.push(...added);
  return { status: 201, body: { transactions: added.map(txView) } };
}

function findTx(a: Account, txId: string): Transaction {
  const t = a.transactions.find((x) => x.transactionId === txId);
  if (!t) throw missing(`Transaction ${txId}`);
  return t;
}

export function patchAccountTransaction(ctx: Ctx, id: string, txId: string): ApiResult {
  const a = findAccount(ctx.world, id);
  const t = findTx(a, txId);
  readTransaction(ctx.world, objectBody(ctx), 0, a.currency, t);
  return { status: 200, body: txView(t) };
}

export function deleteAccountTransaction(ctx: Ctx, id: string, txId: string): ApiResult {
  const a = findAccount(ctx.world, id);
  const t = findTx(a, txId);
  a.transactions = a.transactions.filter((x) => x !== t);
  return { status: 204 };
}

// ---------------------------------------------------------------- card accounts

function findCard(w: World, id: string): CardAccount {
  const c = w.cardAccounts.get(id);
  if (!c) throw missing(`Card account ${id}`);
  return c;
}

export function listCards(ctx: Ctx): ApiResult {
  const n = ctx.query.get('customerNumber');
  return {
    status: 200,
    body: { cardAccounts: [...ctx.world.cardAccounts.values()].filter((c) => n === null || c.customerNumber === n).map(cardView) },
  };
}

export function createCard(ctx: Ctx): ApiResult {
  const w = ctx.world;
  const b = objectBody(ctx);
  const customer = findCustomer(w, reqStr(b, 'customerNumber', 11));
  if (w.cardAccounts.size >= LIMITS.cardAccounts) throw tooMany(`${LIMITS.cardAccounts} card accounts`);
  const currency = optStr(b, 'currency', 3) ?? 'NOK';
  if (!CURRENCIES.has(currency)) throw bad('currency must be a currency code');
  const maskedPan = optStr(b, 'maskedPan', 35) ?? `525412******${String(Math.floor(Math.random() * 10000)).padStart(4, '0')}`;
  const c: CardAccount = {
    resourceId: randomUUID(),
    customerNumber: customer.customerNumber,
    maskedPan,
    currency,
    name: optStr(b, 'name', 70) ?? 'Kredittkort',
    product: optStr(b, 'product', 35) ?? 'Kredittkort',
    status: b.status === undefined ? 'enabled' : status(b.status),
    usage: customer.type === 'private' ? 'PRIV' : 'ORGA',
    ownerName: optStr(b, 'ownerName', 140),
    creditLimit: b.creditLimit === undefined || b.creditLimit === null ? undefined : money(b.creditLimit, 'creditLimit', currency),
    balances: b.balances === undefined ? [] : balances(b.balances, currency, w.now()),
    cardId: optStr(b, 'cardId', 35),
    accountNumber: optStr(b, 'accountNumber', 35),
    expiry: optStr(b, 'expiry', 10),
    transactions: [],
    manual: true,
  };
  w.cardAccounts.set(c.resourceId, c);
  return { status: 201, body: cardView(c) };
}

export function getCardSb(ctx: Ctx, id: string): ApiResult {
  return { status: 200, body: cardView(findCard(ctx.world, id)) };
}

export function patchCard(ctx: Ctx, id: string): ApiResult {
  const c = findCard(ctx.world, id);
  const b = objectBody(ctx);
  const name = optStr(b, 'name', 70);
  const product = optStr(b, 'product', 35);
  const st = b.status === undefined ? undefined : status(b.status);
  const limit = b.creditLimit === undefined ? undefined : b.creditLimit === null ? null : money(b.creditLimit, 'creditLimit', c.currency);
  if (name !== undefined) c.name = name;
  if (product !== undefined) c.product = product;
  if (st !== undefined) c.status = st;
  if (limit !== undefined) c.creditLimit = limit ?? undefined;
  if (b.ownerName !== undefined) c.ownerName = b.ownerName === null ? undefined : optStr(b, 'ownerName', 140);
  return { status: 200, body: cardView(c) };
}

export function deleteCard(ctx: Ctx, id: string): ApiResult {
  findCard(ctx.world, id);
  ctx.world.cardAccounts.delete(id);
  for (const g of ctx.world.grants.values()) g.accountIds.delete(id);
  return { status: 204 };
}

export function putCardBalances(ctx: Ctx, id: string): ApiResult {
  const c = findCard(ctx.world, id);
  c.balances = balances(arrayBody(ctx, 'balances'), c.currency, ctx.world.now());
  return { status: 200, body: cardView(c) };
}

export function putCardOwnerName(ctx: Ctx, id: string): ApiResult {
  const c = findCard(ctx.world, id);
  c.ownerName = ownerNameBody(ctx);
  return { status: 200, body: cardView(c) };
}

function readCardTransaction(w: World, v: unknown, i: number, c: CardAccount, into?: CardTransaction): CardTransaction {
  if (!isObject(v)) throw bad(`transactions[${i}] must be an object`);
  const t: CardTransaction = into ?? {
    // Berlin Group 1.3.8, cardTransactionId: "type: string, maxLength: 35": a UUID's 32 hex digits, not its 36 characters.
    cardTransactionId: randomUUID().replaceAll('-', ''),
    transactionAmount: { amount: 0n, currency: c.currency },
    seq: w.nextSeq(),
  };
  if (v.cardTransactionId !== undefined && !into) t.cardTransactionId = reqStr(v, 'cardTransactionId', 35);
  if (v.transactionAmount !== undefined || !into)
    t.transactionAmount = money(v.transactionAmount, `transactions[${i}].transactionAmount`, c.currency);
  if (v.originalAmount !== undefined)
    t.originalAmount = v.originalAmount === null ? undefined : money(v.originalAmount, 'originalAmount', c.currency);
  if (v.markupFee !== undefined)
    t.markupFee = v.markupFee === null ? undefined : money(v.markupFee, 'markupFee', t.transactionAmount.currency);
  if (v.markupFeePercentage !== undefined) {
    const p = v.markupFeePercentage;
    t.markupFeePercentage = p === null ? undefined : typeof p === 'number' ? String(p) : optStr(v, 'markupFeePercentage', 10);
  }
  if (v.bookingDate !== undefined) t.bookingDate = v.bookingDate === null ? undefined : optDate(v, 'bookingDate');
  if (v.transactionDate !== undefined) t.transactionDate = v.transactionDate === null ? undefined : optDate(v, 'transactionDate');
  const s = (key: string, max: number): string | undefined => (v[key] === null ? undefined : optStr(v, key, max));
  if (v.terminalId !== undefined) t.terminalId = s('terminalId', 35);
  if (v.merchantCategoryCode !== undefined) {
    const m = v.merchantCategoryCode;
    t.merchantCategoryCode = typeof m === 'number' ? String(m) : s('merchantCategoryCode', 4);
  }
  if (v.cardAcceptorId !== undefined) t.cardAcceptorId = s('cardAcceptorId', 35);
  if (v.maskedPan !== undefined) t.maskedPan = s('maskedPan', 35);
  if (v.transactionDetails !== undefined) t.transactionDetails = s('transactionDetails', 140);
  if (v.proprietaryBankTransactionCode !== undefined) t.proprietaryBankTransactionCode = s('proprietaryBankTransactionCode', 35);
  if (v.invoiced !== undefined) t.invoiced = v.invoiced === null ? undefined : optBool(v, 'invoiced');
  if (v.cardAcceptorAddress !== undefined) {
    const addr = v.cardAcceptorAddress;
    if (addr === null) t.cardAcceptorAddress = undefined;
    else if (typeof addr === 'string' && addr.length <= 140) t.cardAcceptorAddress = { townName: addr };
    else if (
      isObject(addr) &&
      Object.keys(addr).length <= 10 &&
      Object.values(addr).every((x) => typeof x === 'string' && x.length <= 140)
    ) {
      t.cardAcceptorAddress = addr as Record<string, string>;
    } else throw bad('cardAcceptorAddress must be an address object of strings');
  }
  return t;
}

export function listCardTransactions(ctx: Ctx, id: string): ApiResult {
  const c = findCard(ctx.world, id);
  return { status: 200, body: { transactions: c.transactions.map(cardTxView) } };
}

export function addCardTransactions(ctx: Ctx, id: string): ApiResult {
  const c = findCard(ctx.world, id);
  const list = arrayBody(ctx, 'transactions');
  if (list.length > 1000) throw bad('at most 1000 transactions per call');
  if (c.transactions.length + list.length > LIMITS.transactionsPerAccount)
    throw tooMany(`${LIMITS.transactionsPerAccount} transactions per card account`);
  if (mockTransactionCount(ctx.world) + list.length > LIMITS.transactionsPerWorld)
    throw tooMany(`${LIMITS.transactionsPerWorld} transactions in all`);
  const added = list.map((v, i) => readCardTransaction(ctx.world, v, i, c));
  for (const t of added) {
    if (c.transactions.some((x) => x.cardTransactionId === t.cardTransactionId))
      throw sbError(409, 'CONFLICT', `Card transaction ${t.cardTransactionId} exists`);
  }
  c.transactions.push(...added);
  return { status: 201, body: { transactions: added.map(cardTxView) } };
}

function findCardTx(c: CardAccount, txId: string): CardTransaction {
  const t = c.transactions.find((x) => x.cardTransactionId === txId);
  if (!t) throw missing(`Card transaction ${txId}`);
  return t;
}

export function patchCardTransaction(ctx: Ctx, id: string, txId: string): ApiResult {
  const c = findCard(ctx.world, id);
  const t = findCardTx(c, txId);
  readCardTransaction(ctx.world, objectBody(ctx), 0, c, t);
  return { status: 200, body: cardTxView(t) };
}

export function deleteCardTransaction(ctx: Ctx, id: string, txId: string): ApiResult {
  const c = findCard(ctx.world, id);
  const t = findCardTx(c, txId);
  c.transactions = c.transactions.filter((x) => x !== t);
  return { status: 204 };
}

// ---------------------------------------------------------------- agreements

function removeAgreement(w: World, id: string): void {
  w.agreements.delete(id);
  const ctxKey = corporateContext(id);
  for (const [k, g] of w.grants) if (g.contextKey === ctxKey) w.grants.delete(k);
}

function readEngagements(w: World, owner: string, v: unknown): Engagement[] {
  if (!Array.isArray(v)) throw bad('engagements must be an array');
  if (v.length > 200) throw bad('at most 200 engagements');
  return v.map((e, i) => {
    if (!isObject(e)) throw bad(`engagements[${i}] must be an object`);
    const customerNumber =
      typeof e.customer === 'string'
        ? e.customer
        : isObject(e.customer) && typeof e.customer.customerNumber === 'string'
          ? e.customer.customerNumber
          : undefined;
    if (customerNumber === undefined) throw bad(`engagements[${i}].customer must be a customer number`);
    const customer = findCustomer(w, customerNumber);
    if (customer.type !== 'private') throw bad(`engagements[${i}].customer must be a private customer`);
    const acc = isObject(e.account) ? e.account : {};
    const iban = typeof acc.iban === 'string' ? acc.iban.replace(/\s+/g, '').toUpperCase() : undefined;
    const account = iban ? w.accountByIban(iban) : typeof acc.resourceId === 'string' ? w.accounts.get(acc.resourceId) : undefined;
    if (!account) throw bad(`engagements[${i}].account.iban is not an account of the sandbox`);
    if (account.customerNumber !== owner) throw bad(`engagements[${i}].account does not belong to the agreement owner ${owner}`);
    if (!Array.isArray(e.roles) || e.roles.length === 0) throw bad(`engagements[${i}].roles must be a non-empty array of VIEW, REGISTER`);
    const roles = e.roles.map((r) => {
      const up = typeof r === 'string' ? r.toUpperCase() : '';
      if (up !== 'VIEW' && up !== 'REGISTER') throw bad(`engagements[${i}].roles may hold VIEW and REGISTER`);
      return up;
    });
    return { customer: customer.customerNumber, accountId: account.resourceId, roles: [...new Set(roles)] };
  });
}

export function listAgreements(ctx: Ctx): ApiResult {
  return { status: 200, body: { agreements: [...ctx.world.agreements.values()].map((a) => agreementView(ctx.world, a)) } };
}

export function createAgreement(ctx: Ctx): ApiResult {
  const w = ctx.world;
  const b = objectBody(ctx);
  const owner = findCustomer(w, reqStr(b, 'owner', 11));
  if (owner.type !== 'corporate') throw bad('owner must be a corporate customer');
  if (w.agreements.size >= LIMITS.agreements) throw tooMany(`${LIMITS.agreements} agreements`);
  let n = 1;
  while (w.agreements.has(`AGR-${owner.customerNumber}-${n}`)) n++;
  const a: Agreement = {
    agreementId: `AGR-${owner.customerNumber}-${n}`,
    owner: owner.customerNumber,
    name: optStr(b, 'name', 140) ?? `${owner.name} – agreement ${n}`,
    engagements: b.engagements === undefined ? [] : readEngagements(w, owner.customerNumber, b.engagements),
    manual: true,
  };
  w.agreements.set(a.agreementId, a);
  return { status: 201, body: agreementView(w, a) };
}

function findAgreement(w: World, id: string): Agreement {
  const a = w.agreements.get(id);
  if (!a) throw missing(`Agreement ${id}`);
  return a;
}

export function getAgreementSb(ctx: Ctx, id: string): ApiResult {
  return { status: 200, body: agreementView(ctx.world, findAgreement(ctx.world, id)) };
}

export function patchAgreement(ctx: Ctx, id: string): ApiResult {
  const a = findAgreement(ctx.world, id);
  const b = objectBody(ctx);
  const name = optStr(b, 'name', 140);
  const engagements = b.engagements === undefined ? undefined : readEngagements(ctx.world, a.owner, b.engagements);
  if (name !== undefined) a.name = name;
  if (engagements !== undefined) {
    a.engagements = engagements;
    // accounts no longer visible to an engaged PSU leave that PSU's grants
    const ctxKey = corporateContext(a.agreementId);
    for (const g of ctx.world.grants.values()) {
      if (g.contextKey !== ctxKey) continue;
      for (const accId of [...g.accountIds]) {
        if (ctx.world.accounts.has(accId) && !ctx.world.rolesIn(a, g.customerNumber, accId).has('VIEW')) g.accountIds.delete(accId);
      }
    }
  }
  return { status: 200, body: agreementView(ctx.world, a) };
}

export function deleteAgreement(ctx: Ctx, id: string): ApiResult {
  findAgreement(ctx.world, id);
  removeAgreement(ctx.world, id);
  return { status: 204 };
}

// ---------------------------------------------------------------- clock and batch

function clockView(w: World): Record<string, unknown> {
  return {
    now: isoDateTime(w.now()),
    today: w.today(),
    offsetSeconds: Math.round(w.clockOffsetMs / 1000),
    realNow: isoDateTime(Date.now()),
    nextBatchRun: isoDateTime(nextRunAfter(w.now())),
    batchHoursOslo: BATCH_HOURS,
  };
}

export function getClock(ctx: Ctx): ApiResult {
  return { status: 200, body: clockView(ctx.world) };
}

export function setClock(ctx: Ctx): ApiResult {
  const w = ctx.world;
  const b = objectBody(ctx);
  const keys = ['now', 'advanceSeconds', 'advanceMinutes', 'advanceHours', 'advanceDays', 'reset'].filter((k) => b[k] !== undefined);
  if (keys.length !== 1) throw bad('Give exactly one of now, advanceSeconds, advanceMinutes, advanceHours, advanceDays, reset');
  const key = keys[0] ?? '';
  if (key === 'reset') {
    if (b.reset !== true) throw bad('reset must be true');
    w.clockOffsetMs = 0;
  } else if (key === 'now') {
    const t =
      typeof b.now === 'string'
        ? (parseIsoDateTime(b.now) ?? (parseIsoDate(b.now) !== undefined ? osloLocalToUtc(b.now, 0) : undefined))
        : undefined;
    if (t === undefined) throw bad('now must be an ISO 8601 date-time with offset (or a date, meaning 00:00 Oslo time)');
    w.clockOffsetMs = t - Date.now();
  } else {
    const v = b[key];
    if (typeof v !== 'number' || !Number.isFinite(v)) throw bad(`${key} must be a number`);
    const unit = key === 'advanceSeconds' ? 1000 : key === 'advanceMinutes' ? 60_000 : key === 'advanceHours' ? HOUR_MS : DAY_MS;
    w.clockOffsetMs += Math.round(v * unit);
  }
  if (Math.abs(w.clockOffsetMs) > 3650 * DAY_MS) throw bad('The sandbox clock stays within 10 years of real time');
  catchUp(w);
  return { status: 200, body: clockView(w) };
}

export function runBatchNow(ctx: Ctx): ApiResult {
  const at = ctx.world.now();
  const touched = runBatch(ctx.world, at);
  return { status: 200, body: { ranAt: isoDateTime(at), paymentsChanged: touched } };
}

// ---------------------------------------------------------------- outside the interface

/** The PSU revokes consent directly with the bank (the TPP is not told). */
export function revokeConsent(ctx: Ctx): ApiResult {
  const w = ctx.world;
  const b = objectBody(ctx);
  const customer = findCustomer(w, reqStr(b, 'customerNumber', 11));
  let accountIds: string[] | undefined;
  if (b.accountIds !== undefined) {
    if (!Array.isArray(b.accountIds) || !b.accountIds.every((x) => typeof x === 'string'))
      throw bad('accountIds must be an array of resource ids');
    accountIds = b.accountIds;
  }
  const agreementId = optStr(b, 'agreementId', 100);
  let grants = 0;
  let accounts = 0;
  for (const [k, g] of w.grants) {
    if (g.customerNumber !== customer.customerNumber) continue;
    if (agreementId !== undefined && agreementIdOf(g.contextKey) !== agreementId) continue;
    if (accountIds === undefined) {
      accounts += g.accountIds.size;
      w.grants.delete(k);
      grants++;
    } else {
      for (const id of accountIds) if (g.accountIds.delete(id)) accounts++;
      if (g.accountIds.size === 0) {
        w.grants.delete(k);
        grants++;
      }
    }
  }
  return { status: 200, body: { customerNumber: customer.customerNumber, revokedConsents: grants, revokedAccounts: accounts } };
}

export function listPayments(ctx: Ctx): ApiResult {
  const list = [...ctx.world.payments.values()].map((p) => ({
    paymentId: p.paymentId,
    service: p.service,
    product: p.productPath,
    customerNumber: p.customerNumber,
    transactionStatus: p.status,
    fundsAvailable: p.fundsAvailable ?? null,
    executionDate: p.executionDate ?? null,
    basketId: p.basketId ?? null,
    debtorAccount: p.debtorIban ?? p.debtorBban,
    items: p.items.map((i) => ({
      ...amountJson({ amount: i.amount, currency: i.currency }),
      creditor: i.creditorIban ?? i.creditorBban,
      executed: i.executed === true,
    })),
  }));
  return { status: 200, body: { payments: list } };
}

/** Sets the status of a payment as the bank's back office would (e.g. PDNG when held or stopped). */
export function setPaymentStatus(ctx: Ctx, paymentId: string): ApiResult {
  const p = ctx.world.payments.get(paymentId);
  if (!p) throw missing(`Payment ${paymentId}`);
  const b = objectBody(ctx);
  const st = reqStr(b, 'transactionStatus', 4);
  if (!TX_STATUSES.includes(st as TxStatus)) throw bad(`transactionStatus must be one of ${TX_STATUSES.join(', ')}`);
  p.status = st as TxStatus;
  if (st !== 'RCVD' && st !== 'RJCT' && st !== 'CANC') p.approved = true;
  if (b.fundsAvailable !== undefined) p.fundsAvailable = b.fundsAvailable === null ? undefined : optBool(b, 'fundsAvailable');
  if (b.psuMessage !== undefined) p.psuMessage = b.psuMessage === null ? undefined : optStr(b, 'psuMessage', 512);
  return {
    status: 200,
    body: { paymentId, transactionStatus: p.status, fundsAvailable: p.fundsAvailable ?? null, psuMessage: p.psuMessage ?? null },
  };
}
