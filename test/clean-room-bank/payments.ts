// Payment initiation, details, status, cancellation and authorisation sub-resources.

import { randomUUID } from 'node:crypto';
import { lookupPsu, resolveContext, scaHref, unknownPsuError } from './access.js';
import { amountJson } from './ais.js';
import { availableFunds } from './batch.js';
import { addDays, weekday } from './clock.js';
import { header, link, objectBody, requireAcceptFix, requireHeader, thirdPartyName, type ApiResult, type Ctx } from './context.js';
import { ApiError, formatError, headerRequired, notFound } from './errors.js';
import { convert } from './money.js';
import {
  LIMITS,
  agreementIdOf,
  boundedSet,
  type Account,
  type Authorisation,
  type ContextKey,
  type MoneyAmount,
  type Payment,
  type PaymentService,
  type World,
} from './model.js';
import { DOMESTIC, NCBCT, PRODUCTS, TO_SELF, validatePayment, type RuleContext } from './payment-rules.js';
import { createFlow, newAuthorisation, sessionState, type FlowKind } from './sca-flow.js';

export const PAYMENT_SERVICES: readonly PaymentService[] = ['payments', 'bulk-payments', 'periodic-payments'];
const FEE_NCBCT = 50_00000n; // NOK 50.00 (scaled)

function canonicalProduct(productPath: string): string {
  const p = PRODUCTS[productPath];
  if (p === undefined) throw new ApiError(404, 'PRODUCT_UNKNOWN', `Payment product ${productPath} is not offered`);
  return p;
}

function paymentPath(p: Payment): string {
  return `/v1/${p.service}/${p.productPath}/${p.paymentId}`;
}

/** Whether the customer may pay from the account in the context (role REGISTER for corporate). */
function paymentPermission(
  world: World,
  customerNumber: string,
  contextKey: ContextKey,
  a: Account,
): 'ok' | 'unknown' | 'forbidden' | 'blocked' {
  if (a.status === 'deleted') return 'unknown';
  const agreementId = agreementIdOf(contextKey);
  if (agreementId === undefined) {
    if (a.customerNumber !== customerNumber) return 'unknown';
  } else {
    const agreement = world.agreements.get(agreementId);
    if (!agreement) return 'unknown';
    const roles = world.rolesIn(agreement, customerNumber, a.resourceId);
    if (roles.size === 0) return 'unknown';
    if (!roles.has('REGISTER')) return 'forbidden';
  }
  if (a.status === 'blocked') return 'blocked';
  if (!a.paymentsAllowed) return 'forbidden';
  return 'ok';
}

function feeFor(product: string, debtor: Account, items: Payment['items']): MoneyAmount | undefined {
  let fee = 0n;
  if (product === NCBCT) fee += convert(FEE_NCBCT * BigInt(items.length), 'NOK', debtor.currency);
  for (const it of items) {
    if (it.currency !== debtor.currency) fee += convert(it.amount, it.currency, debtor.currency) / 200n; // 0.5 % conversion fee
  }
  return fee > 0n ? { amount: fee, currency: debtor.currency } : undefined;
}

function findDebtor(world: World, iban: string | undefined, bban: string | undefined): Account | undefined {
  if (iban) return world.accountByIban(iban);
  if (bban) return world.accountByBban(bban);
  return undefined;
}

// ---------------------------------------------------------------- initiation

