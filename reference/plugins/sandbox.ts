// Sandbox operations ("Sandbox mock data"): list, create and update customers; create
// accounts and card accounts, set their balances, owner name and transactions, close
// them; reset to the known state; control the bank's test clock. They are signed like
// any request but need no TPP-Redirect-URI or TPP-Session-ID.
//
// Amounts in mock-data bodies: a decimal string (the interface's own rule), or a JSON
// number as the family's older helper scripts send (they predate amount-as-string),
// read by its value. Either way at most 2 decimals; answers always carry strings.
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { BankError } from '../errors.js';
import { defineFault, defineVariant } from '../switches.js';
import { day } from '../format.js';
import { BALANCE_TYPES, type AnyAccount, type BalanceType, type CustomerType, type StoredBalance } from '../state/customers.js';
import { addMockTransactions, HISTORY_DAYS, type StoredTransaction } from '../state/transactions.js';
import { SANDBOX_OPERATION } from './shared.js';


const customerListServerError = defineFault('customer-list-server-error', {
  description: 'GET /v1/sandbox/customers fails with 500',
  breaks: ['END-22', 'ERR-45'],
});
const customersAsArray = defineVariant('sandbox-customers-as-array', {
  description: 'GET /v1/sandbox/customers answers a bare JSON array of customers (not an object holding it)',
  allowedBy: '"Customers are listed with GET /v1/sandbox/customers"; "Payload shapes of these endpoints: not shown"',
  source: 'Specification, What the service does > Sandbox mock data; Endpoints > Other endpoints named',
});
const customersWithoutType = defineFault('sandbox-customers-without-type', {
  description: 'the sandbox customer list leaves out whether each customer is private or corporate',
  breaks: ['SBX-05'],
});
const customerUpdateIgnored = defineFault('sandbox-customer-update-ignored', {
  description: 'updating a sandbox customer answers 200 but keeps the old name',
  breaks: ['SBX-06'],
});
const cardBalancesIgnored = defineFault('sandbox-card-balances-ignored', {
  description: 'setting the balances of a card account answers 200 but keeps the old balances',
  breaks: ['SBX-07'],
});
const ownerNameIgnored = defineFault('sandbox-owner-name-ignored', {
  description: 'setting the owner name of an account answers 200 but keeps the old name',
  breaks: ['SBX-08'],
});
const initializeKeepsNames = defineFault('initialize-keeps-changed-names', {
  description: 'initialisation leaves the changed names of known customers as they are',
  breaks: ['SBX-01'],
});
const initializeKeepsCreatedAccounts = defineFault('initialize-keeps-created-accounts', {
  description: 'initialisation leaves the accounts created for known customers in place',
  breaks: ['SBX-02'],
});

/** A century either way is more than any test needs and keeps dates representable. */
const MAX_OFFSET_SECONDS = 100 * 365 * 86_400;

/** An amount of a mock-data body: a decimal string or a JSON number, at most 2 decimals (read by amountMinor). */
const mockAmount = {
  type: 'object',
  required: ['amount', 'currency'],
  properties: {
    amount: { anyOf: [{ type: 'string', pattern: '^-?[0-9]{1,15}(\\.[0-9]{1,2})?$' }, { type: 'number' }] },
    currency: { type: 'string', pattern: '^[A-Z]{3}$' },
  },
} as const;

/** Balances of a mock-data body; balanceType in any letter case (the family's scripts write EXPECTED), checked by storedBalances. */
const mockBalances = {
  type: 'array',
  maxItems: BALANCE_TYPES.length,
  items: {
    type: 'object',
    required: ['balanceType', 'balanceAmount'],
    properties: { balanceType: { type: 'string' }, balanceAmount: mockAmount },
  },
} as const;

interface MockAmount {
  amount: string | number;
  currency: string;
}
interface MockBalance {
  balanceType: string;
  balanceAmount: MockAmount;
}

/** Minor units of a mock amount in the account's currency, or 400 FORMAT_ERROR. */
function amountMinor(value: MockAmount, currency: string, field: string): number {
  if (value.currency !== currency) throw new BankError(400, 'FORMAT_ERROR', `${field}.currency must be the account currency ${currency}`);
  const minor = Number(value.amount) * 100;
  if (!Number.isFinite(minor) || Math.abs(minor - Math.round(minor)) > 1e-6 || Math.abs(minor) > Number.MAX_SAFE_INTEGER) {
    throw new BankError(400, 'FORMAT_ERROR', `${field}.amount must be a decimal with at most 2 decimals`);
  }
  return Math.round(minor);
}

