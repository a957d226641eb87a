/** A small results.json by hand, for the report's unit tests: a failure, a known deviation, an attestation, evidence files. */
import {
  REQUIREMENT_STATUSES,
  TEST_STATUSES,
  type RequirementRecord,
  type RunResults,
  type TestRecord,
} from '../../lib/report/results-types.js';

export function testRecord(
  scenario: string,
  status: TestRecord['status'],
  requirements: string[],
  extra: Partial<TestRecord> = {},
): TestRecord {
  const failed = status === 'FAIL';
  return {
    id: `pw-${scenario}`,
    scenario,
    title: `${scenario} test of ${requirements.join(', ')} <b>`,
    file: 'suites/x.spec.ts',
    line: 7,
    requirements,
    status,
    durationMs: 12,
    warnings: [],
    checks: requirements
      .map((requirement) => ({
        requirement,
        verdict: failed ? ('FAIL' as const) : ('PASS' as const),
        source: 'scenario' as const,
        actual: failed ? 'HTTP 200' : 'HTTP 400 FORMAT_ERROR',
        ...(failed ? { message: `-> ${requirement} MUST: x\n   Expected: HTTP 400\n   Actual:   HTTP 200` } : {}),
      }))
      .concat([
        { requirement: 'FMT-01', verdict: 'PASS', source: 'invariant', actual: 'Content-Type application/json', count: 2 } as never,
      ]),
    evidence: {
      exchanges: [
        {
          id: `e-${scenario}`,
          startedAt: '2026-11-21T00:00:00.000Z',
          durationMs: 3,
          summary: 'GET https://bank/v1/accounts → 200',
          ...(failed
            ? {
                request: { method: 'GET', url: 'https://bank/v1/accounts', headers: { 'X-Request-ID': 'r1', Signature: 'keyId="x"' } },
                response: { status: 200, headers: {}, body: '{"message":"<script>alert(1)</script>"}' },
                curl: "curl --cacert bank-ca.pem -X GET 'https://bank/v1/accounts'",
              }
            : {}),
        },
      ],
      redirects: [],
      files: [],
    },
    ...extra,
  };
}

/** A requirement's record in results.json, with what a test gives it (`tests`, `reason`…) over plain defaults. */
export function requirementRecord(
  id: string,
  status: RequirementRecord['status'],
  extra: Partial<RequirementRecord> = {},
): RequirementRecord {
  return {
    id,
    area: id.slice(0, 3),
    level: 'MUST',
    section: `Section of ${id}`,
    statement: `statement of ${id}`,
    testedBy: 'automated',
    basis: 'specification',
    fillsGap: false,
    status,
    tests: [],
    ...extra,
  };
}

export function sampleResults(): RunResults {
  const tests = [
    testRecord('SIG-03.a', 'PASS', ['SIG-03']),
    testRecord('SIG-04.a', 'FAIL', ['SIG-04'], {
      evidence: {
        ...testRecord('SIG-04.a', 'FAIL', ['SIG-04']).evidence,
        files: [
          { name: 'sca-page', path: 'files/SIG-04.a/sca-page-shot.png', contentType: 'image/png' },
          { name: 'sca-trace', path: 'files/SIG-04.a/sca-trace-trace.zip', contentType: 'application/zip' },
        ],
      },
    }),
    testRecord('PAG-02.a', 'FAIL', ['PAG-02']),
  ];
  const requirements = [
    requirementRecord('SIG-03', 'PASS', { tests: ['SIG-03.a'] }),
    requirementRecord('SIG-04', 'FAIL', { tests: ['SIG-04.a'], reason: 'SIG-04.a: Expected: HTTP 400; Actual: HTTP 200' }),
    requirementRecord('PAG-02', 'KNOWN_DEVIATION', {
      tests: ['PAG-02.a'],
      basis: 'berlin-group',
      fillsGap: true,
      source: 'OpenAPI 1.3.8 _links',
      reason: 'pagination links omit limit; fix in 1.24',
      deviation: { reason: 'pagination links omit limit; fix in 1.24', until: '2027-03-01' },
    }),
    requirementRecord('FMT-01', 'PASS', { tests: ['SIG-03.a', 'SIG-04.a', 'PAG-02.a'], invariant: true }),
    requirementRecord('SCA-23', 'ATTESTED', {
      tests: [],
      testedBy: 'needs-capability:mobile-app',
      reason: 'attested by Kari Nordmann on 2026-11-20 (evidence: QA-1432)',
      attestation: { requirement: 'SCA-23', verdict: 'PASS', reviewer: 'Kari Nordmann', date: '2026-11-20', evidence: 'QA-1432' },
    }),
    requirementRecord('GEN-05', 'NOT_COVERED', {
      tests: [],
      testedBy: 'needs-capability:production-target',
      reason: 'needs capability production-target: target staging does not declare it',
    }),
  ];
  const tally = <K extends string>(values: K[], keys: readonly K[]) => {
    const counts = Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;
    for (const value of values) counts[value] += 1;
    return { ...counts, total: values.length };
  };
  return {
    schemaVersion: 4,
    kind: 'bank-conformance',
    tool: { name: 'xs2a-conformance', version: '0.0.0' },
    runId: 'run-1',
    target: { name: 'staging', environment: 'staging', baseUrl: 'https://bank', embedded: false, faults: [] },
    startedAt: '2026-11-21T00:00:00.000Z',
    finishedAt: '2026-11-21T00:00:01.000Z',
    durationMs: 1000,
    filtered: false,
    verdict: 'NON_CONFORMANT',
    verdictReasons: ['1 requirement(s) failed: SIG-04'],
    missingForConformant: [
      { id: 'SIG-04', status: 'FAIL', reason: 'SIG-04.a: Expected: HTTP 400; Actual: HTTP 200' },
      { id: 'GEN-05', status: 'NOT_COVERED', reason: 'needs capability production-target: target staging does not declare it' },
    ],
    exitCode: 1,
    provenance: {
      tool: { name: 'xs2a-conformance', version: '0.0.0', commit: 'a'.repeat(40), dirty: false },
      suiteFiles: [{ path: 'suites/x.spec.ts', sha256: 'b'.repeat(64) }],
      catalogue: { version: 'sha256:0123456789abcdef', requirements: 6 },
      specification: { title: 'Spec', documentation: '2.16.0', apiRelease: '1.23.7', framework: 'NextGenPSD2 XS2A 1.3' },
      runtime: { node: 'v20', playwright: '1.65.1', chromium: 'Chromium 156', platform: 'linux x64' },
      probes: { runs: 120, seed: 1 },
      declaredTarget: { baseUrl: '${BANK_URL}', tpp: { privateKey: '(removed)' } },
      capabilities: [],
      deviations: [{ requirement: 'PAG-02', reason: 'pagination links omit limit; fix in 1.24', until: '2027-03-01', active: true }],
      masked: true,
      arguments: [],
    },
    summary: {
      tests: tally(
        tests.map((t) => t.status),
        TEST_STATUSES,
      ),
      requirements: tally(
        requirements.map((r) => r.status),
        REQUIREMENT_STATUSES,
      ),
    },
    requirements,
    tests,
    attestations: [{ requirement: 'SCA-23', verdict: 'PASS', reviewer: 'Kari Nordmann', date: '2026-11-20', evidence: 'QA-1432' }],
  };
}
