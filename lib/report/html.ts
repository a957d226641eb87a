/**
 * The human report: one self-contained HTML file (inline CSS and a few lines of script, no external assets),
 * so it opens offline, from a CI artifact or an e-mail attachment.
 */
import { escapeMarkup as h } from './escape.js';
import { TEST_STATUSES, type EvidenceExchange, type RecordedHttpMessage, type RequirementRecord, type RunResults, type TestRecord } from './types.js';

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1b1f24;background:#f6f7f9}
header{background:#1b1f24;color:#fff;padding:16px 24px}header h1{margin:0;font-size:20px}
main{padding:16px 24px;max-width:1300px}
.verdict{display:inline-block;padding:4px 10px;border-radius:4px;font-weight:700;margin-right:8px}
.CONFORMANT,.PASS{background:#d7f5dd;color:#0b5a1c}.NON_CONFORMANT,.FAIL{background:#fde0e0;color:#8a1010}
.INCOMPLETE,.WARNING,.INTERRUPTED,.ERROR,.FLAKY,.NOT_EVALUATED{background:#fff1c9;color:#6b4e00}
.NOT_TESTABLE,.SKIPPED,.NOT_COVERED,.MANUAL{background:#e8eaee;color:#3a414b}.KNOWN_DEVIATION{background:#e4ddff;color:#3b1f8f}
.gap{font-size:11px;border:1px solid #b9a36b;color:#6b4e00;border-radius:3px;padding:0 4px;margin-left:4px;white-space:nowrap}
.status{padding:1px 6px;border-radius:3px;font-size:12px;font-weight:600;white-space:nowrap}
table{border-collapse:collapse;width:100%;background:#fff;margin:8px 0 24px}
th,td{border-bottom:1px solid #e3e6ea;padding:5px 8px;text-align:left;vertical-align:top}th{background:#eef0f3}
code,pre{font:12px/1.4 ui-monospace,monospace}pre{white-space:pre-wrap;word-break:break-all;background:#f3f4f6;padding:8px;margin:4px 0}
details{background:#fff;border:1px solid #e3e6ea;border-radius:4px;margin:6px 0;padding:6px 10px}
summary{cursor:pointer}td:first-child code{white-space:nowrap}.muted{color:#69707a}.counts span{margin-right:14px}
`;

const SCRIPT = `
document.getElementById('filter').addEventListener('change',function(e){
  var v=e.target.value;document.querySelectorAll('[data-status]').forEach(function(el){
    el.style.display=(!v||el.getAttribute('data-status')===v)?'':'none';});});
`;

export function renderHtml(results: RunResults): string {
  const req = results.summary.requirements;
  const tests = results.summary.tests;
  const statuses = Object.keys(req).filter((k) => k !== 'total');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>xs2a-conformance: ${h(results.target.name)} ${h(results.verdict)}</title><style>${STYLE}</style></head>
<body><header><h1>xs2a-conformance report: ${h(results.target.name)}</h1>
<div>${h(results.target.baseUrl)} · ${h(results.target.environment)} · run ${h(results.runId)} · ${h(results.startedAt)} · ${(results.durationMs / 1000).toFixed(1)} s · ${h(results.tool.name)} ${h(results.tool.version)}</div></header>
<main>
<p><span class="verdict ${h(results.verdict)}">${h(results.verdict)}</span> exit code ${results.exitCode}${
    (results.target.faults.length ? ` · <strong>faults injected: ${h(results.target.faults.join(', '))}</strong>` : '') +
    (results.target.variants?.length ? ` · variants: ${h(results.target.variants.join(', '))}` : '')
  }</p>
${results.verdictReasons.length ? `<ul>${results.verdictReasons.map((r) => `<li>${h(r)}</li>`).join('')}</ul>` : ''}
<p class="counts"><strong>Scenarios</strong> ${TEST_STATUSES.map((s) => `<span>${s} ${tests[s]}</span>`).join('')}<span>total ${tests.total}</span></p>
<p class="counts"><strong>Requirements</strong> ${statuses
    .map((s) => `<span>${h(s)} ${req[s as keyof typeof req]}</span>`)
    .join('')}<span>total ${req.total}</span></p>
<label>Show requirements: <select id="filter"><option value="">all</option>${statuses
    .map((s) => `<option>${h(s)}</option>`)
    .join('')}</select></label>
${attention(results)}
${gauntlet(results)}
<h2>Requirements</h2>
<table><thead><tr><th>Id</th><th>Level</th><th>Status</th><th>Requirement</th><th>Tests</th></tr></thead><tbody>
${results.requirements.map((r) => requirementRow(r, results.tests)).join('\n')}
</tbody></table>
<h2>Scenarios</h2>
${results.tests.filter((t) => t.gauntletCase === undefined).map(testBlock).join('\n')}
</main><script>${SCRIPT}</script></body></html>
`;
}

/** What needs a person's eyes first: failures, warnings, what could not be judged, and stale deviations. */
function attention(results: RunResults): string {
  const rows = results.requirements.filter(
    (r) => r.status === 'FAIL' || r.status === 'WARNING' || r.status === 'INTERRUPTED' || r.status === 'NOT_EVALUATED' || r.deviationUnexpectedlyPasses,
  );
  if (rows.length === 0) return '';
  return `<h2>Needs attention</h2>
<table><thead><tr><th>Id</th><th>Level</th><th>Status</th><th>Requirement</th><th>Tests</th></tr></thead><tbody>
${rows.map((r) => requirementRow(r, results.tests)).join('\n')}
</tbody></table>`;
}

function badge(status: string): string {
  return `<span class="status ${h(status)}">${h(status)}</span>`;
}

/** Under the gauntlet: per case, its switches, what a fault breaks, and what the scenarios run under it found. */
function gauntlet(results: RunResults): string {
  if (!results.gauntlet) return '';
  const rows = results.gauntlet.map((g) => {
    const failing = g.requirements.filter((r) => r.status === 'FAIL' || r.status === 'WARNING').map((r) => `${r.id} ${r.status}`);
    return `<tr><td><code>${h(g.case)}</code></td><td>${h(g.switches.join(', '))}</td><td>${h(g.breaks.join(', '))}</td><td>${h(failing.join(', ') || 'nothing failed')}</td><td>${h(g.scenarios.map((s) => s.scenario).join(', '))}</td></tr>`;
  });
  return `<h2>Gauntlet</h2>
<table><thead><tr><th>Case</th><th>Switches</th><th>Breaks</th><th>Found failing</th><th>Scenarios run</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table>`;
}

const BASIS_LABEL: Readonly<Record<string, string>> = { 'berlin-group': 'fills a gap: Berlin Group', interpretation: 'fills a gap: interpretation' };

function requirementRow(r: RequirementRecord, tests: TestRecord[]): string {
  const links = r.tests
    .map((scenario) => tests.find((t) => t.scenario === scenario && t.gauntletCase === undefined))
    .filter((t): t is TestRecord => Boolean(t))
    .map((t) => `<a href="#t-${h(t.id)}">${h(t.scenario)}</a>`)
    .join('<br>');
  const notes = [
    r.reason ? `<div class="muted">${h(r.reason)}</div>` : '',
    r.source ? `<div class="muted">Source: ${h(r.source)}</div>` : '',
    r.interpretation ? `<div class="muted">Interpretation: ${h(r.interpretation)}</div>` : '',
    r.deviationUnexpectedlyPasses ? '<div><strong>Listed as a deviation but now passes: update the deviation list.</strong></div>' : '',
  ].join('');
  const gap = BASIS_LABEL[r.basis] ? `<span class="gap">${h(BASIS_LABEL[r.basis] ?? '')}</span>` : '';
  return `<tr data-status="${h(r.status)}"><td><code>${h(r.id)}</code></td><td>${h(r.level)}${gap}</td><td>${badge(r.status)}</td><td>${h(r.statement)}<div class="muted">${h(r.section)}</div>${notes}</td><td>${links}</td></tr>`;
}

function testBlock(t: TestRecord): string {
  const parts = [
    `<div class="muted">${h(t.file)}:${t.line} · ${t.durationMs} ms · checks ${t.requirements.map((id) => `<code>${h(id)}</code>`).join(' ')}${t.gauntletCase ? ` · under gauntlet case <code>${h(t.gauntletCase)}</code>` : ''}</div>`,
    t.reason ? `<p>${h(t.reason)}</p>` : '',
    ...t.checks.filter((c) => c.verdict !== 'PASS').map((c) => `<pre>${h(c.verdict)} ${h(c.message ?? c.requirement)}</pre>`),
    t.error && t.status !== 'FAIL' ? `<pre>${h(t.error)}</pre>` : '',
    ...t.warnings.map((w) => `<p class="muted">warning: ${h(w)}</p>`),
    ...t.evidence.redirects.map((r) => `<p>Redirect: <code>${h(r.url)}</code><br><span class="muted">pages: ${r.pages.map(h).join(' → ')}</span></p>`),
    ...t.evidence.exchanges.map(exchangeBlock),
    ...t.evidence.files.map((f) =>
      f.contentType.startsWith('image/')
        ? `<p>${h(f.name)}<br><img src="${h(f.path)}" alt="${h(f.name)}" style="max-width:600px;border:1px solid #ccc"></p>`
        : `<p><a href="${h(f.path)}">${h(f.name)}</a></p>`,
    ),
  ];
  return `<details id="t-${h(t.id)}"${t.status === 'FAIL' || t.status === 'ERROR' ? ' open' : ''}><summary>${badge(t.status)} ${h(t.title)}</summary>${parts.join('')}</details>`;
}

function exchangeBlock(e: EvidenceExchange): string {
  if (!e.request) return `<div><code>${h(e.summary)}</code></div>`;
  return `<details><summary><code>${h(e.summary)}</code></summary>${message('Request', e.request)}${
    e.response ? message('Response', e.response) : ''
  }${e.error ? `<pre>${h(e.error)}</pre>` : ''}</details>`;
}

function message(label: string, m: RecordedHttpMessage): string {
  const start = m.method ? `${m.method} ${m.url ?? ''}` : `HTTP ${m.status ?? ''}`;
  const headers = Object.entries(m.headers).map(([k, v]) => `${k}: ${v}`).join('\n');
  return `<div><strong>${label}</strong><pre>${h(start)}\n${h(headers)}${m.body ? `\n\n${h(m.body)}` : ''}</pre></div>`;
}
