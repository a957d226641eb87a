// The SCA redirect pages seen by the PSU's browser: login with a mocked national
// identification number, choice of context, the consent checkbox list, confirmation of a
// payment or signing basket. Plain HTML forms (no script); stable ids are documented in README.md.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Bank } from './bank.js';
import { catchUp } from './batch.js';
import { SYSTEM_SCA } from './errors.js';
import { formatAmount } from './money.js';
import { CONTEXT_PRIVATE, agreementIdOf, corporateContext, type ContextKey, type Payment, type World } from './model.js';
import { approvePayment, rejectPayment } from './payments.js';
import { errorParams, establishSession, redirectTo, successParams, validSession, type ScaFlow } from './sca-flow.js';

const MAX_LOGIN_FAILURES = 3;
const MAX_FORM_BYTES = 64 * 1024;

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

const STYLE = `body{font-family:system-ui,sans-serif;background:#f3f5f7;margin:0;color:#1d2733}
header{background:#0b3954;color:#fff;padding:12px 24px;font-weight:600}
main{max-width:560px;margin:24px auto;background:#fff;padding:24px;border-radius:8px;box-shadow:0 1px 4px #0002}
h1{font-size:1.3rem;margin-top:0}label{display:block;margin:8px 0}
input[type=text]{font-size:1.1rem;padding:6px;width:100%;box-sizing:border-box}
fieldset{border:1px solid #ccd;border-radius:6px;margin:12px 0}
.actions{margin-top:16px;display:flex;gap:8px}button{font-size:1rem;padding:8px 16px;border-radius:4px;border:1px solid #0b3954;cursor:pointer}
button.primary{background:#0b3954;color:#fff}#error-message{color:#a4161a;font-weight:600}
table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:4px 6px;border-bottom:1px solid #eee}`;

