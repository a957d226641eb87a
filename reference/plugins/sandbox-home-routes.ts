// The sandbox's home page (GET /): what a TPP developer needs to start against this sandbox, in one page a
// browser opens without a certificate: the test customers of the known state and their accounts, the payment
// products and services, the endpoints, the headers every request carries and how it is signed, and the
// commands that give a test certificate and a report. Nothing of any TPP's own data: the known state only.
import fp from 'fastify-plugin';
import { DEFAULT_PATHS } from '../../lib/spec/paths.js';
import { OPERATIONS } from '../../lib/spec/operations.js';
import { PAYMENT_PRODUCTS, PAYMENT_SERVICES } from '../../lib/spec/payment-products.js';
import { SandboxData, type AnyAccount } from '../state/sandbox-data.js';

/** The headers every request carries (Endpoints > the header table; Authentication 3 to 9). */
const HEADERS: readonly [string, string][] = [
  ['X-Request-ID', 'a new UUID for every call'],
  ['Date', 'RFC 7231 form, within 60 seconds of the bank clock'],
  ['Digest', 'SHA-256= or SHA-512= base64 of the body bytes'],
  ['TPP-Signature-Certificate', 'your certificate, DER in base64 on one line'],
  ['Signature', 'keyId="SN=<serial in upper-case hex>,CA=<issuer, RFC 2253>",algorithm="rsa-sha256",headers="…",signature="…"'],
  ['TPP-Redirect-URI', 'where the PSU goes after SCA; on every request, since the need for SCA cannot be foreseen'],
  ['TPP-Session-ID', 'yours to choose; it ties the redirect to the request and governs the SCA session'],
  ['PSU-ID', 'the psu-id the redirect after SCA gave you (or X-PSU-IDENTITY: the national identity number)'],
  ['PSU-IP-Address', 'when the PSU takes part; left out, reads count against 4 a day per account'],
  ['x-accept-fix', 'on payment initiation (comma-separated published fixes, may be empty)'],
];

const escape = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

function accountLine(account: AnyAccount): string {
  const id = account.kind === 'account' ? account.iban : account.maskedPan;
  return `${escape(account.name)} <code>${escape(id)}</code> ${escape(account.currency)}`;
}

export function sandboxHomePage(baseUrl: string, judging: boolean): string {
  const known = new SandboxData();
  const customers = [...known.customers.values()]
    .map((customer) => {
      const contexts =
        customer.type === 'private'
          ? [{ kind: 'PRIVATE' as const }]
          : known.agreementsOf(customer.customerNumber).map((a) => ({ kind: 'CORPORATE' as const, agreementId: a.id }));
      const accounts = contexts.flatMap((context) => known.accountsIn(customer.customerNumber, context)).map(accountLine);
      return `<tr><td><code>${escape(customer.customerNumber)}</code></td><td>${escape(customer.name)}</td><td>${customer.type}</td><td>${accounts.join('<br>')}</td></tr>`;
    })
    .join('');
  const endpoints = OPERATIONS.map((op) => `<tr><td>${op.method}</td><td><code>${escape(DEFAULT_PATHS[op.path])}</code></td></tr>`).join(
    '',
  );
  const headers = HEADERS.map(([name, what]) => `<tr><td><code>${name}</code></td><td>${escape(what)}</td></tr>`).join('');
  const report = judging
    ? `<p>This sandbox judges your requests against the TPP rules: an answer to a request that broke one names it in <code>X-TPP-Rules-Broken</code>, with a <code>Link</code> to the rule's text; <code>GET ${escape(baseUrl)}/v1/sandbox/tpp-report</code> (signed, <code>?format=html</code> for the page) gives your report.</p>`
    : '<p>Start it with <code>xs2a-conformance serve --judge</code> to have your requests judged against the TPP rules.</p>';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Reference bank sandbox</title>
<style>body{font:15px/1.45 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}table{border-collapse:collapse}td,th{border-bottom:1px solid #ddd;padding:.25rem .6rem;text-align:left;vertical-align:top}code{font-size:.9em}</style></head><body>
<h1>Reference bank sandbox</h1>
<p>The interface is at <code>${escape(baseUrl)}/v1</code>, over TLS 1.2 or later; trust this sandbox's CA explicitly (<code>serve --ca-out</code> wrote it). Every request is signed with your test certificate; the sandbox operations (<code>/v1/sandbox/…</code>) need no TPP-Session-ID.</p>
<h2>Get a certificate</h2>
<pre>npx xs2a-conformance cert --roles PSP_AI,PSP_PI --organization-id PSDNO-FSA-123456 --out-dir tpp</pre>
<h2>Test customers</h2>
<p>The PSU types the customer number at the SCA login (a mocked national identity number). Corporate customers act under an agreement (its id is the psu-corporate-id).</p>
<table><tr><th>customer number</th><th>name</th><th>type</th><th>accounts</th></tr>${customers}</table>
<h2>Payments</h2>
<p><code>POST /v1/{service}/{product}</code>: services ${PAYMENT_SERVICES.map((s) => `<code>${s}</code>`).join(', ')}; products ${PAYMENT_PRODUCTS.map((p) => `<code>${p}</code>`).join(', ')}.</p>
<h2>Endpoints</h2>
<table>${endpoints}</table>
<h2>Headers of every request</h2>
<table>${headers}</table>
<h2>Your report</h2>
${report}
</body></html>`;
}

/** GET /: the home page (register at the root, beside the SCA pages). */
export const sandboxHomePlugin = fp<{ judging: boolean }>(
  (app, { judging }, done) => {
    app.get('/', (_request, reply) => reply.type('text/html; charset=utf-8').send(sandboxHomePage(app.tenants.baseUrl, judging)));
    done();
  },
  { name: 'sandbox-home', decorators: { fastify: ['tenants'] } },
);