export function initiatePayment(ctx: Ctx, service: PaymentService, productPath: string): ApiResult {
  const product = canonicalProduct(productPath);
  requireAcceptFix(ctx);
  const tppSessionId = requireHeader(ctx, 'TPP-Session-ID');
  const redirectUri = requireHeader(ctx, 'TPP-Redirect-URI');
  requireHeader(ctx, 'PSU-IP-Address');
  const allowDup = ctx.query.get('allowLogicalDuplicate');
  if (allowDup !== null && allowDup !== 'true' && allowDup !== 'false')
    throw formatError('Query parameter allowLogicalDuplicate must be true or false');

  const psu = lookupPsu(ctx);
  if (psu.kind === 'none') throw headerRequired('PSU-ID');
  if (psu.kind === 'unknown') throw unknownPsuError(psu.header);
  const customer = psu.customer;
  const contextKey = resolveContext(ctx, customer);

  const body = objectBody(ctx);
  const rc: RuleContext = { product, today: ctx.world.today(), amountAsString: ctx.fixes.has('amount-as-string'), warnings: [] };
  const v = validatePayment(service, body, rc);

  const debtor = findDebtor(ctx.world, v.debtor.iban, v.debtor.bban);
  if (!debtor) throw new ApiError(400, 'RESOURCE_UNKNOWN', 'debtorAccount is not an account of this bank');
  const perm = paymentPermission(ctx.world, customer.customerNumber, contextKey, debtor);
  if (perm === 'unknown') throw new ApiError(400, 'RESOURCE_UNKNOWN', 'debtorAccount is not an account of this PSU in this context');
  if (perm === 'forbidden') throw new ApiError(403, 'FORBIDDEN', 'The PSU has no payment permission for debtorAccount');
  if (perm === 'blocked') throw new ApiError(400, 'RESOURCE_BLOCKED', 'debtorAccount is blocked');
  if (v.debtor.currency !== debtor.currency) throw formatError('debtorAccount.currency does not match the currency of the account');

  if (product === TO_SELF) {
    for (const it of v.items) {
      const cred = findDebtor(ctx.world, it.creditorIban, it.creditorBban);
      if (
        !cred ||
        cred.resourceId === debtor.resourceId ||
        paymentPermission(ctx.world, customer.customerNumber, contextKey, cred) === 'unknown'
      ) {
        throw formatError('creditorAccount must be another own account of the PSU for norwegian-domestic-payment-to-self');
      }
    }
  }

  const fee = feeFor(product, debtor, v.items);
  const today = ctx.world.today();
  if (service !== 'periodic-payments' && (v.executionDate === undefined || v.executionDate === today)) {
    let total = fee ? convert(fee.amount, fee.currency, debtor.currency) : 0n;
    for (const it of v.items) total += convert(it.amount, it.currency, debtor.currency);
    if (total > availableFunds(debtor)) {
      throw new ApiError(400, 'PAYMENT_FAILED', 'Insufficient funds on debtorAccount for this payment');
    }
  }

  const dupKey = [
    customer.customerNumber,
    service,
    product,
    debtor.resourceId,
    v.executionDate ?? today,
    v.duplicateExtra,
    ...v.items.map((i) => [i.amount.toString(), i.currency, i.creditorIban ?? i.creditorBban ?? '', i.remittance ?? ''].join('~')),
  ].join('|');
  if (allowDup !== 'true') {
    for (const other of ctx.world.payments.values()) {
      if (
        other.duplicateKey === dupKey &&
        other.status !== 'RJCT' &&
        other.status !== 'CANC' &&
        !(other.status === 'ACCP' && other.fundsAvailable === false)
      ) {
        throw new ApiError(
          409,
          'CONFLICT',
          `A logical duplicate of this payment exists (${other.paymentId}); use allowLogicalDuplicate=true to create it anyway`,
        );
      }
    }
  }

  const authorisation = newAuthorisation(ctx.world);
  const payment: Payment = {
    paymentId: randomUUID(),
    service,
    product,
    productPath,
    customerNumber: customer.customerNumber,
    contextKey,
    debtorAccountId: debtor.resourceId,
    debtorIban: debtor.iban,
    debtorBban: debtor.bban,
    request: v.request,
    items: v.items,
    executionDate: v.executionDate,
    status: 'RCVD',
    fundsAvailable: undefined,
    psuMessage: undefined,
    approved: false,
    basketId: undefined,
    authorisations: [authorisation],
    fee,
    duplicateKey: dupKey,
    createdAt: ctx.world.now(),
    tppSessionId,
  };
  boundedSet(ctx.world.payments, payment.paymentId, payment, LIMITS.payments);
  const flow = createFlow(ctx.bank, ctx.world, {
    kind: 'payment',
    tppSessionId,
    redirectUri,
    thirdParty: thirdPartyName(ctx),
    expectedCustomer: customer.customerNumber,
    fixedContext: contextKey,
    paymentId: payment.paymentId,
    authorisation,
  });
  const self = paymentPath(payment);
  const body201: Record<string, unknown> = {
    transactionStatus: payment.status,
    paymentId: payment.paymentId,
    ...(fee ? { transactionFees: amountJson(fee) } : {}),
    transactionFeeIndicator: fee !== undefined,
    ...(rc.warnings.length ? { tppMessages: rc.warnings } : {}),
    _links: {
      scaRedirect: link(scaHref(ctx, flow.id), 'GET'),
      self: link(self, 'GET', 'DELETE'),
      status: link(`${self}/status`, 'GET'),
      scaStatus: link(`${self}/authorisations/${authorisation.authorisationId}`, 'GET'),
    },
  };
  return { status: 201, body: body201, headers: { Location: self, 'ASPSP-SCA-Approach': 'REDIRECT' } };
}

