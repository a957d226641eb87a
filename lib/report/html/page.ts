/**
 * The human report: one HTML file that stands alone (inline CSS and script, evidence images inlined, no
 * external assets), so it opens offline, from a CI artefact or an e-mail attachment. What needs a person
 * comes first and is plain HTML; the catalogue of every requirement and scenario follows as data, stored
 * gzip-compressed and rendered by the page's script (it is nine tenths of the content and compresses tenfold).
 */
import { REQUIREMENT_STATUSES, TEST_STATUSES, type RunResults } from '../results-types.js';
import { toneOf } from './area-bars.js';
import { packedCatalogue } from './catalogue.js';
import type { EvidenceFiles } from './scenario-evidence.js';
import { renderOverview } from './overview.js';
import { h, indexOf, type ReportIndex } from './parts.js';
import { pageScript } from './page-script.js';
import { STYLE } from './style.js';

/** Every status a row can show, in the order counts list them. */
const STATUS_ORDER = [...new Set([...REQUIREMENT_STATUSES, ...TEST_STATUSES])];

export function renderHtml(results: RunResults, files: EvidenceFiles = {}): string {
  const index = indexOf(results);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>xs2a-conformance: ${h(results.target.name)} ${h(results.verdict)}</title><style>${STYLE}</style></head>
<body>${header(results)}<main>
${renderOverview(index, files)}
${toolbar(index)}
<div id="catalogue"><noscript><p>The catalogue of every requirement and scenario is stored compressed in this page and needs JavaScript to unpack; results.json holds it too.</p></noscript></div>
<script type="application/json" id="statuses">${JSON.stringify(STATUS_ORDER)}</script>
<script type="application/x-gzip-base85" id="catalogue-data">${packedCatalogue(index)}</script>
${provenance(results)}
${gauntlet(results)}
</main><script>${pageScript()}</script></body></html>
`;
}

function header(results: RunResults): string {
  const p = results.provenance;
  const commit = p.tool.commit ? ` (${p.tool.commit.slice(0, 10)}${p.tool.dirty ? ', modified' : ''})` : '';
  const tpp = p.tpp ? ` · TPP ${h(p.tpp.subject)}${p.tpp.generated ? ' (generated test certificate)' : ''}` : '';
  return `<header><h1>xs2a-conformance report: ${h(results.target.name)} <span class="b verdict tone-${toneOf(results)}">${h(results.verdict)}</span></h1>
<div class="meta">${h(results.target.baseUrl)} · ${h(results.target.environment)}${results.target.embedded ? ' (embedded reference bank)' : ''} · run ${h(results.runId)} · ${h(results.startedAt)} · ${(results.durationMs / 1000).toFixed(1)} s · ${h(results.tool.name)} ${h(results.tool.version)}${h(commit)}${tpp}${results.filtered ? ' · <strong>filtered run</strong>' : ''}</div></header>`;
}

function toolbar(index: ReportIndex): string {
  const options = (values: readonly string[]) => values.map((v) => `<option>${h(v)}</option>`).join('');
  const statuses = STATUS_ORDER;
  const areas = [...new Set(index.results.requirements.map((r) => r.area))];
  return `<div id="tools"><input type="search" id="q" placeholder="Search requirements and scenarios: id, statement, title" aria-label="search">
<select id="fs" aria-label="status"><option value="">any status</option>${options(statuses)}</select>
<select id="fl" aria-label="level"><option value="">any level</option>${options(['MUST', 'SHOULD', 'MAY', 'INFO'])}</select>
<select id="fa" aria-label="area"><option value="">any area</option>${options(areas)}</select>
<button id="clear" type="button">clear</button><span class="m" id="shown"></span></div>`;
}

function provenance(results: RunResults): string {
  const p = results.provenance;
  const row = (label: string, value: string) => `<tr><th>${label}</th><td>${value}</td></tr>`;
  const tpp = p.tpp
    ? `${h(p.tpp.subject)}<div class="m">issuer ${h(p.tpp.issuer)} · serial ${h(p.tpp.serialNumber)} · valid ${h(p.tpp.notBefore)} to ${h(p.tpp.notAfter)} · SHA-256 ${h(p.tpp.sha256)}${p.tpp.generated ? ' · generated for this run by its test CA (the issuer)' : ''}</div>`
    : 'none';
  return `<h2 id="provenance">Provenance</h2><table>
${row('Tool', `${h(p.tool.name)} ${h(p.tool.version)}${p.tool.commit ? ` · commit <code>${h(p.tool.commit)}</code>${p.tool.dirty ? ' (with local changes)' : ''}` : ''}`)}
${row('Specification', `${h(p.specification.title)}, documentation ${h(p.specification.documentation)} (API release ${h(p.specification.apiRelease)}), on ${h(p.specification.framework)}`)}
${row('Catalogue', `${h(p.catalogue.requirements)} requirements, version <code>${h(p.catalogue.version)}</code>`)}
${row('Runtime', `Node ${h(p.runtime.node)} · Playwright ${h(p.runtime.playwright)} · ${h(p.runtime.chromium)} · ${h(p.runtime.platform)}`)}
${row('Target', `${h(results.target.name)} · capabilities: ${h(p.capabilities.join(', ') || 'none')}<details><summary class="m">as declared in targets.yaml (keys removed${p.masked ? ', identities masked' : ''})</summary><pre id="declared-target"></pre></details>`)}
${row('TPP certificate', tpp)}
${row('Probes', `${h(p.probes.runs)} robustness probes, seed ${h(p.probes.seed)}`)}
${row('Masking', p.masked ? 'PSU identifiers masked' : '<strong>unmasked (--unmasked)</strong>')}
${row('Arguments', p.arguments.length ? `<code>${h(p.arguments.join(' '))}</code>` : 'none')}
${row('Suite files', `<details><summary class="m">${p.suiteFiles.length} files, SHA-256</summary><pre id="suite-files"></pre></details>`)}
</table>`;
}

/** Under the gauntlet: per case, its switches, what a fault breaks, and what the scenarios run under it found. */
function gauntlet(results: RunResults): string {
  if (!results.gauntlet) return '';
  const rows = results.gauntlet.map((g) => {
    const failing = g.requirements.filter((r) => r.status === 'FAIL' || r.status === 'WARNING').map((r) => `${r.id} ${r.status}`);
    return `<tr><td><code>${h(g.case)}</code></td><td>${h(g.switches.join(', '))}</td><td>${h(g.breaks.join(', '))}</td><td>${h(failing.join(', ') || 'nothing failed')}</td><td>${h(g.scenarios.map((s) => s.scenario).join(', '))}</td></tr>`;
  });
  return `<h2>Gauntlet</h2><table><tr><th>Case</th><th>Switches</th><th>Breaks</th><th>Found failing</th><th>Scenarios run</th></tr>${rows.join('\n')}</table>`;
}
