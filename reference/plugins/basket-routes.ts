// Signing baskets (Endpoints > Start of signing basket authorisation; the rest follows
// Berlin Group 1.3): create from paymentIds, read, status, delete, and the start of
// the authorisation, which works like that of a single payment. Bulk and periodic
// payments cannot join a basket: 400 REFERENCE_MIX_INVALID, at creation (and again at
// the start of the authorisation, should one have slipped in).
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { BankError } from '../bank-errors.js';
import { defineFault, defineVariant, type BodyChange, type JsonBody } from '../switches.js';
import { rankOf, worstOf, type Basket } from '../state/basket-store.js';
import type { Payment } from '../state/payment-store.js';
import { paymentHeaders } from '../services/payment-headers.js';
import { resolvePsuId } from '../services/psu-id-lookup.js';
import { scaChallenge } from '../services/sca-answers.js';
import { apiHref, header, tppOf } from '../http/request-context.js';

const acceptsMixedReferences = defineFault('basket-accepts-bulk-and-periodic', {
  description: 'a signing basket takes bulk and periodic payments, at creation and at the start of its authorisation',
  breaks: ['BSK-12', 'ERR-34', 'ERR-41'],
});
const authorisationRefused = defineFault('basket-authorisation-refused', {
  description: 'the start of a basket authorisation is refused with 403 FORBIDDEN',
  // A basket no PSU can sign is no signing basket support, for NCBCT payments as for any (BSK-13, VER-24).
  breaks: ['ERR-06', 'STA-02', 'ERR-08', 'BSK-03', 'BSK-08', 'BSK-09', 'BSK-11', 'BSK-13', 'VER-24'],
});
// The answers' shapes, for the faults declared as changes of them (`alters`, applied by plugins/body-changes.ts).
const CREATION = 'POST /v1/signing-baskets';
const BASKET = 'GET /v1/signing-baskets/:basketId';
const START = 'POST /v1/signing-baskets/:basketId/authorisations';
const AUTHORISATION = 'GET /v1/signing-baskets/:basketId/authorisations/:authorisationId';

/** A change of the answers of these routes with this status. */
function answer(
  route: string | readonly string[],
  status: number,
  apply: (body: JsonBody) => JsonBody | unknown[],
  when: (body: JsonBody) => boolean = () => true,
): BodyChange {
  return { route, when: (body, answered) => answered.status === status && when(body), apply };
}