// ---------------------------------------------------------------- reads

export function findPayment(ctx: Ctx, service: string, productPath: string, paymentId: string): Payment {
  const product = canonicalProduct(productPath);
  const p = ctx.world.payments.get(paymentId);
  if (!p || p.service !== service || p.product !== product) throw notFound(`Payment ${paymentId} is unknown`);
  return p;
}

function requireApprovedForDomestic(p: Payment): void {
  if (p.product === DOMESTIC && !p.approved) {
    throw notFound('Details and status of domestic-norway-credit-transfers are not available before the PSU approves the payment');
  }
}

export function getPayment(ctx: Ctx, service: string, productPath: string, paymentId: string): ApiResult {
  const p = findPayment(ctx, service, productPath, paymentId);
  requireApprovedForDomestic(p);
  return { status: 200, body: { ...p.request, transactionStatus: p.status } };
}

export function getPaymentStatus(ctx: Ctx, service: string, productPath: string, paymentId: string): ApiResult {
  const p = findPayment(ctx, service, productPath, paymentId);
  requireApprovedForDomestic(p);
  return {
    status: 200,
    body: {
      transactionStatus: p.status,
      ...(p.fundsAvailable !== undefined ? { fundsAvailable: p.fundsAvailable } : {}),
      ...(p.psuMessage ? { psuMessage: p.psuMessage } : {}),
    },
  };
}

const CANCELLABLE = new Set(['RCVD', 'ACTC', 'ACWC', 'PDNG']);

export function cancelPayment(ctx: Ctx, service: string, productPath: string, paymentId: string): ApiResult {
  const p = findPayment(ctx, service, productPath, paymentId);
  if (p.basketId !== undefined && p.status === 'RCVD') {
    throw new ApiError(400, 'RESOURCE_BLOCKED', `The payment is part of signing basket ${p.basketId}`);
  }
  if (!CANCELLABLE.has(p.status)) {
    throw new ApiError(405, 'CANCELLATION_INVALID', `A payment in status ${p.status} cannot be cancelled`);
  }
  p.status = 'CANC';
  p.psuMessage = 'Cancelled by the TPP';
  for (const a of p.authorisations)
    if (a.scaStatus !== 'FINALISED' && a.scaStatus !== 'FAILED' && a.scaStatus !== 'EXEMPTED') a.scaStatus = 'FAILED';
  return { status: 204 };
}

// ---------------------------------------------------------------- authorisations

/**
 * Starts an authorisation (payment or basket): with a valid SCA session of the PSU in this
 * TPP-Session-ID the answer is 201 STARTED with links; without one it is 401 with scaRedirect.
 */
