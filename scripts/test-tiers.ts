/**
 * The project's own tests in two tiers, told apart by file name:
 * - fast (`*.test.ts`): the libraries, the bank in process, the catalogue, the schemas, the architecture rules;
 *   no conformance run, no browser. The loop to run while working (`npm run test:fast`).
 * - e2e (`*.e2e.test.ts`): what starts the real command (a run of the suite, serve, a gauntlet), a browser, or
 *   measures a process of its own (time, heap). `npm run check` runs both, then the suite itself.
 * Files that read what the check's own suite run leaves (its HAR) run after it.
 */
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export type TestTier = 'fast' | 'e2e' | 'all';
export const TEST_TIERS: readonly TestTier[] = ['fast', 'e2e', 'all'];

/** Test files that read what the suite run of `npm run check` leaves (its HAR): run after it, in no tier. */
export const AFTER_SUITE: readonly string[] = ['test/tpp-judge/suite-har.e2e.test.ts'];

/** The fast tier's processes, and the e2e tier's files at once: one per core. */
const FAST_PROCESSES = 2;
const E2E_AT_ONCE = 2;
/** Seconds each file of a tier takes (scripts/tier-seconds.ts measures them), to share the files out by. */
export const tierSecondsFile = (tier: Exclude<TestTier, 'all'>): string => `scripts/${tier}-tier-seconds.json`;
/**
 * Preloaded into the e2e tier's processes: a run of the command there takes its RSA keys from the pool the fast
 * tier keeps (scripts/command-key-pool.js), and the command has no code for it.
 */
const COMMAND_KEY_POOL = new URL('./command-key-pool.js', import.meta.url).href;
/** The files a fast-tier process imports (scripts/test-bundle.ts). */
export const BUNDLE_ENV = 'XS2A_TEST_BUNDLE';

const isE2e = (file: string) => file.endsWith('.e2e.test.ts');

/** The test files of a tier, relative to the project root, sorted. */
export function testFilesOf(tier: TestTier, root = 'test'): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => join(root, file))
    .filter((file) => !AFTER_SUITE.includes(file))
    .filter((file) => tier === 'all' || (tier === 'e2e') === isE2e(file))
    .sort();
}

/** One process of node:test tests: its label, the file it runs, and its environment. */
export interface NodeTestRun {
  label: string;
  /** A test file, or scripts/test-bundle.ts, which imports several. */
  entry: string;
  env: NodeJS.ProcessEnv;
}

/**
 * node's arguments for a run, with node:test options (reporters, --test-name-pattern…) of the caller. The file
 * is run as a program, not given to `node --test`: that would start a second process for it, and a node with
 * tsx costs about 0.7 CPU-seconds to start; node:test runs a file's tests and takes its options either way.
 */
export function nodeArgumentsOf(run: NodeTestRun, options: readonly string[] = []): string[] {
  return ['--import', 'tsx', ...options, run.entry];
}

/**
 * The processes that run a tier, in the order to start them. The fast tier's files share a few processes (each
 * imports its share through scripts/test-bundle.ts): node 20 starts a process per file, and loading the
 * project's modules through tsx costs about a second each time, half the tier's CPU. The e2e files each get a
 * process of their own, longest first by measured seconds, two at a time (atOnceOf): most are runs of the real
 * command, which wait on their children much of the time (Playwright's start, a worker's, the bank), so a second
 * file fills the gaps (the tier took 854 s one file at a time, 659 s two). node --test's own two-at-a-time takes
 * its files in name order: the gauntlet, the longest file, started a third into the tier and ran on alone at its
 * end; two fixed lanes balanced by seconds measured alone still ended 60 s apart in CI.
 */
export function nodeTestRunsOf(tier: Exclude<TestTier, 'all'>): NodeTestRun[] {
  if (tier === 'fast') {
    return shareOut(testFilesOf('fast'), FAST_PROCESSES, secondsOfFiles(tier)).map((share, i) => ({
      label: `fast ${i + 1}/${FAST_PROCESSES}`,
      entry: 'scripts/test-bundle.ts',
      env: { [BUNDLE_ENV]: JSON.stringify(share) },
    }));
  }
  // Every run of the command an e2e file starts takes its three keys from the pool (a run of a file alone makes them).
  const env = { NODE_OPTIONS: [process.env['NODE_OPTIONS'], `--import=${COMMAND_KEY_POOL}`].filter(Boolean).join(' ') };
  return longestFirst(testFilesOf('e2e'), secondsOfFiles(tier)).map((file) => ({ label: file, entry: file, env }));
}

