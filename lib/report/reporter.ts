/**
 * The Playwright reporter that turns a run into a conformance report: reports/<run-id>/ and reports/latest/
 * with results.json, a self-contained index.html and junit.xml. Requirement verdicts come from the checks
 * each scenario recorded (lib/fixtures), folded by lib/report/verdict.ts.
 */
import { realpathSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestError, TestResult } from '@playwright/test/reporter';
import { requirementIdOfTag } from '../spec/coverage.js';
import { RUN_CONTEXT_ENV, readRunContext, secretsOf, type RunContext } from '../targets/run-context.js';
import { curlCommand } from './curl.js';
import { canRaiseDeferredFailures, deferFailuresInWorkers, raiseDeferredFailures } from './deferred-failures.js';
import { boundExchanges } from './evidence-bounds.js';
import {
  ANNOTATIONS,
  EVIDENCE_ATTACHMENT,
  mustCheckFailed,
  TRAFFIC_ATTACHMENT,
  type EvidencePayload,
  type TrafficPayload,
} from './attachments.js';
import { Masker } from './mask.js';
import { provenanceOf } from './provenance.js';
import { assembleResults } from './results.js';
import { leaveSelectionFor, selectionOf, type Selection } from './selection.js';
import { SuiteTrafficRecorder } from './traffic-har.js';
import type { EvidenceExchange, TestRecord, TestStatus } from './results-types.js';
import { writeReport, type EvidenceFileCopy } from './write.js';

export default class ConformanceReporter implements Reporter {
  /** Read when the run begins: a plain `npx playwright test` prepares the target in its global setup. */
  private context: RunContext | undefined;
  /** [safety] The last gate before a file is written: what Playwright reports (errors, reasons, warnings) is masked here too. */
  private masker = new Masker(true);
  private selection: Selection | undefined;
  private projectDir = process.cwd();
  /** Every attempt of every test, in order (retries included: a pass on retry is FLAKY, never PASS). */
  private readonly attempts = new Map<string, TestRecord[]>();
  private readonly files: EvidenceFileCopy[] = [];
  /** The spec files whose scenarios ran, for the provenance. */
  private readonly suiteFiles = new Set<string>();
  /** Errors outside any test, such as a suite file that throws while loading. */
  private readonly runErrors: string[] = [];
  /** The run's traffic, when it is recorded (`run --har`). */
  private traffic: SuiteTrafficRecorder | undefined;
  /** The workers defer their failed checks to this reporter (deferred-failures.ts). */
  private raisesDeferred = false;

  printsToStdio(): boolean {
    return false;
  }

  onBegin(config: FullConfig, suite: Suite): void {
    this.context = readRunContext();
    if (this.context?.harFile !== undefined)
      this.traffic = new SuiteTrafficRecorder(
        this.context.harFile,
        new Masker(this.context.maskPersonalData, secretsOf(this.context.target), this.context.maskKey, 'lookalike'),
      );
    if (this.context) this.masker = new Masker(this.context.maskPersonalData, secretsOf(this.context.target), this.context.maskKey);
    // Spec files are named from the project's folder, wherever Playwright was started (and through links).
    this.projectDir = config.configFile ? dirname(realpathSync(config.configFile)) : process.cwd();
    this.selection = selectionOf(config, suite);
    const contextFile = process.env[RUN_CONTEXT_ENV];
    if (contextFile) leaveSelectionFor(contextFile, this.selection);
    this.raisesDeferred = canRaiseDeferredFailures(config, fileURLToPath(import.meta.url));
    deferFailuresInWorkers(this.raisesDeferred);
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const payload = evidenceOf(result);
    // Before any other reporter hears of the test (this one is first when the workers defer).
    if (this.raisesDeferred) raiseDeferredFailures(result, payload.deferredFailures ?? []);
    const record = this.recordOf(test, result, payload);
    this.attempts.set(test.id, [...(this.attempts.get(test.id) ?? []), record]);
    this.suiteFiles.add(test.location.file);
    // Gauntlet runs break the bank on purpose: they are not traffic a TPP would send.
    const traffic = record.gauntletCase === undefined ? result.attachments.find((a) => a.name === TRAFFIC_ATTACHMENT && a.body) : undefined;
    if (traffic?.body) this.traffic?.add(JSON.parse(traffic.body.toString('utf8')) as TrafficPayload);
  }

  onError(error: TestError): void {
    this.runErrors.push(this.masker.display(stripAnsi(error.message ?? error.value ?? 'unknown error')));
  }

