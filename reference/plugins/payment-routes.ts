// Payment initiation (PIS): POST /v1/{payment-service}/{payment-product}, its details,
// status and cancellation. Whether the bank takes a payment is services/payment-validation.ts;
// here a taken payment is stored and answered.
//
// Every payment needs its own SCA with dynamic linking: the 201 carries scaRedirect,
// and the PSU confirms amount and creditor on the bank's page (sca-pages/payment-confirmation-page.ts).
// The faults that change the shape of an answer are declared as body changes (`alters`), applied by
// plugins/body-changes.ts: a handler here builds the bank's own answer.
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { BankError } from '../bank-errors.js';
import { defineFault, defineVariant, type BodyChange, type JsonBody } from '../switches.js';
import { reportedAmountsUnbound } from '../serialisation.js';
import {
  HIDDEN_BEFORE_APPROVAL,
  PAYMENT_SERVICES,
  paymentProductOf,
  type PaymentProduct,
  type PaymentService,
} from '../../lib/spec/payment-products.js';
import type { Payment } from '../state/payment-store.js';
import { paymentHeaders } from '../services/payment-headers.js';
import { refuseUnfundedOrDuplicate, reportedRejected, validatePayment } from '../services/payment-validation.js';
import { resolvePsuId } from '../services/psu-id-lookup.js';
import { scaChallenge } from '../services/sca-answers.js';
import { apiHref, header, tppOf } from '../http/request-context.js';

const smallPaymentsExempt = defineVariant('sca-exemption-small-payments', {
  description: 'a single payment of at most 10.00 (in its currency) is exempted from SCA: 201 without scaRedirect, approved at once (ACTC)',
  allowedBy: 'Authentication 9: "The service may exempt a transaction from SCA or require SCA on any transaction."',
  source: 'Specification, Authentication 9',
});
const EXEMPT_UP_TO = 10;
const DOMESTIC = 'domestic-norway-credit-transfers';
const periodicAndBulkDomesticOnly = defineVariant('periodic-and-bulk-domestic-only', {
  description:
    'periodic and bulk payments are offered for domestic-norway-credit-transfers only: other products answer 403 PRODUCT_INVALID',
  allowedBy:
    'Berlin Group: "The ASPSP will publish which of the payment products/endpoints will be supported"; the specification shows periodic and bulk payments without saying for which products',
  source:
    'Berlin Group 1.3.8, path parameter payment-product and MessageCode403_PIS (PRODUCT_INVALID); Specification, Errors rules 7 and 8',
});
const noBulkPayments = defineVariant('no-bulk-payments', {
  description:
    'bulk payments are not offered: POST /v1/bulk-payments/{product} answers 404 NOT_FOUND, as a path the interface does not have',
  allowedBy:
    'Berlin Group 1.3.8: "it is only necessary to support a certain subset of the methods defined in this API definition"; the specification names bulk payments only to keep them out of signing baskets (Errors rule 7)',
  source: 'Berlin Group 1.3.8, info; Specification, Errors rule 7',
});
const productUnknownAs400 = defineFault('payment-unknown-product-as-400', {
  description: 'an unknown payment product gets 400 FORMAT_ERROR instead of 404 PRODUCT_UNKNOWN',
  breaks: ['ERR-28'],
});
// A payment lacking funds in a basket then has no status request that answers (BSK-06).
const insufficientFundsCrash = defineFault('payment-insufficient-funds-500', {
  description: 'the status of a payment lacking funds crashes the bank (500)',
  breaks: ['ERR-39', 'ERR-45', 'BSK-06'],
});
const exemptInSession = defineFault('payment-exempt-in-session', {
  description: 'a payment under the TPP-Session-ID of a valid SCA session of its PSU is approved without SCA',
  breaks: ['SCA-07'],
});
const domesticShownEarly = defineFault('domestic-payment-shown-before-approval', {
  description: 'a domestic payment shows its status before the PSU approved it',
  breaks: ['END-08'],
});
const statusNotFound = defineFault('payment-status-not-found', {
  description: 'the status of a known payment answers 404',
  breaks: ['END-06', 'BSK-06'],
});
const unknownPaymentAs400 = defineFault('payment-unknown-id-as-400', {
  description: 'an unknown paymentId gets 400 FORMAT_ERROR instead of 404 RESOURCE_UNKNOWN',
  breaks: ['ERR-22'],
});
const executesBeforeItsDate = defineFault('payment-executes-before-its-date', {
  description:
    'a payment with a requestedExecutionDate ahead is settled by the next batch run after its approval (instantly, to self), whatever the date',
  breaks: ['SBX-11'],
});
// The DELETE is answered as done, so the TPP sees a payment it cancelled still taken by its basket's SCA: SCA-25 too.
const cancellationIgnored = defineFault('payment-cancellation-ignored', {
  description: 'a cancelled payment keeps its status',
  breaks: ['PAY-50', 'SCA-25'],
});

