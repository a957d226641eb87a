/**
 * `xs2a-conformance run` (the default command, what `npm test` calls): prepare the target (lib/cli/prepare-run.ts),
 * run Playwright with the target handed over in XS2A_RUN_CONTEXT, print the summary and exit by the verdict
 * and the gate (`--require`, `--fail-on`).
 *
 * Interruption: SIGINT (Ctrl-C) and SIGTERM (a CI timeout) are passed to Playwright as SIGINT, which stops the
 * workers and still hands what ran to the conformance reporter: the report is written, verdict INTERRUPTED,
 * exit 3. Playwright runs in a process group of its own so that only this process decides what it receives;
 * a second signal stops it at once. The target is stopped and the private folder (keys) removed on every path.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { SCA_DRIVERS, type ScaDriver } from '../../targets/target-types.js';
import { PROBES_ENV } from '../../tpp/probe-settings.js';
import { EXIT_CODES } from '../../report/verdict.js';
import type { RunResults } from '../../report/results-types.js';
import { selectionLeftFor } from '../../report/selection.js';
import { RUN_CONTEXT_ENV } from '../../targets/run-context.js';
import { ConfigError } from '../../targets/config-error.js';
import { oneOf, UsageError, wholeNumber, type CliCommand } from '../command.js';
import { applyGate, gateOptions, type GateOptions } from '../gate.js';
import { CONSOLE_REPORTERS, CONSOLE_REPORTER_ENV } from '../console-reporters.js';
import { writeRunSource } from '../run-source.js';
import { suiteHome } from '../suite-home.js';
import { addSwitchOptions } from '../switch-options.js';
import { printSummary } from '../printed-summary.js';

/** The gauntlet's own Playwright config (the project's tests; not in the package): projects from its plan. */
const GAUNTLET_CONFIG = 'playwright.gauntlet.config.ts';

export interface RunOptions extends GateOptions {
  target: string;
  targets?: string;
  injectFault: string[];
  variant: string[];
  scaDriver?: ScaDriver;
  reportDir: string;
  reporter?: string[];
  unmasked?: boolean;
  probes?: number;
  gauntlet?: string;
  har?: string;
  attestations?: string;
  baseline?: string;
  pdf?: boolean;
  // Playwright's own, passed on as given.
  grep?: string;
  grepInvert?: string;
  shard?: string;
  workers?: number;
  timeout?: number;
  retries?: number;
  repeatEach?: number;
  maxFailures?: number;
  x?: boolean;
  list?: boolean;
  lastFailed?: boolean;
  trace?: string;
  globalTimeout?: number;
  forbidOnly?: boolean;
}

/** How long Playwright gets to stop its workers and write the report after an interruption. */
const STOP_GRACE_MS = 15_000;

