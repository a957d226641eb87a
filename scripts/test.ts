/**
 * `npm run test:fast` / `npm run test:e2e`: one tier of the project's own tests (scripts/test-tiers.ts), with
 * node:test's spec reporter. Extra arguments are node:test's options (`--test-name-pattern`, `--test-only`…).
 */
import { scriptArguments } from './script-arguments.js';
import { atOnceOf, nodeTestRunsOf, runSideBySide, TEST_TIERS } from './test-tiers.js';

const USAGE = `usage: node --import tsx scripts/test.ts <${TEST_TIERS.join('|')}> [node:test options]

  fast  every *.test.ts: no conformance run, no browser (the loop while working)
  e2e   every *.e2e.test.ts: the real command, the gauntlets, the browser
  all   both (npm run check runs them, then the suite)`;

// The tier is this script's own argument; what follows it is node:test's, passed on as given.
const [tier, ...rest] = process.argv.slice(2);
scriptArguments(USAGE, { maxPositionals: 1, choices: TEST_TIERS }, process.argv.slice(2, 3));
const started = Date.now();
const tiers = tier === 'all' ? (['fast', 'e2e'] as const) : [tier as 'fast' | 'e2e'];
let failed = false;
for (const one of tiers) {
  const runs = nodeTestRunsOf(one);
  const statuses = (await runSideBySide(runs, () => ['--test-reporter=spec', ...rest], atOnceOf(one))).map((ended) => ended.status);
  const failing = runs.filter((_, i) => statuses[i] !== 0).map((run) => run.label);
  console.log(
    `\n${one} tier: ${runs.length} processes, ${failing.length === 0 ? 'all passed' : `FAILED: ${failing.join(', ')}`}, ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  failed ||= statuses.some((status) => status !== 0);
}
process.exitCode = failed ? 1 : 0;
