/**
 * What a run prints at its end: the summary of lib/report/results-summary.ts with the verdict and statuses in colour
 * (chalk: NO_COLOR and FORCE_COLOR are honoured, no colour when the output is not a terminal), and, in a
 * GitHub Actions job ($GITHUB_STEP_SUMMARY), a Markdown summary of the same.
 */
import { appendFileSync } from 'node:fs';
import chalk from 'chalk';
import { formatSummary, type Paint } from '../report/results-summary.js';
import type { RunResults } from '../report/results-types.js';

const GOOD = new Set(['PASS', 'CONFORMANT']);
const BAD = new Set(['FAIL', 'NON_CONFORMANT', 'ERROR']);
const DOUBTFUL = new Set(['WARNING', 'INCOMPLETE', 'INTERRUPTED', 'NOT_EVALUATED', 'FLAKY']);

export const TERMINAL_PAINT: Paint = {
  status(status) {
    if (GOOD.has(status)) return chalk.green(status);
    if (BAD.has(status)) return chalk.red.bold(status);
    if (DOUBTFUL.has(status)) return chalk.yellow(status);
    if (status === 'KNOWN_DEVIATION') return chalk.magenta(status);
    return chalk.dim(status);
  },
};

export function printSummary(results: RunResults, reportPath: string, env: NodeJS.ProcessEnv = process.env): void {
  console.log(formatSummary(results, reportPath, TERMINAL_PAINT));
  if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, markdownSummary(results));
}

/** The verdict, the counts and what needs a look, as GitHub renders a job summary. */
export function markdownSummary(results: RunResults): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const counts = (tally: Record<string, number>) =>
    Object.entries(tally)
      .filter(([key, n]) => key !== 'total' && n > 0)
      .map(([key, n]) => `${n} ${key}`)
      .join(', ') || 'none';
  const lines = [
    `## xs2a-conformance: ${results.verdict} (exit ${results.exitCode})`,
    '',
    `Target **${cell(results.target.name)}** (${results.target.environment}) · ${results.tool.name} ${results.tool.version} · ${(results.durationMs / 1000).toFixed(1)} s`,
    '',
    `- Scenarios: ${counts(results.summary.tests)} (of ${results.summary.tests.total})`,
    `- Requirements: ${counts(results.summary.requirements)} (of ${results.summary.requirements.total})`,
    ...results.verdictReasons.map((reason) => `- ${cell(reason)}`),
  ];
  const attention = results.requirements.filter((r) => ['FAIL', 'WARNING', 'INTERRUPTED', 'NOT_EVALUATED', 'KNOWN_DEVIATION'].includes(r.status));
  if (attention.length > 0) {
    lines.push('', '| Requirement | Level | Status | Why |', '| --- | --- | --- | --- |');
    for (const r of attention) lines.push(`| ${r.id} | ${r.level} | ${r.status} | ${cell(r.reason ?? r.statement)} |`);
  }
  return `${lines.join('\n')}\n\n`;
}
