/**
 * What a CI pipeline reads: JUnit (file and line, requirement ids, deviations with reason and end, SHOULD
 * failures, attachments, FLAKY), the gate (`--require`, `--fail-on`), the Markdown job summary, the colours
 * (NO_COLOR, FORCE_COLOR), and retries reported attempt by attempt (FLAKY, never PASS).
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { FullConfig, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { applyGate, GATE_NOT_MET } from '../../lib/cli/gate.js';
import { PACKAGE_ROOT } from '../../lib/cli/package-root.js';
import { markdownSummary } from '../../lib/cli/printed-summary.js';
import { EVIDENCE_ATTACHMENT, type EvidencePayload } from '../../lib/report/attachments.js';
import { renderJunit } from '../../lib/report/junit.js';
import ConformanceReporter from '../../lib/report/reporter.js';
import type { RequirementRecord, RunResults, TestRecord } from '../../lib/report/results-types.js';
import { RUN_CONTEXT_ENV, writeRunContext, type RunContext } from '../../lib/targets/run-context.js';
import { scratchDir } from '../support/scratch.js';
import { runProcess } from './playwright-cli.js';
import { requirementRecord, sampleResults } from '../report/sample-results.js';

function record(scenario: string, status: TestRecord['status'], changes: Partial<TestRecord> = {}): TestRecord {
  return {
    id: scenario,
    scenario,
    title: `${scenario} a scenario`,
    file: 'suites/authentication/request-signing.spec.ts',
    line: 12,
    requirements: [scenario.slice(0, 6)],
    status,
    durationMs: 5,
    warnings: [],
    checks: [],
    evidence: { exchanges: [], redirects: [], files: [] },
    ...changes,
  };
}

/** The sample run (test/report/sample-results.ts) made conforming, with these scenarios and requirements. */
function results(tests: TestRecord[], requirements: RequirementRecord[], changes: Partial<RunResults> = {}): RunResults {
  const zero = { PASS: 0, FAIL: 0, ERROR: 0, FLAKY: 0, NOT_TESTABLE: 0, SKIPPED: 0, INTERRUPTED: 0, total: 0 };
  const none = {
    PASS: 0,
    FAIL: 0,
    WARNING: 0,
    NOT_EVALUATED: 0,
    NOT_TESTABLE: 0,
    SKIPPED: 0,
    KNOWN_DEVIATION: 0,
    INTERRUPTED: 0,
    NOT_COVERED: 0,
    OUT_OF_SCOPE: 0,
    MANUAL: 0,
    ATTESTED: 0,
    total: 0,
  };
  const sample = sampleResults();
  delete sample.attestations;
  return {
    ...sample,
    target: { name: 'bank', environment: 'staging', baseUrl: 'https://bank', embedded: false, faults: [] },
    verdict: 'CONFORMANT',
    verdictReasons: [],
    missingForConformant: [],
    exitCode: 0,
    summary: { tests: zero, requirements: none },
    requirements,
    tests,
    ...changes,
  };
}

