// The payments of an SCA (dynamic linking, Authentication 10): what the PSU is shown of each (amount and
// creditor, drawn by the page sets: sca-pages/), whether the link still leads anywhere once a payment moved
// on, and the PSU's decision (approve or reject) with the redirect back to the TPP.
import { defineFault } from '../switches.js';
import type { BankContext } from '../http/bank-context.js';
import { failureRedirect, successRedirect } from './sca-answers.js';
import type { World } from '../state/world.js';
import type { Payment } from '../state/payment-store.js';
import type { Authorisation } from '../state/sca-state.js';
import type { PsuContext } from '../state/sandbox-data.js';

const summaryWithoutAmount = defineFault('payment-confirmation-without-amount', {
  description: 'the payment confirmation page does not show the amount',
  breaks: ['PAY-49'],
});
const basketScaFails = defineFault('basket-sca-fails', {
  description: 'the SCA of a signing basket always ends in failure',
  breaks: ['BSK-10', 'STA-03'],
});
const basketAtomic = defineFault('basket-atomic', {
  description: 'a basket is atomic: a payment lacking funds makes every payment of its basket lack them',
  breaks: ['BSK-04'],
});
const approvedOutsideContext = defineFault('payment-approved-outside-context', {
  description:
    "a payment is approved from any account of the PSU, whatever the context picked in its SCA: from the agreement's account in PRIVATE context",
  breaks: ['GEN-15'],
});

// [blind-spots] A payment's link closes once the payment moved on without it (SCA-25).
const linkOpenAfterCancel = defineFault('sca-link-open-after-cancel', {
  description: 'the scaRedirect of a payment cancelled by the TPP still leads to its confirmation page, and its SCA ends in success',
  breaks: ['SCA-25'],
});
const linkOpenAfterBasket = defineFault('sca-link-open-after-basket', {
  description:
    "a payment's own scaRedirect still leads to its confirmation page after its signing basket was authorised; a rejection there tells the TPP PAYMENT_FAILED while the payment goes ahead",
  breaks: ['SCA-25'],
});

/**
 * A payment of this authorisation that moved on without it (approved or rejected elsewhere, cancelled by
 * the TPP), if any: the link was issued for payments awaiting the PSU, and confirming one that no longer
 * does would tell the TPP of an SCA that authorised nothing.
 */
export function paymentMovedOn(ctx: BankContext, a: Authorisation): { id: string; status: string } | undefined {
  if (a.purpose !== 'payment') return undefined;
  const world = ctx.world;
  for (const id of a.paymentIds ?? []) {
    const payment = world.payments.get(a.tppId, id);
    if (payment === undefined) return { id, status: 'unknown' };
    if (payment.status === 'RCVD' || (payment.status === 'CANC' && ctx.switches.breaks(linkOpenAfterCancel))) continue;
    if (world.baskets.holding(a.tppId, id) !== undefined && ctx.switches.breaks(linkOpenAfterBasket)) continue;
    return { id, status: payment.status };
  }
  return undefined;
}

function paymentsOf(world: World, a: Authorisation): Payment[] {
  return (a.paymentIds ?? []).flatMap((id) => world.payments.get(a.tppId, id) ?? []);
}

/** What the PSU is shown of one payment being authorised, for any page set (sca-pages/sca-page-set.ts). */
export interface PaymentLine {
  /** "7.35 NOK"; absent when the bank does not show it (a fault). */
  amount?: string;
  creditorName: string;
  creditorIban: string;
}

/** What the PSU is shown of the payments being authorised: how many, and a line per entry (a bulk payment has several). */
export interface PaymentsShown {
  count: number;
  lines: PaymentLine[];
}

/** The payments of an authorisation as the PSU confirms them (dynamic linking): amount and creditor of each. */
export function paymentsShown(ctx: BankContext, a: Authorisation): PaymentsShown {
  const payments = paymentsOf(ctx.world, a);
  const showAmount = !ctx.switches.breaks(summaryWithoutAmount);
  const lines = payments.flatMap((payment) =>
    (payment.body.payments ?? [payment.body]).map((entry) => ({
      ...(showAmount && entry.instructedAmount ? { amount: `${entry.instructedAmount.amount} ${entry.instructedAmount.currency}` } : {}),
      creditorName: String(entry.creditorName ?? ''),
      creditorIban: String(entry.creditorAccount?.iban ?? ''),
    })),
  );
  return { count: payments.length, lines };
}

/**
 * The PSU's decision: approved payments move on (state/payment-store.ts), and the PSU goes back to the TPP
 * as after any SCA; a rejection, or a payment from an account that is not the PSU's in the context picked
 * (What the service does > PSU contexts), fails the SCA.
 */
export function decidePayments(ctx: BankContext, a: Authorisation, customerNumber: string, context: PsuContext, approved: boolean): string {
  const world = ctx.world;
  const payments = paymentsOf(world, a);
  const inContext = ctx.switches.breaks(approvedOutsideContext) ? undefined : context;
  const foreign = payments.some((p) => world.payments.debtorAccountOf(p, customerNumber, inContext) === undefined);
  const basket = world.baskets.forAuthorisation(a.tppId, a.id) !== undefined;
  if (!approved || foreign || (basket && ctx.switches.breaks(basketScaFails))) {
    for (const payment of payments) world.payments.reject(payment);
    return failureRedirect(
      ctx,
      a,
      400,
      'PAYMENT_FAILED',
      foreign ? `The debtor account is not an account of the PSU in ${context.kind} context` : 'The PSU rejected the payment',
    );
  }
  for (const payment of payments) world.payments.approve(payment, customerNumber);
  if (basket && payments.some((p) => p.fundsAvailable === false) && ctx.switches.breaks(basketAtomic)) {
    for (const payment of payments) world.payments.withoutFunds(payment);
  }
  return successRedirect(ctx, a, customerNumber, context, context.kind === 'CORPORATE' ? context.agreementId : undefined);
}