defineFault('basket-sca-status-camel-case', {
  description: 'the basket authorisation answers scaStatus "started" (Berlin Group case)',
  breaks: ['BSK-01', 'STA-01', 'STA-02'],
  alters: answer(START, 201, (body) => ({ ...body, scaStatus: 'started' })),
});
defineFault('basket-authorisation-links-not-a-map', {
  description: 'the _links of the basket authorisation answer are an array',
  breaks: ['BSK-02', 'MSG-07', 'ERR-08', 'BSK-03'],
  alters: answer(START, 201, (body) => ({ ...body, _links: Object.values(body._links as JsonBody) })),
});
const unknownBasketAs400 = defineFault('basket-unknown-as-400', {
  description: 'the authorisation of an unknown basket gets 400 FORMAT_ERROR instead of 404 RESOURCE_UNKNOWN',
  breaks: ['ERR-09'],
});
const unknownAuthorisationAs400 = defineFault('basket-unknown-authorisation-as-400', {
  description: 'the status of an unknown authorisation id gets 400 FORMAT_ERROR',
  breaks: ['ERR-18'],
});
defineFault('basket-failed-sca-reads-received', {
  description: 'after a failed SCA the basket authorisation still reads RECEIVED',
  breaks: ['STA-04'],
  alters: answer(
    AUTHORISATION,
    200,
    (body) => ({ ...body, scaStatus: 'RECEIVED' }),
    (body) => body.scaStatus === 'FAILED',
  ),
});
defineFault('basket-links-without-verbs', {
  description: 'the links of a basket resource carry no verbs',
  breaks: ['MSG-09'],
  alters: {
    route: [CREATION, BASKET],
    when: (_body, { status }) => status === 201 || status === 200,
    apply: (body) => ({
      ...body,
      _links: Object.fromEntries(Object.entries(body._links as Record<string, JsonBody>).map(([name, { href }]) => [name, { href }])),
    }),
  },
});
defineFault('basket-created-without-id', {
  description: 'the 201 answer to a basket creation has no basketId',
  breaks: ['BSK-07'],
  alters: answer(CREATION, 201, ({ basketId: _, ...body }) => body),
});
// A basket holding a payment that lacks funds then reports PDNG, not the ACCP or RJCT of BSK-15.
const basketOwnStatus = defineFault('basket-own-status', {
  description: 'the basket reports PDNG, a status of its own, whatever its payments',
  breaks: ['BSK-05', 'BSK-14', 'BSK-15'],
});
// An internal failure the TPP asked the sandbox for (POST /v1/sandbox/failures), reported the wrong way.
const internalFailureAsBadRequest = defineFault('internal-failure-as-bad-request', {
  description: 'an internal failure during basket authorisation answers 400 BAD_REQUEST, as if the TPP were at fault',
  breaks: ['ERR-10', 'ERR-11'],
});
const systemErrorAs503 = defineFault('system-error-as-503', {
  description: 'an internal failure during basket authorisation answers 503 with code SYSTEM_ERROR',
  breaks: ['ERR-10', 'ERR-11'],
});
// The best status over a payable payment and one lacking funds is the payable one's (ACTC), which BSK-15 names as what hides the lack of
// funds.
const basketBestCase = defineFault('basket-best-case', {
  description: 'the basket reports the best status over its payments',
  breaks: ['BSK-14', 'BSK-15'],
});
const ncbctBasketRefused = defineFault('basket-refuses-ncbct', {
  description: 'a signing basket of NCBCT payments is refused at creation (400 PRODUCT_INVALID)',
  breaks: ['BSK-13', 'VER-24'],
});
const authorisationAsks401 = defineVariant('basket-authorisation-401', {
  description:
    'the start of a basket authorisation answers 401 with the body holding the scaRedirect link (its _links a map of Link), instead of 201 with scaStatus STARTED',
  allowedBy:
    'Start of signing basket authorisation: "Responses: 201 (scaStatus body with links), 400, 401 (body with scaRedirect link), 404, 500"; the response table: "when SCA is required (status 401 body), it holds a link named scaRedirect"',
  source: 'Specification, Endpoints > Start of signing basket authorisation; Resources > Signing basket authorisation response',
});
const basketsForNcbctOnly = defineVariant('baskets-for-ncbct-only', {
  description:
    'signing baskets take NCBCT payments only: a basket of payments of another product is refused at creation (400 PRODUCT_INVALID)',
  allowedBy: '"Signing basket support exists for the NCBCT payment product." (release 1.21.20: "signing basket for NCBCT")',
  source: 'Specification, Endpoints > Start of signing basket authorisation; Versioning > Release notes',
});
const NCBCT = 'norwegian-cross-border-credit-transfers';
// [blind-spots]
const basketHidesLackOfFunds = defineFault('basket-hides-lack-of-funds', {
  description:
    'a basket does not count a payment lacking funds as its worst case: with one ACTC (or ACSC) and one ACCP lacking funds it reports ACTC (ACSC)',
  breaks: ['BSK-15'],
});
const basketReadAndDeleteNotOffered = defineVariant('basket-read-and-delete-not-offered', {
  description:
    'a signing basket cannot be read (GET /v1/signing-baskets/{basketId}) or deleted (DELETE): 405; its status and its authorisation are offered',
  allowedBy:
    'Berlin Group 1.3.8: "this API definition does not differ between methods which are mandatory, conditional, or optional … it is only necessary to support a certain subset of the methods"; the specification shows the basket\'s status (its worst case) and the start of its authorisation, not its read or deletion',
  source: 'Berlin Group 1.3.8, info; Specification, Resources > Signing basket authorisation response',
});

/** A method of the basket this bank does not offer (the variant). */
function notOffered(request: FastifyRequest): BankError {
  return new BankError(405, 'BAD_REQUEST', `${request.method} of a signing basket is not offered: read its status`);
}

const lackOfFundsAsRejection = defineVariant('basket-lack-of-funds-as-rejection', {
  description: "a basket holding a payment that lacks funds reports RJCT, what the lack of funds means, rather than the payment's ACCP",
  allowedBy:
    'ACCP can be reported when funds are lacking, "and then the payment status response carries attribute fundsAvailable to show that the payment was rejected for lack of funds"; "A single basket status reports only the worst case"',
  source: 'Specification, States > transactionStatus; Resources > Signing basket authorisation response',
});
defineFault('basket-authorisation-reads-received', {
  description: 'a basket authorisation that answered STARTED reads RECEIVED until the PSU logs in',
  breaks: ['STA-08'],
  alters: answer(
    AUTHORISATION,
    200,
    (body) => ({ ...body, scaStatus: 'RECEIVED' }),
    (body) => body.scaStatus === 'STARTED',
  ),
});

