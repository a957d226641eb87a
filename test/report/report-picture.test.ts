import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { curlCommand } from '../../lib/report/curl.js';
import { BODY_LIMIT, boundExchanges, PROBES_KEPT } from '../../lib/report/evidence-bounds.js';
import { areaBarsSvg, toneOf } from '../../lib/report/html/area-bars.js';
import { renderHtml } from '../../lib/report/html/page.js';
import { reportFileOf, serveReport } from '../../lib/report/report-server.js';
import type { EvidenceExchange } from '../../lib/report/results-types.js';
import { scratchDir } from '../support/scratch.js';
import { cleanRun, filteredRun, oneCauseRun } from './one-cause-run.js';

const top = (html: string) => html.slice(0, html.indexOf('<div id="tools">'));

describe('a report of one root cause', () => {
  const run = oneCauseRun(140);
  const html = renderHtml(run);

  test('shows one example in full and the rest as a list of what differs, each with its anchor', () => {
    const page = top(html);
    assert.match(page, /1 cause, 140 scenarios/);
    assert.equal((page.match(/<div class="scn /g) ?? []).length, 1, 'one scenario block in full');
    assert.match(page, /139 more scenarios with this cause, and how each differs/);
    assert.match(page, /<tr id="GEN-10\.a">[\s\S]*?GET \/v1\/accounts\/0 → \/id = \(absent\)/);
    assert.match(page, /<li class="mono">ERR-01 MUST: ErrorBody: \/id: is required \(ERR-01\)<\/li>/);
  });

  test('is small: probes counted, 2 MiB bodies kept in files and cut in the page', () => {
    assert.ok(html.length < 2_000_000, `${html.length} bytes`);
    const probes = run.tests.find((t) => t.scenario === 'ERR-44.d');
    assert.equal(probes?.evidence.probes?.sent, 120);
    assert.ok((probes?.evidence.exchanges.length ?? 0) <= PROBES_KEPT);
  });

  test('opens with the verdict and the picture, before the evidence', () => {
    const page = top(html);
    assert.ok(page.indexOf('class="b verdict tone-failed"') < page.indexOf('id="areas"'));
    assert.ok(page.indexOf('id="areas"') < page.indexOf('id="attention"'));
  });
});

describe('evidence bounded for results.json', () => {
  const exchange = (n: number, extra: Partial<EvidenceExchange> = {}): EvidenceExchange => ({
    id: `x${n}`,
    startedAt: '2026-11-21T00:00:00.000Z',
    durationMs: 1,
    summary: `probe ${n}`,
    ...extra,
  });

  test('a body over the limit is cut and kept whole in a file, which the curl command sends', () => {
    const big = 'é'.repeat(BODY_LIMIT + 5);
    const { exchanges, bodies } = boundExchanges(
      [exchange(1, { request: { method: 'POST', url: 'https://bank/v1/x', headers: {}, body: big } })],
      'files/ERR-44.c/',
    );
    const request = exchanges[0]?.request;
    assert.equal(request?.body?.length, BODY_LIMIT);
    assert.equal(request?.bodyBytes, Buffer.byteLength(big));
    assert.equal(request?.bodyFile, 'files/ERR-44.c/exchange-1-request-body.txt');
    assert.deepEqual(bodies, [{ name: 'exchange-1-request-body', path: 'files/ERR-44.c/exchange-1-request-body.txt', content: big }]);
    assert.match(curlCommand(request ?? { headers: {} }), /--data-binary '@files\/ERR-44\.c\/exchange-1-request-body\.txt'$/);
  });

  test('of many probes the 5xx answers (the shrunk case last) and one of each other answer are kept, all counted', () => {
    const probe = (n: number, status: number) => exchange(n, { malformed: `robustness probe: ${n}`, response: { status, headers: {} } });
    const all = [exchange(0), ...Array.from({ length: 30 }, (_, i) => probe(i + 1, i === 7 || i === 20 ? 500 : i % 3 === 0 ? 415 : 400))];
    const { exchanges, probes } = boundExchanges(all, 'files/ERR-44.d/');
    assert.deepEqual(probes, { sent: 30, kept: 4, byStatus: { '400': 18, '415': 10, '500': 2 } });
    assert.deepEqual(
      exchanges.map((e) => e.id),
      ['x0', 'x1', 'x2', 'x8', 'x21'],
      'the plain exchange, one 415, one 400, both 500s',
    );
  });
});

describe('the picture', () => {
  test('one bar per area, its verdicts counted, and the badge coloured by what the exit code means', () => {
    const svg = areaBarsSvg(oneCauseRun(3), { heading: true });
    assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    assert.doesNotMatch(svg, /href=|<script|url\(/, 'self-contained');
    assert.equal((svg.match(/font-family="ui-monospace,monospace"/g) ?? []).length, 8, 'eight areas');
    assert.match(svg, /9 PASS · 1 FAIL · 1 NOT TEST\. <tspan fill="#69707a">of 12/);
    assert.match(svg, /fill="#d92d20"\/><text[^>]*>NON_CONFORMANT · exit 1</);
    assert.equal(toneOf({ verdict: 'INCOMPLETE', exitCode: 3 }), 'stopped', 'exit 3 is not a warning');
    assert.equal(toneOf({ verdict: 'INCOMPLETE', exitCode: 0 }), 'passed-what-ran');
    assert.equal(toneOf({ verdict: 'CONFORMANT', exitCode: 0 }), 'conformant');
  });

  test('with a baseline, the bar before beside the bar now', () => {
    const run = {
      ...oneCauseRun(3),
      baseline: {
        runId: 'run-0',
        startedAt: '',
        verdict: 'CONFORMANT' as const,
        regressions: [{ id: 'ERR-01', from: 'PASS' as const, to: 'FAIL' as const }],
        fixes: [],
        changed: [],
        newScenarios: [],
        removedScenarios: [],
        newRequirements: [],
        removedRequirements: [],
        deviationsNowPassing: [],
      },
    };
    const svg = areaBarsSvg(run, { heading: false });
    assert.match(svg, /before \(run-0\)/);
    assert.match(svg, /<title>ERR before: 10 PASS<\/title>/);
    assert.match(svg, /<title>ERR: 1 FAIL<\/title>/);
  });

  test('a filtered run draws what ran, and opens on it: the error first, the requirements it left out folded below', () => {
    const run = filteredRun();
    const svg = areaBarsSvg(run, { heading: false });
    assert.match(svg, /1 NOT EVAL\. <tspan fill="#69707a">of 1 run \(11 left out\)/);
    assert.match(svg, /7 more areas with nothing run by this filtered run/);
    const page = top(renderHtml(run));
    assert.match(page, /<span class="b verdict tone-stopped">INCOMPLETE<\/span>/);
    assert.ok(page.indexOf('id="SIG-10.a"') < page.indexOf('id="missing"'), 'the scenario that ran comes before what the filter left out');
    assert.match(page, /<details class="box" id="missing"><summary>/, 'folded');
  });

  test('a clean run: green, and nothing to attend to', () => {
    const page = top(renderHtml(cleanRun()));
    assert.match(page, /tone-conformant/);
    assert.doesNotMatch(page, /id="attention"/);
  });
});

describe('show-report serves the report folder only', () => {
  const dir = scratchDir('xs2a-show-');
  mkdirSync(join(dir, 'files'));
  writeFileSync(join(dir, 'index.html'), '<p>report</p>');
  writeFileSync(join(dir, 'areas.svg'), '<svg/>');
  writeFileSync(join(dir, 'files', 'a b.txt'), 'body');
  writeFileSync(join(dir, '..', `outside-${process.pid}.txt`), 'secret');
  symlinkSync(join(dir, '..', `outside-${process.pid}.txt`), join(dir, 'files', 'link.txt'));

  test('its files by path, never one outside it, a link out of it or a folder', () => {
    assert.ok(reportFileOf(dir, '/')?.endsWith('index.html'));
    assert.ok(reportFileOf(dir, '/files/a%20b.txt')?.endsWith('a b.txt'));
    for (const path of ['/../x', `/..%2f${'outside'}-${process.pid}.txt`, '/files/link.txt', '/files', '/%00', '/%E0%A4%A'])
      assert.equal(reportFileOf(dir, path), undefined, path);
  });

  test('on 127.0.0.1, with the content type of each file', async () => {
    const { server, url } = await serveReport(dir, 0);
    try {
      assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
      const index = await fetch(url);
      assert.equal(index.headers.get('content-type'), 'text/html; charset=utf-8');
      assert.equal(await index.text(), '<p>report</p>');
      assert.equal((await fetch(`${url}areas.svg`)).headers.get('content-type'), 'image/svg+xml');
      assert.equal((await fetch(`${url}files/link.txt`)).status, 404);
      assert.equal((await fetch(url, { method: 'POST' })).status, 405);
    } finally {
      server.close();
    }
  });
});
