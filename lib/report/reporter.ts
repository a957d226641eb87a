/**
 * The Playwright reporter that turns a run into a conformance report: reports/<run-id>/ and reports/latest/
 * with results.json, a self-contained index.html and junit.xml. Requirement verdicts come from the checks
 * each scenario recorded (lib/fixtures), folded by lib/report/verdict.ts.
 */
import { copyFileSync, cpSync, mkdirSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestError, TestResult } from '@playwright/test/reporter';
import { requirementIdOfTag } from '../spec/coverage.js';
import { REQUIREMENTS, requirementById } from '../spec/requirements.js';
import { RUN_CONTEXT_ENV, readRunContext, secretsOf, type GauntletPlan, type RunContext } from '../targets/run-context.js';
import { ANNOTATIONS, EVIDENCE_ATTACHMENT, type EvidencePayload } from './evidence.js';
import { renderHtml } from './html.js';
import { renderJunit } from './junit.js';
import { Masker } from './mask.js';
import { leaveSelectionFor, selectionOf, type Selection } from './selection.js';
import {
  REQUIREMENT_STATUSES,
  TEST_STATUSES,
  type EvidenceExchange,
  type GauntletCaseResult,
  type RunResults,
  type TestRecord,
  type TestStatus,
} from './types.js';
import { EXIT_CODES, activeDeviation, foldAll, judgementsOf, runVerdict } from './verdict.js';

export default class ConformanceReporter implements Reporter {
  /** Read when the run begins: a plain `npx playwright test` prepares the target in its global setup. */
  private context: RunContext | undefined;
  /** [safety] The last gate before a file is written: what Playwright reports (errors, reasons, warnings) is masked here too. */
  private masker = new Masker(true);
  private selection: Selection | undefined;
  private projectDir = process.cwd();
  /** Every attempt of every test, in order (retries included: a pass on retry is FLAKY, never PASS). */
  private readonly attempts = new Map<string, TestRecord[]>();
  private readonly files: { from: string; to: string }[] = [];
  /** Errors outside any test, such as a suite file that throws while loading. */
  private readonly runErrors: string[] = [];

  printsToStdio(): boolean {
    return false;
  }

  onBegin(config: FullConfig, suite: Suite): void {
    this.context = readRunContext();
    if (this.context) this.masker = new Masker(this.context.maskPersonalData, secretsOf(this.context.target), this.context.maskKey);
    // Spec files are named from the project's folder, wherever Playwright was started (and through links).
    this.projectDir = config.configFile ? dirname(realpathSync(config.configFile)) : process.cwd();
    this.selection = selectionOf(config, suite);
    const contextFile = process.env[RUN_CONTEXT_ENV];
    if (contextFile) leaveSelectionFor(contextFile, this.selection);
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    this.attempts.set(test.id, [...(this.attempts.get(test.id) ?? []), this.recordOf(test, result)]);
  }

  onError(error: TestError): void {
    this.runErrors.push(this.masker.display(stripAnsi(error.message ?? error.value ?? 'unknown error')));
  }

  onEnd(result: FullResult): void {
    const context = this.context;
    // Playwright run bare (--list), or nothing selected: nothing to certify, and no report replaces the last one.
    if (!context || !this.selection || this.selection.tests === 0) return;
    const tests = [...this.attempts.values()].map(oneRecord);
    const results = assembleResults({
      context,
      tests,
      runErrors: this.runErrors,
      selection: this.selection,
      interrupted: result.status === 'interrupted' || result.status === 'timedout',
      finishedAt: new Date(),
    });
    writeReport(context.reportRoot, context.runId, results, this.files);
  }

