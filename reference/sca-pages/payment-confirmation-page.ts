// The payment confirmation page of the SCA flow (dynamic linking, Authentication 10): the PSU sees the
// amount and the creditor of each payment being authorised (services/payment-approval.ts says which), then
// approves or rejects. The page shows them in #payment-summary, the selector the reference target declares
// in targets.yaml for the suite to read.
import type { PaymentLine, PaymentsShown } from '../services/payment-approval.js';
import type { Authorisation } from '../state/sca-state.js';
import { escapeHtml, layout } from './reference-pages.js';

function describe(line: PaymentLine): string {
  const shown = line.amount === undefined ? '' : `<span class="amount">${escapeHtml(line.amount)}</span> to `;
  return `<li>${shown}<span class="creditor">${escapeHtml(line.creditorName)}</span> (${escapeHtml(line.creditorIban)})</li>`;
}

export function paymentConfirmationPage(a: Authorisation, shown: PaymentsShown): string {
  return layout(
    'Confirm payment',
    `<p>${escapeHtml(a.tppName)} asks you to approve ${shown.count === 1 ? 'this payment' : `these ${shown.count} payments`}.</p>
<ul id="payment-summary">
${shown.lines.map(describe).join('\n')}
</ul>
<form method="post">
<button type="submit" id="approve" name="decision" value="approve">Approve</button>
<button type="submit" id="reject" name="decision" value="reject">Reject</button>
</form>`,
  );
}
