/**
 * The Playwright reporter that turns a run into a conformance report: reports/<run-id>/ and reports/latest/
 * with results.json, a self-contained index.html and junit.xml. Requirement verdicts come from the checks
 * each scenario recorded (lib/fixtures), folded by lib/report/verdict.ts.
 */
import { basename, join, relative, resolve } from 'node:path';
import type { FullResult, Reporter, TestCase, TestError, TestResult } from '@playwright/test/reporter';
import { requirementIdOfTag } from '../spec/coverage.js';
import { requirementById } from '../spec/requirements.js';
import { readRunContext, type RunContext } from '../targets/run-context.js';
import { curlCommand } from './curl.js';
import { ANNOTATIONS, EVIDENCE_ATTACHMENT, type EvidencePayload } from './evidence.js';
import { buildResults } from './results.js';
import type { EvidenceExchange, TestRecord, TestStatus } from './types.js';
import { writeReport, type EvidenceFileCopy } from './write.js';

export default class ConformanceReporter implements Reporter {
  private readonly context: RunContext | undefined = readRunContext();
  private readonly tests: TestRecord[] = [];
  private readonly files: EvidenceFileCopy[] = [];
  private readonly suiteFiles = new Set<string>();
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
    this.suiteFiles.add(resolve(process.cwd(), record.file));
  }

  onError(error: TestError): void {
    this.runErrors.push(stripAnsi(error.message ?? error.value ?? 'unknown error'));
  }

  onEnd(result: FullResult): void {
    const context = this.context;
    if (!context) return; // Playwright run bare (e.g. --list): nothing to certify.
    const results = buildResults({
      context,
      tests: this.tests,
      suiteFiles: [...this.suiteFiles],
      runErrors: this.runErrors,
      interrupted: result.status === 'interrupted',
      finishedAt: new Date(),
    });
    writeReport(context.reportRoot, results, this.files);
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
    const fault = annotation(ANNOTATIONS.fault);
    const scenario = annotation(ANNOTATIONS.scenario) ?? test.title;
    // Evidence files sit under the scenario's stable id (and the fault it ran under), like its HTML anchor.
    const folder = join('files', `${scenario}${fault ? `-${fault}` : ''}`.replace(/[^\w.-]+/g, '_'));
    const files = result.attachments
      .filter((a) => a.path && a.name !== EVIDENCE_ATTACHMENT)
      .map((a) => {
        const to = join(folder, `${a.name}-${basename(a.path ?? '')}`);
        this.files.push({ from: a.path ?? '', to });
        return { name: a.name, path: to, contentType: a.contentType };
      });
    const [file, line] = sourceOf(annotation(ANNOTATIONS.source), test);
    return {
      id: test.id,
      scenario,
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
        exchanges: payload.exchanges.map((e) => (status === 'PASS' ? summaryOnly(e) : withCurl(e))),
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

function evidenceOf(result: TestResult): EvidencePayload {
  const attachment = result.attachments.find((a) => a.name === EVIDENCE_ATTACHMENT && a.body);
  if (!attachment?.body) return { checks: [], exchanges: [], redirects: [] };
  return JSON.parse(attachment.body.toString('utf8')) as EvidencePayload;
}

function withCurl(exchange: EvidenceExchange): EvidenceExchange {
  return exchange.request ? { ...exchange, curl: curlCommand(exchange.request) } : exchange;
}

function summaryOnly(exchange: EvidenceExchange): EvidenceExchange {
  const { id, startedAt, durationMs, summary, error } = exchange;
  return { id, startedAt, durationMs, summary, ...(error ? { error } : {}) };
}

function stripAnsi(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}
