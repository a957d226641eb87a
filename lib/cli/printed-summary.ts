/**
 * What a run prints at its end: the summary of lib/report/results-summary.ts with the verdict and statuses in colour
 * (chalk: NO_COLOR and FORCE_COLOR are honoured, no colour when the output is not a terminal), and, in a
 * GitHub Actions job ($GITHUB_STEP_SUMMARY), a Markdown summary of the same. Both show the results as a person
 * reads them on a console (consoleView): results.json keeps everything.
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

/** `silent`: nothing on the console (`run --reporter null`); the job summary is still written. */
export function printSummary(
  results: RunResults,
  reportPath: string,
  { silent = false, env = process.env }: { silent?: boolean; env?: NodeJS.ProcessEnv } = {},
): void {
  if (!silent) console.log(formatSummary(consoleView(results), reportPath, TERMINAL_PAINT));
  if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, markdownSummary(withIdsCounted(results)));
}

/** Ids a verdict reason names before it counts the rest (a filtered run leaves hundreds out). */
const LISTED_IDS = 10;
/** A list of requirement or scenario ids, as the verdict reasons give them. */
const ID_LIST = /(?:[A-Z]{3}-\d{2,3}(?:\.[a-z]+)?, )+[A-Z]{3}-\d{2,3}(?:\.[a-z]+)?/g;

/** The verdict reasons with each list of ids cut to LISTED_IDS, the rest counted (results.json has them all). */
function withIdsCounted(results: RunResults): RunResults {
  const verdictReasons = results.verdictReasons.map((reason) =>
    reason.replace(ID_LIST, (list) => {
      const ids = list.split(', ');
      return ids.length <= LISTED_IDS ? list : `${ids.slice(0, LISTED_IDS).join(', ')} and ${ids.length - LISTED_IDS} more (results.json)`;
    }),
  );
  return { ...results, verdictReasons };
}

/**
 * The results as the console shows them: ids counted (withIdsCounted); the error of a scenario that stopped is
 * printed once, on its ERROR line, and each requirement it left unjudged points there instead of repeating it;
 * any other reason several requirements share is printed once.
 */
export function consoleView(results: RunResults): RunResults {
  const stopped = results.tests
    .filter((test) => test.status === 'ERROR' && test.gauntletCase === undefined)
    .map((test) => ({ scenario: test.scenario, requirements: test.requirements, error: (test.error ?? '').split('\n')[0] ?? '' }))
    .filter((test) => test.error !== '');
  const firstWith = new Map<string, string>();
  const requirements = results.requirements.map((requirement) => {
    const { reason } = requirement;
    if (reason === undefined) return requirement;
    const by = stopped
      .filter((test) => test.requirements.includes(requirement.id) && reason.endsWith(test.error))
      .map((test) => test.scenario);
    if (by.length > 0) return { ...requirement, reason: `not judged: ${by.join(', ')} stopped with an error (below)` };
    const first = firstWith.get(reason);
    if (first === undefined) firstWith.set(reason, requirement.id);
    return first === undefined ? requirement : { ...requirement, reason: `as for ${first}` };
  });
  return { ...withIdsCounted(results), requirements };
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
  const attention = results.requirements.filter((r) =>
    ['FAIL', 'WARNING', 'INTERRUPTED', 'NOT_EVALUATED', 'KNOWN_DEVIATION'].includes(r.status),
  );
  if (attention.length > 0) {
    lines.push('', '| Requirement | Level | Status | Why |', '| --- | --- | --- | --- |');
    for (const r of attention) lines.push(`| ${r.id} | ${r.level} | ${r.status} | ${cell(r.reason ?? r.statement)} |`);
  }
  return `${lines.join('\n')}\n\n`;
}