interface BasketParams {
  basketId: string;
}

const MIXED = 'A signing basket cannot hold bulk or periodic payments';

export const basketsPlugin = fp(
  (api, _options, done) => {
    function paymentsOf(basket: Basket, request: FastifyRequest): Payment[] {
      return basket.paymentIds.flatMap((id) => request.world.payments.get(basket.tppId, id) ?? []);
    }

    function statusOf(basket: Basket, request: FastifyRequest): string {
      if (request.switches.breaks(basketOwnStatus)) return 'PDNG';
      const payments = paymentsOf(basket, request);
      if (request.switches.breaks(basketBestCase)) return [...payments].sort((a, b) => rankOf(b) - rankOf(a))[0]?.status ?? 'RCVD';
      const worst = worstOf(payments, request.switches.breaks(basketHidesLackOfFunds));
      const lacking = payments.some((p) => p.status === 'ACCP' && p.fundsAvailable === false);
      return worst === 'ACCP' && lacking && request.switches.reads(lackOfFundsAsRejection) ? 'RJCT' : worst;
    }

    function basketOf(request: FastifyRequest<{ Params: BasketParams }>): Basket {
      const basket = request.world.baskets.get(tppOf(request).id, request.params.basketId);
      if (basket !== undefined) return basket;
      if (request.switches.breaks(unknownBasketAs400)) throw new BankError(400, 'FORMAT_ERROR', 'Unknown basket');
      throw new BankError(404, 'RESOURCE_UNKNOWN', `No signing basket ${request.params.basketId}`);
    }

    api.post('/signing-baskets', (request, reply) => {
      const tpp = tppOf(request);
      const body = request.body as { paymentIds?: unknown; consentIds?: unknown } | undefined;
      const ids = body?.paymentIds;
      if (!Array.isArray(ids) || ids.length === 0 || !ids.every((id): id is string => typeof id === 'string')) {
        throw new BankError(400, 'FORMAT_ERROR', 'paymentIds is a non-empty array of payment ids');
      }
      if (body?.consentIds !== undefined) throw new BankError(400, 'FORMAT_ERROR', 'This bank signs payments in baskets, not consents');
      const payments = ids.map((id) => request.world.payments.get(tpp.id, id));
      if (payments.some((p) => p === undefined)) throw new BankError(400, 'RESOURCE_UNKNOWN', 'A paymentId of the basket is unknown');
      if (payments.some((p) => p?.service !== 'payments') && !request.switches.breaks(acceptsMixedReferences))
        throw new BankError(400, 'REFERENCE_MIX_INVALID', MIXED);
      const ncbct = payments.every((p) => p?.product === NCBCT);
      if ((ncbct && request.switches.breaks(ncbctBasketRefused)) || (!ncbct && request.switches.reads(basketsForNcbctOnly))) {
        throw new BankError(
          400,
          'PRODUCT_INVALID',
          ncbct ? 'NCBCT payments cannot be signed in a basket' : `A signing basket takes ${NCBCT} payments only`,
        );
      }
      const basket = request.world.baskets.create(tpp.id, [...new Set(ids)], request.world.clock.now());
      const self = apiHref(request, `/v1/signing-baskets/${basket.id}`);
      void reply.code(201);
      return {
        transactionStatus: statusOf(basket, request),
        basketId: basket.id,
        _links: {
          self: { href: self, verbs: ['GET', 'DELETE'] },
          status: { href: `${self}/status`, verbs: ['GET'] },
          startAuthorisation: { href: `${self}/authorisations`, verbs: ['POST'] },
        },
      };
    });

    api.get<{ Params: BasketParams }>('/signing-baskets/:basketId', (request) => {
      if (request.switches.reads(basketReadAndDeleteNotOffered)) throw notOffered(request);
      const basket = basketOf(request);
      return {
        payments: basket.paymentIds,
        transactionStatus: statusOf(basket, request),
        _links: { status: { href: apiHref(request, `/v1/signing-baskets/${basket.id}/status`), verbs: ['GET'] } },
      };
    });

    api.get<{ Params: BasketParams }>('/signing-baskets/:basketId/status', (request) => ({
      transactionStatus: statusOf(basketOf(request), request),
    }));

    api.delete<{ Params: BasketParams }>('/signing-baskets/:basketId', (request, reply) => {
      if (request.switches.reads(basketReadAndDeleteNotOffered)) throw notOffered(request);
      const basket = basketOf(request);
      if (basket.authorisationId !== undefined)
        throw new BankError(400, 'RESOURCE_BLOCKED', 'The basket is being authorised or was authorised');
      request.world.baskets.delete(basket);
      void reply.code(204).send();
    });

    api.post<{ Params: BasketParams }>('/signing-baskets/:basketId/authorisations', (request, reply) => {
      const basket = basketOf(request);
      const tpp = tppOf(request);
      if (request.world.simulatedFailures.consume(tpp.id, 'signing-basket-authorisation', basket.id)) {
        if (request.switches.breaks(internalFailureAsBadRequest))
          throw new BankError(400, 'BAD_REQUEST', 'The request could not be processed');
        if (request.switches.breaks(systemErrorAs503)) throw new BankError(503, 'SYSTEM_ERROR', 'Service unavailable');
        throw new Error('simulated internal failure of the basket authorisation (sandbox)');
      }
      if (request.switches.breaks(authorisationRefused)) throw new BankError(403, 'FORBIDDEN', 'Not allowed');
      const { context } = paymentHeaders(request);
      const payments = paymentsOf(basket, request);
      if (payments.some((p) => p.service !== 'payments') && !request.switches.breaks(acceptsMixedReferences))
        throw new BankError(400, 'REFERENCE_MIX_INVALID', MIXED);
      // Blocked: authorised already, or a payment of it moved on (approved, cancelled) since it was made.
      if (
        basket.authorisationId !== undefined ||
        payments.length !== basket.paymentIds.length ||
        payments.some((p) => p.status !== 'RCVD')
      ) {
        throw new BankError(400, 'RESOURCE_BLOCKED', 'The basket is blocked: it was authorised already, or a payment of it moved on');
      }
      const psuId = header(request, 'psu-id');
      const lookup = psuId === undefined ? undefined : resolvePsuId(request, psuId);
      const challenge = scaChallenge(request, {
        paymentIds: basket.paymentIds,
        ...(lookup?.kind === 'known' ? { expectedCustomer: lookup.customerNumber } : {}),
        ...(context === undefined ? {} : { requestedContext: context }),
      });
      const scaLinks: Record<string, object> = challenge.links;
      const authorisationId = challenge.authorisationId ?? '';
      basket.authorisationId = authorisationId;
      if (request.switches.reads(authorisationAsks401)) {
        // The 401 body of the response table: its _links, like the 201's, a map of Link (href and verbs).
        void reply.code(401);
        return { ...challenge.body, _links: { scaRedirect: { ...(scaLinks.scaRedirect as { href: string }), verbs: ['GET'] } } };
      }
      // The Link of the response table: with verbs, whatever the bank writes on the links of untyped answers.
      const scaRedirect = { href: (scaLinks.scaRedirect as { href: string }).href, verbs: ['GET'] };
      const links = {
        ...scaLinks,
        scaRedirect,
        scaStatus: { href: apiHref(request, `/v1/signing-baskets/${basket.id}/authorisations/${authorisationId}`), verbs: ['GET'] },
      };
      void reply.code(201);
      return { scaStatus: 'STARTED', authorisationId, _links: links };
    });

    api.get<{ Params: BasketParams & { authorisationId: string } }>(
      '/signing-baskets/:basketId/authorisations/:authorisationId',
      (request) => {
        const basket = basketOf(request);
        const authorisation =
          basket.authorisationId === request.params.authorisationId ? request.world.sca.find(basket.authorisationId) : undefined;
        if (authorisation === undefined) {
          if (request.switches.breaks(unknownAuthorisationAs400)) throw new BankError(400, 'FORMAT_ERROR', 'Unknown authorisation');
          throw new BankError(404, 'RESOURCE_UNKNOWN', `No authorisation ${request.params.authorisationId} of this basket`);
        }
        // Its start answered STARTED: until the PSU logs in, that is where it stands.
        return { scaStatus: authorisation.status === 'RECEIVED' ? 'STARTED' : authorisation.status };
      },
    );
    done();
  },
  { name: 'baskets', decorators: { request: ['world'] }, dependencies: ['signature', 'json-body', 'payments'] },
);