/** How many of a tier's processes run at once. */
export function atOnceOf(tier: Exclude<TestTier, 'all'>): number {
  return tier === 'fast' ? FAST_PROCESSES : E2E_AT_ONCE;
}

/**
 * The seconds each file of a tier takes, from a committed table (scripts/tier-seconds.ts measures them) rather
 * than a cache of the last run, so that a clean clone orders and splits the same way; a file not in it yet
 * counts as the median file.
 */
function secondsOfFiles(tier: Exclude<TestTier, 'all'>): (file: string) => number {
  const measured = JSON.parse(readFileSync(tierSecondsFile(tier), 'utf8')) as Record<string, number>;
  const known = Object.values(measured).sort((a, b) => a - b);
  const median = known[Math.floor(known.length / 2)] ?? 1;
  return (file) => measured[file] ?? median;
}

const longestFirst = (files: readonly string[], secondsOf: (file: string) => number): string[] =>
  [...files].sort((a, b) => secondsOf(b) - secondsOf(a) || a.localeCompare(b));

/**
 * The files shared out among `processes` by their measured seconds, each share in name order. A few files take
 * most of the fast tier's time (the robustness probes, the payments, Playwright's listing of the suites), so a
 * split by index can put them together; here the longest goes first, each to the share with the least time so far.
 */
function shareOut(files: readonly string[], processes: number, secondsOf: (file: string) => number): string[][] {
  const shares = Array.from({ length: processes }, () => ({ files: [] as string[], seconds: 0 }));
  for (const file of longestFirst(files, secondsOf)) {
    const least = shares.reduce((best, share) => (share.seconds < best.seconds ? share : best));
    least.files.push(file);
    least.seconds += secondsOf(file);
  }
  return shares.map((share) => share.files.sort());
}

/** A command to run beside others. */
export interface SideBySideCommand {
  label: string;
  command: string;
  args: readonly string[];
  env?: NodeJS.ProcessEnv;
}

/**
 * Runs commands side by side, `atOnce` at a time in the order given (the next starts when one ends), each with
 * this process's environment and its own. With several, each one's output is printed whole when it ends
 * (headed by its label), so that none interleave; one alone prints as it goes. Resolves to each one's exit
 * status, seconds, and when it started and ended (Date.now()), in order.
 */
export async function runCommandsSideBySide(commands: readonly SideBySideCommand[], atOnce = commands.length): Promise<CommandEnd[]> {
  const buffered = commands.length > 1;
  const ended: CommandEnd[] = [];
  let next = 0;
  const slot = async () => {
    while (next < commands.length) {
      const index = next++;
      const command = commands[index];
      if (command) ended[index] = await runOne(command, buffered);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(atOnce, commands.length)) }, slot));
  return ended;
}

/** How a command of runCommandsSideBySide ended. */
export interface CommandEnd {
  status: number;
  seconds: number;
  startedAt: number;
  endedAt: number;
}

function runOne({ label, command, args, env }: SideBySideCommand, buffered: boolean): Promise<CommandEnd> {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, args, {
      env: { ...process.env, ...env },
      stdio: ['ignore', buffered ? 'pipe' : 'inherit', buffered ? 'pipe' : 'inherit'],
    });
    const output: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
    child.once('close', (code) => {
      const seconds = (Date.now() - started) / 1000;
      if (buffered)
        process.stdout.write(
          `\n--- ${label} (${code === 0 ? 'passed' : 'FAILED'}, ${seconds.toFixed(1)} s)\n${Buffer.concat(output).toString()}`,
        );
      resolve({ status: code ?? 1, seconds, startedAt: started, endedAt: Date.now() });
    });
  });
}

/** Runs node:test processes side by side (runCommandsSideBySide), `atOnce` at a time, with node:test options of the caller. */
export function runSideBySide(
  runs: readonly NodeTestRun[],
  options: (run: NodeTestRun) => readonly string[],
  atOnce = runs.length,
): Promise<CommandEnd[]> {
  return runCommandsSideBySide(
    runs.map((run) => ({ label: run.label, command: process.execPath, args: nodeArgumentsOf(run, options(run)), env: run.env })),
    atOnce,
  );
}
