/**
 * A scenario that did not pass, with everything needed to see why and to reproduce it: the failed checks
 * (Expected and Actual), every check with what it saw, each exchange in full with a curl command, the SCA
 * redirects, and the evidence files: screenshots inlined (so index.html stands alone), the page's HTML as
 * text, traces linked with the command that opens them.
 */
import type { CheckRecord, EvidenceExchange, RecordedHttpMessage, TestRecord } from '../results-types.js';
import { anchor, badge, h, shownStatus, titleOf, type ReportIndex } from './parts.js';

export interface EvidenceFiles {
  /** Reads an evidence file of the report folder (for inlining); undefined when it is not there. */
  readEvidence?: (path: string) => Buffer | undefined;
}

/** Text evidence up to this size is shown in the page; larger files are linked. */
const INLINE_TEXT_LIMIT = 200_000;

export function scenarioBlock(t: TestRecord, index: ReportIndex, files: EvidenceFiles): string {
  const status = shownStatus(t, index);
  const failed = t.checks.filter((c) => c.verdict === 'FAIL');
  const exchanges = t.evidence.exchanges;
  // Bodies kept whole in files are linked from their exchange, not listed again.
  const bodyFiles = new Set(exchanges.flatMap((e) => [e.request?.bodyFile, e.response?.bodyFile]).filter((path) => path !== undefined));
  const parts = [
    `<h3>${badge(status)} <span class="mono">${h(t.scenario)}</span> ${h(titleOf(t))}</h3>`,
    `<div class="m">${h(t.file)}:${h(t.line)} · ${h(t.durationMs)} ms · checks ${t.requirements.map(anchor).join(' ')} · <a href="#scenarios-${h(t.scenario.slice(0, 3))}">in the list</a></div>`,
    t.reason ? `<p>${h(t.reason)}</p>` : '',
    ...failed.map((c) => {
      const requirement = index.requirement.get(c.requirement);
      // A failure the target lists as a known deviation is labelled above its own message, in the deviation's colour.
      if (requirement?.status === 'KNOWN_DEVIATION') {
        return `<div class="m"><span class="b KNOWN_DEVIATION">known deviation</span> ${anchor(c.requirement)}: not counted against the verdict</div><pre class="dmsg">${h(c.message ?? c.requirement)}</pre>`;
      }
      return `<pre class="${requirement?.level === 'MUST' ? 'msg' : 'wmsg'}">${h(c.message ?? c.requirement)}</pre>`;
    }),
    t.error && t.status !== 'FAIL' ? `<pre class="msg">${h(t.error)}</pre>` : '',
    ...t.warnings.filter((w) => !failed.some((c) => c.message === w)).map((w) => `<pre class="wmsg">warning: ${h(w)}</pre>`),
    checkList(t.checks),
    ...t.evidence.redirects.map(
      (r) => `<p>Redirect to the TPP: <code>${h(r.url)}</code><br><span class="m">pages: ${r.pages.map(h).join(' → ')}</span></p>`,
    ),
    exchanges.length
      ? `<div class="m">${exchanges.length} exchange${exchanges.length === 1 ? '' : 's'}:</div>${exchanges.map((e) => exchangeBlock(e, failed.length > 0 && exchanges.length <= 3)).join('')}`
      : '',
    probeLine(t),
    ...t.evidence.files.filter((f) => !bodyFiles.has(f.path)).map((f) => fileBlock(f, files)),
    exchanges.some((e) => e.request)
      ? `<p class="m">Send these requests again, freshly signed, against the same target: <code>npx xs2a-conformance replay &lt;this report folder&gt; ${h(t.scenario)}</code></p>`
      : '',
  ];
  return `<div class="scn s-${h(status)}" id="${h(t.scenario)}">${parts.join('')}</div>`;
}

function exchangeBlock(e: EvidenceExchange, open: boolean): string {
  if (!e.request) return `<div class="mono">${h(e.summary)}</div>`;
  // A curl command with a long body is cut like the body (results.json keeps it whole).
  const curl = e.curl
    ? e.curl.length > MAX_BODY_SHOWN * 2
      ? `<div><strong>As curl</strong> <span class="m">(${h(e.curl.length.toLocaleString('en'))} characters: whole in results.json)</span><pre>${h(e.curl.slice(0, MAX_BODY_SHOWN))}…</pre></div>`
      : `<div><strong>As curl</strong> <span class="m">(Date, TPP-Signature-Certificate and Signature must be made anew: <code>replay</code> does it)</span> <button class="noprint" data-copy="curl-${h(e.id)}">copy</button><pre id="curl-${h(e.id)}">${h(e.curl)}</pre></div>`
    : '';
  return `<details class="ex"${open ? ' open' : ''}><summary>${h(e.summary)}${e.malformed ? ` <span class="m">(malformed on purpose: ${h(e.malformed)})</span>` : ''}</summary>${message('Request', e.request)}${
    e.response ? message('Response', e.response) : ''
  }${e.error ? `<pre class="msg">${h(e.error)}</pre>` : ''}${curl}</details>`;
}