export const runCommand: CliCommand = {
  configure(command) {
    command
      .argument('[test-filter...]', 'spec files or file:line, as Playwright takes them (suites/authentication/request-signing.spec.ts:14)')
      .option('--target <name>', 'the target of targets.yaml', 'reference')
      .option('--targets <file>', 'the targets file (default: $XS2A_TARGETS, else ./targets.yaml, else the one shipped)');
    addSwitchOptions(command, [
      {
        flags: '--inject-fault <name>',
        kind: 'fault',
        description: 'switch a fault on in the embedded reference bank (repeatable; see serve --list-faults)',
      },
      {
        flags: '--variant <name>',
        kind: 'variant',
        description: 'the embedded bank takes another legal reading of the specification (repeatable; see serve --list-variants)',
      },
    ]);
    command
      .addOption(
        new Option(
          '--sca-driver <driver>',
          "what drives the bank's SCA pages, instead of the target's scaDriver: browser (Chromium), or http (their forms over HTTP, for pages that work without script)",
        ).choices([...SCA_DRIVERS]),
      )
      .option('--report-dir <dir>', 'where reports go (<dir>/<run-id>/ and <dir>/latest/)', 'reports')
      .addOption(
        new Option(
          '--reporter <names>',
          `console output, comma-separated: ${CONSOLE_REPORTERS.join(', ')} (null: nothing at all; the report always has results.json, index.html and junit.xml)`,
        ).argParser(consoleReporters),
      )
      .option('--unmasked', 'show PSU identifiers and personal data in reports and the --har recording (masked by default)')
      .option('--probes <n>', 'robustness probes per run (ERR-44.d; default 120)', wholeNumber(1))
      .option(
        '--har <file>',
        "record the run's traffic as a HAR file (personal data replaced by lookalikes unless --unmasked, which an audit of signatures and digests needs), requests broken on purpose marked (for xs2a-conformance audit)",
      )
      .addOption(new Option('--gauntlet <file>', "the fault gauntlet plan (the project's own tests)").hideHelp())
      .option(
        '--attestations <file>',
        "people's verdicts on requirements no scenario can judge (YAML: requirement, verdict, reviewer, date, evidence, note)",
      )
      .option('--baseline <dir>', 'an earlier report to compare with: regressions, fixes, new and removed checks, deviations that pass now')
      .option('--pdf', "also print the report to index.pdf with the suite's Chromium");
    gateOptions(command);
    command
      .option(
        '-g, --grep <regex>',
        'only scenarios whose title or requirement tags match (SIG-04, SIG-12.e); $XS2A_GREP narrows any run the same way (with both, a scenario matches both)',
      )
      .option('--grep-invert <regex>', 'leave out the scenarios that match')
      .option('--shard <current/total>', 'run one shard of the suite (merge the shards with xs2a-conformance merge)', shard)
      .option(
        '-j, --workers <n>',
        "parallel workers (default: $XS2A_WORKERS, else one per core up to 4 against the embedded bank, else the target's concurrency or 16)",
        wholeNumber(1),
      )
      .option('--timeout <ms>', 'per-scenario timeout', wholeNumber(1))
      .option(
        '--retries <n>',
        'retry a failed scenario; every attempt is reported and one that passes only on retry is FLAKY',
        wholeNumber(0),
      )
      .option('--repeat-each <n>', 'run every scenario n times (to show a target is not flaky)', wholeNumber(1))
      .option('--max-failures <n>', 'stop after n failed scenarios', wholeNumber(1))
      .option('-x', 'stop after the first failed scenario')
      .option('--list', 'list the scenarios the options select, and run nothing')
      .option(
        '--last-failed',
        'run only the scenarios that failed in the last run into the same --report-dir (its record: <report-dir>/.last-run.json)',
      )
      .addOption(
        new Option('--trace <mode>', "Playwright's own trace of each test").choices([
          'on',
          'off',
          'on-first-retry',
          'on-all-retries',
          'retain-on-failure',
          'retain-on-first-failure',
        ]),
      )
      .option('--global-timeout <ms>', 'stop the whole run after this long (INTERRUPTED)', wholeNumber(1))
      .option('--forbid-only', 'fail if a scenario is marked test.only')
      .addHelpText(
        'after',
        `
Examples:
  $ xs2a-conformance run                                   # the embedded reference bank
  $ xs2a-conformance run --target sandbox --require conformant
  $ xs2a-conformance run --grep SIG-04                     # one requirement's scenarios
  $ xs2a-conformance run suites/authentication/request-signing.spec.ts:14
  $ xs2a-conformance run --shard 1/2 --report-dir shard-1  # then: xs2a-conformance merge shard-1 shard-2

Ctrl-C or SIGTERM stops the run within seconds and still writes the report of what ran (verdict INTERRUPTED, exit 3).`,
      );
  },
  run: (command: Command) => run(command.opts<RunOptions>(), command.args),
};

function consoleReporters(value: string): string[] {
  return value
    .split(',')
    .flatMap((name) =>
      oneOf('console reporter', CONSOLE_REPORTERS, 'the report always has results.json, index.html and junit.xml')(name.trim()),
    );
}

function shard(value: string): string {
  const match = /^(\d+)\/(\d+)$/.exec(value);
  if (!match || Number(match[1]) < 1 || Number(match[1]) > Number(match[2]))
    throw new InvalidArgumentError(`expected current/total, such as 1/2, not "${value}"`);
  return value;
}