function page(res: ServerResponse, status: number, step: string, title: string, body: string, kind?: string): void {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} – Clean Room Bank</title><style>${STYLE}</style></head>
<body data-step="${esc(step)}"${kind ? ` data-flow-kind="${esc(kind)}"` : ''}>
<header>Clean Room Bank · sandbox</header>
<main><h1 id="page-title">${esc(title)}</h1>
${body}
</main></body></html>`;
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'",
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(html);
}

function seeOther(res: ServerResponse, location: string): void {
  res.writeHead(303, { Location: location, 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
  res.end();
}

function errorBlock(flow: ScaFlow): string {
  const e = flow.pageError;
  flow.pageError = undefined;
  return e ? `<p id="error-message" role="alert">${esc(e)}</p>` : '';
}

// ---------------------------------------------------------------- outcomes

function finish(flow: ScaFlow, location: string): string {
  flow.step = 'done';
  flow.finalRedirect = location;
  return location;
}

function fail(flow: ScaFlow, status: number, code: string, message: string): string {
  if (flow.authorisation && flow.authorisation.scaStatus !== 'FINALISED') flow.authorisation.scaStatus = 'FAILED';
  if (flow.consentId) {
    const c = flow.world.consents.get(flow.consentId);
    if (c && c.status === 'received') c.status = 'rejected';
  }
  return finish(flow, redirectTo(flow.redirectUri, errorParams(SYSTEM_SCA, status, code, message)));
}

function succeed(flow: ScaFlow): string {
  const w = flow.world;
  const customer = flow.customer ?? '';
  const contextKey = flow.contextKey ?? CONTEXT_PRIVATE;
  establishSession(w, flow.tppSessionId, customer, contextKey);
  if (flow.authorisation) flow.authorisation.scaStatus = 'FINALISED';
  return finish(flow, redirectTo(flow.redirectUri, successParams(w, flow)));
}

const cancelled = (flow: ScaFlow): string => fail(flow, 401, 'SCA_INVALID', 'The PSU cancelled the authorisation');

// ---------------------------------------------------------------- steps

interface ContextOption {
  key: ContextKey;
  label: string;
  agreementId: string | undefined;
}

function contextOptions(w: World, customerNumber: string, kind: ScaFlow['kind']): ContextOption[] {
  const customer = w.customers.get(customerNumber);
  if (!customer) return [];
  const corporate = w.agreementsOf(customerNumber).map((a) => ({
    key: corporateContext(a.agreementId),
    label: `${w.customers.get(a.owner)?.name ?? a.owner} – ${a.name}`,
    agreementId: a.agreementId,
  }));
  const priv: ContextOption[] =
    customer.type === 'private' ? [{ key: CONTEXT_PRIVATE, label: `Private – ${customer.name}`, agreementId: undefined }] : [];
  if (kind === 'user') return corporate.length ? corporate : priv;
  return [...priv, ...corporate];
}

function targetPayment(flow: ScaFlow): Payment | undefined {
  return flow.paymentId ? flow.world.payments.get(flow.paymentId) : undefined;
}

/** After login (or a context choice): the next step, or the end of the flow. Returns a redirect when finished. */
function advance(flow: ScaFlow): string | undefined {
  const w = flow.world;
  const customer = flow.customer ?? '';
  if (flow.authorisation && flow.authorisation.scaStatus !== 'FAILED') flow.authorisation.scaStatus = 'PSU_AUTHENTICATED';
  if (flow.kind === 'payment') {
    flow.contextKey = targetPayment(flow)?.contextKey ?? CONTEXT_PRIVATE;
    flow.step = 'payment';
    if (flow.authorisation) flow.authorisation.scaStatus = 'STARTED';
    return undefined;
  }
  if (flow.kind === 'basket') {
    const b = flow.basketId ? w.baskets.get(flow.basketId) : undefined;
    const first = b?.paymentIds.map((id) => w.payments.get(id)).find((p) => p !== undefined);
    flow.contextKey = first?.contextKey ?? CONTEXT_PRIVATE;
    flow.step = 'basket';
    if (flow.authorisation) flow.authorisation.scaStatus = 'STARTED';
    return undefined;
  }
  if (flow.contextKey === undefined) {
    if (flow.fixedContext !== undefined) {
      if (!w.hasContext(customer, flow.fixedContext)) return fail(flow, 403, 'FORBIDDEN', 'The PSU has no access in the requested context');
      flow.contextKey = flow.fixedContext;
    } else {
      const options = contextOptions(w, customer, flow.kind);
      if (options.length === 0) return fail(flow, 403, 'FORBIDDEN', 'The PSU has no context in which to use this service');
      if (options.length > 1) {
        flow.step = 'context';
        return undefined;
      }
      flow.contextKey = options[0]?.key;
    }
  }
  if (flow.kind === 'user') return succeed(flow);
  flow.step = 'consent';
  if (flow.authorisation) flow.authorisation.scaStatus = 'STARTED';
  return undefined;
}

/** Checks that the flow can still go on; returns a redirect when it cannot. */
function stillValid(flow: ScaFlow): string | undefined {
  const w = flow.world;
  if (w.now() > flow.expiresAt) return fail(flow, 401, 'SCA_EXPIRED', 'The authorisation link has expired');
  if (flow.authorisation?.scaStatus === 'FAILED')
    return fail(flow, 400, 'RESOURCE_BLOCKED', 'This authorisation was replaced or ended by the TPP');
  if (flow.kind === 'payment') {
    const p = targetPayment(flow);
    if (!p) return fail(flow, 404, 'RESOURCE_UNKNOWN', 'The payment is unknown');
    if (p.basketId !== undefined) return fail(flow, 400, 'RESOURCE_BLOCKED', 'The payment is part of a signing basket');
    if (p.status !== 'RCVD' || p.approved)
      return fail(flow, 400, 'RESOURCE_BLOCKED', `The payment is in status ${p.status} and awaits no authorisation`);
  }
  if (flow.kind === 'basket') {
    const b = flow.basketId ? w.baskets.get(flow.basketId) : undefined;
    if (!b) return fail(flow, 404, 'RESOURCE_UNKNOWN', 'The signing basket is unknown');
    if (b.finalised) return fail(flow, 400, 'RESOURCE_BLOCKED', 'The signing basket has already been authorised');
  }
  if (flow.consentId) {
    const c = w.consents.get(flow.consentId);
    if (!c || c.status !== 'received') return fail(flow, 400, 'RESOURCE_BLOCKED', 'The consent awaits no authorisation');
  }
  return undefined;
}

// ---------------------------------------------------------------- rendering

function renderLogin(res: ServerResponse, flow: ScaFlow): void {
  const what =
    flow.kind === 'payment'
      ? 'to approve a payment'
      : flow.kind === 'basket'
        ? 'to approve a signing basket'
        : flow.kind === 'user'
          ? 'to identify yourself'
          : 'to share account information';
  page(
    res,
    200,
    'login',
    'Log in',
    `<p id="login-purpose"><span id="third-party">${esc(flow.thirdParty)}</span> asks you to log in ${esc(what)}. In the sandbox, your national identification number is enough.</p>