export function startAuthorisation(
  ctx: Ctx,
  target: {
    kind: FlowKind;
    customerNumber: string;
    contextKey: ContextKey | undefined;
    paymentId?: string;
    basketId?: string;
    authorisations: Authorisation[];
  },
  selfPath: string,
): ApiResult {
  const tppSessionId = requireHeader(ctx, 'TPP-Session-ID');
  const redirectUri = requireHeader(ctx, 'TPP-Redirect-URI');
  const psu = lookupPsu(ctx);
  if (psu.kind === 'unknown') throw unknownPsuError(psu.header);
  if (psu.kind === 'known' && psu.customer.customerNumber !== target.customerNumber) {
    throw new ApiError(401, 'PSU_CREDENTIALS_INVALID', 'The PSU of this request is not the PSU of the resource');
  }
  for (const a of target.authorisations) if (a.scaStatus !== 'FINALISED' && a.scaStatus !== 'EXEMPTED') a.scaStatus = 'FAILED';
  const state = sessionState(ctx.world, header(ctx, 'tpp-session-id'), target.customerNumber);
  const authorisation = newAuthorisation(ctx.world, state === 'valid' ? 'STARTED' : 'RECEIVED');
  target.authorisations.push(authorisation);
  if (target.authorisations.length > 20) target.authorisations.splice(0, target.authorisations.length - 20);
  const flow = createFlow(ctx.bank, ctx.world, {
    kind: target.kind,
    tppSessionId,
    redirectUri,
    thirdParty: thirdPartyName(ctx),
    expectedCustomer: target.customerNumber,
    ...(target.contextKey !== undefined ? { fixedContext: target.contextKey } : {}),
    ...(target.paymentId !== undefined ? { paymentId: target.paymentId } : {}),
    ...(target.basketId !== undefined ? { basketId: target.basketId } : {}),
    authorisation,
  });
  const scaRedirect = link(scaHref(ctx, flow.id), 'GET');
  const scaStatus = link(`${selfPath}/authorisations/${authorisation.authorisationId}`, 'GET');
  if (state !== 'valid') {
    const code = state === 'none' ? 'SCA_NOT_FOUND' : state === 'expired' ? 'SCA_EXPIRED' : 'SCA_INVALID';
    throw new ApiError(401, code, 'SCA is required: redirect the PSU to scaRedirect', { links: { scaRedirect } });
  }
  return {
    status: 201,
    body: { scaStatus: authorisation.scaStatus, authorisationId: authorisation.authorisationId, _links: { scaRedirect, scaStatus } },
    headers: { 'ASPSP-SCA-Approach': 'REDIRECT' },
  };
}

export function startPaymentAuthorisation(ctx: Ctx, service: string, productPath: string, paymentId: string): ApiResult {
  const p = findPayment(ctx, service, productPath, paymentId);
  if (p.basketId !== undefined) throw new ApiError(400, 'RESOURCE_BLOCKED', `The payment is part of signing basket ${p.basketId}`);
  if (p.status !== 'RCVD' || p.approved)
    throw new ApiError(409, 'CONFLICT', `The payment (status ${p.status}) does not await authorisation`);
  return startAuthorisation(
    ctx,
    {
      kind: 'payment',
      customerNumber: p.customerNumber,
      contextKey: p.contextKey,
      paymentId: p.paymentId,
      authorisations: p.authorisations,
    },
    paymentPath(p),
  );
}

export function listAuthorisations(list: Authorisation[]): ApiResult {
  return { status: 200, body: { authorisationIds: list.map((a) => a.authorisationId) } };
}

export function getAuthorisation(list: Authorisation[], authorisationId: string): ApiResult {
  const a = list.find((x) => x.authorisationId === authorisationId);
  if (!a) throw notFound(`Authorisation ${authorisationId} is unknown`);
  return { status: 200, body: { scaStatus: a.scaStatus } };
}

// ---------------------------------------------------------------- outcome of the SCA pages

/** The PSU approved the payment on the SCA page. Returns an error text when it cannot be. */
export function approvePayment(world: World, p: Payment): string | undefined {
  if (p.status !== 'RCVD' || p.approved) return `The payment is in status ${p.status} and cannot be approved`;
  const debtor = world.accounts.get(p.debtorAccountId);
  if (!debtor || paymentPermission(world, p.customerNumber, p.contextKey, debtor) !== 'ok') {
    return 'The PSU has no payment permission for the debtor account';
  }
  const today = world.today();
  p.approved = true;
  if (p.service === 'periodic-payments') {
    p.status = 'ACTC';
    return undefined;
  }
  let date = p.executionDate !== undefined && p.executionDate > today ? p.executionDate : today;
  let changed = false;
  if (p.executionDate !== undefined && p.executionDate > today) {
    while (weekday(date) === 0 || weekday(date) === 6) {
      date = addDays(date, 1);
      changed = true;
    }
  }
  p.executionDate = date;
  p.status = changed ? 'ACWC' : 'ACTC';
  if (changed) p.psuMessage = `The execution date was moved to the next business day, ${date}`;
  return undefined;
}

export function rejectPayment(p: Payment, reason: string): void {
  if (p.status === 'RCVD' && !p.approved) {
    p.status = 'RJCT';
    p.psuMessage = reason;
  }
}