interface Link extends JsonBody {
  href: unknown;
  verbs: string[];
}

/** The 201 answer to a payment initiation (Resources > Payment initiation response). */
type InitiationAnswer = JsonBody & {
  transactionStatus: string;
  paymentId?: string;
  transactionFees: unknown;
  transactionFeeIndicator: unknown;
  tppMessages?: JsonBody[];
  psuMessage: string;
  _links: Record<string, Link>;
};

/** The answer to GET …/status. */
type StatusAnswer = JsonBody & { transactionStatus: string; fundsAvailable?: unknown };

const INITIATION = PAYMENT_SERVICES.map((service) => `POST /v1/${service}/:product`);
const STATUS = PAYMENT_SERVICES.map((service) => `GET /v1/${service}/:product/:paymentId/status`);

/** A change of the 201 answer to a payment initiation, where `when` holds. */
function initiation(
  apply: (body: InitiationAnswer) => JsonBody | unknown[],
  when: (body: InitiationAnswer) => boolean = () => true,
): BodyChange<InitiationAnswer> {
  return { route: INITIATION, when: (body, { status }) => status === 201 && when(body), apply };
}
const withLink = (name: string, change: (link: Link) => Link) => (body: InitiationAnswer) => ({
  ...body,
  _links: { ...body._links, [name]: change(body._links[name] as Link) },
});
const withMessages = (change: (message: JsonBody) => JsonBody) => (body: InitiationAnswer) => ({
  ...body,
  tppMessages: (body.tppMessages ?? []).map(change),
});
const hasMessages = (body: InitiationAnswer) => body.tppMessages !== undefined;
const hasScaRedirect = (body: InitiationAnswer) => body._links.scaRedirect !== undefined;

const LONG_TEXT = 'x'.repeat(600);

// The 201 answer, field by field. Declared in the order they apply (a map of links before the links become a list).
defineFault('payment-response-without-id', {
  description: 'the 201 payment response has no paymentId',
  breaks: ['PAY-36'],
  alters: initiation(({ paymentId: _, ...body }) => body),
});
defineFault('payment-response-status-unknown', {
  description: 'the 201 payment response says transactionStatus ACCC (Berlin Group only)',
  breaks: ['PAY-37', 'STA-05'],
  alters: initiation((body) => ({ ...body, transactionStatus: 'ACCC' })),
});
defineFault('payment-fees-as-text', {
  description: 'transactionFees is a string ("0.00 NOK"), not an amount object',
  breaks: ['PAY-38'],
  alters: initiation((body) => ({ ...body, transactionFees: '0.00 NOK' })),
});
defineFault('payment-fee-indicator-as-text', {
  description: 'transactionFeeIndicator is the string "false"',
  breaks: ['PAY-40'],
  alters: initiation((body) => ({ ...body, transactionFeeIndicator: 'false' })),
});
defineFault('payment-psu-message-too-long', {
  description: 'psuMessage runs to 600 characters',
  breaks: ['PAY-42', 'LIM-16'],
  alters: initiation((body) => ({ ...body, psuMessage: LONG_TEXT })),
});
defineFault('tpp-message-category-lower-case', {
  description: 'a tppMessages category is written "warning"',
  breaks: ['MSG-01'],
  alters: initiation(
    withMessages((message) => ({ ...message, category: 'warning' })),
    hasMessages,
  ),
});
defineFault('tpp-message-unknown-code', {
  description: 'a tppMessages code is DEPRECATED_FIELD, not in the list',
  breaks: ['MSG-02'],
  alters: initiation(
    withMessages((message) => ({ ...message, code: 'DEPRECATED_FIELD' })),
    hasMessages,
  ),
});
defineFault('tpp-message-path-not-text', {
  description: 'a tppMessages path is a number',
  breaks: ['MSG-03'],
  alters: initiation(
    withMessages((message) => ({ ...message, path: 3 })),
    hasMessages,
  ),
});
defineFault('tpp-message-text-too-long', {
  description: 'a tppMessages text runs to 600 characters',
  breaks: ['MSG-04', 'LIM-15'],
  alters: initiation(
    withMessages((message) => ({ ...message, text: LONG_TEXT })),
    hasMessages,
  ),
});
defineFault('payment-tpp-messages-not-array', {
  description: 'tppMessages is an object, not an array',
  breaks: ['PAY-41'],
  alters: initiation((body) => ({ ...body, tppMessages: body.tppMessages?.[0] }), hasMessages),
});
defineFault('payment-without-sca-redirect', {
  description: 'the 201 payment response has no scaRedirect link',
  breaks: ['END-05'],
  alters: initiation(({ _links: { scaRedirect: _, ...links }, ...body }) => ({ ...body, _links: links }), hasScaRedirect),
});
defineFault('payment-sca-redirect-post-only', {
  description: 'the scaRedirect link of a payment lists only POST',
  breaks: ['MSG-08'],
  alters: initiation(
    withLink('scaRedirect', (link) => ({ ...link, verbs: ['POST'] })),
    hasScaRedirect,
  ),
});
defineFault('payment-link-href-not-text', {
  description: 'the self link of a payment has a numeric href',
  breaks: ['MSG-05'],
  alters: initiation(withLink('self', (link) => ({ ...link, href: 42 }))),
});
defineFault('payment-link-verb-patch', {
  description: 'the status link of a payment lists the verb PATCH',
  breaks: ['MSG-06'],
  alters: initiation(withLink('status', (link) => ({ ...link, verbs: ['GET', 'PATCH'] }))),
});
defineFault('payment-links-not-a-map', {
  description: '_links is an array of links',
  breaks: ['PAY-43', 'MSG-07'],
  alters: initiation((body) => ({ ...body, _links: Object.values(body._links) })),
});

