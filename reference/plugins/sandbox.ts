// Sandbox operations ("Sandbox mock data"): list and create customers, reset to the
// known state, close accounts, and control the bank's test clock. They are signed
// like any request but need no TPP-Redirect-URI or TPP-Session-ID.
import fp from 'fastify-plugin';
import { BankError } from '../errors.js';
import { defineFault } from '../faults.js';
import { day } from '../format.js';
import type { CustomerType } from '../state/customers.js';
import { HISTORY_DAYS } from '../state/transactions.js';

const sandboxOperation = { sandboxOperation: true };

const customerListServerError = defineFault('customer-list-server-error', {
  description: 'GET /v1/sandbox/customers fails with 500',
  breaks: ['SBX-05', 'END-22', 'ERR-45'],
});
/** A century either way is more than any test needs and keeps dates representable. */
const MAX_OFFSET_SECONDS = 100 * 365 * 86_400;

interface NewCustomer {
  Body: { customerNumber: string; name: string; type: CustomerType };
}

interface NewAccountRequest {
  Body: { customerNumber: string; accountName: string; currency: string; product?: string; cashAccountType?: string };
}

interface HistoryRequest {
  Params: { accountId: string };
  Body: { count: number; days: number };
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
    const { bank } = api;

    api.get('/sandbox/customers', { config: sandboxOperation }, (request) => {
      if (bank.faults.on(customerListServerError, request.tppId)) throw new Error('customer directory unavailable');
      return { customers: [...bank.data.customers.values()].map(({ customerNumber, name, type }) => ({ customerNumber, name, type })) };
    });

    api.post<NewCustomer>(
      '/sandbox/customers',
      {
        config: sandboxOperation,
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
        if (bank.data.customers.has(customerNumber)) {
          throw new BankError(400, 'FORMAT_ERROR', `A customer with customerNumber ${customerNumber} already exists`);
        }
        bank.data.addCustomer({ customerNumber, name, type });
        return reply.code(201).send({ customerNumber, name, type });
      },
    );

    api.post<NewAccountRequest>(
      '/sandbox/accounts',
      {
        config: sandboxOperation,
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
            },
          },
        },
      },
      (request, reply) => {
        const stored = bank.data.createAccount(request.body);
        if (stored === undefined) throw new BankError(400, 'FORMAT_ERROR', `No sandbox customer ${request.body.customerNumber}`);
        return reply.code(201).send({ resourceId: stored.resourceId, iban: stored.iban, bban: stored.bban, currency: stored.currency, name: stored.name });
      },
    );

    // A long history on demand, so pagination (page size 200) and the 90-day limit can be observed.
    api.post<HistoryRequest>(
      '/sandbox/accounts/:accountId/transactions',
      {
        config: sandboxOperation,
        schema: {
          body: {
            type: 'object',
            required: ['count', 'days'],
            additionalProperties: false,
            properties: {
              count: { type: 'integer', minimum: 1, maximum: MAX_MOCK_TRANSACTIONS },
              days: { type: 'integer', minimum: 1, maximum: HISTORY_DAYS },
            },
          },
        },
      },
      (request, reply) => {
        const stored = bank.data.accounts.get(request.params.accountId);
        if (stored === undefined) throw new BankError(404, 'RESOURCE_UNKNOWN', `No account ${request.params.accountId}`);
        const { count, days } = request.body;
        stored.history = { count, days, until: day(bank.clock.now()) };
        return reply.code(201).send({ resourceId: stored.resourceId, count, days });
      },
    );

    api.post('/sandbox/initialize', { config: sandboxOperation }, (_request, reply) => {
      bank.reset();
      return reply.code(204).send();
    });

    // Closing an account lets a TPP see the rule "consented accounts that were closed are left out".
    for (const kind of ['accounts', 'card-accounts'] as const) {
      api.delete<AccountParams>(`/sandbox/${kind}/:accountId`, { config: sandboxOperation }, (request, reply) => {
        const stored = bank.data.accounts.get(request.params.accountId);
        if (stored === undefined || stored.kind !== (kind === 'accounts' ? 'account' : 'card')) {
          throw new BankError(404, 'RESOURCE_UNKNOWN', `No ${kind === 'accounts' ? 'account' : 'card account'} ${request.params.accountId}`);
        }
        stored.status = 'deleted';
        return reply.code(204).send();
      });
    }

    api.get('/sandbox/clock', { config: sandboxOperation }, () => bank.clock.describe());

    api.put<ClockSetting>(
      '/sandbox/clock',
      {
        config: sandboxOperation,
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
          bank.clock.freeze(at);
        } else if (offsetSeconds !== undefined) {
          bank.clock.shift(offsetSeconds);
        }
        return bank.clock.describe();
      },
    );

    api.delete('/sandbox/clock', { config: sandboxOperation }, () => {
      bank.clock.reset();
      return bank.clock.describe();
    });
    done();
  },
  { name: 'sandbox', encapsulate: true, decorators: { fastify: ['bank'] }, dependencies: ['signature', 'json-body'] },
);
