// Sandbox operations on customers ("Sandbox mock data"): list, create and rename them, and make corporate
// agreements (which persons act for a corporate customer, on which of its accounts). Signed like any
// request, but they need no TPP-Redirect-URI or TPP-Session-ID.
import fp from 'fastify-plugin';
import { BankError } from '../bank-errors.js';
import { SANDBOX_OPERATION } from '../http/request-context.js';
import type { CustomerType } from '../state/sandbox-data.js';
import { defineFault, defineVariant, type JsonAnswer } from '../switches.js';

const customerListServerError = defineFault('customer-list-server-error', {
  description: 'GET /v1/sandbox/customers fails with 500',
  breaks: ['END-22', 'ERR-45'],
});
const customersAsArray = defineVariant('sandbox-customers-as-array', {
  description: 'GET /v1/sandbox/customers answers a bare JSON array of customers (not an object holding it)',
  allowedBy: '"Customers are listed with GET /v1/sandbox/customers"; "Payload shapes of these endpoints: not shown"',
  source: 'Specification, What the service does > Sandbox mock data; Endpoints > Other endpoints named',
});
/** The customers a listing holds, in either of its shapes. */
const listed = (body: JsonAnswer): unknown[] => (Array.isArray(body) ? body : Array.isArray(body.customers) ? body.customers : []);
const untyped = (customers: unknown[]) =>
  customers.map((customer) => Object.fromEntries(Object.entries(customer as object).filter(([key]) => key !== 'type')));
defineFault<JsonAnswer>('sandbox-customers-without-type', {
  description: 'the sandbox customer list leaves out whether each customer is private or corporate',
  breaks: ['SBX-05'],
  alters: {
    route: 'GET /v1/sandbox/customers',
    when: (body) => listed(body).length > 0,
    apply: (body) => (Array.isArray(body) ? untyped(body) : { ...body, customers: untyped(listed(body)) }),
  },
});
const customerUpdateIgnored = defineFault('sandbox-customer-update-ignored', {
  description: 'updating a sandbox customer answers 200 but keeps the old name',
  breaks: ['SBX-06'],
});

interface NewCustomer {
  Body: { customerNumber: string; name: string; type: CustomerType };
}

interface CustomerUpdate {
  Params: { customerNumber: string };
  Body: { name: string };
}

interface NewAgreementRequest {
  Body: { owner: string; name: string; engagements: { customer: string; account: { iban: string }; roles?: string[] }[] };
}

export const sandboxCustomersPlugin = fp(
  (api, _options, done) => {
    api.get('/sandbox/customers', { config: SANDBOX_OPERATION }, (request) => {
      if (request.switches.breaks(customerListServerError)) throw new Error('customer directory unavailable');
      const customers = [...request.world.data.customers.values()].map(({ customerNumber, name, type }) => ({
        customerNumber,
        name,
        type,
      }));
      return request.switches.reads(customersAsArray) ? customers : { customers };
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
        request.world.data.createCustomer({ customerNumber, name, type }, request.world.tenant);
        return reply.code(201).send({ customerNumber, name, type });
      },
    );

    api.put<CustomerUpdate>(
      '/sandbox/customers/:customerNumber',
      {
        config: SANDBOX_OPERATION,
        schema: {
          body: {
            type: 'object',
            required: ['name'],
            additionalProperties: false,
            properties: { name: { type: 'string', minLength: 1, maxLength: 70 } },
          },
        },
      },
      (request) => {
        const customer = request.world.data.customers.get(request.params.customerNumber);
        if (customer === undefined) throw new BankError(404, 'RESOURCE_UNKNOWN', `No sandbox customer ${request.params.customerNumber}`);
        if (!request.switches.breaks(customerUpdateIgnored)) customer.name = request.body.name;
        return { customerNumber: customer.customerNumber, name: request.body.name, type: customer.type };
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
        const agreement = request.world.data.createAgreement(
          { owner, name, engagements: engagements.map((e) => ({ customer: e.customer, iban: e.account.iban })) },
          request.world.tenant,
        );
        if (typeof agreement === 'string') throw new BankError(400, 'FORMAT_ERROR', agreement);
        return reply.code(201).send({ agreementId: agreement.id, name: agreement.name, members: agreement.members });
      },
    );
    done();
  },
  { name: 'sandbox-customers', encapsulate: true, decorators: { request: ['world'] }, dependencies: ['signature', 'json-body'] },
);
