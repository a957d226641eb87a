/**
 * Lists the conformance suites with Playwright (`--list --reporter=json`, nothing run; XS2A_LIST_ONLY=1 lets
 * playwright.config.ts do without a target) and collects the requirement ids their tests are tagged with.
 *
 * "No suites yet" (no Playwright config, Playwright not installed, or no tests found) is an empty result with a
 * note; anything else that goes wrong while listing (a suite that does not load, a crash) is a SuiteListingError.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { requirementIdOfTag, type SuiteRequirementIds } from '../spec/coverage.js';
import { ConformanceError } from '../errors.js';

export interface SuiteListing {
  /** `ok`: tests were listed; the other two mean there is nothing to list yet. */
  status: 'ok' | 'no-tests' | 'not-set-up';
  ids: SuiteRequirementIds;
  /** Number of tests listed. */
  tests: number;
  /** Each test's own title (without its describe blocks) and the requirement ids it is tagged with. */
  specs: { title: string; ids: string[] }[];
  /** Why nothing was listed, for `not-set-up` and `no-tests`. */
  note?: string;
}

export interface ListOptions {
  /** Project root holding node_modules and the Playwright config (default: the current directory). */
  cwd?: string;
  /** A Playwright config other than the default playwright.config.ts (relative to cwd or absolute). */
  config?: string;
  /** Give up after this many milliseconds (default 180 000). */
  timeoutMs?: number;
}

export class SuiteListingError extends ConformanceError {
  readonly code = 'XC_ERR_SUITE_LISTING';
  override name = 'SuiteListingError';
}

const CONFIG_NAMES = ['playwright.config.ts', 'playwright.config.js', 'playwright.config.mjs', 'playwright.config.mts'];
const NO_TESTS = /^(Error: )?No tests found/;
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

interface JsonSpec {
  title?: unknown;
  tags?: unknown;
}
interface JsonSuite {
  title?: unknown;
  specs?: unknown;
  suites?: unknown;
}
interface JsonReport {
  suites?: unknown;
  errors?: unknown;
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? (value as unknown[]) : [];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads Playwright's JSON report of a `--list` run. Exported for tests; `exitCode` and `stderr` come from the
 * Playwright process.
 */
export function parsePlaywrightListing(stdout: string, exitCode: number, stderr = ''): SuiteListing {
  let report: JsonReport;
  try {
    report = JSON.parse(stdout) as JsonReport;
  } catch {
    const detail = (stderr || stdout).replace(ANSI, '').trim().slice(0, 2000);
    if (NO_TESTS.test(detail)) return { status: 'no-tests', ids: new Map(), tests: 0, specs: [], note: 'Playwright found no tests' };
    throw new SuiteListingError(`Playwright --list (exit ${exitCode}) did not produce a JSON report:\n${detail}`);
  }
  if (!isRecord(report)) throw new SuiteListingError('Playwright --list produced JSON that is not a report');

  const errors = asArray(report.errors).map((error) =>
    (isRecord(error) && typeof error.message === 'string' ? error.message : String(error)).replace(ANSI, ''),
  );
  const realErrors = errors.filter((message) => !NO_TESTS.test(message));
  if (realErrors.length > 0) {
    throw new SuiteListingError(`Playwright could not list the suites:\n${realErrors.join('\n')}`);
  }

  const ids: SuiteRequirementIds = new Map();
  const specs: SuiteListing['specs'] = [];
  let tests = 0;
  const walk = (suite: JsonSuite, trail: string[]): void => {
    const here = typeof suite.title === 'string' && suite.title !== '' ? [...trail, suite.title] : trail;
    for (const spec of asArray(suite.specs) as JsonSpec[]) {
      tests++;
      const ownTitle = typeof spec.title === 'string' ? spec.title : '?';
      const title = [...here, ownTitle].join(' › ');
      const specIds: string[] = [];
      specs.push({ title: ownTitle, ids: specIds });
      for (const tag of asArray(spec.tags)) {
        if (typeof tag !== 'string') continue;
        const id = requirementIdOfTag(tag);
        if (id === undefined) continue;
        specIds.push(id);
        const titles = ids.get(id) ?? [];
        if (!titles.includes(title)) titles.push(title);
        ids.set(id, titles);
      }
    }
    for (const child of asArray(suite.suites)) if (isRecord(child)) walk(child, here);
  };
  for (const suite of asArray(report.suites)) if (isRecord(suite)) walk(suite, []);

  if (tests === 0) {
    if (exitCode !== 0 && errors.length === 0) {
      throw new SuiteListingError(`Playwright --list exited with ${exitCode}: ${stderr.replace(ANSI, '').trim().slice(0, 2000)}`);
    }
    return { status: 'no-tests', ids, tests, specs, note: 'Playwright found no tests' };
  }
  if (exitCode !== 0) {
    throw new SuiteListingError(`Playwright --list exited with ${exitCode}: ${stderr.replace(ANSI, '').trim().slice(0, 2000)}`);
  }
  return { status: 'ok', ids, tests, specs };
}

/** The environment of the listing process: no target needed, no colours, the JSON report on stdout. */
function listEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, XS2A_LIST_ONLY: '1', FORCE_COLOR: '0' };
  for (const name of ['PLAYWRIGHT_JSON_OUTPUT_NAME', 'PLAYWRIGHT_JSON_OUTPUT_FILE', 'PLAYWRIGHT_JSON_OUTPUT_DIR']) delete env[name];
  return env;
}

/** Lists the suites with Playwright and collects the requirement ids their tests are tagged with. */
export async function listSuiteTests(options: ListOptions = {}): Promise<SuiteListing> {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const cli = path.join(cwd, 'node_modules', '@playwright', 'test', 'cli.js');
  if (!existsSync(cli)) {
    return { status: 'not-set-up', ids: new Map(), tests: 0, specs: [], note: `Playwright is not installed (${cli} is missing)` };
  }
  const config = options.config
    ? path.resolve(cwd, options.config)
    : CONFIG_NAMES.map((name) => path.join(cwd, name)).find((file) => existsSync(file));
  if (config === undefined || !existsSync(config)) {
    // Without its config Playwright would pick up the project's node:test files as well: nothing to list yet.
    return { status: 'not-set-up', ids: new Map(), tests: 0, specs: [], note: `no Playwright config in ${cwd}` };
  }

  const { stdout, stderr, exitCode } = await new Promise<{ stdout: string; stderr: string; exitCode: number }>((resolve, reject) => {
    execFile(
      process.execPath,
      [cli, 'test', '--list', '--reporter=json', '--config', config],
      {
        cwd,
        env: listEnvironment(),
        maxBuffer: 256 * 1024 * 1024,
        timeout: options.timeoutMs ?? 180_000,
        windowsHide: true,
      },
      (error, out, err) => {
        if (error && typeof error.code !== 'number') {
          // Not an exit status: the process could not start, was killed or timed out.
          reject(new SuiteListingError(`could not run Playwright --list: ${error.message}`));
          return;
        }
        resolve({ stdout: out, stderr: err, exitCode: error ? Number(error.code) : 0 });
      },
    );
  });
  return parsePlaywrightListing(stdout, exitCode, stderr);
}
