/**
 * The runner's own options are taken out of the argument list; everything else goes to Playwright unchanged
 * (`npm test -- --target reference --grep signature --workers 2`).
 */
export interface RunOptions {
  target: string;
  targetsFile?: string;
  faults: string[];
  reportRoot?: string;
  consoleReporter?: string;
  maskPersonalData: boolean;
  playwrightArgs: string[];
  /** A filter that narrows the run was given: the run cannot certify. */
  filtered: boolean;
  listOnly: boolean;
  /** A gauntlet plan (JSON file): faults switched on one TPP each, for the project's own tests. */
  gauntletFile?: string;
  /** Robustness probes per run (`--probes N`, a deep run); the suite's default otherwise. */
  probes?: number;
  /** `--attestations FILE`: people's verdicts on requirements no scenario can judge. */
  attestationsFile?: string;
  /** `--baseline DIR`: an earlier report to compare the run with. */
  baselineDir?: string;
  /** `--pdf`: print the HTML report to index.pdf with the suite's Chromium. */
  pdf: boolean;
}

export class UsageError extends Error {}

const RUNNER_OPTIONS_WITH_VALUE = new Map<string, keyof RunOptions>([
  ['--target', 'target'],
  ['--targets', 'targetsFile'],
  ['--report-dir', 'reportRoot'],
  ['--reporter', 'consoleReporter'],
  ['--gauntlet', 'gauntletFile'],
  ['--attestations', 'attestationsFile'],
  ['--baseline', 'baselineDir'],
]);

/** Playwright options that take a value, so their value is not mistaken for a file filter. */
const PLAYWRIGHT_OPTIONS_WITH_VALUE = new Set([
  '-g', '--grep', '--grep-invert', '--shard', '--project', '-j', '--workers', '--timeout', '--retries',
  '--repeat-each', '--max-failures', '--output', '--trace', '--global-timeout', '--tsconfig', '-c', '--config',
]);
const FILTERING_OPTIONS = new Set(['-g', '--grep', '--grep-invert', '--shard', '--project', '--last-failed', '--only-changed', '--max-failures', '-x']);

export function parseRunArgs(argv: readonly string[]): RunOptions {
  const options: RunOptions = {
    target: 'reference',
    faults: [],
    maskPersonalData: true,
    playwrightArgs: [],
    filtered: false,
    listOnly: false,
    pdf: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const [name, inlineValue] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const takeValue = (): string => {
      const value = inlineValue ?? argv[++i];
      if (value === undefined || value === '') throw new UsageError(`${name} needs a value`);
      return value;
    };
    const runnerKey = RUNNER_OPTIONS_WITH_VALUE.get(name);
    if (runnerKey) (options as unknown as Record<string, string>)[runnerKey] = takeValue();
    else if (name === '--inject-fault') options.faults.push(takeValue());
    else if (name === '--unmasked') options.maskPersonalData = false;
    else if (name === '--pdf') options.pdf = true;
    else if (name === '--probes') {
      const value = takeValue();
      if (!/^[1-9]\d*$/.test(value)) throw new UsageError(`--probes needs a positive whole number, not "${value}"`);
      options.probes = Number(value);
    }
    else {
      options.playwrightArgs.push(arg);
      if (FILTERING_OPTIONS.has(name)) options.filtered = true;
      if (name === '--list') options.listOnly = true;
      if (PLAYWRIGHT_OPTIONS_WITH_VALUE.has(name) && inlineValue === undefined && i + 1 < argv.length) {
        options.playwrightArgs.push(argv[++i] as string);
      } else if (!arg.startsWith('-')) {
        options.filtered = true; // a file or title filter
      }
    }
  }
  return options;
}
