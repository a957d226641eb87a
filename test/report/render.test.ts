import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { renderHtml } from '../../lib/report/html.js';
import { renderJunit } from '../../lib/report/junit.js';
import type { RunResults, TestRecord } from '../../lib/report/types.js';

function testRecord(id: string, status: TestRecord['status'], requirements: string[], error?: string): TestRecord {
  return {
    id,
    scenario: `${requirements[0] ?? 'XXX-00'}.a`,
    title: `${requirements[0] ?? 'XXX-00'}.a test ${id} <b>`,
    file: 'suites/x.spec.ts',
    line: 1,
    requirements,
    status,
    durationMs: 12,
    ...(error ? { error } : {}),
    warnings: [],
    checks: status === 'FAIL' ? requirements.map((requirement) => ({ requirement, verdict: 'FAIL' as const, source: 'scenario' as const, message: `-> ${requirement} MUST: x\n${error ?? ''}` })) : [],
    evidence: {
      exchanges: [
        {
          id: 'e1',
          startedAt: '2026-11-21T00:00:00Z',
          durationMs: 3,
          summary: 'GET https://bank/v1/accounts → 400',
          request: { method: 'GET', url: 'https://bank/v1/accounts', headers: { 'X-Request-ID': 'r1' } },
          response: { status: 400, headers: {}, body: '{"message":"<script>alert(1)</script>"}' },
        },
      ],
      redirects: [],
      files: [],
    },
  };
}

const RESULTS: RunResults = {
  schemaVersion: 2,
  tool: { name: 'xs2a-conformance', version: '0.0.0' },
  runId: 'run-1',
  target: { name: 'staging', environment: 'staging', baseUrl: 'https://bank', embedded: false, faults: [] },
  startedAt: '2026-11-21T00:00:00Z',
  finishedAt: '2026-11-21T00:00:01Z',
  durationMs: 1000,
  filtered: false,
  verdict: 'NON_CONFORMANT',
  verdictReasons: ['1 requirement(s) failed: SIG-04'],
  exitCode: 1,
  summary: {
    tests: { PASS: 1, FAIL: 2, ERROR: 0, FLAKY: 0, NOT_TESTABLE: 0, SKIPPED: 0, INTERRUPTED: 0, total: 3 },
    requirements: { PASS: 1, FAIL: 1, WARNING: 0, NOT_EVALUATED: 0, NOT_TESTABLE: 0, SKIPPED: 0, KNOWN_DEVIATION: 1, INTERRUPTED: 0, NOT_COVERED: 0, MANUAL: 0, total: 3 },
  },
  requirements: [
    { id: 'SIG-03', area: 'SIG', level: 'MUST', section: 's', statement: 'signed ok', basis: 'specification', fillsGap: false, status: 'PASS', tests: ['SIG-03.a'] },
    { id: 'SIG-04', area: 'SIG', level: 'MUST', section: 's', statement: 'unsigned gets 400', basis: 'specification', fillsGap: false, status: 'FAIL', tests: ['SIG-04.a'] },
    { id: 'PAG-02', area: 'PAG', level: 'MUST', section: 's', statement: 'links carry limit', basis: 'berlin-group', fillsGap: true, source: 'OpenAPI 1.3.8 _links', status: 'KNOWN_DEVIATION', reason: 'fix in 1.24', tests: ['PAG-02.a'] },
  ],
  tests: [
    testRecord('a', 'PASS', ['SIG-03']),
    testRecord('b', 'FAIL', ['SIG-04'], 'Expected: HTTP 400\nActual: HTTP 200'),
    testRecord('c', 'FAIL', ['PAG-02'], 'Expected: limit in links'),
  ],
};

describe('JUnit output', () => {
  const xml = renderJunit(RESULTS);

  test('a failing scenario is a failure, with its stable id in the name and the requirement line as its message', () => {
    assert.match(xml, /name="SIG-04\.a test b &lt;b&gt;"[^>]*>\n[\s\S]*?<property name="scenario" value="SIG-04\.a"\/>[\s\S]*?<failure message="-&gt; SIG-04 MUST: x" type="FAIL">/);
  });

  test('a failure excused by a known deviation is skipped, not failed, so a gate does not block on it', () => {
    assert.match(xml, /name="PAG-02\.a test c &lt;b&gt;"[^>]*>\n[\s\S]*?<skipped message="known deviation PAG-02: [^"]*"\/>/);
    assert.match(xml, /<testsuite name="suites\/x.spec.ts" tests="3" failures="1" errors="0" skipped="1"/);
  });
});

describe('HTML report', () => {
  const html = renderHtml(RESULTS);

  test('values from the target are escaped', () => {
    assert.doesNotMatch(html, /<script>alert/);
    assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  });

  test('failures are listed first, under "Needs attention"; known deviations show their reason', () => {
    const attention = html.indexOf('Needs attention');
    assert.ok(attention > 0 && attention < html.indexOf('<h2>Requirements</h2>'));
    assert.match(html.slice(attention, html.indexOf('<h2>Requirements</h2>')), /SIG-04/);
    assert.match(html, /fix in 1\.24/);
  });

  test('an entry that fills a gap is marked, with its source', () => {
    assert.match(html, /fills a gap: Berlin Group/);
    assert.match(html, /Source: OpenAPI 1\.3\.8 _links/);
  });
});
