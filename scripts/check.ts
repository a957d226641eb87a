/**
 * The project's own checks: typecheck and lint, beside them the conformance suite against the embedded
 * reference bank and the audit of that run's own traffic (a test file that reads the suite's HAR); then the
 * project's tests (node:test: the fast tier, then the e2e tier with the gauntlets; scripts/test-tiers.ts).
 * Ends with one line `N passed, N failed` counting every unit test, every suite test, and typecheck and lint
 * as one check each.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AFTER_SUITE, atOnceOf, nodeTestRunsOf, runCommandsSideBySide, runSideBySide, type NodeTestRun, type SideBySideCommand } from './test-tiers.js';

interface Count {
  name: string;
  passed: number;
  failed: number;
  seconds: number;
}

const USAGE = `usage: npm run check   (node --import tsx scripts/check.ts)

Typecheck, lint, the fast and e2e tiers of the project's tests (scripts/test-tiers.ts), the conformance suite
against the embedded reference bank with its traffic recorded, and the audit of that traffic. The last line is
"N passed, N failed"; exit 0 when nothing failed.`;

const asked = process.argv.slice(2);
if (asked.includes('--help') || asked.includes('-h')) {
  console.log(USAGE);
  process.exit(0);
}
if (asked.length > 0) {
  console.error(`unknown argument "${asked[0]}"\n${USAGE}`);
  process.exit(2);
}

const counts: Count[] = [];
const scratch = mkdtempSync(join(tmpdir(), 'xs2a-check-'));

/**
 * Commands that are one check each (typecheck, lint), side by side: each keeps one core busy for most of its
 * time, and this machine has two.
 */
async function asOneCheckEach(checks: readonly SideBySideCommand[]): Promise<void> {
  console.log(`\n=== ${checks.map((c) => c.label).join(', ')}`);
  const ended = await runCommandsSideBySide(checks);
  checks.forEach((check, i) => {
    const { status, seconds } = ended[i] ?? { status: 1, seconds: 0 };
    counts.push({ name: check.label, passed: status === 0 ? 1 : 0, failed: status === 0 ? 0 : 1, seconds });
  });
}

/** node:test processes run side by side, counted from their TAP output. */
async function nodeTests(name: string, runs: readonly NodeTestRun[], atOnce = runs.length): Promise<void> {
  console.log(`\n=== ${name}: ${runs.length > 4 ? `${runs.length} processes, ${atOnce} at a time` : runs.map((run) => run.label).join(', ')}`);
  const started = Date.now();
  const tapOf = (run: NodeTestRun) => join(scratch, `${run.label.replace(/\W+/g, '-')}.tap`);
  const statuses = await runSideBySide(runs, (run) => ['--test-reporter=spec', '--test-reporter-destination=stdout', '--test-reporter=tap', `--test-reporter-destination=${tapOf(run)}`], atOnce);
  let passed = 0;
  let failed = 0;
  runs.forEach((run, i) => {
    const tapText = existsSync(tapOf(run)) ? readFileSync(tapOf(run), 'utf8') : '';
    const tapCount = (key: string) => Number(new RegExp(`^# ${key} (\\d+)$`, 'm').exec(tapText)?.[1] ?? 0);
    // The test points themselves, not only node's closing summary: on a long run with many files the summary
    // has been seen to leave a file's failures out while its points were there.
    const points = tapPoints(tapText);
    const runFailed = Math.max(points.failed, tapCount('fail') + tapCount('cancelled'));
    passed += points.passed || tapCount('pass');
    failed += runFailed + (statuses[i] !== 0 && runFailed === 0 ? 1 : 0);
  });
  counts.push({ name, passed, failed, seconds: (Date.now() - started) / 1000 });
}