${errorBlock(flow)}
<form id="login-form" method="post" action="/sca/${esc(flow.id)}/login">
<label for="national-id">National identification number</label>
<input type="text" id="national-id" name="nationalId" inputmode="numeric" autocomplete="off" autofocus>
<div class="actions"><button class="primary" id="login-button" type="submit" name="action" value="login">Log in</button>
<button id="cancel-button" type="submit" name="action" value="cancel">Cancel</button></div>
</form>`,
    flow.kind,
  );
}

function renderContext(res: ServerResponse, flow: ScaFlow): void {
  const options = contextOptions(flow.world, flow.customer ?? '', flow.kind);
  const radios = options
    .map((o, i) => {
      const id = o.agreementId === undefined ? 'context-private' : `context-corporate-${o.agreementId}`;
      const value = o.agreementId ?? 'PRIVATE';
      return `<label><input type="radio" id="${esc(id)}" name="context" value="${esc(value)}"${i === 0 ? ' checked' : ''}> ${esc(o.label)}</label>`;
    })
    .join('\n');
  page(
    res,
    200,
    'context',
    'Choose context',
    `${errorBlock(flow)}
<form id="context-form" method="post" action="/sca/${esc(flow.id)}/context">
<fieldset><legend>Use the service as</legend>
${radios}
</fieldset>
<div class="actions"><button class="primary" id="continue-button" type="submit" name="action" value="continue">Continue</button>
<button id="cancel-button" type="submit" name="action" value="cancel">Cancel</button></div>
</form>`,
    flow.kind,
  );
}

function renderConsent(res: ServerResponse, flow: ScaFlow): void {
  const w = flow.world;
  const customer = flow.customer ?? '';
  const contextKey = flow.contextKey ?? CONTEXT_PRIVATE;
  const { accounts, cards } = w.contextResources(customer, contextKey, 'VIEW');
  const grant = w.grants.get(w.grantKey(customer, contextKey));
  const checked = (id: string): string => (grant?.accountIds.has(id) ? ' checked' : '');
  const accountRows = accounts
    .map(
      (a) =>
        `<label><input type="checkbox" id="account-${esc(a.resourceId)}" name="account" value="${esc(a.resourceId)}" data-iban="${esc(a.iban ?? '')}" data-bban="${esc(a.bban ?? '')}"${checked(a.resourceId)}> ${esc(a.name)} · ${esc(a.iban ?? a.bban ?? '')} · ${esc(a.currency)}</label>`,
    )
    .join('\n');
  const cardRows = cards
    .map(
      (c) =>
        `<label><input type="checkbox" id="card-account-${esc(c.resourceId)}" name="account" value="${esc(c.resourceId)}" data-masked-pan="${esc(c.maskedPan)}"${checked(c.resourceId)}> ${esc(c.name)} · ${esc(c.maskedPan)}</label>`,
    )
    .join('\n');
  const agreementId = agreementIdOf(contextKey);
  const ctxText =
    agreementId === undefined
      ? 'your private accounts'
      : `the accounts of ${w.customers.get(w.agreements.get(agreementId)?.owner ?? '')?.name ?? agreementId}`;
  page(
    res,
    200,
    'consent',
    'Share account information',
    `<p id="consent-purpose">Select which of ${esc(ctxText)} <span id="third-party">${esc(flow.thirdParty)}</span> may read (accounts, balances and transactions). Accounts you already share are selected; clear a box to stop sharing it.</p>