describe('JUnit for CI', () => {
  const junit = renderJunit(
    results(
      [
        record('SIG-03.a', 'PASS', {
          warnings: ['-> HDR-09 SHOULD: the bank should answer with a Date header\n   Expected: a Date header'],
          evidence: {
            exchanges: [],
            redirects: [],
            files: [{ name: 'screenshot', path: 'files/t1/screenshot.png', contentType: 'image/png' }],
          },
        }),
        record('PAG-02.a', 'FAIL', {
          line: 40,
          checks: [{ requirement: 'PAG-02', verdict: 'FAIL', source: 'scenario', message: '-> PAG-02 MUST: links carry limit' }],
        }),
        record('SIG-04.a', 'FLAKY', { line: 20, reason: 'passed only on attempt 2: FAIL before' }),
      ],
      [
        requirementRecord('PAG-02', 'KNOWN_DEVIATION', {
          reason: 'links omit limit; fix in 1.24',
          deviation: { reason: 'links omit limit; fix in 1.24', until: '2027-03-01' },
        }),
      ],
    ),
  );

  test('each testcase names its spec file and line, and its requirements as properties', () => {
    assert.match(
      junit,
      /<testcase classname="suites\/authentication\/request-signing\.spec\.ts" name="SIG-03\.a a scenario" file="suites\/authentication\/request-signing\.spec\.ts" line="12"/,
    );
    assert.match(junit, /<property name="requirement" value="SIG-03"\/>/);
  });

  test('a known deviation is skipped with its reason and end date', () => {
    assert.match(junit, /<skipped message="known deviation PAG-02: links omit limit; fix in 1\.24 \(until 2027-03-01\)"\/>/);
  });

  test('a failed SHOULD check shows (property and system-out) without failing the testcase; evidence files are attachments', () => {
    assert.match(junit, /<property name="warning" value="-&gt; HDR-09 SHOULD: the bank should answer with a Date header"\/>/);
    assert.match(junit, /<system-out>WARNING -&gt; HDR-09 SHOULD[^<]*\n\n\[\[ATTACHMENT\|files\/t1\/screenshot\.png\]\]<\/system-out>/);
  });

  test('FLAKY is a failure', () => {
    assert.match(junit, /<failure message="FLAKY: passed only on attempt 2: FAIL before" type="FLAKY">/);
    assert.match(junit, /<testsuites name="xs2a-conformance bank" tests="3" failures="1" errors="0" skipped="1"/);
  });
});

describe('the gate', () => {
  const silenced = <T>(fn: () => T): T => {
    const error = console.error;
    console.error = () => {};
    try {
      return fn();
    } finally {
      console.error = error;
    }
  };
  const incomplete = results([], [], { verdict: 'INCOMPLETE' });
  const warned = results([], [], { summary: { ...incomplete.summary, requirements: { ...incomplete.summary.requirements, WARNING: 2 } } });

  test('--require incomplete (the default) lets INCOMPLETE pass; --require conformant does not', () => {
    assert.equal(applyGate(incomplete, { require: 'incomplete' }), 0);
    assert.equal(
      silenced(() => applyGate(incomplete, { require: 'conformant' })),
      GATE_NOT_MET,
    );
    assert.equal(applyGate(results([], []), { require: 'conformant' }), 0);
  });

  test('--fail-on warning fails on a failed SHOULD', () => {
    assert.equal(applyGate(warned, { require: 'conformant' }), 0);
    assert.equal(
      silenced(() => applyGate(warned, { require: 'incomplete', failOn: 'warning' })),
      GATE_NOT_MET,
    );
  });

  test("the verdict's own exit code is kept", () => {
    assert.equal(applyGate(results([], [], { verdict: 'NON_CONFORMANT', exitCode: 1 }), { require: 'incomplete' }), 1);
  });
});

describe('the Markdown job summary', () => {
  test('the verdict, the counts and what needs a look', () => {
    const text = markdownSummary(
      results([], [requirementRecord('SIG-04', 'FAIL', { reason: 'SIG-04.a: Expected 400 | got 200' })], {
        verdict: 'NON_CONFORMANT',
        exitCode: 1,
      }),
    );
    assert.match(text, /^## xs2a-conformance: NON_CONFORMANT \(exit 1\)\n/);
    assert.match(text, /\| SIG-04 \| MUST \| FAIL \| SIG-04\.a: Expected 400 \\\| got 200 \|/);
  });
});

describe('colours', () => {
  const paint = (env: NodeJS.ProcessEnv) =>
    runProcess(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        "const { TERMINAL_PAINT } = await import('./lib/cli/printed-summary.ts'); process.stdout.write(TERMINAL_PAINT.status('FAIL') + TERMINAL_PAINT.status('CONFORMANT'))",
      ],
      { NO_COLOR: '', FORCE_COLOR: '', ...env },
      PACKAGE_ROOT,
    );

  test('FORCE_COLOR colours the verdict and statuses; NO_COLOR and a pipe do not', async () => {
    const ESC = String.fromCharCode(27);
    const coloured = (await paint({ FORCE_COLOR: '1' })).stdout;
    assert.ok(coloured.includes(`${ESC}[31m`) && coloured.includes(`${ESC}[32mCONFORMANT`), JSON.stringify(coloured));
    assert.equal((await paint({ NO_COLOR: '1', FORCE_COLOR: undefined })).stdout, 'FAILCONFORMANT');
    assert.equal((await paint({ FORCE_COLOR: undefined })).stdout, 'FAILCONFORMANT');
  });
});