// The status answer.
defineFault<StatusAnswer>('payment-status-misreports-funds', {
  description: 'a payment accepted without funds (ACCP) is reported with fundsAvailable true',
  breaks: ['STA-06'],
  alters: { route: STATUS, when: (body) => body.fundsAvailable === false, apply: (body) => ({ ...body, fundsAvailable: true }) },
});
defineFault<StatusAnswer>('payment-funds-available-as-text', {
  description: 'fundsAvailable is written as a string',
  breaks: ['END-07', 'STA-06'],
  alters: {
    route: STATUS,
    when: (body) => body.fundsAvailable !== undefined,
    apply: (body) => ({ ...body, fundsAvailable: String(body.fundsAvailable) }),
  },
});

/** The bank's 201 answer: every field of the response table, a warning where the deprecated city was used. */
function initiationAnswer(request: FastifyRequest, payment: Payment, scaRedirect: string | undefined): InitiationAnswer {
  const self = apiHref(request, `/v1/${payment.service}/${payment.product}/${payment.id}`);
  const usesCity = typeof (payment.body.creditorAddress as { city?: unknown } | undefined)?.city === 'string';
  const unbound = request.switches.reads(reportedAmountsUnbound);
  return {
    transactionStatus: payment.status,
    paymentId: payment.id,
    transactionFees: unbound ? { amount: '1.005', currency: 'NOK' } : { amount: '0.00', currency: 'NOK' },
    transactionFeeIndicator: unbound,
    ...(usesCity
      ? {
          tppMessages: [
            {
              category: 'WARNING',
              code: 'FORMAT_ERROR',
              path: 'creditorAddress.city',
              text: 'creditorAddress.city is deprecated: send townName',
            },
          ],
        }
      : {}),
    psuMessage: 'Confirm the payment in your bank.',
    // The Link of the response table: with verbs, whatever the bank writes on the links of untyped answers.
    _links: {
      ...(scaRedirect === undefined ? {} : { scaRedirect: { href: scaRedirect, verbs: ['GET'] } }),
      self: { href: self, verbs: ['GET', 'DELETE'] },
      status: { href: `${self}/status`, verbs: ['GET'] },
    },
  };
}

interface ProductParams {
  product: string;
}
interface PaymentParams extends ProductParams {
  paymentId: string;
}