${errorBlock(flow)}
<form id="consent-form" method="post" action="/sca/${esc(flow.id)}/consent">
<fieldset id="accounts"><legend>Accounts</legend>
${accountRows || '<p id="no-accounts">No accounts.</p>'}
</fieldset>
${cards.length ? `<fieldset id="card-accounts"><legend>Card accounts</legend>\n${cardRows}\n</fieldset>` : ''}
<div class="actions"><button class="primary" id="confirm-button" type="submit" name="action" value="confirm">Confirm</button>
<button id="cancel-button" type="submit" name="action" value="cancel">Cancel</button></div>
</form>`,
    flow.kind,
  );
}

function paymentRows(p: Payment): string {
  const first = p.items[0];
  const total = p.items.reduce((s, i) => s + i.amount, 0n);
  const cur = first?.currency ?? '';
  const rows: [string, string, string][] = [
    ['payment-id', 'Payment', p.paymentId],
    ['payment-product', 'Product', `${p.service} / ${p.productPath}`],
    ['payment-amount', 'Amount', `${formatAmount(total, cur)} ${cur}`],
    ['payment-creditor-name', 'To', p.items.map((i) => i.creditorName).join(', ')],
    ['payment-creditor-account', 'To account', p.items.map((i) => i.creditorIban ?? i.creditorBban ?? '').join(', ')],
    ['payment-debtor-account', 'From account', p.debtorIban ?? p.debtorBban ?? ''],
    ['payment-execution-date', 'Execution date', p.executionDate ?? 'as soon as possible'],
  ];
  if (first?.remittance) rows.push(['payment-remittance', 'Message', first.remittance]);
  if (p.fee) rows.push(['payment-fee', 'Fee', `${formatAmount(p.fee.amount, p.fee.currency)} ${p.fee.currency}`]);
  return rows.map(([id, k, v]) => `<tr><th>${esc(k)}</th><td id="${id}">${esc(v)}</td></tr>`).join('\n');
}

const APPROVE_BUTTONS = `<div class="actions"><button class="primary" id="approve-button" type="submit" name="action" value="approve">Approve</button>
<button id="reject-button" type="submit" name="action" value="reject">Reject</button>
<button id="cancel-button" type="submit" name="action" value="cancel">Cancel</button></div>`;

function renderPayment(res: ServerResponse, flow: ScaFlow): void {
  const p = targetPayment(flow);
  page(
    res,
    200,
    'payment',
    'Approve payment',
    `${errorBlock(flow)}<table id="payment-details">${p ? paymentRows(p) : ''}</table>
<form id="payment-form" method="post" action="/sca/${esc(flow.id)}/payment">
${APPROVE_BUTTONS}
</form>`,
    flow.kind,
  );
}

function renderBasket(res: ServerResponse, flow: ScaFlow): void {
  const w = flow.world;
  const b = flow.basketId ? w.baskets.get(flow.basketId) : undefined;
  const items = (b?.paymentIds ?? [])
    .map((id) => w.payments.get(id))
    .filter((p): p is Payment => p !== undefined)
    .map((p) => `<table class="basket-payment" data-payment-id="${esc(p.paymentId)}">${paymentRows(p).replace(/ id="[^"]*"/g, '')}</table>`)
    .join('\n');
  page(
    res,
    200,
    'basket',
    'Approve payments',
    `<p id="basket-purpose">Approve all payments of signing basket <span id="basket-id">${esc(b?.basketId ?? '')}</span>. Each payment is then processed on its own.</p>
${errorBlock(flow)}${items}
<form id="basket-form" method="post" action="/sca/${esc(flow.id)}/basket">
${APPROVE_BUTTONS}
</form>`,
    flow.kind,
  );
}

