// The SCA pages a PSU sees: plain server-rendered HTML, no scripts, no external
// assets, labelled controls and stable ids, so a person with a screen reader and
// a declarative browser script can both use them.
import type { AnyAccount, Agreement } from '../state/sandbox-data.js';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const STYLE = `
  body { font-family: system-ui, sans-serif; max-width: 36rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5; color: #1a1a1a; }
  fieldset { border: 1px solid #888; margin: 1rem 0; padding: 0.5rem 1rem; }
  label { display: block; margin: 0.25rem 0; }
  input[type=text] { font-size: 1rem; padding: 0.4rem; width: 100%; box-sizing: border-box; }
  button { font-size: 1rem; padding: 0.5rem 1.2rem; margin: 0.5rem 0.5rem 0 0; }
  .error { color: #a00000; border-left: 4px solid #a00000; padding-left: 0.5rem; }
  .hint { color: #444; font-size: 0.9rem; }
`;

export function layout(title: string, content: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} - Reference ASPSP</title>
<style>${STYLE}</style>
</head>
<body>
<header><p>Reference ASPSP (sandbox)</p></header>
<main>
<h1>${escapeHtml(title)}</h1>
${content}
</main>
</body>
</html>
`;
}

function errorMessage(error: string | undefined): string {
  return error === undefined ? '' : `<p id="error" class="error" role="alert">${escapeHtml(error)}</p>\n`;
}

/** Cancel is a second submit button of the same form, so it works without scripts. */
const CANCEL = '<button type="submit" id="cancel" name="action" value="cancel" formnovalidate>Cancel</button>';

export function loginPage(error?: string): string {
  return layout(
    'Log in',
    `${errorMessage(error)}<form method="post">
<label for="nationalId">National identity number (11 digits)</label>
<input type="text" id="nationalId" name="nationalId" inputmode="numeric" autocomplete="off" required aria-describedby="nationalId-hint">
<p id="nationalId-hint" class="hint">Sandbox: type the customer number of a sandbox customer.</p>
<button type="submit" id="login" name="action" value="login">Log in</button>
${CANCEL}
</form>`,
  );
}

export function contextPage(agreements: Agreement[], selected: string, error?: string): string {
  const option = (id: string, value: string, label: string) =>
    `<label for="${id}"><input type="radio" id="${id}" name="context" value="${escapeHtml(value)}"${value === selected ? ' checked' : ''}> ${escapeHtml(label)}</label>`;
  return layout(
    'Choose context',
    `${errorMessage(error)}<form method="post">
<fieldset>
<legend>Act on behalf of</legend>
${option('context-private', 'PRIVATE', 'Myself (private accounts)')}
${agreements.map((a) => option(`context-${a.id}`, `CORPORATE:${a.id}`, a.name)).join('\n')}
</fieldset>
<button type="submit" id="continue" name="action" value="continue">Continue</button>
${CANCEL}
</form>`,
  );
}

function accountLabel(a: AnyAccount): string {
  return a.kind === 'account' ? `${a.name} (${a.iban})` : `${a.name} (card ${a.maskedPan})`;
}

export function consentPage(tppName: string, accounts: AnyAccount[], consented: ReadonlySet<string>): string {
  const items = accounts
    .map(
      (a) =>
        `<label for="account-${a.resourceId}"><input type="checkbox" name="account" value="${a.resourceId}" id="account-${a.resourceId}"${consented.has(a.resourceId) ? ' checked' : ''}> ${escapeHtml(accountLabel(a))}</label>`,
    )
    .join('\n');
  return layout(
    'Share account information',
    `<form method="post">
<fieldset>
<legend>Accounts ${escapeHtml(tppName)} may read</legend>
${items || '<p id="no-accounts">You have no accounts in this context.</p>'}
</fieldset>
<p class="hint">Untick an account to withdraw access to it.</p>
<button type="submit" id="confirm" name="action" value="confirm">Confirm</button>
${CANCEL}
</form>`,
  );
}

export function messagePage(title: string, text: string): string {
  return layout(title, `<p id="message">${escapeHtml(text)}</p>`);
}
