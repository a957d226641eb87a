/**
 * The judge the reference bank runs as a judging sandbox (`serve --judge`): the TPP rules on every request
 * of every TPP, as the bank answers them (the bank sees its own SCA pages, so the redirect rules are always
 * judged, and its clock is exact). Each TPP reads its own report, by its certificate, at the sandbox path;
 * every TPP's report is written when the sandbox stops.
 */
import { join } from 'node:path';
import { renderHtml } from '../report/html/page.js';
import type { RunResults } from '../report/results-types.js';
import { tppRefOf, tppRuleCard, type ObservedExchange, type TppRuleCard } from '../tpp-judge/index.js';
import { TrafficJudging } from './judging.js';
import { writeResults, type ReportContext } from './report.js';

export interface SandboxJudgingOptions {
  /** The CAs the bank trusts for TPP certificates (serve --trust-ca); none when it accepts any. */
  trustedCaPems?: readonly string[];
  tool: { name: string; version: string };
  /** The bank's address, known once it listens. */
  baseUrl: () => string;
  maskPersonalData: boolean;
}

export class SandboxJudging {
  private readonly judging: TrafficJudging;
  private readonly startedAt = new Date();
  readonly runId = `sandbox-${this.startedAt.toISOString().replace(/[:.]/g, '-')}`;

  constructor(private readonly options: SandboxJudgingOptions) {
    this.judging = new TrafficJudging({
      judgeBank: false,
      basePath: '',
      environment: 'sandbox',
      ...(options.trustedCaPems === undefined ? {} : { trustedCaPems: options.trustedCaPems }),
      // The sandbox serves the SCA pages itself: every link the PSU opens, it sees; and every identifier it ever gave.
      seesScaLink: () => true,
      fromBankStart: true,
    });
  }

  observe(exchange: ObservedExchange): readonly string[] {
    return this.judging.observe(exchange).broken;
  }

  /** The report of the TPP whose key signed the request (the bank verified it before the route ran). */
  report(exchange: ObservedExchange, format: 'json' | 'html'): { contentType: string; body: string } {
    const signer = exchange.signer ?? undefined;
    const results = this.judging.tppResults(this.context(), signer === undefined ? 'none' : tppRefOf(signer).key);
    return format === 'html'
      ? { contentType: 'text/html; charset=utf-8', body: renderHtml(results) }
      : { contentType: 'application/json', body: JSON.stringify(results, null, 2) };
  }

  /** A TPP rule as the sandbox shows it on its pages (id, level, statement, hint): the bank reads it through its judge. */
  rule(id: string): TppRuleCard | undefined {
    return tppRuleCard(id);
  }

  /** Every TPP's report, one folder each (`<dir>/<run-id>/<TPP key, first 12>/`), and one of them all. */
  writeReports(dir: string): { all: RunResults; folders: string[] } {
    this.judging.finish();
    const context = this.context();
    const root = join(dir, this.runId);
    const folders = this.judging.tppTally.summaries().map((summary) => {
      const folder = join(root, `tpp-${summary.tpp.key.slice(0, 12)}`);
      writeResults(folder, this.judging.tppResults(context, summary.tpp.key));
      return folder;
    });
    const all = this.judging.tppResults(context);
    writeResults(join(root, 'all'), all);
    return { all, folders };
  }

  private context(): ReportContext {
    return {
      runId: this.runId,
      startedAt: this.startedAt,
      finishedAt: new Date(),
      tool: this.options.tool,
      target: {
        name: 'the judging sandbox (reference bank)',
        environment: 'sandbox',
        baseUrl: this.options.baseUrl(),
        embedded: true,
        faults: [],
      },
      source: 'sandbox',
      maskPersonalData: this.options.maskPersonalData,
    };
  }
}
