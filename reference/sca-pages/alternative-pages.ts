// The alternative SCA page set (`embedded: { pages: alternative }`, the `reference-alt` target): the same
// authorisation as the reference pages, seen through another bank's eyes: another layout (a card with a
// progress list, a table of accounts, a definition list of payments), other labels and ids, and an extra
// step after login where the PSU types a one-time code. The sandbox shows the code on that page, as a
// bank's test environment would; the target's steps read it and type it back (targets.yaml).
import { escapeHtml } from './reference-pages.js';
import type { ScaPageSet } from './sca-page-set.js';
import type { AnyAccount, Agreement } from '../state/sandbox-data.js';

const STYLE = `
  body { font-family: Georgia, serif; background: #eef2f5; margin: 0; color: #111; }
  .brand { background: #0b3d5c; color: #fff; padding: 0.8rem 1.5rem; font-size: 1.1rem; }
  .card { background: #fff; max-width: 30rem; margin: 2rem auto; padding: 1.5rem 2rem; border-radius: 6px; }
  .progress { display: flex; gap: 1rem; list-style: none; padding: 0; font-size: 0.85rem; color: #555; }
  .progress [aria-current] { font-weight: bold; color: #0b3d5c; }
  table { border-collapse: collapse; width: 100%; }
  td, th { border-bottom: 1px solid #ccd; padding: 0.3rem; text-align: left; }
  .actions { display: flex; flex-direction: row-reverse; justify-content: space-between; margin-top: 1.2rem; }
  .notice-error { background: #fde8e8; padding: 0.5rem; }
  .sandbox-hint { background: #fff7d6; padding: 0.5rem; font-family: monospace; }
`;

const STEPS = ['Identify', 'Verify', 'Decide'] as const;

function page(title: string, step: (typeof STEPS)[number] | undefined, content: string): string {
  const progress = STEPS.map((s) => `<li${s === step ? ' aria-current="step"' : ''}>${s}</li>`).join('');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Nordlys Bank: ${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<div class="brand" role="banner">Nordlys Bank <small>test environment</small></div>
<section class="card" aria-labelledby="card-title">
<ol class="progress" aria-label="Progress">${progress}</ol>
<h2 id="card-title">${escapeHtml(title)}</h2>
${content}
</section>
</body>
</html>
`;
}

function notice(error: string | undefined): string {
  return error === undefined ? '' : `<div class="notice-error" role="alert">${escapeHtml(error)}</div>\n`;
}

/**
 * Abort is a second submit button of each form, so it works without scripts (capability sca-abort). The
 * primary button comes first in the form, so that Enter in a field submits it and not Abort; the layout
 * shows Abort on the left.
 */
function actions(primary: string): string {
  return `<div class="actions">
${primary}
<button type="submit" id="abort" name="action" value="cancel" formnovalidate>Abort and return</button>
</div>`;
}

function accountText(a: AnyAccount): string {
  return a.kind === 'account' ? a.iban : `card ${a.maskedPan}`;
}

function profileOption(id: string, kind: 'PRIVATE' | 'CORPORATE', value: string, label: string, selected: string): string {
  const checked = value === selected ? ' checked' : '';
  return `<div class="profile"><input type="radio" name="context" id="${id}" data-kind="${kind}" value="${escapeHtml(value)}"${checked}> <label for="${id}">${escapeHtml(label)}</label></div>`;
}

export const alternativePages: ScaPageSet = {
  login: (error) =>
    page(
      'Identify yourself',
      'Identify',
      `${notice(error)}<form method="post" autocomplete="off">
<label for="psu-identifier">Personal number</label>
<input type="text" id="psu-identifier" name="nationalId" inputmode="numeric" required>
${actions('<button type="submit" id="next-step" name="action" value="login">Next</button>')}
</form>`,
    ),

  oneTimeCode: (sandboxCode, error) =>
    page(
      'Enter your one-time code',
      'Verify',
      `${notice(error)}<p class="sandbox-hint">Sandbox: your one-time code is <output id="sandbox-otp">${escapeHtml(sandboxCode)}</output></p>
<form method="post" autocomplete="off">
<label for="otp-entry">One-time code</label>
<input type="text" id="otp-entry" name="code" inputmode="numeric" required>
${actions('<button type="submit" id="verify-code" name="action" value="verify">Verify</button>')}
</form>`,
    ),

  context: (agreements: Agreement[], selected, error) =>
    page(
      'Who are you acting for?',
      'Decide',
      `${notice(error)}<form method="post">
<div id="profiles" role="radiogroup" aria-label="Profiles">
${profileOption('profile-private', 'PRIVATE', 'PRIVATE', 'Personal banking', selected)}
${agreements.map((a) => profileOption(`profile-${a.id}`, 'CORPORATE', `CORPORATE:${a.id}`, `Business: ${a.name}`, selected)).join('\n')}
</div>
${actions('<button type="submit" id="proceed" name="action" value="continue">Proceed</button>')}
</form>`,
    ),

  consent: (tppName, accounts, consented) => {
    const rows = accounts
      .map(
        (a) =>
          `<tr><td><input type="checkbox" class="share-toggle" name="account" value="${a.resourceId}" id="share-${a.resourceId}"${consented.has(a.resourceId) ? ' checked' : ''}></td><td><label for="share-${a.resourceId}">${escapeHtml(a.name)}</label></td><td>${escapeHtml(accountText(a))}</td></tr>`,
      )
      .join('\n');
    return page(
      'Give access to your accounts',
      'Decide',
      `<p>${escapeHtml(tppName)} asks to see the accounts you tick. Accounts you leave unticked are not shared.</p>
<form method="post">
<table id="account-table">
<thead><tr><th scope="col">Share</th><th scope="col">Account</th><th scope="col">Number</th></tr></thead>
<tbody>
${rows || '<tr><td colspan="3" id="nothing-to-share">No accounts in this profile.</td></tr>'}
</tbody>
</table>
${actions('<button type="submit" id="share-accounts" name="action" value="confirm">Share selected accounts</button>')}
</form>`,
    );
  },

  confirm: (a, shown) => {
    const details = shown.lines
      .map(
        (line) =>
          `<dt>${escapeHtml(line.creditorName)} <span class="iban">${escapeHtml(line.creditorIban)}</span></dt><dd>${escapeHtml(line.amount ?? '')}</dd>`,
      )
      .join('\n');
    return page(
      'Sign the payment',
      'Decide',
      `<p>${escapeHtml(a.tppName)} wants to make a payment for you.</p>
<dl id="payment-details">
${details}
</dl>
<form method="post">
<div class="actions">
<button type="submit" id="sign-payment" name="decision" value="approve">Sign</button>
<button type="submit" id="decline-payment" name="decision" value="reject">Decline</button>
</div>
</form>`,
    );
  },

  message: (title, text) => page(title, undefined, `<p id="notice">${escapeHtml(text)}</p>`),
};
