/**
 * Judging a stream of traffic on both sides at once: each TPP's requests against the TPP rules
 * (lib/tpp-judge), the bank's answers against the rules the suite checks on every exchange (bank-side.ts).
 * The judging sandbox, the proxy and the audit all feed one of these, exchange by exchange, and read the
 * same two reports from it.
 */
import { BANK_REQUIREMENTS, TPP_REQUIREMENTS } from '../spec/requirements.js';
import type { RunResults } from '../report/results-types.js';
import { RuleTally, TppJudge, type ExchangeVerdict, type JudgeOptions, type ObservedExchange } from '../tpp-judge/index.js';
import { BankSideJudge } from './bank-side.js';
import { resultsOf, type ReportContext } from './report.js';

export interface TrafficJudgingOptions extends JudgeOptions {
  /** Also judge the bank's answers (the proxy and the audit; the sandbox is the bank, it does not judge itself). */
  judgeBank: boolean;
}

/** What one exchange was found to break, for a live answer (the sandbox's response header, the proxy's console). */
export interface Observation {
  tpp: ExchangeVerdict;
  /** TPP rules the request broke (FAIL), in catalogue order. */
  broken: string[];
  /** Bank-side rules the answer broke. */
  bankBroken: string[];
}

export class TrafficJudging {
  readonly tppTally = new RuleTally();
  readonly bankTally = new RuleTally();
  private readonly tppJudge: TppJudge;
  private readonly bankJudge: BankSideJudge | undefined;
  private readonly bankRulesJudged = new Set<string>();

  constructor(options: TrafficJudgingOptions) {
    const { judgeBank, ...judge } = options;
    this.tppJudge = new TppJudge(judge);
    this.bankJudge = judgeBank ? new BankSideJudge(options.basePath, options.paths ?? {}) : undefined;
  }

  observe(exchange: ObservedExchange): Observation {
    const verdict = this.tppJudge.judge(exchange);
    this.tppTally.add(verdict);
    const bank = this.bankJudge?.judge(exchange);
    if (bank !== undefined) {
      this.bankTally.add(bank);
      for (const check of bank.checks) this.bankRulesJudged.add(check.rule);
    }
    return { tpp: verdict, broken: failedRules(verdict), bankBroken: bank === undefined ? [] : failedRules(bank) };
  }

  /** The end of the traffic: the findings that waited for it. */
  finish(): void {
    for (const verdict of this.tppJudge.finish()) this.tppTally.add(verdict);
  }

  /** The TPP report: every TPP of the traffic, or only the one with this key (the sandbox shows a TPP its own). */
  tppResults(context: ReportContext, only?: string): RunResults {
    return resultsOf(this.tppTally, 'tpp-conformance', TPP_REQUIREMENTS, context, only);
  }

  /** The bank report: the rules checked on every exchange, and any other the answers' schemas touched. */
  bankResults(context: ReportContext): RunResults {
    const catalogue = BANK_REQUIREMENTS.filter((entry) => entry.everyExchange === true || this.bankRulesJudged.has(entry.id));
    return resultsOf(this.bankTally, 'bank-conformance', catalogue, context);
  }
}

function failedRules(verdict: ExchangeVerdict): string[] {
  return [...new Set(verdict.checks.filter((check) => check.verdict === 'FAIL').map((check) => check.rule))].sort();
}
