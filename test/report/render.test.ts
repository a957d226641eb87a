import assert from 'node:assert/strict';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { renderHtml } from '../../lib/report/html/page.js';
import { minifiedPageScript } from '../../lib/report/html/page-script.js';
import { renderJunit } from '../../lib/report/junit.js';
import { formatSummary } from '../../lib/report/results-summary.js';
import { scratchDir } from '../support/scratch.js';
import { sampleResults } from './sample-results.js';

const RESULTS = sampleResults();
const PNG = Buffer.from('89504e470d0a1a0a', 'hex');

describe('JUnit output', () => {
  const xml = renderJunit(RESULTS);

  test('a failing scenario is a failure, with its stable id in the name and the requirement line as its message', () => {
    assert.match(
      xml,
      /name="SIG-04\.a test of SIG-04 &lt;b&gt;"[^>]*>\n[\s\S]*?<property name="scenario" value="SIG-04\.a"\/>[\s\S]*?<failure message="-&gt; SIG-04 MUST: x" type="FAIL">/,
    );
  });

  test('a failure excused by a known deviation is skipped, not failed, so a gate does not block on it', () => {
    assert.match(
      xml,
      /name="PAG-02\.a test of PAG-02 &lt;b&gt;"[^>]*>\n[\s\S]*?<skipped message="known deviation PAG-02: pagination links omit limit; fix in 1\.24 \(until 2027-03-01\)"\/>/,
    );
    assert.match(xml, /<testsuite name="suites\/x.spec.ts" tests="3" failures="1" errors="0" skipped="1"/);
  });
});

describe('HTML report', () => {
  const html = renderHtml(RESULTS, { readEvidence: (path) => (path.endsWith('.png') ? PNG : undefined) });
  const top = html.slice(0, html.indexOf('<div id="tools">'));

  test('values from the target are escaped', () => {
    assert.doesNotMatch(html, /<script>alert/);
    assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  });

  test('what failed comes first, with the scenario that shows why (Expected and Actual, the request, a curl command)', () => {
    const attention = top.indexOf('Needs attention');
    assert.ok(attention > 0);
    assert.match(top.slice(attention), /href="#SIG-04"[\s\S]*SIG-04\.a: Expected: HTTP 400; Actual: HTTP 200/);
    assert.match(top, /<div class="scn s-FAIL" id="SIG-04\.a">/);
    assert.match(top, /Expected: HTTP 400\n {3}Actual: {3}HTTP 200/);
    assert.match(top, /curl --cacert bank-ca\.pem -X GET/);
    assert.match(top, /xs2a-conformance replay &lt;this report folder&gt; SIG-04\.a/);
  });

  test('evidence stands alone: screenshots inlined, traces linked with the command that opens them', () => {
    assert.match(top, /<img class="shot" alt="sca-page" src="data:image\/png;base64,iVBORw0KGgo=">/);
    assert.match(top, /npx playwright show-trace files\/SIG-04\.a\/sca-trace-trace\.zip/);
    assert.doesNotMatch(html, /<(script|link|img)[^>]+(src|href)="https?:/, 'no external assets');
  });

  test('a known deviation is shown as one, with its reason and end date, never as a red FAIL', () => {
    assert.match(top, /Known deviations \(1\)[\s\S]*pagination links omit limit; fix in 1\.24[\s\S]*until 2027-03-01/);
    const deviations = top.indexOf('Known deviations');
    assert.ok(
      top.indexOf('<div class="scn s-KNOWN_DEVIATION" id="PAG-02.a">') > deviations,
      'its evidence sits with the deviations, not with the failures',
    );
    assert.doesNotMatch(top.slice(0, deviations), /PAG-02/);
  });

  test('attestations stand apart from the automated verdicts, with the reviewer', () => {
    assert.match(
      top,
      /Attestations \(1\): checked by a person, not by the suite[\s\S]*id="attestation-SCA-23"[\s\S]*Kari Nordmann[\s\S]*QA-1432/,
    );
  });

  test('the verdict says what is missing for CONFORMANT, with the reason', () => {
    assert.match(
      top,
      /Missing for CONFORMANT: the 1 requirement\(s\) under <a href="#attention">Needs attention<\/a>, and this one<\/strong><\/summary>[\s\S]*GEN-05[\s\S]*needs capability production-target/,
    );
  });

  test('provenance: tool commit, specification and catalogue versions, runtime, probe seed', () => {
    assert.match(html, /commit <code>a{40}<\/code>/);
    assert.match(html, /documentation 2\.16\.0 \(API release 1\.23\.7\)/);
    assert.match(html, /version <code>sha256:0123456789abcdef<\/code>/);
    assert.match(html, /120 robustness probes, seed 1/);
  });
});

describe('console summary', () => {
  const text = formatSummary(RESULTS, 'reports/latest/index.html');

  test('a known deviation is listed with its reason and end date, apart from the failures', () => {
    assert.match(
      text,
      /Known deviations[^\n]*\n {2}KNOWN_DEVIATION PAG-02 {2}until 2027-03-01, still failing: pagination links omit limit; fix in 1\.24/,
    );
    assert.doesNotMatch(text, /FAIL +PAG-02/);
  });

  test('what is missing for CONFORMANT, and the attestations, by whom', () => {
    assert.match(
      text,
      /Missing for CONFORMANT, besides the requirements above:\n {2}NOT_COVERED {3}GEN-05 {2}needs capability production-target/,
    );
    assert.match(
      text,
      /Attestations \(checked by a person, not by the suite\):\n {2}ATTESTED {2}SCA-23 {2}by Kari Nordmann on 2026-11-20, evidence: QA-1432/,
    );
  });
});

describe("the page's script, minified once per version", () => {
  const source = 'function greet(name) { const greeting = "hello " + name; return greeting; }\n';

  test('minified the first time and kept; read back the next time; another version is minified anew', () => {
    const cacheDir = join(scratchDir('xs2a-page-script-'), 'cache');
    const made = minifiedPageScript(source, cacheDir);
    assert.ok(made.length < source.length && /function greet/.test(made), made);
    const [kept] = readdirSync(cacheDir);
    assert.ok(kept, 'the minified script was kept');
    // What is read back is the kept file, whatever it holds: the cache is trusted as the tool's own files are.
    writeFileSync(join(cacheDir, kept), '/* kept */');
    assert.equal(minifiedPageScript(source, cacheDir), '/* kept */');
    assert.notEqual(minifiedPageScript(`${source};`, cacheDir), '/* kept */');
    assert.equal(readdirSync(cacheDir).length, 2);
  });

  test('a cache that cannot be written only costs the minifying', () => {
    const file = join(scratchDir('xs2a-page-script-'), 'a-file');
    writeFileSync(file, '');
    assert.match(minifiedPageScript(source, join(file, 'cache')), /function greet/);
  });
});