describe('retries', () => {
  /** Drives the reporter as Playwright would: one test, attempts as given. */
  function report(attempts: { status: TestResult['status']; checks: EvidencePayload['checks'] }[]): RunResults {
    const dir = scratchDir('xs2a-flaky-');
    const context = {
      runId: 'flaky',
      reportRoot: dir,
      startedAt: new Date().toISOString(),
      tool: { name: 'xs2a-conformance', version: '0' },
      maskPersonalData: true,
      target: {
        name: 'bank',
        environment: 'sandbox',
        baseUrl: 'https://bank',
        embedded: false,
        faults: [],
        deviations: [],
        psus: {},
        tpps: {},
        tpp: { redirectUri: 'https://tpp' },
        sca: [],
        scaVariants: {},
        capabilities: [],
        paths: {},
        timeouts: { requestMs: 1, scaMs: 1 },
      },
    } as unknown as RunContext;
    writeRunContext(join(dir, 'context.json'), context);
    const previous = process.env[RUN_CONTEXT_ENV];
    process.env[RUN_CONTEXT_ENV] = join(dir, 'context.json');
    try {
      writeFileSync(join(dir, 'empty.spec.ts'), '');
      const testCase = {
        id: 't1',
        title: 'SIG-04.a a scenario',
        tags: ['@SIG-04'],
        annotations: [{ type: 'scenario', description: 'SIG-04.a' }],
        location: { file: join(dir, 'x.spec.ts'), line: 3, column: 1 },
      } as unknown as TestCase;
      const reporter = new ConformanceReporter();
      reporter.onBegin(
        { configFile: undefined, projects: [{ testDir: join(dir, 'none') }], shard: null } as unknown as FullConfig,
        { allTests: () => [testCase] } as unknown as Suite,
      );
      for (const attempt of attempts) {
        const payload: EvidencePayload = { checks: attempt.checks, exchanges: [], redirects: [] };
        reporter.onTestEnd(testCase, {
          status: attempt.status,
          errors: attempt.status === 'passed' ? [] : [{ message: 'boom' }],
          attachments: [{ name: EVIDENCE_ATTACHMENT, contentType: 'application/json', body: Buffer.from(JSON.stringify(payload)) }],
          annotations: [],
          duration: 1,
        } as unknown as TestResult);
      }
      reporter.onEnd({ status: 'passed' } as never);
      return JSON.parse(readFileSync(join(dir, 'latest', 'results.json'), 'utf8')) as RunResults;
    } finally {
      if (previous === undefined) delete process.env[RUN_CONTEXT_ENV];
      else process.env[RUN_CONTEXT_ENV] = previous;
    }
  }

  test('a scenario that passes only on retry is FLAKY, its failed check still fails the requirement', () => {
    const run = report([
      { status: 'failed', checks: [{ requirement: 'SIG-04', verdict: 'FAIL', source: 'scenario', message: '-> SIG-04 MUST: x' }] },
      { status: 'passed', checks: [{ requirement: 'SIG-04', verdict: 'PASS', source: 'scenario' }] },
    ]);
    assert.equal(run.tests[0]?.status, 'FLAKY');
    assert.deepEqual(
      run.tests[0]?.attempts?.map((a) => a.status),
      ['FAIL', 'PASS'],
    );
    assert.equal(run.requirements.find((r) => r.id === 'SIG-04')?.status, 'FAIL');
    assert.equal(run.verdict, 'NON_CONFORMANT');
  });

  test('an attempt that stopped with an error and a pass after it: FLAKY, never PASS, the run cannot pass', () => {
    const run = report([
      { status: 'failed', checks: [] },
      { status: 'passed', checks: [{ requirement: 'SIG-04', verdict: 'PASS', source: 'scenario' }] },
    ]);
    assert.equal(run.tests[0]?.status, 'FLAKY');
    assert.equal(run.summary.tests.PASS, 0);
    assert.equal(run.verdict, 'INCOMPLETE');
    assert.equal(run.exitCode, 3);
  });
});