function renderDone(res: ServerResponse, flow: ScaFlow): void {
  page(
    res,
    200,
    'done',
    'Finished',
    `<p id="done-message">This authorisation is finished.</p>${flow.finalRedirect ? `<p><a id="continue-link" href="${esc(flow.finalRedirect)}">Back to the third party</a></p>` : ''}`,
    flow.kind,
  );
}

function renderStep(res: ServerResponse, flow: ScaFlow): void {
  switch (flow.step) {
    case 'login':
      renderLogin(res, flow);
      return;
    case 'context':
      renderContext(res, flow);
      return;
    case 'consent':
      renderConsent(res, flow);
      return;
    case 'payment':
      renderPayment(res, flow);
      return;
    case 'basket':
      renderBasket(res, flow);
      return;
    case 'done':
      renderDone(res, flow);
      return;
  }
}

// ---------------------------------------------------------------- form handling

function onLogin(flow: ScaFlow, form: URLSearchParams): string | undefined {
  if (form.get('action') === 'cancel') return cancelled(flow);
  const w = flow.world;
  const n = (form.get('nationalId') ?? '').replace(/[\s.]/g, '');
  const customer = /^\d{9}$|^\d{11}$/.test(n) ? w.customers.get(n) : undefined;
  let problem: string | undefined;
  if (!customer) problem = 'Unknown national identification number.';
  else if (flow.expectedCustomer !== undefined && flow.expectedCustomer !== customer.customerNumber) {
    problem = 'This authorisation belongs to another customer.';
  }
  if (problem !== undefined || !customer) {
    flow.loginFailures++;
    if (flow.loginFailures >= MAX_LOGIN_FAILURES) return fail(flow, 401, 'PSU_CREDENTIALS_INVALID', 'The PSU could not be authenticated');
    flow.pageError = problem;
    return undefined;
  }
  flow.customer = customer.customerNumber;
  return advance(flow);
}

function onContext(flow: ScaFlow, form: URLSearchParams): string | undefined {
  if (form.get('action') === 'cancel') return cancelled(flow);
  const choice = form.get('context') ?? '';
  const options = contextOptions(flow.world, flow.customer ?? '', flow.kind);
  const hit = options.find((o) => (o.agreementId ?? 'PRIVATE') === choice);
  if (!hit) {
    flow.pageError = 'Choose one of the listed options.';
    return undefined;
  }
  flow.contextKey = hit.key;
  return advance(flow);
}

function onConsent(flow: ScaFlow, form: URLSearchParams): string | undefined {
  if (form.get('action') === 'cancel') return cancelled(flow);
  if (form.get('action') !== 'confirm') {
    flow.pageError = 'Confirm or cancel.';
    return undefined;
  }
  const w = flow.world;
  const customer = flow.customer ?? '';
  const contextKey = flow.contextKey ?? CONTEXT_PRIVATE;
  const { accounts, cards } = w.contextResources(customer, contextKey, 'VIEW');
  const offered = new Set([...accounts.map((a) => a.resourceId), ...cards.map((c) => c.resourceId)]);
  const selected = new Set(form.getAll('account').filter((id) => offered.has(id)));
  const key = w.grantKey(customer, contextKey);
  const now = w.now();
  const previous = w.grants.get(key);
  if (selected.size === 0) {
    w.grants.delete(key);
  } else {
    // grants outside the offered set (e.g. accounts closed since) are dropped too
    w.grants.set(key, {
      customerNumber: customer,
      contextKey,
      accountIds: selected,
      grantedAt: previous?.grantedAt ?? now,
      lastScaAt: now,
    });
  }
  if (flow.consentId) {
    const c = w.consents.get(flow.consentId);
    if (c) {
      c.status = selected.size ? 'valid' : 'rejected';
      c.customerNumber = customer;
      c.contextKey = contextKey;
      c.lastActionDate = w.today();
    }
  }
  return succeed(flow);
}