export const paymentsPlugin = fp(
  (api, _options, done) => {
    // The batch runs happen by the bank clock, whoever asks next: accounts, balances and transactions
    // read after a run show its bookings.
    api.addHook('preHandler', (request, _reply, next) => {
      request.world.payments.settleAll();
      next();
    });

    /** The product a path names (an alias names its product), or 404 PRODUCT_UNKNOWN. */
    function productOf(request: FastifyRequest<{ Params: ProductParams }>): PaymentProduct {
      const { product } = request.params;
      const known = paymentProductOf(product);
      if (known !== undefined) return known;
      if (request.switches.breaks(productUnknownAs400)) throw new BankError(400, 'FORMAT_ERROR', `Unknown payment product ${product}`);
      throw new BankError(404, 'PRODUCT_UNKNOWN', `Unknown payment product ${product}`);
    }

    /** The TPP's payment of this service and product, or 404 RESOURCE_UNKNOWN. */
    function paymentOf(request: FastifyRequest<{ Params: PaymentParams }>, service: PaymentService): Payment {
      const product = productOf(request);
      const tppId = tppOf(request).id;
      const payment = request.world.payments.get(tppId, request.params.paymentId);
      if (payment !== undefined && payment.service === service && payment.product === product) return payment;
      if (request.switches.breaks(unknownPaymentAs400)) throw new BankError(400, 'FORMAT_ERROR', 'Unknown paymentId');
      throw new BankError(404, 'RESOURCE_UNKNOWN', `No ${service} ${product} payment ${request.params.paymentId}`);
    }

    /** Domestic transfers show nothing before the PSU approved them (Endpoints, payment status). */
    function visible(request: FastifyRequest, payment: Payment): void {
      if (payment.status === 'RCVD' && HIDDEN_BEFORE_APPROVAL.includes(payment.product) && !request.switches.breaks(domesticShownEarly)) {
        throw new BankError(403, 'FORBIDDEN', 'Details and status of a domestic transfer are available once the PSU approved it');
      }
    }

    for (const service of PAYMENT_SERVICES) {
      api.post<{ Params: ProductParams }>(`/${service}/:product`, function initiatePayment(request, reply) {
        const product = productOf(request);
        const tpp = tppOf(request);
        if (service !== 'payments' && product !== DOMESTIC && request.switches.reads(periodicAndBulkDomesticOnly)) {
          throw new BankError(403, 'PRODUCT_INVALID', `${service} are offered for ${DOMESTIC} only`);
        }
        if (service === 'bulk-payments' && request.switches.reads(noBulkPayments))
          throw new BankError(404, 'NOT_FOUND', 'No such endpoint: bulk payments are not offered');
        const { context } = paymentHeaders(request);
        const body = validatePayment(request, service, product, request.body);
        refuseUnfundedOrDuplicate(request, body, (request.query as Record<string, unknown>).allowLogicalDuplicate);
        const psuId = header(request, 'psu-id');
        const lookup = psuId === undefined ? undefined : resolvePsuId(request, psuId);
        const executionDate = body.requestedExecutionDate;
        const executeOn = typeof executionDate === 'string' && !request.switches.breaks(executesBeforeItsDate) ? executionDate : undefined;
        const payment = request.world.payments.create(tpp.id, service, product, body, executeOn);
        if (reportedRejected(request, service, body)) request.world.payments.reject(payment);
        const inSession =
          lookup?.kind === 'known' &&
          request.world.sca.sessionState(tpp.id, header(request, 'tpp-session-id') ?? '', lookup.customerNumber) === 'valid';
        const exempt =
          service === 'payments' && Number(body.instructedAmount?.amount) <= EXEMPT_UP_TO && request.switches.reads(smallPaymentsExempt);
        if ((inSession && request.switches.breaks(exemptInSession)) || exempt) {
          request.world.payments.approve(payment, lookup?.kind === 'known' ? lookup.customerNumber : '');
          void reply.code(201);
          return initiationAnswer(request, payment, undefined);
        }
        // Every payment gets its own SCA (dynamic linking): the challenge is for this payment alone.
        const challenge = scaChallenge(request, {
          paymentIds: [payment.id],
          ...(lookup?.kind === 'known' ? { expectedCustomer: lookup.customerNumber } : {}),
          ...(context === undefined ? {} : { requestedContext: context }),
        });
        void reply.code(201).header('location', apiHref(request, `/v1/${service}/${product}/${payment.id}`));
        return initiationAnswer(request, payment, (challenge.links.scaRedirect as { href: string } | undefined)?.href);
      });

      api.get<{ Params: PaymentParams }>(`/${service}/:product/:paymentId`, (request) => {
        const payment = paymentOf(request, service);
        visible(request, payment);
        return { ...payment.body, transactionStatus: payment.status };
      });

      api.get<{ Params: PaymentParams }>(`/${service}/:product/:paymentId/status`, (request, reply) => {
        const payment = paymentOf(request, service);
        if (request.switches.breaks(statusNotFound)) throw new BankError(404, 'RESOURCE_UNKNOWN', 'No such payment');
        visible(request, payment);
        if (payment.fundsAvailable === false && request.switches.breaks(insufficientFundsCrash)) {
          void reply.code(500);
          throw new Error('insufficient funds not handled');
        }
        return {
          transactionStatus: payment.status,
          ...(payment.fundsAvailable === undefined ? {} : { fundsAvailable: payment.fundsAvailable }),
        };
      });

      api.delete<{ Params: PaymentParams }>(`/${service}/:product/:paymentId`, (request, reply) => {
        const payment = paymentOf(request, service);
        if (!request.switches.breaks(cancellationIgnored) && !request.world.payments.cancel(payment)) {
          throw new BankError(409, 'CONFLICT', `A payment in status ${payment.status} can no longer be cancelled`);
        }
        void reply.code(204).send();
      });
    }
    done();
  },
  { name: 'payments', decorators: { request: ['world'] }, dependencies: ['signature', 'json-body'] },
);
