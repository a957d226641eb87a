/**
 * The project's own checks: typecheck and lint, and beside them the conformance suite against the embedded
 * reference bank, the audit of that run's own traffic (a test file that reads the suite's HAR), then the
 * project's tests (node:test: the fast tier, then the e2e tier with the gauntlets; scripts/test-tiers.ts).
 * Ends with one line `N passed, N failed` counting every unit test, every suite test, and typecheck and lint
 * as one check each.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scriptArguments } from './script-arguments.js';
import { AFTER_SUITE, atOnceOf, nodeTestRunsOf, runCommandsSideBySide, runSideBySide, type NodeTestRun } from './test-tiers.js';

interface Count {
  name: string;
  passed: number;
  failed: number;
  seconds: number;
}

const USAGE = `usage: npm run check   (node --import tsx scripts/check.ts)

Typecheck and lint (scripts/typecheck-and-lint.ts), the fast and e2e tiers of the project's tests
(scripts/test-tiers.ts), the conformance suite against the embedded reference bank with its traffic recorded,
and the audit of that traffic. The last line is "N passed, N failed"; exit 0 when nothing failed.`;

scriptArguments(USAGE);

const counts: Count[] = [];
const scratch = mkdtempSync(join(tmpdir(), 'xs2a-check-'));

/**
 * Typecheck and lint, counted as two checks, in one process over one TypeScript program
 * (scripts/typecheck-and-lint.ts): apart, tsc and ESLint each built the program and type-checked every file.
 */
async function typecheckAndLint(): Promise<void> {
  console.log('\n=== typecheck and lint');
  const results = join(scratch, 'typecheck-and-lint.json');
  const [ended = { status: 1, seconds: 0 }] = await runCommandsSideBySide([
    {
      label: 'typecheck and lint',
      command: process.execPath,
      args: ['--import', 'tsx', 'scripts/typecheck-and-lint.ts', '--results', results],
    },
  ]);
  const clean = existsSync(results)
    ? (JSON.parse(readFileSync(results, 'utf8')) as { typecheck: boolean; lint: boolean })
    : { typecheck: false, lint: false };
  for (const name of ['typecheck', 'lint'] as const)
    counts.push({ name, passed: clean[name] ? 1 : 0, failed: clean[name] ? 0 : 1, seconds: ended.seconds });
}

/** node:test processes of one group (a tier, the audit), counted as one line of the summary. */
interface NodeTestGroup {
  name: string;
  runs: readonly NodeTestRun[];
}

/**
 * node:test processes side by side, `atOnce` at a time, the groups' processes one queue in the order given
 * (a group's next process takes the first free slot, not a slot after the whole group before it): each group
 * counted from its processes' TAP output, its seconds from its first start to its last end.
 */
async function nodeTests(groups: readonly NodeTestGroup[], atOnce: number): Promise<void> {
  const runs = groups.flatMap((group) => group.runs);
  const described = (group: NodeTestGroup) =>
    `${group.name}: ${group.runs.length > 4 ? `${group.runs.length} processes` : group.runs.map((run) => run.label).join(', ')}`;
  console.log(`\n=== ${groups.map(described).join('; then ')}${runs.length > 1 ? `; ${atOnce} at a time` : ''}`);
  const tapOf = (run: NodeTestRun) => join(scratch, `${run.label.replace(/\W+/g, '-')}.tap`);
  const reporters = (run: NodeTestRun) => [
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=tap',
    `--test-reporter-destination=${tapOf(run)}`,
  ];
  const ended = await runSideBySide(runs, reporters, atOnce);
  let offset = 0;
  for (const group of groups) {
    const own = ended.slice(offset, (offset += group.runs.length));
    let passed = 0;
    let failed = 0;
    group.runs.forEach((run, i) => {
      const tapText = existsSync(tapOf(run)) ? readFileSync(tapOf(run), 'utf8') : '';
      const tapCount = (key: string) => Number(new RegExp(`^# ${key} (\\d+)$`, 'm').exec(tapText)?.[1] ?? 0);
      // The test points themselves, not only node's closing summary: on a long run with many files the summary
      // has been seen to leave a file's failures out while its points were there.
      const points = tapPoints(tapText);
      const runFailed = Math.max(points.failed, tapCount('fail') + tapCount('cancelled'));
      passed += points.passed || tapCount('pass');
      failed += runFailed + ((own[i]?.status ?? 1) !== 0 && runFailed === 0 ? 1 : 0);
    });
    const seconds = own.length === 0 ? 0 : (Math.max(...own.map((e) => e.endedAt)) - Math.min(...own.map((e) => e.startedAt))) / 1000;
    counts.push({ name: group.name, passed, failed, seconds });
  }
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
      for (let j = i + 2; j < lines.length && !/^\s*\.\.\.$/.test(lines[j] ?? ''); j++)
        if (/^\s*type: 'suite'$/.test(lines[j] ?? '')) suite = true;
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
    {
      label: 'conformance suite',
      command: process.execPath,
      args: ['bin/xs2a-conformance.js', 'run', '--report-dir', reports, '--har', suiteHar, '--unmasked'],
    },
  ]);
  try {
    const results = JSON.parse(readFileSync(join(reports, 'latest', 'results.json'), 'utf8')) as {
      summary: { tests: { PASS: number; FAIL: number; ERROR: number; FLAKY: number; INTERRUPTED: number } };
    };
    const t = results.summary.tests;
    counts.push({
      name: 'conformance suite',
      passed: t.PASS,
      failed: t.FAIL + t.ERROR + t.FLAKY + t.INTERRUPTED + (suite.status !== 0 ? 1 : 0),
      seconds: suite.seconds,
    });
  } catch {
    counts.push({ name: 'conformance suite', passed: 0, failed: 1, seconds: suite.seconds });
  }
  await nodeTests(
    [{ name: 'audit of the suite', runs: AFTER_SUITE.map((entry) => ({ label: entry, entry, env: { XS2A_SUITE_HAR: suiteHar } })) }],
    1,
  );
}

// Typecheck and lint side by side with the conformance suite, its audit, and then the project's tests (fast tier
// then e2e, scripts/test-tiers.ts; the spec reporter for people, TAP into a file for the counts), which start
// when the audit ends rather than when lint does: typecheck and lint run on alone for most of their time, on
// about one core and a half. The tiers' processes are one queue, two at a time: the first e2e file starts when
// the first fast process ends, not when the last does.
await Promise.all([
  typecheckAndLint(),
  (async () => {
    await conformanceSuiteThenAudit();
    await nodeTests(
      [
        { name: 'fast tests', runs: nodeTestRunsOf('fast') },
        { name: 'e2e tests', runs: nodeTestRunsOf('e2e') },
      ],
      Math.max(atOnceOf('fast'), atOnceOf('e2e')),
    );
  })(),
]);
rmSync(scratch, { recursive: true, force: true });

console.log('');
// In the order of the header, whichever ended first.
const ORDER = ['typecheck', 'lint', 'fast tests', 'e2e tests', 'conformance suite', 'audit of the suite'];
counts.sort((a, b) => ORDER.indexOf(a.name) - ORDER.indexOf(b.name));
for (const c of counts)
  console.log(
    `${c.name.padEnd(20)} ${String(c.passed).padStart(5)} passed ${String(c.failed).padStart(4)} failed  ${c.seconds.toFixed(1)} s`,
  );
const passed = counts.reduce((sum, c) => sum + c.passed, 0);
const failed = counts.reduce((sum, c) => sum + c.failed, 0);
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
