// The bodies of the sandbox's mock-data operations (sandbox-account-routes.ts): their JSON schemas and how
// they are read into stored balances and transactions.
//
// Amounts in mock-data bodies: a decimal string (the interface's own rule), or a JSON
// number as the family's older helper scripts send (they predate amount-as-string),
// read by its value. Either way at most 2 decimals; answers always carry strings.
import { BankError } from '../bank-errors.js';
import { BALANCE_TYPES, type AnyAccount, type BalanceType, type StoredBalance } from '../state/sandbox-data.js';
import type { StoredTransaction } from '../state/transaction-history.js';

/** An amount of a mock-data body: a decimal string or a JSON number, at most 2 decimals (read by amountMinor). */
export const mockAmount = {
  type: 'object',
  required: ['amount', 'currency'],
  properties: {
    amount: { anyOf: [{ type: 'string', pattern: '^-?[0-9]{1,15}(\\.[0-9]{1,2})?$' }, { type: 'number' }] },
    currency: { type: 'string', pattern: '^[A-Z]{3}$' },
  },
} as const;

/** Balances of a mock-data body; balanceType in any letter case (the family's scripts write EXPECTED), checked by storedBalances. */
export const mockBalances = {
  type: 'array',
  maxItems: BALANCE_TYPES.length,
  items: {
    type: 'object',
    required: ['balanceType', 'balanceAmount'],
    properties: { balanceType: { type: 'string' }, balanceAmount: mockAmount },
  },
} as const;

export interface MockAmount {
  amount: string | number;
  currency: string;
}
export interface MockBalance {
  balanceType: string;
  balanceAmount: MockAmount;
}

/** Minor units of a mock amount in the account's currency, or 400 FORMAT_ERROR. */
export function amountMinor(value: MockAmount, currency: string, field: string): number {
  if (value.currency !== currency) throw new BankError(400, 'FORMAT_ERROR', `${field}.currency must be the account currency ${currency}`);
  const minor = Number(value.amount) * 100;
  if (!Number.isFinite(minor) || Math.abs(minor - Math.round(minor)) > 1e-6 || Math.abs(minor) > Number.MAX_SAFE_INTEGER) {
    throw new BankError(400, 'FORMAT_ERROR', `${field}.amount must be a decimal with at most 2 decimals`);
  }
  return Math.round(minor);
}

export function storedBalances(balances: readonly MockBalance[], currency: string): StoredBalance[] {
  const byLowerCase = new Map<string, BalanceType>(BALANCE_TYPES.map((type) => [type.toLowerCase(), type]));
  return balances.map((b, i) => {
    const balanceType = byLowerCase.get(b.balanceType.toLowerCase());
    if (balanceType === undefined)
      throw new BankError(400, 'FORMAT_ERROR', `balances[${i}].balanceType must be one of ${BALANCE_TYPES.join(', ')}`);
    return { balanceType, amountMinor: amountMinor(b.balanceAmount, currency, `balances[${i}].balanceAmount`) };
  });
}

const isoDate = { type: 'string', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' } as const;
const accountReference = {
  type: 'object',
  properties: { iban: { type: 'string', maxLength: 34 }, bban: { type: 'string', maxLength: 30 } },
} as const;

/** A transaction of POST /v1/sandbox/accounts/{id}/transactions; without bookingDate it is pending. */
export interface MockAccountTransaction {
  amount: string | number;
  currency: string;
  valueDate: string;
  bookingDate?: string;
  remittanceInformationUnstructured?: string;
  creditorName?: string;
  creditorAccount?: { iban?: string };
  debtorName?: string;
  debtorAccount?: { iban?: string };
  endToEndId?: string;
}
export const mockAccountTransactions = {
  type: 'array',
  minItems: 1,
  maxItems: 2_000,
  items: {
    type: 'object',
    required: ['amount', 'currency', 'valueDate'],
    properties: {
      amount: mockAmount.properties.amount,
      currency: mockAmount.properties.currency,
      valueDate: isoDate,
      bookingDate: isoDate,
      remittanceInformationUnstructured: { type: 'string', maxLength: 140 },
      creditorName: { type: 'string', maxLength: 70 },
      creditorAccount: accountReference,
      debtorName: { type: 'string', maxLength: 70 },
      debtorAccount: accountReference,
      endToEndId: { type: 'string', maxLength: 35 },
    },
  },
} as const;

/** A card transaction of POST /v1/sandbox/card-accounts/{id}/transactions; without bookingDate it is pending. */
export interface MockCardTransaction {
  transactionDate: string;
  bookingDate?: string;
  transactionAmount: MockAmount;
  merchantCategoryCode?: string;
  transactionDetails?: string;
}
export const mockCardTransactions = {
  type: 'array',
  minItems: 1,
  maxItems: 2_000,
  items: {
    type: 'object',
    required: ['transactionDate', 'transactionAmount'],
    properties: {
      transactionDate: isoDate,
      bookingDate: isoDate,
      transactionAmount: mockAmount,
      merchantCategoryCode: { type: 'string', pattern: '^[0-9]{4}$' },
      transactionDetails: { type: 'string', maxLength: 140 },
    },
  },
} as const;

function checkedDate(value: string, field: string): string {
  if (Number.isNaN(Date.parse(value)) || new Date(value).toISOString().slice(0, 10) !== value)
    throw new BankError(400, 'FORMAT_ERROR', `${field} must be an ISO 8601 date`);
  return value;
}

export function accountTransaction(account: AnyAccount, t: MockAccountTransaction, i: number): Omit<StoredTransaction, 'transactionId'> {
  const amountMinorValue = amountMinor({ amount: t.amount, currency: t.currency }, account.currency, `[${i}]`);
  const outgoing = amountMinorValue < 0;
  return {
    status: t.bookingDate === undefined ? 'pending' : 'booked',
    ...(t.bookingDate === undefined ? {} : { bookingDate: checkedDate(t.bookingDate, `[${i}].bookingDate`) }),
    valueDate: checkedDate(t.valueDate, `[${i}].valueDate`),
    amountMinor: amountMinorValue,
    counterparty: {
      name: (outgoing ? t.creditorName : t.debtorName) ?? '',
      iban: (outgoing ? t.creditorAccount?.iban : t.debtorAccount?.iban) ?? '',
    },
    remittance: t.remittanceInformationUnstructured ?? '',
    endToEndId: t.endToEndId ?? 'NOTPROVIDED',
    merchantCategoryCode: '0000',
  };
}

export function cardTransaction(account: AnyAccount, t: MockCardTransaction, i: number): Omit<StoredTransaction, 'transactionId'> {
  return {
    status: t.bookingDate === undefined ? 'pending' : 'booked',
    ...(t.bookingDate === undefined ? {} : { bookingDate: checkedDate(t.bookingDate, `[${i}].bookingDate`) }),
    valueDate: checkedDate(t.transactionDate, `[${i}].transactionDate`),
    amountMinor: amountMinor(t.transactionAmount, account.currency, `[${i}].transactionAmount`),
    counterparty: { name: t.transactionDetails ?? '', iban: '' },
    remittance: t.transactionDetails ?? '',
    endToEndId: 'NOTPROVIDED',
    merchantCategoryCode: t.merchantCategoryCode ?? '0000',
  };
}