function storedBalances(balances: readonly MockBalance[], currency: string): StoredBalance[] {
  const byLowerCase = new Map<string, BalanceType>(BALANCE_TYPES.map((type) => [type.toLowerCase(), type]));
  return balances.map((b, i) => {
    const balanceType = byLowerCase.get(b.balanceType.toLowerCase());
    if (balanceType === undefined) throw new BankError(400, 'FORMAT_ERROR', `balances[${i}].balanceType must be one of ${BALANCE_TYPES.join(', ')}`);
    return { balanceType, amountMinor: amountMinor(b.balanceAmount, currency, `balances[${i}].balanceAmount`) };
  });
}

const isoDate = { type: 'string', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' } as const;
const accountReference = { type: 'object', properties: { iban: { type: 'string', maxLength: 34 }, bban: { type: 'string', maxLength: 30 } } } as const;

/** A transaction of POST /v1/sandbox/accounts/{id}/transactions; without bookingDate it is pending. */
interface MockAccountTransaction {
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
const mockAccountTransactions = {
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
interface MockCardTransaction {
  transactionDate: string;
  bookingDate?: string;
  transactionAmount: MockAmount;
  merchantCategoryCode?: string;
  transactionDetails?: string;
}
const mockCardTransactions = {
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
  if (Number.isNaN(Date.parse(value)) || new Date(value).toISOString().slice(0, 10) !== value) throw new BankError(400, 'FORMAT_ERROR', `${field} must be an ISO 8601 date`);
  return value;
}

function accountTransaction(account: AnyAccount, t: MockAccountTransaction, i: number): Omit<StoredTransaction, 'transactionId'> {
  const amountMinorValue = amountMinor({ amount: t.amount, currency: t.currency }, account.currency, `[${i}]`);
  const outgoing = amountMinorValue < 0;
  return {
    status: t.bookingDate === undefined ? 'pending' : 'booked',
    ...(t.bookingDate === undefined ? {} : { bookingDate: checkedDate(t.bookingDate, `[${i}].bookingDate`) }),
    valueDate: checkedDate(t.valueDate, `[${i}].valueDate`),
    amountMinor: amountMinorValue,
    counterparty: { name: (outgoing ? t.creditorName : t.debtorName) ?? '', iban: (outgoing ? t.creditorAccount?.iban : t.debtorAccount?.iban) ?? '' },
    remittance: t.remittanceInformationUnstructured ?? '',
    endToEndId: t.endToEndId ?? 'NOTPROVIDED',
    merchantCategoryCode: '0000',
  };
}

function cardTransaction(account: AnyAccount, t: MockCardTransaction, i: number): Omit<StoredTransaction, 'transactionId'> {
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

interface NewCustomer {
  Body: { customerNumber: string; name: string; type: CustomerType };
}

interface CustomerUpdate {
  Params: { customerNumber: string };
  Body: { name: string };
}

interface NewAccountRequest {
  Body: { customerNumber: string; accountName: string; currency: string; product?: string; cashAccountType?: string; balances?: MockBalance[] };
}

interface NewAgreementRequest {
  Body: { owner: string; name: string; engagements: { customer: string; account: { iban: string }; roles?: string[] }[] };
}

interface NewCardAccountRequest {
  Body: { customerNumber: string; currency: string; name?: string; product?: string; maskedPan?: string; creditLimit?: MockAmount; balances?: MockBalance[] };
}

interface HistoryRequest {
  Params: { accountId: string };
  Body: { count: number; days: number } | MockAccountTransaction[];
}

interface CardTransactionsRequest {
  Params: { accountId: string };
  Body: MockCardTransaction[];
}

interface BalancesRequest {
  Params: { accountId: string };
  Body: { balances: MockBalance[] };
}

interface OwnerNameRequest {
  Params: { accountId: string };
  Body: { ownerName: string };
}

/** Most booked transactions one mock history may hold: enough for several pages of 200. */
const MAX_MOCK_TRANSACTIONS = 2_000;

interface ClockSetting {
  Body: { frozenAt?: string; offsetSeconds?: number };
}

interface AccountParams {
  Params: { accountId: string };
}

export const sandboxPlugin = fp(
  (api, _options, done) => {

    api.get('/sandbox/customers', { config: SANDBOX_OPERATION }, (request) => {
      if (request.bank.breaks(customerListServerError)) throw new Error('customer directory unavailable');
      const untyped = request.bank.breaks(customersWithoutType);
      const customers = [...request.world.data.customers.values()].map(({ customerNumber, name, type }) => ({ customerNumber, name, ...(untyped ? {} : { type }) }));
      return request.bank.reads(customersAsArray) ? customers : { customers };
    });

    api.post<NewCustomer>(
      '/sandbox/customers',
      {
        config: SANDBOX_OPERATION,
        schema: {
          body: {
            type: 'object',
            required: ['customerNumber', 'name', 'type'],
            additionalProperties: false,
            properties: {
              // A mocked number: 11 digits (a person) or 9 (an organisation); check digits are not required.
              customerNumber: { type: 'string', pattern: '^([0-9]{9}|[0-9]{11})$' },
              name: { type: 'string', minLength: 1, maxLength: 70 },
              type: { enum: ['private', 'corporate'] },
            },
          },
        },
      },
      (request, reply) => {
        const { customerNumber, name, type } = request.body;
        if (request.world.data.customers.has(customerNumber)) {
          throw new BankError(400, 'FORMAT_ERROR', `A customer with customerNumber ${customerNumber} already exists`);
        }
        request.world.data.addCustomer({ customerNumber, name, type });
        return reply.code(201).send({ customerNumber, name, type });
      },
    );

    api.put<CustomerUpdate>(
      '/sandbox/customers/:customerNumber',
      {
        config: SANDBOX_OPERATION,
        schema: {
          body: { type: 'object', required: ['name'], additionalProperties: false, properties: { name: { type: 'string', minLength: 1, maxLength: 70 } } },
        },
      },
      (request) => {
        const customer = request.world.data.customers.get(request.params.customerNumber);
        if (customer === undefined) throw new BankError(404, 'RESOURCE_UNKNOWN', `No sandbox customer ${request.params.customerNumber}`);
        if (!request.bank.breaks(customerUpdateIgnored)) customer.name = request.body.name;
        return { customerNumber: customer.customerNumber, name: request.body.name, type: customer.type };
      },
    );

    api.post<NewAccountRequest>(
      '/sandbox/accounts',
      {
        config: SANDBOX_OPERATION,
        schema: {
          body: {
            type: 'object',
            required: ['customerNumber', 'accountName', 'currency'],
            properties: {
              customerNumber: { type: 'string', minLength: 1 },
              accountName: { type: 'string', minLength: 1, maxLength: 70 },
              currency: { type: 'string', pattern: '^[A-Z]{3}$' },
              product: { type: 'string', minLength: 1, maxLength: 35 },
              cashAccountType: { type: 'string', pattern: '^[A-Z]{4}$' },
              balances: mockBalances,
            },
          },
        },
      },
      (request, reply) => {
        const { balances, ...fields } = request.body;
        const stored = request.world.data.createAccount({ ...fields, ...(balances === undefined ? {} : { balances: storedBalances(balances, fields.currency) }) });
        if (stored === undefined) throw new BankError(400, 'FORMAT_ERROR', `No sandbox customer ${request.body.customerNumber}`);
        return reply.code(201).send({ resourceId: stored.resourceId, iban: stored.iban, bban: stored.bban, currency: stored.currency, name: stored.name });
      },
    );

    api.post<NewCardAccountRequest>(
      '/sandbox/card-accounts',
      {
        config: SANDBOX_OPERATION,
        schema: {
          body: {
            type: 'object',
            required: ['customerNumber', 'currency'],
            properties: {
              customerNumber: { type: 'string', minLength: 1 },
              currency: { type: 'string', pattern: '^[A-Z]{3}$' },
              name: { type: 'string', minLength: 1, maxLength: 70 },
              product: { type: 'string', minLength: 1, maxLength: 35 },
              maskedPan: { type: 'string', pattern: '^[0-9]{6}[*]{6}[0-9]{4}$' },
              creditLimit: mockAmount,
              balances: mockBalances,
            },
          },
        },
      },
      (request, reply) => {
        const { customerNumber, currency, name, product, maskedPan, creditLimit, balances } = request.body;
        const stored = request.world.data.createCardAccount({
          customerNumber,
          currency,
          ...(name === undefined ? {} : { name }),
          ...(product === undefined ? {} : { product }),
          ...(maskedPan === undefined ? {} : { maskedPan }),
          ...(creditLimit === undefined ? {} : { creditLimitMinor: amountMinor(creditLimit, currency, 'creditLimit') }),
          ...(balances === undefined ? {} : { balances: storedBalances(balances, currency) }),
        });
        if (stored === undefined) throw new BankError(400, 'FORMAT_ERROR', `No private sandbox customer ${customerNumber}`);
        return reply.code(201).send({ resourceId: stored.resourceId, maskedPan: stored.maskedPan, currency: stored.currency, name: stored.name });
      },
    );

    // A corporate agreement: what links persons (who log in) to a corporate customer's accounts.
    api.post<NewAgreementRequest>(
      '/sandbox/agreements',
      {
        config: SANDBOX_OPERATION,
        schema: {
          body: {
            type: 'object',
            required: ['owner', 'name', 'engagements'],
            properties: {
              owner: { type: 'string', minLength: 1 },
              name: { type: 'string', minLength: 1, maxLength: 70 },
              engagements: {
                type: 'array',
                maxItems: 100,
                items: {
                  type: 'object',
                  required: ['customer', 'account'],
                  properties: {
                    customer: { type: 'string', minLength: 1 },
                    account: { type: 'object', required: ['iban'], properties: { iban: { type: 'string', minLength: 1, maxLength: 34 } } },
                    roles: { type: 'array', items: { type: 'string' } },
                  },
                },
              },
            },
          },
        },
      },
      (request, reply) => {
        const { owner, name, engagements } = request.body;
        const agreement = request.world.data.createAgreement({ owner, name, engagements: engagements.map((e) => ({ customer: e.customer, iban: e.account.iban })) });
        if (typeof agreement === 'string') throw new BankError(400, 'FORMAT_ERROR', agreement);
        return reply.code(201).send({ agreementId: agreement.id, name: agreement.name, members: agreement.members });
      },
    );

    /** An account or card account by id, or 404 RESOURCE_UNKNOWN. */
    const stored = (request: FastifyRequest, kind: 'accounts' | 'card-accounts', accountId: string): AnyAccount => {
      const found = request.world.data.accounts.get(accountId);
      if (found === undefined || found.kind !== (kind === 'accounts' ? 'account' : 'card')) {
        throw new BankError(404, 'RESOURCE_UNKNOWN', `No ${kind === 'accounts' ? 'account' : 'card account'} ${accountId}`);
      }
      return found;
    };

    // Transactions: an array of them (the family's shape), or a long history on demand ({count, days}), so
    // pagination (page size 200) and the 90-day limit can be observed.
    api.post<HistoryRequest>(
      '/sandbox/accounts/:accountId/transactions',
      {
        config: SANDBOX_OPERATION,
        schema: {
          body: {
            anyOf: [
              {
                type: 'object',
                required: ['count', 'days'],
                additionalProperties: false,
                properties: {
                  count: { type: 'integer', minimum: 1, maximum: MAX_MOCK_TRANSACTIONS },
                  days: { type: 'integer', minimum: 1, maximum: HISTORY_DAYS },
                },
              },
              mockAccountTransactions,
            ],
          },
        },
      },
      (request, reply) => {
        const account = stored(request, 'accounts', request.params.accountId);
        const body = request.body;
        if (Array.isArray(body)) {
          const added = addMockTransactions(account, body.map((t, i) => accountTransaction(account, t, i)));
          return reply.code(201).send({ resourceId: account.resourceId, transactionIds: added.flatMap((t) => (t.transactionId === undefined ? [] : [t.transactionId])) });
        }
        const { count, days } = body;
        account.history = { count, days, until: day(request.world.clock.now()) };
        return reply.code(201).send({ resourceId: account.resourceId, count, days });
      },
    );

    api.post<CardTransactionsRequest>(
      '/sandbox/card-accounts/:accountId/transactions',
      { config: SANDBOX_OPERATION, schema: { body: mockCardTransactions } },
      (request, reply) => {
        const card = stored(request, 'card-accounts', request.params.accountId);
        const added = addMockTransactions(card, request.body.map((t, i) => cardTransaction(card, t, i)));
        return reply.code(201).send({ resourceId: card.resourceId, cardTransactionIds: added.flatMap((t) => (t.transactionId === undefined ? [] : [t.transactionId.replaceAll('-', '')])) });
      },
    );

    for (const kind of ['accounts', 'card-accounts'] as const) {
      // Replaces the balances of an account or card account.
      api.put<BalancesRequest>(
        `/sandbox/${kind}/:accountId/balances`,
        { config: SANDBOX_OPERATION, schema: { body: { type: 'object', required: ['balances'], additionalProperties: false, properties: { balances: { ...mockBalances, minItems: 1 } } } } },
        (request) => {
          const account = stored(request, kind, request.params.accountId);
          const balances = storedBalances(request.body.balances, account.currency);
          if (!(kind === 'card-accounts' && request.bank.breaks(cardBalancesIgnored))) account.balances = balances;
          return { resourceId: account.resourceId, balances: request.body.balances };
        },
      );

      api.put<OwnerNameRequest>(
        `/sandbox/${kind}/:accountId/owner-name`,
        { config: SANDBOX_OPERATION, schema: { body: { type: 'object', required: ['ownerName'], additionalProperties: false, properties: { ownerName: { type: 'string', minLength: 1, maxLength: 140 } } } } },
        (request) => {
          const account = stored(request, kind, request.params.accountId);
          if (!request.bank.breaks(ownerNameIgnored)) account.ownerName = request.body.ownerName;
          return { resourceId: account.resourceId, ownerName: request.body.ownerName };
        },
      );

      // Closing an account lets a TPP see the rule "consented accounts that were closed are left out".
      api.delete<AccountParams>(`/sandbox/${kind}/:accountId`, { config: SANDBOX_OPERATION }, (request, reply) => {
        stored(request, kind, request.params.accountId).status = 'deleted';
        return reply.code(204).send();
      });
    }

    api.post('/sandbox/initialize', { config: SANDBOX_OPERATION }, (request, reply) => {
      request.world.reset({ names: request.bank.breaks(initializeKeepsNames), createdAccountsOfKnown: request.bank.breaks(initializeKeepsCreatedAccounts) });
      return reply.code(204).send();
    });

    api.get('/sandbox/clock', { config: SANDBOX_OPERATION }, (request) => request.world.clock.describe());

    api.put<ClockSetting>(
      '/sandbox/clock',
      {
        config: SANDBOX_OPERATION,
        schema: {
          body: {
            type: 'object',
            additionalProperties: false,
            minProperties: 1,
            maxProperties: 1,
            properties: {
              frozenAt: { type: 'string', minLength: 1 },
              offsetSeconds: { type: 'number', minimum: -MAX_OFFSET_SECONDS, maximum: MAX_OFFSET_SECONDS },
            },
          },
        },
      },
      (request) => {
        const { frozenAt, offsetSeconds } = request.body;
        if (frozenAt !== undefined) {
          // A date-time with an explicit offset, so the instant is unambiguous.
          const at = new Date(frozenAt);
          if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(frozenAt) || Number.isNaN(at.getTime())) {
            throw new BankError(400, 'FORMAT_ERROR', 'frozenAt must be an ISO 8601 date-time with a time zone, e.g. 2025-01-31T12:00:00+00:00');
          }
          request.world.clock.freeze(at);
        } else if (offsetSeconds !== undefined) {
          request.world.clock.shift(offsetSeconds);
        }
        return request.world.clock.describe();
      },
    );

    api.delete('/sandbox/clock', { config: SANDBOX_OPERATION }, (request) => {
      request.world.clock.reset();
      return request.world.clock.describe();
    });
    done();
  },
  { name: 'sandbox', encapsulate: true, decorators: { request: ['world'] }, dependencies: ['signature', 'json-body'] },
);
