/**
 * Results of runs for the report's picture and size tests: a fault that fails ERR-01 in `failing` scenarios
 * (one cause), with a robustness scenario's big probe bodies; a clean run; a run filtered to one scenario.
 */
import { boundExchanges } from '../../lib/report/evidence-bounds.js';
import type { EvidenceExchange, RunResults, TestRecord } from '../../lib/report/results-types.js';
import { sampleResults, testRecord } from './sample-results.js';

const AREAS = ['GEN', 'FMT', 'SIG', 'HDR', 'ERR', 'PAY', 'AIS', 'SCA'];

function exchange(n: number, extra: Partial<EvidenceExchange> = {}): EvidenceExchange {
  return {
    id: `x${n}`,
    startedAt: '2026-11-21T00:00:00.000Z',
    durationMs: 3,
    summary: `GET https://bank/v1/accounts/${n} → 400`,
    request: {
      method: 'GET',
      url: `https://bank/v1/accounts/${n}`,
      headers: { 'X-Request-ID': `r${n}`, 'TPP-Signature-Certificate': 'MII'.padEnd(1700, 'A') },
    },
    response: { status: 400, headers: { 'content-type': 'application/json' }, body: '{"status":400,"code":"FORMAT_ERROR"}' },
    curl: `curl --cacert bank-ca.pem -X GET 'https://bank/v1/accounts/${n}'`,
    ...extra,
  };
}

function failing(scenario: string, n: number): TestRecord {
  const message = `-> ERR-01 MUST: An error response body carries id.\n   (a rule checked on every response)\n   Expected: ErrorBody: /id: is required (ERR-01)\n   Actual:   /id = (absent)\n   Response: HTTP 400\n   Request:  GET https://bank/v1/accounts/${n}`;
  const base = testRecord(scenario, 'FAIL', [`${scenario.slice(0, 6)}`]);
  return {
    ...base,
    title: `${scenario} a scenario of ${scenario.slice(0, 3)}`,
    error: `Error: ${message}`,
    checks: [
      { requirement: 'ERR-01', verdict: 'FAIL', source: 'invariant', message, actual: '/id = (absent)' },
      ...base.checks.map((c) => ({ ...c, verdict: 'PASS' as const })),
    ],
    evidence: { exchanges: Array.from({ length: 6 }, (_, i) => exchange(n * 10 + i)), redirects: [], files: [] },
  };
}

/** The ERR-44.d of such a run: 120 probes, some with a 2 MiB body, bounded as the reporter bounds them. */
function probes(): TestRecord {
  const all = Array.from({ length: 120 }, (_, i) =>
    exchange(9000 + i, {
      malformed: `robustness probe: defect ${i}`,
      ...(i % 10 === 0
        ? { request: { method: 'POST', url: 'https://bank/v1/payments', headers: {}, body: 'a'.repeat(2 * 1024 * 1024) } }
        : {}),
    }),
  );
  const bounded = boundExchanges(all, 'files/ERR-44.d/');
  return {
    ...failing('ERR-44.d', 9),
    evidence: {
      exchanges: bounded.exchanges,
      redirects: [],
      files: bounded.bodies.map((b) => ({ name: b.name, path: b.path, contentType: 'text/plain' })),
      ...(bounded.probes ? { probes: bounded.probes } : {}),
    },
  };
}

export function oneCauseRun(failingCount: number): RunResults {
  const base = sampleResults();
  const tests = [
    ...Array.from({ length: failingCount - 1 }, (_, i) =>
      failing(
        `${AREAS[i % AREAS.length] ?? 'GEN'}-${String(10 + Math.floor(i / 8)).padStart(2, '0')}.${String.fromCharCode(97 + (i % 8))}`,
        i,
      ),
    ),
    probes(),
  ];
  const requirements = AREAS.flatMap((area) =>
    Array.from({ length: 12 }, (_, i) => ({
      ...(base.requirements[0] as RunResults['requirements'][number]),
      id: `${area}-${String(i + 1).padStart(2, '0')}`,
      area,
      status:
        area === 'ERR' && i === 0
          ? ('FAIL' as const)
          : i === 11
            ? ('NOT_COVERED' as const)
            : i === 10
              ? ('NOT_TESTABLE' as const)
              : ('PASS' as const),
      tests: [],
    })),
  );
  return {
    ...base,
    verdict: 'NON_CONFORMANT',
    exitCode: 1,
    verdictReasons: ['1 requirement(s) failed: ERR-01'],
    missingForConformant: [{ id: 'ERR-01', status: 'FAIL', reason: 'failed' }],
    target: { ...base.target, faults: ['error-body-missing-fields'] },
    requirements,
    tests,
  };
}

export function cleanRun(): RunResults {
  const run = oneCauseRun(2);
  return {
    ...run,
    verdict: 'CONFORMANT',
    exitCode: 0,
    verdictReasons: [],
    missingForConformant: [],
    target: { ...run.target, faults: [] },
    requirements: run.requirements.map((r) => ({ ...r, status: r.status === 'FAIL' || r.status === 'NOT_COVERED' ? 'PASS' : r.status })),
    tests: run.tests.map((t) => testRecord(t.scenario, 'PASS', t.requirements)),
  };
}

/** One scenario run with --grep, stopped by an error: INCOMPLETE, exit 3; every other requirement left out. */
export function filteredRun(): RunResults {
  const run = oneCauseRun(2);
  const errored = {
    ...testRecord('SIG-10.a', 'ERROR', ['SIG-01']),
    error: 'Error: the bank answered 502 to the consent request',
    checks: [],
  };
  return {
    ...run,
    filtered: true,
    verdict: 'INCOMPLETE',
    exitCode: 3,
    verdictReasons: ['the run was filtered', '1 scenario stopped with an error: SIG-10.a'],
    missingForConformant: run.requirements
      .filter((r) => r.id !== 'SIG-01')
      .map((r) => ({ id: r.id, status: 'NOT_COVERED' as const, reason: 'not selected by this run (filtered)' })),
    requirements: run.requirements.map((r) => ({
      ...r,
      status: r.id === 'SIG-01' ? ('NOT_EVALUATED' as const) : ('NOT_COVERED' as const),
    })),
    tests: [errored],
  };
}