async function run(options: RunOptions, filters: readonly string[]): Promise<number> {
  const home = suiteHome();
  checkFilters(filters, home);
  const config = join(home, options.gauntlet ? GAUNTLET_CONFIG : 'playwright.config.ts');
  if (options.gauntlet && !existsSync(config))
    throw new ConfigError('--gauntlet', `runs from a checkout of the tool: ${GAUNTLET_CONFIG} is not installed`);
  const reportRoot = resolve(options.reportDir);
  const lastRun = join(reportRoot, LAST_RUN_FILE);
  if (options.lastFailed) {
    const failed = lastFailedOf(lastRun);
    if (failed === 0) {
      console.log(
        `xs2a-conformance: --last-failed: no scenario failed in the last run (${relative(process.cwd(), lastRun) || lastRun}): nothing to run`,
      );
      return 0;
    }
  }
  // Loaded here, not with the options: a usage error or --help needs none of the bank, the browser or the report.
  const { prepareRun } = await import('../prepare-run.js');
  const prepared = await prepareRun({
    target: options.target,
    ...(options.targets ? { targetsFile: options.targets } : {}),
    faults: options.injectFault,
    variants: options.variant,
    ...(options.scaDriver ? { scaDriver: options.scaDriver } : {}),
    reportRoot,
    maskPersonalData: !options.unmasked,
    ...(options.gauntlet ? { gauntletFile: options.gauntlet } : {}),
    ...(options.list ? { listOnly: true } : {}),
    ...(options.har ? { harFile: options.har } : {}),
    ...(options.attestations ? { attestationsFile: options.attestations } : {}),
    ...(options.baseline ? { baselineDir: options.baseline } : {}),
    arguments: [...playwrightArgs(options), ...filters],
  });
  const silent = options.reporter?.includes('null') ?? false;
  try {
    const { context, contextFile } = prepared;
    // Playwright's record of what failed, which --last-failed reads and every run writes: kept beside the reports
    // (it went with the run's private folder), and taken back there only from a run that wrote a report, so that a
    // selection of nothing or a listing leaves the record of the last run as it was.
    const runLastRun = join(dirname(contextFile), LAST_RUN_FILE);
    if (existsSync(lastRun)) writeFileSync(runLastRun, readFileSync(lastRun), { mode: 0o600 });
    const playwright = await runPlaywright([...playwrightArgs(options), ...filters], home, config, {
      ...process.env,
      [RUN_CONTEXT_ENV]: contextFile,
      PLAYWRIGHT_LAST_RUN_OUTPUT_FILE: runLastRun,
      ...(options.reporter ? { [CONSOLE_REPORTER_ENV]: options.reporter.join(',') } : {}),
      ...(options.probes ? { [PROBES_ENV]: String(options.probes) } : {}),
    });
    if (options.list) return playwright.exitCode === 0 ? 0 : EXIT_CODES.configurationError;

    const runDir = join(context.reportRoot, context.runId);
    const resultsFile = join(runDir, 'results.json');
    if (!existsSync(resultsFile)) {
      if (playwright.interrupted) {
        console.error('xs2a-conformance: interrupted before any scenario ended: no report written');
        return EXIT_CODES.infrastructureFailure;
      }
      if ((selectionLeftFor(contextFile)?.tests ?? 0) === 0 && playwright.exitCode !== 0) {
        console.error('xs2a-conformance: no scenario matches the selection (--grep, XS2A_GREP, test filters, --shard…); no report written');
        return EXIT_CODES.configurationError;
      }
      console.error(
        `xs2a-conformance: Playwright ended (exit ${playwright.exitCode}${playwright.signal ? `, ${playwright.signal}` : ''}) without writing ${resultsFile}`,
      );
      return EXIT_CODES.infrastructureFailure;
    }
    if (existsSync(runLastRun)) writeFileSync(lastRun, readFileSync(runLastRun), { mode: 0o600 });
    const results = JSON.parse(readFileSync(resultsFile, 'utf8')) as RunResults;
    const reportDirs = [runDir, join(context.reportRoot, 'latest')];
    if (context.targetsFile) writeRunSource(reportDirs, { targetsFile: context.targetsFile, target: context.target.name });
    if (prepared.consulted) {
      // The gauntlet's census: which switches the bank was asked for each case's TPP (test/gauntlet derives its plan from it).
      const consulted = JSON.stringify(prepared.consulted(), null, 1);
      for (const dir of reportDirs) writeFileSync(join(dir, 'consulted.json'), consulted);
    }
    if (options.pdf) {
      // Loaded only when asked: it brings Playwright's browser API, which no other part of the runner needs.
      const { printPdf } = await import('../../report/pdf.js');
      await printPdf(runDir, join(context.reportRoot, 'latest')).catch((error: Error) => {
        console.error(`xs2a-conformance: --pdf: the report could not be printed (${error.message.split('\n')[0]}); index.html is complete`);
      });
    }
    const report = join(context.reportRoot, 'latest', 'index.html');
    const shown = relative(process.cwd(), report);
    printSummary(results, shown.startsWith('..') ? report : shown, { silent });
    return applyGate(results, options);
  } finally {
    await prepared.cleanup();
  }
}

/** Playwright's record of the last run's failures (--last-failed), in the report folder. */
const LAST_RUN_FILE = '.last-run.json';