  private recordOf(test: TestCase, result: TestResult): TestRecord {
    const annotations = [...test.annotations, ...result.annotations];
    const annotation = (type: string) => {
      const description = annotations.find((a) => a.type === type)?.description;
      return description === undefined ? undefined : this.masker.display(description);
    };
    const requirements = test.tags.flatMap((tag) => requirementIdOfTag(tag) ?? []);
    const error = this.masker.display(result.errors.map((e) => stripAnsi(e.message ?? e.value ?? '')).join('\n\n')) || undefined;
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
    const gauntletCase = annotation(ANNOTATIONS.gauntletCase);
    return {
      id: test.id,
      scenario: annotation(ANNOTATIONS.scenario) ?? test.title,
      title: test.title,
      // Playwright's own location: the spec file calls test() itself.
      file: relative(this.projectDir, test.location.file),
      line: test.location.line,
      ...(gauntletCase ? { gauntletCase } : {}),
      requirements,
      status,
      ...(reason ? { reason } : {}),
      durationMs: result.duration,
      ...(error && status !== 'PASS' ? { error } : {}),
      warnings: annotations.filter((a) => a.type === ANNOTATIONS.warning).map((a) => this.masker.display(a.description ?? '')),
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

/** What the report is made of; a merge of shards (lib/cli/commands/merge.ts) assembles its own from theirs. */
export interface ReportInput {
  context: Pick<RunContext, 'runId' | 'startedAt' | 'tool' | 'gauntlet'> & {
    target: Pick<RunContext['target'], 'name' | 'environment' | 'baseUrl' | 'embedded' | 'faults' | 'deviations'> & Partial<Pick<RunContext['target'], 'variants'>>;
  };
  tests: TestRecord[];
  runErrors: readonly string[];
  selection: Selection;
  /** Stopped by SIGINT, SIGTERM or the global timeout: what ran is reported, verdict INTERRUPTED. */
  interrupted: boolean;
  finishedAt: Date;
}

export function assembleResults({ context, tests, runErrors, selection, interrupted, finishedAt }: ReportInput): RunResults {
  const deviationOf = (id: string) => activeDeviation(id, context.target.deviations, finishedAt);
  // Under the gauntlet the runs of its cases certify nothing about the target: they are folded per case.
  const plain = tests.filter((t) => t.gauntletCase === undefined);
  const requirements = foldAll(REQUIREMENTS, plain, deviationOf);
  const filtered = selection.reasons.length > 0;
  const judged = runVerdict(requirements, plain, filtered, runErrors);
  const verdict = interrupted
    ? { verdict: 'INTERRUPTED' as const, reasons: ['the run was interrupted (SIGINT, SIGTERM or the global timeout): the report shows what ran', ...judged.reasons], exitCode: EXIT_CODES.infrastructureFailure }
    : judged;
  return {
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
    selection,
    verdict: verdict.verdict,
    verdictReasons: verdict.reasons,
    ...(runErrors.length > 0 ? { runErrors: [...runErrors] } : {}),
    exitCode: verdict.exitCode,
    summary: {
      tests: tally(plain.map((t) => t.status), TEST_STATUSES),
      requirements: tally(requirements.map((r) => r.status), REQUIREMENT_STATUSES),
    },
    requirements,
    tests: tests.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || (a.gauntletCase ?? '').localeCompare(b.gauntletCase ?? '')),
    ...(context.gauntlet ? { gauntlet: gauntletResults(context.gauntlet, tests) } : {}),
  };
}

/**
 * Writes <reportRoot>/<runId>/ (results.json, index.html, junit.xml, evidence files), then makes it
 * <reportRoot>/latest: a copy beside it renamed into place, so `latest` changes only once a whole report exists.
 */
export function writeReport(reportRoot: string, runId: string, results: RunResults, files: readonly { from: string; to: string }[]): void {
  const runDir = join(reportRoot, runId);
  mkdirSync(runDir, { recursive: true });
  for (const file of files) {
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
  const latest = join(reportRoot, 'latest');
  const incoming = join(reportRoot, `.latest-${runId}`);
  cpSync(runDir, incoming, { recursive: true });
  rmSync(latest, { recursive: true, force: true });
  renameSync(incoming, latest);
}

/**
 * One record per test: its last attempt, or, when it was retried, FLAKY if only a later attempt passed, with
 * the checks of every attempt (a check that failed in any attempt fails its requirement).
 */
function oneRecord(attempts: readonly TestRecord[]): TestRecord {
  const last = attempts[attempts.length - 1] as TestRecord;
  if (attempts.length === 1) return last;
  const earlier = attempts.slice(0, -1);
  const flaky = last.status === 'PASS' && earlier.some((a) => a.status !== 'PASS');
  return {
    ...last,
    status: flaky ? 'FLAKY' : last.status,
    ...(flaky ? { reason: `passed only on attempt ${attempts.length}: ${earlier.map((a) => a.status).join(', ')} before` } : {}),
    checks: attempts.flatMap((a) => a.checks),
    attempts: attempts.map((a) => ({ status: a.status, ...(a.error ? { error: a.error } : {}) })),
  };
}

/**
 * A failed Playwright test is FAIL only when a MUST check failed; otherwise it stopped outside its checks:
 * INTERRUPTED when the fixtures classified the error as infrastructure (by its type), else ERROR.
 */
function statusOf(result: TestResult, annotation: (type: string) => string | undefined, payload: EvidencePayload): TestStatus {
  if (result.status === 'skipped') {
    if (annotation(ANNOTATIONS.notTestable) !== undefined) return 'NOT_TESTABLE';
    // Skipped without a gate's reason: Playwright never ran it, because the run was stopped.
    return annotation(ANNOTATIONS.skipped) !== undefined ? 'SKIPPED' : 'INTERRUPTED';
  }
  // Under the gauntlet a failed check does not fail the Playwright test: the checks decide.
  const mustFailed = payload.checks.some((c) => c.verdict === 'FAIL' && requirementById(c.requirement)?.level === 'MUST');
  if (mustFailed) return 'FAIL';
  if (result.status === 'passed') return 'PASS';
  if (result.status === 'interrupted' || result.status === 'timedOut') return 'INTERRUPTED';
  return annotation(ANNOTATIONS.interrupted) !== undefined ? 'INTERRUPTED' : 'ERROR';
}

function interruptedReason(result: TestResult): string {
  if (result.status === 'skipped') return 'not run: the run was interrupted before it';
  return result.status === 'timedOut' ? 'the scenario ran out of time (Playwright timeout)' : 'the run was interrupted';
}

/** Per gauntlet case: the requirement verdicts of the scenarios run under it, and what each failed. */
function gauntletResults(plan: GauntletPlan, tests: readonly TestRecord[]): GauntletCaseResult[] {
  return plan.cases.map((gauntletCase) => {
    const runs = tests.filter((t) => t.gauntletCase === gauntletCase.name);
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
      ...(t.status === 'ERROR' || t.status === 'INTERRUPTED' ? { reason: t.reason ?? t.error?.split('\n')[0] ?? '' } : {}),
    }));
    const { name, kind, switches, breaks } = gauntletCase;
    return { case: name, kind, switches, breaks, requirements, scenarios };
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
