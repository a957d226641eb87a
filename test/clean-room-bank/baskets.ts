// Signing baskets: not atomic; the basket status is the worst status of its payments.

import { randomUUID } from 'node:crypto';
import { lookupPsu } from './access.js';
import { link, objectBody, requireAcceptFix, requireHeader, type ApiResult, type Ctx } from './context.js';
import { ApiError, formatError, notFound } from './errors.js';
import { LIMITS, boundedSet, type Basket, type Payment, type TxStatus, type World } from './model.js';
import { getAuthorisation, listAuthorisations, startAuthorisation } from './payments.js';

/** Worst first: a basket reports the worst status over its payments. */
const SEVERITY: readonly TxStatus[] = ['RJCT', 'CANC', 'ACCP', 'PDNG', 'RCVD', 'PART', 'ACTC', 'ACWC', 'ACSP', 'ACWP', 'ACSC'];

function basketStatus(world: World, b: Basket): TxStatus {
  let worst = SEVERITY.length - 1;
  for (const id of b.paymentIds) {
    const p = world.payments.get(id);
    const rank = p ? SEVERITY.indexOf(p.status) : 0;
    if (rank >= 0 && rank < worst) worst = rank;
  }
  return SEVERITY[worst] ?? 'RCVD';
}

function findBasket(ctx: Ctx, basketId: string): Basket {
  const b = ctx.world.baskets.get(basketId);
  if (!b) throw notFound(`Signing basket ${basketId} is unknown`);
  return b;
}

export function createBasket(ctx: Ctx): ApiResult {
  requireHeader(ctx, 'TPP-Session-ID');
  requireHeader(ctx, 'TPP-Redirect-URI');
  const body = objectBody(ctx);
  if (body.consentIds !== undefined) {
    if (!Array.isArray(body.consentIds)) throw formatError('consentIds must be an array');
    if (body.consentIds.length > 0) {
      throw new ApiError(
        400,
        'REFERENCE_MIX_INVALID',
        'Consents cannot be signed in a signing basket (bank-offered consent is given in the SCA step)',
      );
    }
  }
  const ids = body.paymentIds;
  if (!Array.isArray(ids) || ids.length === 0) throw formatError('paymentIds must be a non-empty array of payment identifiers');
  if (ids.length > LIMITS.paymentsPerBasket) throw formatError(`A signing basket holds at most ${LIMITS.paymentsPerBasket} payments`);
  if (!ids.every((x): x is string => typeof x === 'string')) throw formatError('paymentIds must hold strings');
  if (new Set(ids).size !== ids.length) throw formatError('paymentIds holds the same payment twice');
  const payments: Payment[] = ids.map((id) => {
    const p = ctx.world.payments.get(id);
    if (!p) throw new ApiError(400, 'RESOURCE_UNKNOWN', `Payment ${id} is unknown`);
    return p;
  });
  for (const p of payments) {
    if (p.service !== 'payments') {
      throw new ApiError(
        400,
        'REFERENCE_MIX_INVALID',
        `Payment ${p.paymentId} is a ${p.service === 'bulk-payments' ? 'bulk' : 'periodic'} payment; baskets may hold single payments only`,
      );
    }
  }
  for (const p of payments) {
    if (p.basketId !== undefined) {
      const other = ctx.world.baskets.get(p.basketId);
      if (other && !other.finalised)
        throw new ApiError(400, 'RESOURCE_BLOCKED', `Payment ${p.paymentId} is already in signing basket ${p.basketId}`);
    }
    if (p.status !== 'RCVD' || p.approved)
      throw new ApiError(409, 'CONFLICT', `Payment ${p.paymentId} (status ${p.status}) does not await authorisation`);
  }
  const customer = payments[0]?.customerNumber ?? '';
  if (payments.some((p) => p.customerNumber !== customer)) {
    throw new ApiError(400, 'REFERENCE_MIX_INVALID', 'All payments of a basket must belong to the same PSU');
  }
  const psu = lookupPsu(ctx);
  if (psu.kind === 'known' && psu.customer.customerNumber !== customer) {
    throw new ApiError(401, 'PSU_CREDENTIALS_INVALID', 'The PSU of this request is not the PSU of the payments');
  }
  const basket: Basket = {
    basketId: randomUUID(),
    paymentIds: ids,
    customerNumber: customer,
    authorisations: [],
    finalised: false,
    createdAt: ctx.world.now(),
  };
  boundedSet(ctx.world.baskets, basket.basketId, basket, LIMITS.baskets);
  for (const p of payments) {
    p.basketId = basket.basketId;
    // pending single-payment authorisations give way to the basket
    for (const a of p.authorisations) if (a.scaStatus !== 'FINALISED' && a.scaStatus !== 'EXEMPTED') a.scaStatus = 'FAILED';
  }
  const self = `/v1/signing-baskets/${basket.basketId}`;
  return {
    status: 201,
    body: {
      transactionStatus: basketStatus(ctx.world, basket),
      basketId: basket.basketId,
      _links: {
        self: link(self, 'GET', 'DELETE'),
        status: link(`${self}/status`),
        startAuthorisation: link(`${self}/authorisations`, 'POST'),
      },
    },
    headers: { Location: self, 'ASPSP-SCA-Approach': 'REDIRECT' },
  };
}

