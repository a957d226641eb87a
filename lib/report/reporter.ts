/**
 * The Playwright reporter that turns a run into a conformance report: reports/<run-id>/ and reports/latest/
 * with results.json, a self-contained index.html and junit.xml. Requirement verdicts come from the checks
 * each scenario recorded (lib/fixtures), folded by lib/report/verdict.ts.
 */
import { copyFileSync, cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import type { FullResult, Reporter, TestCase, TestError, TestResult } from '@playwright/test/reporter';
import { requirementIdOfTag } from '../spec/coverage.js';
import { REQUIREMENTS, requirementById } from '../spec/requirements.js';
import { readRunContext, type GauntletPlan, type RunContext } from '../targets/run-context.js';
import { ANNOTATIONS, EVIDENCE_ATTACHMENT, type EvidencePayload } from './evidence.js';
import { renderHtml } from './html.js';
import { renderJunit } from './junit.js';
import {
  REQUIREMENT_STATUSES,
  TEST_STATUSES,
  type EvidenceExchange,
  type GauntletFaultResult,
  type RunResults,
  type TestRecord,
  type TestStatus,
} from './types.js';
import { activeDeviation, foldAll, judgementsOf, runVerdict } from './verdict.js';

export default class ConformanceReporter implements Reporter {
  private readonly context: RunContext | undefined = readRunContext();
  private readonly tests: TestRecord[] = [];
  private readonly files: { from: string; to: string }[] = [];
  /** Errors outside any test, such as a suite file that throws while loading. */
  private readonly runErrors: string[] = [];

  printsToStdio(): boolean {
    return false;
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    // Retries: only the last attempt counts.
    const existing = this.tests.findIndex((t) => t.id === test.id);
    const record = this.recordOf(test, result);
    if (existing >= 0) this.tests[existing] = record;
    else this.tests.push(record);
  }

  onError(error: TestError): void {
    this.runErrors.push(stripAnsi(error.message ?? error.value ?? 'unknown error'));
  }

  onEnd(result: FullResult): void {
    const context = this.context;
    if (!context) return; // Playwright run bare (e.g. --list): nothing to certify.
    const finishedAt = new Date();
    const deviationOf = (id: string) => activeDeviation(id, context.target.deviations, finishedAt);
    // Under the gauntlet the faulty runs certify nothing about the target: they are folded per fault.
    const plain = this.tests.filter((t) => t.fault === undefined);
    const requirements = foldAll(REQUIREMENTS, plain, deviationOf);
    const filtered = context.filtered || result.status === 'interrupted';
    const verdict = runVerdict(requirements, plain, filtered, this.runErrors);
    const results: RunResults = {
      schemaVersion: 2,
      tool: context.tool,
      runId: context.runId,
      target: {
        name: context.target.name,
        environment: context.target.environment,
        baseUrl: context.target.baseUrl,
        embedded: context.target.embedded,
        faults: context.target.faults,
        variants: context.target.variants,
      },
      startedAt: context.startedAt,
      finishedAt: finishedAt.toISOString(),
      durationMs: finishedAt.getTime() - Date.parse(context.startedAt),
      filtered,
      verdict: verdict.verdict,
      verdictReasons: verdict.reasons,
      exitCode: verdict.exitCode,
      summary: {
        tests: tally(plain.map((t) => t.status), TEST_STATUSES),
        requirements: tally(requirements.map((r) => r.status), REQUIREMENT_STATUSES),
      },
      requirements,
      tests: this.tests.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || (a.fault ?? '').localeCompare(b.fault ?? '')),
      ...(context.gauntlet ? { gauntlet: gauntletResults(context.gauntlet, this.tests) } : {}),
    };
    this.write(context, results);
  }

  private write(context: RunContext, results: RunResults): void {
    const runDir = join(context.reportRoot, context.runId);
    mkdirSync(runDir, { recursive: true });
    for (const file of this.files) {
      const target = join(runDir, file.to);
      mkdirSync(join(target, '..'), { recursive: true });
      try {
        copyFileSync(file.from, target);
      } catch {
        // A missing attachment file must not cost the whole report.
      }
    }
    writeFileSync(join(runDir, 'results.json'), JSON.stringify(results, null, 2));
    writeFileSync(join(runDir, 'index.html'), renderHtml(results));
    writeFileSync(join(runDir, 'junit.xml'), renderJunit(results));
    const latest = join(context.reportRoot, 'latest');
    if (latest !== runDir) {
      rmSync(latest, { recursive: true, force: true });
      cpSync(runDir, latest, { recursive: true });
    }
  }

  private recordOf(test: TestCase, result: TestResult): TestRecord {
    const annotations = [...test.annotations, ...result.annotations];
    const annotation = (type: string) => annotations.find((a) => a.type === type)?.description;
    const requirements = test.tags.flatMap((tag) => requirementIdOfTag(tag) ?? []);
    const error = result.errors.map((e) => stripAnsi(e.message ?? e.value ?? '')).join('\n\n') || undefined;
    const payload = evidenceOf(result);
    const status = statusOf(result, annotation, payload);
    const reason =
      annotation(ANNOTATIONS.notTestable) ?? annotation(ANNOTATIONS.skipped) ?? (status === 'INTERRUPTED' ? (annotation(ANNOTATIONS.interrupted) ?? interruptedReason(result)) : undefined);
    const files = result.attachments
      .filter((a) => a.path && a.name !== EVIDENCE_ATTACHMENT)
      .map((a) => {
        const to = join('files', test.id, `${a.name}-${basename(a.path ?? '')}`);
        this.files.push({ from: a.path ?? '', to });
        return { name: a.name, path: to, contentType: a.contentType };
      });
    const fault = annotation(ANNOTATIONS.fault);
    const [file, line] = sourceOf(annotation(ANNOTATIONS.source), test);
    return {
      id: test.id,
      scenario: annotation(ANNOTATIONS.scenario) ?? test.title,
      title: test.title,
      file,
      line,
      ...(fault ? { fault } : {}),
      requirements,
      status,
      ...(reason ? { reason } : {}),
      durationMs: result.duration,
      ...(error && status !== 'PASS' ? { error } : {}),
      warnings: annotations.filter((a) => a.type === ANNOTATIONS.warning).map((a) => a.description ?? ''),
      checks: payload.checks,
      evidence: {
        // Full request and response for every non-PASS result; a summary line otherwise.
        exchanges: payload.exchanges.map((e) => (status === 'PASS' ? summaryOnly(e) : e)),
        redirects: payload.redirects,
        files,
      },
    };
  }
}

