// Sandbox operations that stand for what happens outside the interface: the PSU acting
// in another channel of the bank (capability bank-channel), and an internal failure of
// the bank on demand (capability fault-injection). Signed like any sandbox operation;
// each acts on the calling TPP's own consents, payments and requests only.
import fp from 'fastify-plugin';
import { BankError } from '../bank-errors.js';
import { defineFault } from '../switches.js';
import { FAILING_OPERATIONS, type FailingOperation } from '../state/simulated-failures.js';
import { SANDBOX_OPERATION, tppOf } from '../http/request-context.js';

const revocationIgnored = defineFault('bank-revocation-ignored', {
  description: 'a consent the PSU revokes directly with the bank still gives the TPP access',
  breaks: ['SCA-20'],
});
const changeReissuesPayment = defineFault('payment-changed-elsewhere-new-id', {
  description: 'a payment the PSU changes in another channel of the bank gets a new paymentId; the old one is unknown',
  breaks: ['VER-21'],
});

/** Statuses in which the PSU can still change a payment in the online bank: not booked, rejected or cancelled. */
const CHANGEABLE = new Set(['RCVD', 'ACTC', 'ACCP']);

interface CustomerParams {
  Params: { customerNumber: string };
}

interface PaymentChange {
  Params: { paymentId: string };
  Body: { instructedAmount?: { amount: string; currency: string }; requestedExecutionDate?: string };
}

interface FailureRequest {
  Body: { operation: FailingOperation; resourceId: string };
}

export const bankChannelPlugin = fp(
  (api, _options, done) => {
    // The PSU revokes, in the online bank, every consent they gave the calling TPP. The TPP is not told
    // (Authentication 15): its next read asks for SCA again.
    api.delete<CustomerParams>('/sandbox/customers/:customerNumber/consents', { config: SANDBOX_OPERATION }, (request, reply) => {
      const { customerNumber } = request.params;
      if (!request.world.data.customers.has(customerNumber))
        throw new BankError(404, 'RESOURCE_UNKNOWN', `No sandbox customer ${customerNumber}`);
      const tppId = tppOf(request).id;
      if (!request.switches.breaks(revocationIgnored)) request.world.consents.revoke(tppId, customerNumber);
      return reply.code(204).send();
    });

    // The PSU changes the amount or the execution date of a payment in the online bank.
    api.patch<PaymentChange>(
      '/sandbox/payments/:paymentId',
      {
        config: SANDBOX_OPERATION,
        schema: {
          body: {
            type: 'object',
            minProperties: 1,
            additionalProperties: false,
            properties: {
              instructedAmount: {
                type: 'object',
                required: ['amount', 'currency'],
                additionalProperties: false,
                properties: {
                  amount: { type: 'string', pattern: '^[0-9]{1,14}(\\.[0-9]{1,2})?$' },
                  currency: { type: 'string', pattern: '^[A-Z]{3}$' },
                },
              },
              requestedExecutionDate: { type: 'string', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' },
            },
          },
        },
      },
      (request) => {
        const tppId = tppOf(request).id;
        const payment = request.world.payments.get(tppId, request.params.paymentId);
        if (payment === undefined) throw new BankError(404, 'RESOURCE_UNKNOWN', `No payment ${request.params.paymentId}`);
        if (payment.service !== 'payments')
          throw new BankError(400, 'FORMAT_ERROR', 'Only single payments can be changed in the online bank');
        if (!CHANGEABLE.has(payment.status))
          throw new BankError(409, 'CONFLICT', `A payment in status ${payment.status} can no longer be changed`);
        const changed = request.world.payments.changeElsewhere(payment, request.body, request.switches.breaks(changeReissuesPayment));
        return { paymentId: changed.id, transactionStatus: changed.status };
      },
    );

    // The calling TPP's next request of the operation on that resource (a basket id) fails inside the bank.
    api.post<FailureRequest>(
      '/sandbox/failures',
      {
        config: SANDBOX_OPERATION,
        schema: {
          body: {
            type: 'object',
            required: ['operation', 'resourceId'],
            additionalProperties: false,
            properties: { operation: { enum: [...FAILING_OPERATIONS] }, resourceId: { type: 'string', minLength: 1, maxLength: 100 } },
          },
        },
      },
      (request, reply) => {
        const { operation, resourceId } = request.body;
        request.world.simulatedFailures.arm(tppOf(request).id, operation, resourceId);
        return reply.code(201).send({ operation, resourceId, fails: 'the next request of this operation on this resource from this TPP' });
      },
    );
    done();
  },
  { name: 'bank-channel', encapsulate: true, decorators: { request: ['world'] }, dependencies: ['signature', 'json-body'] },
);