function onPayment(flow: ScaFlow, form: URLSearchParams): string | undefined {
  const p = targetPayment(flow);
  const action = form.get('action');
  if (action === 'cancel' || !p) return cancelled(flow);
  if (action === 'reject') {
    rejectPayment(p, 'The payment was rejected by the PSU');
    return fail(flow, 400, 'PAYMENT_FAILED', 'The PSU rejected the payment');
  }
  if (action !== 'approve') {
    flow.pageError = 'Approve, reject or cancel.';
    return undefined;
  }
  const problem = approvePayment(flow.world, p);
  if (problem !== undefined) {
    rejectPayment(p, problem);
    return fail(flow, 403, 'FORBIDDEN', problem);
  }
  return succeed(flow);
}

function onBasket(flow: ScaFlow, form: URLSearchParams): string | undefined {
  const w = flow.world;
  const b = flow.basketId ? w.baskets.get(flow.basketId) : undefined;
  const action = form.get('action');
  if (action === 'cancel' || !b) return cancelled(flow);
  const payments = b.paymentIds
    .map((id) => w.payments.get(id))
    .filter((p): p is Payment => p !== undefined && p.status === 'RCVD' && !p.approved);
  if (action === 'reject') {
    for (const p of payments) rejectPayment(p, 'The payment was rejected by the PSU');
    b.finalised = true;
    return fail(flow, 400, 'PAYMENT_FAILED', 'The PSU rejected the payments of the signing basket');
  }
  if (action !== 'approve') {
    flow.pageError = 'Approve, reject or cancel.';
    return undefined;
  }
  // not atomic: each payment is approved (or rejected) on its own
  for (const p of payments) {
    const problem = approvePayment(w, p);
    if (problem !== undefined) rejectPayment(p, problem);
  }
  b.finalised = true;
  return succeed(flow);
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const b = chunk as Buffer;
    size += b.length;
    if (size > MAX_FORM_BYTES) return undefined;
    chunks.push(b);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** Serves /sca/{flowId} (GET) and /sca/{flowId}/{step} (POST). */
export async function handleScaPage(bank: Bank, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  const m = /^\/sca\/([A-Za-z0-9_-]{10,64})(?:\/(login|context|consent|payment|basket))?\/?$/.exec(path);
  const flow = m?.[1] ? bank.flows.get(m[1]) : undefined;
  if (!m || !flow) {
    req.resume();
    page(res, 404, 'error', 'Unknown authorisation', '<p id="error-message">This authorisation link is unknown or has been removed.</p>');
    return;
  }
  catchUp(flow.world);
  const self = `/sca/${flow.id}`;
  const stepPath = m[2];
  if (req.method === 'GET' && stepPath === undefined) {
    if (flow.step !== 'done') {
      const stop = stillValid(flow);
      if (stop) return seeOther(res, stop);
      if (flow.step === 'login' && (flow.kind === 'consent' || flow.kind === 'user')) {
        // within a valid SCA session of this TPP-Session-ID no new login is asked for
        const session = validSession(flow.world, flow.tppSessionId);
        if (session && (flow.expectedCustomer === undefined || flow.expectedCustomer === session.customerNumber)) {
          flow.customer = session.customerNumber;
          const out = advance(flow);
          if (out) return seeOther(res, out);
        }
      }
    }
    renderStep(res, flow);
    return;
  }
  if (req.method === 'POST' && stepPath !== undefined) {
    const form = await readForm(req);
    if (!form) {
      page(res, 413, 'error', 'Too large', '<p id="error-message">The form is too large.</p>');
      return;
    }
    if (flow.step === 'done') return seeOther(res, self);
    const stop = stillValid(flow);
    if (stop) return seeOther(res, stop);
    if (stepPath !== flow.step) return seeOther(res, self);
    let out: string | undefined;
    switch (flow.step) {
      case 'login':
        out = onLogin(flow, form);
        break;
      case 'context':
        out = onContext(flow, form);
        break;
      case 'consent':
        out = onConsent(flow, form);
        break;
      case 'payment':
        out = onPayment(flow, form);
        break;
      case 'basket':
        out = onBasket(flow, form);
        break;
    }
    return seeOther(res, out ?? self);
  }
  req.resume();
  res.writeHead(405, { Allow: stepPath === undefined ? 'GET' : 'POST', 'Content-Type': 'text/plain; charset=utf-8' });
  res.end('Method not allowed');
}