/**
 * A failed Playwright test is FAIL only when a MUST check failed; otherwise it stopped outside its checks:
 * INTERRUPTED when the fixtures classified the error as infrastructure (by its type), else ERROR.
 */
function statusOf(result: TestResult, annotation: (type: string) => string | undefined, payload: EvidencePayload): TestStatus {
  if (result.status === 'skipped') return annotation(ANNOTATIONS.notTestable) !== undefined ? 'NOT_TESTABLE' : 'SKIPPED';
  // Under the gauntlet a failed check does not fail the Playwright test: the checks decide.
  const mustFailed = payload.checks.some((c) => c.verdict === 'FAIL' && requirementById(c.requirement)?.level === 'MUST');
  if (mustFailed) return 'FAIL';
  if (result.status === 'passed') return 'PASS';
  if (result.status === 'interrupted' || result.status === 'timedOut') return 'INTERRUPTED';
  return annotation(ANNOTATIONS.interrupted) !== undefined ? 'INTERRUPTED' : 'ERROR';
}

/** The spec file and line a scenario is written at (its `source` annotation), else Playwright's location. */
function sourceOf(source: string | undefined, test: TestCase): [string, number] {
  const match = source ? /^(.*?)(?::(\d+))?$/.exec(source) : null;
  if (!match?.[1]) return [relative(process.cwd(), test.location.file), test.location.line];
  return [relative(process.cwd(), match[1]), Number(match[2] ?? 0)];
}

function interruptedReason(result: TestResult): string {
  return result.status === 'timedOut' ? 'the scenario ran out of time (Playwright timeout)' : 'the run was interrupted';
}

/** Per gauntlet fault: the requirement verdicts of the scenarios run under it, and what each failed. */
function gauntletResults(plan: GauntletPlan, tests: readonly TestRecord[]): GauntletFaultResult[] {
  return plan.faults.map((fault) => {
    const runs = tests.filter((t) => t.fault === fault.name);
    const judged = new Set(runs.flatMap((t) => [...judgementsOf(t).keys()]));
    const requirements = foldAll(REQUIREMENTS.filter((r) => judged.has(r.id)), runs, () => undefined).map(({ id, status, reason }) => ({
      id,
      status,
      ...(reason ? { reason } : {}),
    }));
    const scenarios = runs.map((t) => ({
      scenario: t.scenario,
      status: t.status,
      failed: [...judgementsOf(t)].filter(([, j]) => j.status === 'FAIL').map(([id]) => id),
    }));
    return { fault: fault.name, breaks: fault.breaks, requirements, scenarios };
  });
}

function evidenceOf(result: TestResult): EvidencePayload {
  const attachment = result.attachments.find((a) => a.name === EVIDENCE_ATTACHMENT && a.body);
  if (!attachment?.body) return { checks: [], exchanges: [], redirects: [] };
  return JSON.parse(attachment.body.toString('utf8')) as EvidencePayload;
}

function summaryOnly(exchange: EvidenceExchange): EvidenceExchange {
  const { id, startedAt, durationMs, summary, error } = exchange;
  return { id, startedAt, durationMs, summary, ...(error ? { error } : {}) };
}

function tally<K extends string>(values: K[], keys: readonly K[]): Record<K, number> & { total: number } {
  const counts = Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;
  for (const value of values) counts[value] += 1;
  return { ...counts, total: values.length };
}

function stripAnsi(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}
