// The payment confirmation page of the SCA flow (dynamic linking, Authentication 10):
// the PSU sees the amount and the creditor of each payment being authorised, then
// approves or rejects. The page shows them in #payment-summary, the selector the
// reference target declares in targets.yaml for the suite to read.
import { defineFault } from './faults.js';
import { escapeHtml, layout } from './pages.js';
import type { BankState } from './state/bank.js';
import type { Payment } from './state/payments.js';
import type { Authorisation } from './state/sca.js';
import type { PsuContext } from './state/customers.js';


const summaryWithoutAmount = defineFault('payment-confirmation-without-amount', { description: 'the payment confirmation page does not show the amount', breaks: ['PAY-49'] });
const basketScaFails = defineFault('basket-sca-fails', { description: 'the SCA of a signing basket always ends in failure', breaks: ['BSK-10', 'STA-03'] });
const basketAtomic = defineFault('basket-atomic', { description: 'a basket is atomic: a payment lacking funds makes every payment of its basket lack them', breaks: ['BSK-04'] });

function paymentsOf(bank: BankState, a: Authorisation): Payment[] {
  return (a.paymentIds ?? []).flatMap((id) => bank.payments.get(a.tppId, id) ?? []);
}

function describe(payment: Payment, showAmount: boolean): string {
  const entries = payment.body.payments ?? [payment.body];
  return entries
    .map((entry) => {
      const amount = entry.instructedAmount ? `${entry.instructedAmount.amount} ${entry.instructedAmount.currency}` : '';
      const shown = showAmount ? `<span class="amount">${escapeHtml(amount)}</span> to ` : '';
      return `<li>${shown}<span class="creditor">${escapeHtml(String(entry.creditorName ?? ''))}</span> (${escapeHtml(String(entry.creditorAccount?.iban ?? ''))})</li>`;
    })
    .join('\n');
}

export function paymentConfirmationPage(bank: BankState, a: Authorisation): string {
  const payments = paymentsOf(bank, a);
  return layout(
    'Confirm payment',
    `<p>${escapeHtml(a.tppName)} asks you to approve ${payments.length === 1 ? 'this payment' : `these ${payments.length} payments`}.</p>
<ul id="payment-summary">
${payments.map((p) => describe(p, !bank.faults.on(summaryWithoutAmount, a.tppId))).join('\n')}
</ul>
<form method="post">
<button type="submit" id="approve" name="decision" value="approve">Approve</button>
<button type="submit" id="reject" name="decision" value="reject">Reject</button>
</form>`,
  );
}

/**
 * The PSU's decision: approved payments move on (state/payments.ts), and the PSU goes back to the TPP
 * as after any SCA; a rejection, or a payment from an account that is not the PSU's, fails the SCA.
 */
export function decidePayments(bank: BankState, a: Authorisation, customerNumber: string, context: PsuContext, approved: boolean): string {
  const payments = paymentsOf(bank, a);
  const foreign = payments.some((p) => bank.payments.debtorAccountOf(p, customerNumber) === undefined);
  const basket = bank.baskets.forAuthorisation(a.tppId, a.id) !== undefined;
  if (!approved || foreign || (basket && bank.faults.on(basketScaFails, a.tppId))) {
    for (const payment of payments) bank.payments.reject(payment);
    return bank.sca.fail(a, 400, 'PAYMENT_FAILED', foreign ? 'The debtor account is not an account of the PSU' : 'The PSU rejected the payment');
  }
  for (const payment of payments) bank.payments.approve(payment, customerNumber);
  if (basket && bank.faults.on(basketAtomic, a.tppId) && payments.some((p) => p.fundsAvailable === false)) {
    for (const payment of payments) bank.payments.withoutFunds(payment);
  }
  return bank.sca.complete(a, customerNumber, context, context.kind === 'CORPORATE' ? context.agreementId : undefined);
}