  onEnd(result: FullResult): void {
    deferFailuresInWorkers(false);
    const context = this.context;
    if (context) this.traffic?.write(context.tool);
    // Playwright run bare (--list), or nothing selected: nothing to certify, and no report replaces the last one.
    if (!context || !this.selection || this.selection.tests === 0) return;
    const tests = [...this.attempts.values()].map(oneRecord);
    const finishedAt = new Date();
    const results = assembleResults({
      context,
      tests,
      runErrors: this.runErrors,
      selection: this.selection,
      interrupted: result.status === 'interrupted' || result.status === 'timedout',
      finishedAt,
      provenance: provenanceOf(context, [...this.suiteFiles], finishedAt, this.masker),
    });
    writeReport(context.reportRoot, context.runId, results, this.files);
  }

  private recordOf(test: TestCase, result: TestResult, payload: EvidencePayload): TestRecord {
    const annotations = [...test.annotations, ...result.annotations];
    const annotation = (type: string) => {
      const description = annotations.find((a) => a.type === type)?.description;
      return description === undefined ? undefined : this.masker.display(description);
    };
    const requirements = test.tags.flatMap((tag) => requirementIdOfTag(tag) ?? []);
    const error = this.masker.display(result.errors.map((e) => stripAnsi(e.message ?? e.value ?? '')).join('\n\n')) || undefined;
    const status = statusOf(result, annotation, payload);
    const reason =
      annotation(ANNOTATIONS.notTestable) ??
      annotation(ANNOTATIONS.skipped) ??
      (status === 'INTERRUPTED' ? (annotation(ANNOTATIONS.interrupted) ?? interruptedReason(result)) : undefined);
    const gauntletCase = annotation(ANNOTATIONS.gauntletCase);
    const scenario = annotation(ANNOTATIONS.scenario) ?? test.title;
    // Evidence files sit under the scenario's stable id (and the gauntlet case it ran under), like its HTML anchor.
    const folder = join('files', `${scenario}${gauntletCase ? `-${gauntletCase}` : ''}`.replace(/[^\w.-]+/g, '_'));
    const files = result.attachments
      .filter((a) => a.path && a.name !== EVIDENCE_ATTACHMENT)
      .map((a) => {
        const to = join(folder, `${result.retry ? `retry${result.retry}-` : ''}${a.name}-${basename(a.path ?? '')}`);
        this.files.push({ from: a.path ?? '', to });
        // The console reporters after this one print the path: the report's copy, as the run's private folder goes with the run.
        if (this.context) a.path = join(this.context.reportRoot, this.context.runId, to);
        return { name: a.name, path: to, contentType: a.contentType };
      });
    // Full request and response for every non-PASS result, bounded (evidence-bounds.ts); a summary line otherwise.
    const bounded =
      status === 'PASS'
        ? { exchanges: payload.exchanges.map(summaryOnly), bodies: [] }
        : boundExchanges(payload.exchanges, `${folder}/${result.retry ? `retry${result.retry}-` : ''}`);
    for (const body of bounded.bodies) {
      this.files.push({ content: body.content, to: body.path });
      files.push({ name: body.name, path: body.path, contentType: 'text/plain' });
    }
    return {
      id: test.id,
      scenario,
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
      // Playwright lists a test's runtime annotations both on the test and on its result: each warning once.
      warnings: [
        ...new Set(annotations.filter((a) => a.type === ANNOTATIONS.warning).map((a) => this.masker.display(a.description ?? ''))),
      ],
      checks: payload.checks,
      evidence: {
        exchanges: status === 'PASS' ? bounded.exchanges : bounded.exchanges.map(withCurl),
        redirects: payload.redirects,
        files,
        ...('probes' in bounded && bounded.probes ? { probes: bounded.probes } : {}),
      },
    };
  }
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
  if (mustCheckFailed(payload.checks)) return 'FAIL';
  if (result.status === 'passed') return 'PASS';
  if (result.status === 'interrupted' || result.status === 'timedOut') return 'INTERRUPTED';
  return annotation(ANNOTATIONS.interrupted) !== undefined ? 'INTERRUPTED' : 'ERROR';
}

function interruptedReason(result: TestResult): string {
  if (result.status === 'skipped') return 'not run: the run was interrupted before it';
  return result.status === 'timedOut' ? 'the scenario ran out of time (Playwright timeout)' : 'the run was interrupted';
}

function evidenceOf(result: TestResult): EvidencePayload {
  const attachment = result.attachments.find((a) => a.name === EVIDENCE_ATTACHMENT && a.body);
  if (!attachment?.body) return { checks: [], exchanges: [], redirects: [] };
  return JSON.parse(attachment.body.toString('utf8')) as EvidencePayload;
}

function withCurl(exchange: EvidenceExchange): EvidenceExchange {
  return exchange.request ? { ...exchange, curl: curlCommand(exchange.request) } : exchange;
}

/** What the report keeps of an exchange of a scenario that passed (the fixtures send no more: lib/fixtures/evidence-fixtures.ts). */
function summaryOnly(exchange: EvidenceExchange): EvidenceExchange {
  const { id, startedAt, durationMs, summary, error } = exchange;
  return { id, startedAt, durationMs, summary, ...(error ? { error } : {}) };
}

function stripAnsi(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}