/** Passed and failed tests of a TAP stream, leaves only (a suite's point says `type: 'suite'`), skips left out. */
function tapPoints(text: string): { passed: number; failed: number } {
  const lines = text.split('\n');
  let passed = 0;
  let failed = 0;
  lines.forEach((line, i) => {
    const point = /^\s*(not ok|ok) \d+ - /.exec(line);
    if (!point || /# (SKIP|TODO)\b/.test(line)) return;
    let suite = false;
    if (/^\s*---$/.test(lines[i + 1] ?? '')) {
      for (let j = i + 2; j < lines.length && !/^\s*\.\.\.$/.test(lines[j] ?? ''); j++) if (/^\s*type: 'suite'$/.test(lines[j] ?? '')) suite = true;
    }
    if (suite) return;
    if (point[1] === 'ok') passed++;
    else failed++;
  });
  return { passed, failed };
}

/**
 * The conformance suite against the embedded reference bank, as `npm test` runs it with its traffic recorded
 * (--har), then the audit of that traffic on both sides (made to fail by one edit at a time).
 */
async function conformanceSuiteThenAudit(): Promise<void> {
  const reports = join(scratch, 'reports');
  const suiteHar = join(scratch, 'suite.har');
  console.log('\n=== conformance suite');
  const [suite = { status: 1, seconds: 0 }] = await runCommandsSideBySide([
    { label: 'conformance suite', command: process.execPath, args: ['--import', 'tsx', 'lib/cli/main.ts', 'run', '--report-dir', reports, '--har', suiteHar] },
  ]);
  try {
    const results = JSON.parse(readFileSync(join(reports, 'latest', 'results.json'), 'utf8')) as {
      summary: { tests: { PASS: number; FAIL: number; ERROR: number; FLAKY: number; INTERRUPTED: number } };
    };
    const t = results.summary.tests;
    counts.push({ name: 'conformance suite', passed: t.PASS, failed: t.FAIL + t.ERROR + t.FLAKY + t.INTERRUPTED + (suite.status !== 0 ? 1 : 0), seconds: suite.seconds });
  } catch {
    counts.push({ name: 'conformance suite', passed: 0, failed: 1, seconds: suite.seconds });
  }
  await nodeTests('audit of the suite', [{ label: 'audit of the suite', entries: AFTER_SUITE, env: { XS2A_SUITE_HAR: suiteHar } }]);
}

// Typecheck and lint side by side with the suite and its audit: lint runs on alone for most of its time, on
// about one core and a half, and the suite fills the rest (this phase took 72-74 s on the 2-core machine,
// against 84-91 s for typecheck and lint, then the suite, then the audit).
await Promise.all([
  asOneCheckEach([
    { label: 'typecheck', command: process.execPath, args: ['node_modules/typescript/bin/tsc', '--noEmit', '-p', '.'] },
    { label: 'lint', command: process.execPath, args: ['node_modules/eslint/bin/eslint.js', '.'] },
  ]),
  conformanceSuiteThenAudit(),
]);

// The project's tests, fast tier then e2e (scripts/test-tiers.ts): the spec reporter for people, TAP into a file for the counts.
await nodeTests('fast tests', nodeTestRunsOf('fast'), atOnceOf('fast'));
await nodeTests('e2e tests', nodeTestRunsOf('e2e'), atOnceOf('e2e'));
rmSync(scratch, { recursive: true, force: true });

console.log('');
// In the order of the header, whichever ended first.
const ORDER = ['typecheck', 'lint', 'fast tests', 'e2e tests', 'conformance suite', 'audit of the suite'];
counts.sort((a, b) => ORDER.indexOf(a.name) - ORDER.indexOf(b.name));
for (const c of counts) console.log(`${c.name.padEnd(20)} ${String(c.passed).padStart(5)} passed ${String(c.failed).padStart(4)} failed  ${c.seconds.toFixed(1)} s`);
const passed = counts.reduce((sum, c) => sum + c.passed, 0);
const failed = counts.reduce((sum, c) => sum + c.failed, 0);
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