/** Past this length a header value is cut in the page (a certificate in base64): results.json keeps it whole. */
const MAX_HEADER_SHOWN = 120;

/** Past this many characters a body is cut in the page: a reader sees its start, the rest is a link away. */
const MAX_BODY_SHOWN = 2_000;

function message(label: string, m: RecordedHttpMessage): string {
  const start = m.method ? `${m.method} ${m.url ?? ''}` : `HTTP ${m.status ?? ''}`;
  const shown = (value: string) =>
    value.length > MAX_HEADER_SHOWN ? `${value.slice(0, MAX_HEADER_SHOWN)}… (${value.length} characters, whole in results.json)` : value;
  const headers = Object.entries(m.headers)
    .map(([k, v]) => `${k}: ${shown(v)}`)
    .join('\n');
  const body = m.body ?? '';
  const whole = m.bodyFile ? `whole in <a href="${h(fileHref(m.bodyFile))}">${h(m.bodyFile)}</a>` : 'whole in results.json';
  const size = m.bodyBytes ?? Buffer.byteLength(body);
  const cut = body.length > MAX_BODY_SHOWN || m.bodyFile !== undefined;
  const text = cut ? `${h(body.slice(0, MAX_BODY_SHOWN))}…` : h(body);
  return `<div><strong>${label}</strong><pre>${h(start)}\n${h(headers)}${body ? `\n\n${text}` : ''}</pre>${cut ? `<div class="m">body cut in the page: ${h(size.toLocaleString('en'))} bytes, ${whole}</div>` : ''}</div>`;
}

/** A scenario's probes when only some are kept: how many were sent and what they got. */
function probeLine(t: TestRecord): string {
  const probes = t.evidence.probes;
  if (!probes) return '';
  const answers = Object.entries(probes.byStatus)
    .map(([status, n]) => `${status} ×${n}`)
    .join(', ');
  return `<p class="m">${h(probes.sent)} robustness probes sent, ${h(probes.kept)} kept here (the 5xx answers first, then one of each other answer); answers: ${h(answers)}</p>`;
}

function fileBlock(f: TestRecord['evidence']['files'][number], files: EvidenceFiles): string {
  const content = files.readEvidence?.(f.path);
  if (f.contentType.startsWith('image/') && content) {
    return `<p>${h(f.name)}<br><img class="shot" alt="${h(f.name)}" src="data:${h(f.contentType)};base64,${content.toString('base64')}"></p>`;
  }
  if (f.contentType === 'application/zip' && /trace/.test(f.name)) {
    return `<p>Playwright trace: <a href="${h(fileHref(f.path))}">${h(f.path)}</a><br><span class="m">open it from the report folder with</span> <code>npx playwright show-trace ${h(f.path)}</code></p>`;
  }
  if (f.contentType.startsWith('text/') && content && content.length <= INLINE_TEXT_LIMIT) {
    return `<details><summary>${h(f.name)} <span class="m">(${h(f.path)})</span></summary><pre>${h(content.toString('utf8'))}</pre></details>`;
  }
  return `<p><a href="${h(fileHref(f.path))}">${h(f.name)}</a> <span class="m">(${h(f.contentType)}, a file beside index.html)</span></p>`;
}

/**
 * A link to a file of the report folder: always relative (`./`, each segment percent-encoded), so a path
 * such as `javascript:…` is a file name, never a scheme, and `#` or `?` in a name stay part of it.
 */
function fileHref(path: string): string {
  return `./${path.split('/').map(encodeURIComponent).join('/')}`;
}

/** Every check of the scenario with what it saw: its own checks first, then the rules checked on its exchanges. */
function checkList(checks: readonly CheckRecord[]): string {
  if (checks.length === 0) return '';
  const ordered = [...checks.filter((c) => c.source === 'scenario'), ...checks.filter((c) => c.source === 'invariant')];
  const rows = ordered.map(
    (c) =>
      `<tr><td class="id">${anchor(c.requirement)}</td><td class="st">${badge(c.verdict)}</td><td class="m">${c.source === 'invariant' ? 'every exchange' : 'scenario'}</td><td class="mono">${h(c.actual ?? '')}${c.count && c.count > 1 ? ` <span class="m">×${h(c.count)}</span>` : ''}</td></tr>`,
  );
  return `<details><summary class="m">${checks.length} checks with what they saw</summary><table>${rows.join('')}</table></details>`;
}
