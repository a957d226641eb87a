// The route table of the API (/v1/...), with the PSD2 role each route needs.

import * as ais from './ais.js';
import * as baskets from './baskets.js';
import * as consents from './consents.js';
import type { ApiResult, Ctx } from './context.js';
import type { PaymentService } from './model.js';
import * as payments from './payments.js';
import * as sandbox from './sandbox.js';

/** ais: needs PSP_AI; pis: needs PSP_PI; psu: PSP_AI or PSP_PI; tpp / sandbox: any TPP. */
export type RouteGroup = 'ais' | 'pis' | 'psu' | 'tpp' | 'sandbox';

type Handler = (ctx: Ctx, p: string[]) => ApiResult;

interface Route {
  method: string;
  pattern: string[];
  group: RouteGroup;
  handler: Handler;
}

const SERVICE = ':service';

function r(method: string, path: string, group: RouteGroup, handler: Handler): Route {
  return { method, pattern: path.split('/').filter((s) => s !== ''), group, handler };
}

const svc = (p: string[]): PaymentService => (p[0] ?? 'payments') as PaymentService;
const at = (p: string[], i: number): string => p[i] ?? '';

const ROUTES: Route[] = [
  // account information
  r('GET', 'v1/accounts', 'ais', (c) => ais.getAccounts(c)),
  r('GET', 'v1/accounts/:id', 'ais', (c, p) => ais.getAccount(c, at(p, 0))),
  r('GET', 'v1/accounts/:id/balances', 'ais', (c, p) => ais.getBalances(c, at(p, 0))),
  r('GET', 'v1/accounts/:id/transactions', 'ais', (c, p) => ais.getTransactions(c, at(p, 0))),
  r('GET', 'v1/accounts/:id/transactions/:tx', 'ais', (c, p) => ais.getTransactionDetails(c, at(p, 0), at(p, 1))),
  r('GET', 'v1/card-accounts', 'ais', (c) => ais.getCardAccounts(c)),
  r('GET', 'v1/card-accounts/:id', 'ais', (c, p) => ais.getCardAccount(c, at(p, 0))),
  r('GET', 'v1/card-accounts/:id/balances', 'ais', (c, p) => ais.getCardBalances(c, at(p, 0))),
  r('GET', 'v1/card-accounts/:id/transactions', 'ais', (c, p) => ais.getCardTransactions(c, at(p, 0))),
  // consents
  ...(['consents', 'bank-offered-consents'] as const).flatMap((base) => [
    r('POST', `v1/${base}`, 'ais', (c) => consents.createConsent(c, base === 'consents')),
    r('GET', `v1/${base}/:id`, 'ais', (c, p) => consents.getConsent(c, `/v1/${base}`, at(p, 0))),
    r('DELETE', `v1/${base}/:id`, 'ais', (c, p) => consents.deleteConsent(c, at(p, 0))),
    r('GET', `v1/${base}/:id/status`, 'ais', (c, p) => consents.getConsentStatus(c, at(p, 0))),
    r('POST', `v1/${base}/:id/authorisations`, 'ais', (c, p) => consents.startConsentAuthorisation(c, `/v1/${base}`, at(p, 0))),
    r('GET', `v1/${base}/:id/authorisations`, 'ais', (c, p) => consents.listConsentAuthorisations(c, at(p, 0))),
    r('GET', `v1/${base}/:id/authorisations/:aid`, 'ais', (c, p) => consents.getConsentAuthorisation(c, at(p, 0), at(p, 1))),
  ]),
  // PSU and agreements
  r('GET', 'v1/user', 'psu', (c) => consents.getUser(c)),
  r('GET', 'v1/agreements', 'psu', (c) => consents.getAgreements(c)),
  // signing baskets
  r('POST', 'v1/signing-baskets', 'pis', (c) => baskets.createBasket(c)),
  r('GET', 'v1/signing-baskets/:id', 'pis', (c, p) => baskets.getBasket(c, at(p, 0))),
  r('DELETE', 'v1/signing-baskets/:id', 'pis', (c, p) => baskets.deleteBasket(c, at(p, 0))),
  r('GET', 'v1/signing-baskets/:id/status', 'pis', (c, p) => baskets.getBasketStatus(c, at(p, 0))),
  r('POST', 'v1/signing-baskets/:id/authorisations', 'pis', (c, p) => baskets.startBasketAuthorisation(c, at(p, 0))),
  r('GET', 'v1/signing-baskets/:id/authorisations', 'pis', (c, p) => baskets.listBasketAuthorisations(c, at(p, 0))),
  r('GET', 'v1/signing-baskets/:id/authorisations/:aid', 'pis', (c, p) => baskets.getBasketAuthorisation(c, at(p, 0), at(p, 1))),
  // payments
  r('POST', `v1/${SERVICE}/:product`, 'pis', (c, p) => payments.initiatePayment(c, svc(p), at(p, 1))),
  r('GET', `v1/${SERVICE}/:product/:pid`, 'pis', (c, p) => payments.getPayment(c, svc(p), at(p, 1), at(p, 2))),
  r('DELETE', `v1/${SERVICE}/:product/:pid`, 'pis', (c, p) => payments.cancelPayment(c, svc(p), at(p, 1), at(p, 2))),
  r('GET', `v1/${SERVICE}/:product/:pid/status`, 'pis', (c, p) => payments.getPaymentStatus(c, svc(p), at(p, 1), at(p, 2))),
  r('POST', `v1/${SERVICE}/:product/:pid/authorisations`, 'pis', (c, p) =>
    payments.startPaymentAuthorisation(c, svc(p), at(p, 1), at(p, 2)),
  ),
  r('GET', `v1/${SERVICE}/:product/:pid/authorisations`, 'pis', (c, p) =>
    payments.listAuthorisations(payments.findPayment(c, svc(p), at(p, 1), at(p, 2)).authorisations),
  ),
  r('GET', `v1/${SERVICE}/:product/:pid/authorisations/:aid`, 'pis', (c, p) =>
    payments.getAuthorisation(payments.findPayment(c, svc(p), at(p, 1), at(p, 2)).authorisations, at(p, 3)),
  ),
  // TPP dialogue
  r('PUT', 'v1/tpp-dialogue/contact-email', 'tpp', (c) => consents.putContactEmail(c)),
  r('GET', 'v1/tpp-dialogue/contact-email', 'tpp', (c) => consents.getContactEmail(c)),
  r('DELETE', 'v1/tpp-dialogue/contact-email', 'tpp', (c) => consents.deleteContactEmail(c)),
  // sandbox
  r('POST', 'v1/sandbox/initialize', 'sandbox', (c) => sandbox.initialize(c)),
  r('GET', 'v1/sandbox/customers', 'sandbox', (c) => sandbox.listCustomers(c)),
  r('POST', 'v1/sandbox/customers', 'sandbox', (c) => sandbox.createCustomer(c)),
  r('GET', 'v1/sandbox/customers/:n', 'sandbox', (c, p) => sandbox.getCustomer(c, at(p, 0))),
  r('PATCH', 'v1/sandbox/customers/:n', 'sandbox', (c, p) => sandbox.patchCustomer(c, at(p, 0))),
  r('DELETE', 'v1/sandbox/customers/:n', 'sandbox', (c, p) => sandbox.deleteCustomer(c, at(p, 0))),
  r('GET', 'v1/sandbox/accounts', 'sandbox', (c) => sandbox.listAccounts(c)),
  r('POST', 'v1/sandbox/accounts', 'sandbox', (c) => sandbox.createAccount(c)),
  r('GET', 'v1/sandbox/accounts/:id', 'sandbox', (c, p) => sandbox.getAccountSb(c, at(p, 0))),
  r('PATCH', 'v1/sandbox/accounts/:id', 'sandbox', (c, p) => sandbox.patchAccount(c, at(p, 0))),
  r('DELETE', 'v1/sandbox/accounts/:id', 'sandbox', (c, p) => sandbox.deleteAccount(c, at(p, 0))),
  r('PUT', 'v1/sandbox/accounts/:id/balances', 'sandbox', (c, p) => sandbox.putAccountBalances(c, at(p, 0))),
  r('PUT', 'v1/sandbox/accounts/:id/owner-name', 'sandbox', (c, p) => sandbox.putAccountOwnerName(c, at(p, 0))),
  r('GET', 'v1/sandbox/accounts/:id/transactions', 'sandbox', (c, p) => sandbox.listAccountTransactions(c, at(p, 0))),
  r('POST', 'v1/sandbox/accounts/:id/transactions', 'sandbox', (c, p) => sandbox.addAccountTransactions(c, at(p, 0))),
  r('PATCH', 'v1/sandbox/accounts/:id/transactions/:tx', 'sandbox', (c, p) => sandbox.patchAccountTransaction(c, at(p, 0), at(p, 1))),
  r('DELETE', 'v1/sandbox/accounts/:id/transactions/:tx', 'sandbox', (c, p) => sandbox.deleteAccountTransaction(c, at(p, 0), at(p, 1))),
  r('GET', 'v1/sandbox/card-accounts', 'sandbox', (c) => sandbox.listCards(c)),
  r('POST', 'v1/sandbox/card-accounts', 'sandbox', (c) => sandbox.createCard(c)),
  r('GET', 'v1/sandbox/card-accounts/:id', 'sandbox', (c, p) => sandbox.getCardSb(c, at(p, 0))),
  r('PATCH', 'v1/sandbox/card-accounts/:id', 'sandbox', (c, p) => sandbox.patchCard(c, at(p, 0))),
  r('DELETE', 'v1/sandbox/card-accounts/:id', 'sandbox', (c, p) => sandbox.deleteCard(c, at(p, 0))),
  r('PUT', 'v1/sandbox/card-accounts/:id/balances', 'sandbox', (c, p) => sandbox.putCardBalances(c, at(p, 0))),
  r('PUT', 'v1/sandbox/card-accounts/:id/owner-name', 'sandbox', (c, p) => sandbox.putCardOwnerName(c, at(p, 0))),
  r('GET', 'v1/sandbox/card-accounts/:id/transactions', 'sandbox', (c, p) => sandbox.listCardTransactions(c, at(p, 0))),
  r('POST', 'v1/sandbox/card-accounts/:id/transactions', 'sandbox', (c, p) => sandbox.addCardTransactions(c, at(p, 0))),
  r('PATCH', 'v1/sandbox/card-accounts/:id/transactions/:tx', 'sandbox', (c, p) => sandbox.patchCardTransaction(c, at(p, 0), at(p, 1))),
  r('DELETE', 'v1/sandbox/card-accounts/:id/transactions/:tx', 'sandbox', (c, p) => sandbox.deleteCardTransaction(c, at(p, 0), at(p, 1))),
  r('GET', 'v1/sandbox/agreements', 'sandbox', (c) => sandbox.listAgreements(c)),
  r('POST', 'v1/sandbox/agreements', 'sandbox', (c) => sandbox.createAgreement(c)),
  r('GET', 'v1/sandbox/agreements/:id', 'sandbox', (c, p) => sandbox.getAgreementSb(c, at(p, 0))),
  r('PATCH', 'v1/sandbox/agreements/:id', 'sandbox', (c, p) => sandbox.patchAgreement(c, at(p, 0))),
  r('DELETE', 'v1/sandbox/agreements/:id', 'sandbox', (c, p) => sandbox.deleteAgreement(c, at(p, 0))),
  r('GET', 'v1/sandbox/clock', 'sandbox', (c) => sandbox.getClock(c)),
  r('POST', 'v1/sandbox/clock', 'sandbox', (c) => sandbox.setClock(c)),
  r('POST', 'v1/sandbox/batch-processing', 'sandbox', (c) => sandbox.runBatchNow(c)),
  r('POST', 'v1/sandbox/consent-revocations', 'sandbox', (c) => sandbox.revokeConsent(c)),
  r('GET', 'v1/sandbox/payments', 'sandbox', (c) => sandbox.listPayments(c)),
  r('PUT', 'v1/sandbox/payments/:pid/status', 'sandbox', (c, p) => sandbox.setPaymentStatus(c, at(p, 0))),
];

const PAYMENT_SERVICE_SET = new Set<string>(payments.PAYMENT_SERVICES);

function matchPattern(pattern: string[], segments: string[]): string[] | undefined {
  if (pattern.length !== segments.length) return undefined;
  const params: string[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i] ?? '';
    const s = segments[i] ?? '';
    if (p === SERVICE) {
      if (!PAYMENT_SERVICE_SET.has(s)) return undefined;
      params.push(s);
    } else if (p.startsWith(':')) {
      if (s === '') return undefined;
      params.push(s);
    } else if (p !== s) return undefined;
  }
  return params;
}

type RouteMatch = { kind: 'found'; route: Route; params: string[] } | { kind: 'method'; allow: string[] } | { kind: 'none' };

export function matchRoute(method: string, segments: string[]): RouteMatch {
  const allow: string[] = [];
  for (const route of ROUTES) {
    const params = matchPattern(route.pattern, segments);
    if (!params) continue;
    if (route.method === method) return { kind: 'found', route, params };
    allow.push(route.method);
  }
  return allow.length ? { kind: 'method', allow } : { kind: 'none' };
}
