/**
 * The Playwright reporter that turns a run into a conformance report: reports/<run-id>/ and reports/latest/
 * with results.json, a self-contained index.html and junit.xml.
 */
import { copyFileSync, cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { REQUIREMENTS } from '../spec/requirements.js';
import { readRunContext, type RunContext } from '../targets/run-context.js';
import { renderHtml } from './html.js';
import { renderJunit } from './junit.js';
import type { EvidenceExchange, RequirementStatus, RunResults, TestRecord, TestStatus } from './types.js';
import { EVIDENCE_ATTACHMENT, type EvidencePayload } from './evidence.js';
import { activeDeviation, foldRequirement, runVerdict } from './verdict.js';

const REQUIREMENT_TAG = /^@?([A-Z]{3}-\d{2,3})$/;

/** Errors that mean the run could not judge (network, browser), not that the target broke a rule. */
const INFRASTRUCTURE_SIGNS = [
  'TargetUnreachableError',
  'BrowserNotFoundError',
  'Target page, context or browser has been closed',
  'browserType.launch',
];

export default class ConformanceReporter implements Reporter {
  private readonly context: RunContext | undefined = readRunContext();
  private readonly tests: TestRecord[] = [];
  private readonly files: { from: string; to: string }[] = [];
  private startedAt = new Date();

  printsToStdio(): boolean {
    return false;
  }

  onBegin(): void {
    this.startedAt = new Date();
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    // Retries: only the last attempt counts.
    const existing = this.tests.findIndex((t) => t.id === test.id);
    const record = this.recordOf(test, result);
    if (existing >= 0) this.tests[existing] = record;
    else this.tests.push(record);
  }

  onEnd(result: FullResult): void {
    const context = this.context;
    if (!context) return; // Playwright run bare (e.g. --list): nothing to certify.
    const finishedAt = new Date();
    const byRequirement = new Map<string, TestRecord[]>();
    for (const test of this.tests) {
      for (const id of test.requirements) byRequirement.set(id, [...(byRequirement.get(id) ?? []), test]);
    }
    const requirements = REQUIREMENTS.map((entry) =>
      foldRequirement(
        entry,
        byRequirement.get(entry.id) ?? [],
        activeDeviation(entry.id, context.target.deviations, finishedAt),
      ),
    );
    const filtered = context.filtered || result.status === 'interrupted';
    const verdict = runVerdict(requirements, filtered);
    const results: RunResults = {
      schemaVersion: 1,
      tool: context.tool,
      runId: context.runId,
      target: {
        name: context.target.name,
        environment: context.target.environment,
        baseUrl: context.target.baseUrl,
        embedded: context.target.embedded,
        faults: context.target.faults,
      },
      startedAt: context.startedAt,
      finishedAt: finishedAt.toISOString(),
      durationMs: finishedAt.getTime() - Date.parse(context.startedAt),
      filtered,
      verdict: verdict.verdict,
      verdictReasons: verdict.reasons,
      exitCode: verdict.exitCode,
      summary: {
        tests: tally<TestStatus>(
          this.tests.map((t) => t.status),
          ['PASS', 'FAIL', 'NOT_TESTABLE', 'SKIPPED', 'INTERRUPTED'],
        ),
        requirements: tally<RequirementStatus>(
          requirements.map((r) => r.status),
          ['PASS', 'FAIL', 'WARNING', 'NOT_TESTABLE', 'SKIPPED', 'KNOWN_DEVIATION', 'INTERRUPTED', 'NOT_COVERED', 'MANUAL'],
        ),
      },
      requirements,
      tests: this.tests.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line),
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
    const requirements = test.tags.flatMap((tag) => REQUIREMENT_TAG.exec(tag)?.[1] ?? []);
    const error = result.errors.map((e) => stripAnsi(e.message ?? e.value ?? '')).join('\n\n') || undefined;
    const status = statusOf(result, annotations, error);
    const reason = annotations.find((a) => a.type === 'not-testable' || a.type === 'skipped')?.description;
    const payload = evidenceOf(result);
    const files = result.attachments
      .filter((a) => a.path && a.name !== EVIDENCE_ATTACHMENT)
      .map((a) => {
        const to = join('files', test.id, `${a.name}-${basename(a.path ?? '')}`);
        this.files.push({ from: a.path ?? '', to });
        return { name: a.name, path: to, contentType: a.contentType };
      });
    return {
      id: test.id,
      title: test.title,
      file: relative(process.cwd(), test.location.file),
      line: test.location.line,
      requirements,
      status,
      ...(reason ? { reason } : {}),
      durationMs: result.duration,
      ...(error && status !== 'PASS' ? { error } : {}),
      warnings: annotations.filter((a) => a.type === 'warning').map((a) => a.description ?? ''),
      evidence: {
        // Full request and response for every non-PASS result; a summary line otherwise.
        exchanges: payload.exchanges.map((e) => (status === 'PASS' ? summaryOnly(e) : e)),
        redirects: payload.redirects,
        files,
      },
    };
  }
}

function statusOf(result: TestResult, annotations: TestCase['annotations'], error: string | undefined): TestStatus {
  if (result.status === 'passed') return 'PASS';
  if (result.status === 'skipped') return annotations.some((a) => a.type === 'not-testable') ? 'NOT_TESTABLE' : 'SKIPPED';
  if (result.status === 'interrupted' || result.status === 'timedOut') return 'INTERRUPTED';
  if (error && INFRASTRUCTURE_SIGNS.some((sign) => error.includes(sign))) return 'INTERRUPTED';
  return 'FAIL';
}

function evidenceOf(result: TestResult): EvidencePayload {
  const attachment = result.attachments.find((a) => a.name === EVIDENCE_ATTACHMENT && a.body);
  if (!attachment?.body) return { exchanges: [], redirects: [] };
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