/**
 * How many scenarios failed in the last run, for --last-failed; a usage error when no run was recorded, since
 * Playwright would then run every scenario without a word.
 */
function lastFailedOf(file: string): number {
  let recorded: { failedTests?: unknown };
  try {
    recorded = JSON.parse(readFileSync(file, 'utf8')) as { failedTests?: unknown };
  } catch {
    throw new UsageError(
      `--last-failed: no earlier run is recorded in ${relative(process.cwd(), file) || file} (run without it first, with the same --report-dir)`,
    );
  }
  return Array.isArray(recorded.failedTests) ? recorded.failedTests.length : 0;
}

/**
 * A test filter must name spec files of the suite (a path, part of one or a regular expression, as Playwright
 * matches them, with :line): one that matches none is a usage error before anything starts, not a target
 * started for nothing.
 */
function checkFilters(filters: readonly string[], home: string): void {
  if (filters.length === 0) return;
  const specs = readdirSync(join(home, 'suites'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.spec.ts'))
    .map((file) => join(home, 'suites', file));
  for (const filter of filters) {
    const file = /^(.*?):(\d+):?(\d+)?$/.exec(filter)?.[1] ?? filter;
    if (!specs.some((spec) => matchesLikePlaywright(file, spec))) {
      throw new UsageError(
        `the test filter "${filter}" matches no spec file of the suite (suites/<area>/<name>.spec.ts[:line]; --list lists them)`,
      );
    }
  }
}

/** Playwright's reading of a file filter: a regular expression (or /re/flags) found anywhere in the file's path, case-insensitive. */
function matchesLikePlaywright(pattern: string, file: string): boolean {
  const flagged = /^\/(.*)\/([gi]*)$/.exec(pattern);
  try {
    return (flagged ? new RegExp(flagged[1] ?? '', flagged[2]) : new RegExp(pattern, 'i')).test(file);
  } catch {
    return file.includes(pattern);
  }
}

/** Playwright's options, rebuilt from what commander parsed (never the raw argument list). */
export function playwrightArgs(options: RunOptions): string[] {
  const valued: [string, string | number | undefined][] = [
    ['--grep', options.grep],
    ['--grep-invert', options.grepInvert],
    ['--shard', options.shard],
    ['--workers', options.workers],
    ['--timeout', options.timeout],
    ['--retries', options.retries],
    ['--repeat-each', options.repeatEach],
    ['--max-failures', options.maxFailures],
    ['--trace', options.trace],
    ['--global-timeout', options.globalTimeout],
  ];
  const flags: [string, boolean | undefined][] = [
    ['-x', options.x],
    ['--list', options.list],
    ['--last-failed', options.lastFailed],
    ['--forbid-only', options.forbidOnly],
  ];
  return [
    ...valued.flatMap(([name, value]) => (value === undefined ? [] : [`${name}=${value}`])),
    ...flags.flatMap(([name, on]) => (on ? [name] : [])),
  ];
}

interface PlaywrightExit {
  exitCode: number;
  /** This process passed on SIGINT or SIGTERM. */
  interrupted: boolean;
  signal?: NodeJS.Signals;
}

function runPlaywright(args: readonly string[], home: string, config: string, env: NodeJS.ProcessEnv): Promise<PlaywrightExit> {
  const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [cli, 'test', '--config', config, ...args], {
      stdio: ['ignore', 'inherit', 'inherit'],
      env,
      cwd: home,
      // Its own process group: a terminal's Ctrl-C or a CI's SIGTERM to our group reaches this process only.
      detached: true,
    });
    const stopOnSignal = forwardInterruptions(child);
    const killOnExit = () => child.kill('SIGKILL');
    process.once('exit', killOnExit);
    child.once('error', reject);
    child.once('close', (code, signal) => {
      const interrupted = stopOnSignal();
      process.removeListener('exit', killOnExit);
      resolvePromise({ exitCode: code ?? EXIT_CODES.infrastructureFailure, interrupted, ...(signal ? { signal } : {}) });
    });
  });
}

/**
 * SIGINT and SIGTERM become one SIGINT to Playwright (it stops and reports); a second one stops it at once.
 * The function returned stops listening and says whether a signal came.
 */
function forwardInterruptions(child: ChildProcess): () => boolean {
  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) {
      child.kill('SIGKILL');
      return;
    }
    interrupted = true;
    console.error(`\nxs2a-conformance: ${signal}: stopping the run, writing the report of what ran (again to stop at once)`);
    child.kill('SIGINT');
    setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS).unref();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return () => {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    return interrupted;
  };
}