export function getBasket(ctx: Ctx, basketId: string): ApiResult {
  const b = findBasket(ctx, basketId);
  const self = `/v1/signing-baskets/${b.basketId}`;
  return {
    status: 200,
    body: {
      payments: b.paymentIds,
      transactionStatus: basketStatus(ctx.world, b),
      _links: {
        self: link(self, 'GET', 'DELETE'),
        status: link(`${self}/status`),
        ...(b.finalised ? {} : { startAuthorisation: link(`${self}/authorisations`, 'POST') }),
      },
    },
  };
}

export function getBasketStatus(ctx: Ctx, basketId: string): ApiResult {
  const b = findBasket(ctx, basketId);
  return { status: 200, body: { transactionStatus: basketStatus(ctx.world, b) } };
}

export function deleteBasket(ctx: Ctx, basketId: string): ApiResult {
  const b = findBasket(ctx, basketId);
  if (b.finalised) throw new ApiError(409, 'CONFLICT', 'The signing basket has been authorised and cannot be deleted');
  for (const id of b.paymentIds) {
    const p = ctx.world.payments.get(id);
    if (p && p.basketId === b.basketId) p.basketId = undefined;
  }
  for (const a of b.authorisations) if (a.scaStatus !== 'FINALISED') a.scaStatus = 'FAILED';
  ctx.world.baskets.delete(b.basketId);
  return { status: 204 };
}

export function startBasketAuthorisation(ctx: Ctx, basketId: string): ApiResult {
  const b = findBasket(ctx, basketId);
  requireAcceptFix(ctx);
  requireHeader(ctx, 'PSU-IP-Address');
  const psu = lookupPsu(ctx);
  if (psu.kind === 'none') throw new ApiError(400, 'HTTP_HEADER_REQUIRED', 'Header PSU-ID is required');
  if (b.finalised) throw new ApiError(400, 'RESOURCE_BLOCKED', 'The signing basket has already been authorised');
  const open = b.paymentIds.some((id) => {
    const p = ctx.world.payments.get(id);
    return p !== undefined && p.status === 'RCVD' && !p.approved;
  });
  if (!open) throw new ApiError(400, 'RESOURCE_BLOCKED', 'No payment of the signing basket awaits authorisation');
  return startAuthorisation(
    ctx,
    { kind: 'basket', customerNumber: b.customerNumber, contextKey: undefined, basketId: b.basketId, authorisations: b.authorisations },
    `/v1/signing-baskets/${b.basketId}`,
  );
}

export function listBasketAuthorisations(ctx: Ctx, basketId: string): ApiResult {
  return listAuthorisations(findBasket(ctx, basketId).authorisations);
}

export function getBasketAuthorisation(ctx: Ctx, basketId: string, authorisationId: string): ApiResult {
  return getAuthorisation(findBasket(ctx, basketId).authorisations, authorisationId);
}
