// Sandbox operations on accounts and card accounts ("Sandbox mock data"): create them, set their balances,
// owner name and transactions (mock data: http/sandbox-bodies.ts), close them. Signed like any request, but
// they need no TPP-Redirect-URI or TPP-Session-ID.
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { BankError } from '../bank-errors.js';
import { SANDBOX_OPERATION } from '../http/request-context.js';
import {
  accountTransaction,
  amountMinor,
  cardTransaction,
  mockAccountTransactions,
  mockAmount,
  mockBalances,
  mockCardTransactions,
  storedBalances,
  type MockAccountTransaction,
  type MockAmount,
  type MockBalance,
  type MockCardTransaction,
} from '../http/sandbox-bodies.js';
import { day } from '../serialisation.js';
import type { AnyAccount } from '../state/sandbox-data.js';
import { addMockTransactions, HISTORY_DAYS } from '../state/transaction-history.js';
import { defineFault } from '../switches.js';

const cardBalancesIgnored = defineFault('sandbox-card-balances-ignored', {
  description: 'setting the balances of a card account answers 200 but keeps the old balances',
  breaks: ['SBX-07'],
});
const ownerNameIgnored = defineFault('sandbox-owner-name-ignored', {
  description: 'setting the owner name of an account answers 200 but keeps the old name',
  breaks: ['SBX-08'],
});

interface NewAccountRequest {
  Body: {
    customerNumber: string;
    accountName: string;
    currency: string;
    product?: string;
    cashAccountType?: string;
    balances?: MockBalance[];
  };
}

interface NewCardAccountRequest {
  Body: {
    customerNumber: string;
    currency: string;
    name?: string;
    product?: string;
    maskedPan?: string;
    creditLimit?: MockAmount;
    balances?: MockBalance[];
  };
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
interface AccountParams {
  Params: { accountId: string };
}

export const sandboxAccountsPlugin = fp(
  (api, _options, done) => {
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
        const stored = request.world.data.createAccount(
          { ...fields, ...(balances === undefined ? {} : { balances: storedBalances(balances, fields.currency) }) },
          request.world.tenant,
        );
        if (stored === undefined) throw new BankError(400, 'FORMAT_ERROR', `No sandbox customer ${request.body.customerNumber}`);
        return reply
          .code(201)
          .send({ resourceId: stored.resourceId, iban: stored.iban, bban: stored.bban, currency: stored.currency, name: stored.name });
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
        const stored = request.world.data.createCardAccount(
          {
            customerNumber,
            currency,
            ...(name === undefined ? {} : { name }),
            ...(product === undefined ? {} : { product }),
            ...(maskedPan === undefined ? {} : { maskedPan }),
            ...(creditLimit === undefined ? {} : { creditLimitMinor: amountMinor(creditLimit, currency, 'creditLimit') }),
            ...(balances === undefined ? {} : { balances: storedBalances(balances, currency) }),
          },
          request.world.tenant,
        );
        if (stored === undefined) throw new BankError(400, 'FORMAT_ERROR', `No private sandbox customer ${customerNumber}`);
        return reply
          .code(201)
          .send({ resourceId: stored.resourceId, maskedPan: stored.maskedPan, currency: stored.currency, name: stored.name });
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
          const entries = body.map((t, i) => accountTransaction(account, t, i));
          request.world.data.spendMockTransactions(account, entries.length, request.world.tenant);
          const added = addMockTransactions(account, entries);
          return reply.code(201).send({
            resourceId: account.resourceId,
            transactionIds: added.flatMap((t) => (t.transactionId === undefined ? [] : [t.transactionId])),
          });
        }
        const { count, days } = body;
        // A history replaces the one before: its transactions are given back first.
        request.world.data.spendMockTransactions(account, count - (account.history?.count ?? 0), request.world.tenant);
        account.history = { count, days, until: day(request.world.clock.now()) };
        return reply.code(201).send({ resourceId: account.resourceId, count, days });
      },
    );

    api.post<CardTransactionsRequest>(
      '/sandbox/card-accounts/:accountId/transactions',
      { config: SANDBOX_OPERATION, schema: { body: mockCardTransactions } },
      (request, reply) => {
        const card = stored(request, 'card-accounts', request.params.accountId);
        const entries = request.body.map((t, i) => cardTransaction(card, t, i));
        request.world.data.spendMockTransactions(card, entries.length, request.world.tenant);
        const added = addMockTransactions(card, entries);
        return reply.code(201).send({
          resourceId: card.resourceId,
          cardTransactionIds: added.flatMap((t) => (t.transactionId === undefined ? [] : [t.transactionId.replaceAll('-', '')])),
        });
      },
    );

    for (const kind of ['accounts', 'card-accounts'] as const) {
      // Replaces the balances of an account or card account.
      api.put<BalancesRequest>(
        `/sandbox/${kind}/:accountId/balances`,
        {
          config: SANDBOX_OPERATION,
          schema: {
            body: {
              type: 'object',
              required: ['balances'],
              additionalProperties: false,
              properties: { balances: { ...mockBalances, minItems: 1 } },
            },
          },
        },
        (request) => {
          const account = stored(request, kind, request.params.accountId);
          const balances = storedBalances(request.body.balances, account.currency);
          if (!(kind === 'card-accounts' && request.switches.breaks(cardBalancesIgnored))) account.balances = balances;
          return { resourceId: account.resourceId, balances: request.body.balances };
        },
      );

      api.put<OwnerNameRequest>(
        `/sandbox/${kind}/:accountId/owner-name`,
        {
          config: SANDBOX_OPERATION,
          schema: {
            body: {
              type: 'object',
              required: ['ownerName'],
              additionalProperties: false,
              properties: { ownerName: { type: 'string', minLength: 1, maxLength: 140 } },
            },
          },
        },
        (request) => {
          const account = stored(request, kind, request.params.accountId);
          if (!request.switches.breaks(ownerNameIgnored)) account.ownerName = request.body.ownerName;
          return { resourceId: account.resourceId, ownerName: request.body.ownerName };
        },
      );

      // Closing an account lets a TPP see the rule "consented accounts that were closed are left out".
      api.delete<AccountParams>(`/sandbox/${kind}/:accountId`, { config: SANDBOX_OPERATION }, (request, reply) => {
        stored(request, kind, request.params.accountId).status = 'deleted';
        return reply.code(204).send();
      });
    }
    done();
  },
  { name: 'sandbox-accounts', encapsulate: true, decorators: { request: ['world'] }, dependencies: ['signature', 'json-body'] },
);
