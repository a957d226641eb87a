/**
 * `xs2a-conformance run`: load targets.yaml, prepare the target (start the embedded bank, read or generate
 * the TPP certificate), check it answers, run Playwright with the target handed over in XS2A_RUN_CONTEXT,
 * then turn results.json into the exit code (0 conformant, 1 non-conformant, 2 configuration, 3 unreachable).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { BrowserNotFoundError, findChromium } from '../sca/browser.js';
import { EXIT_CODES } from '../report/verdict.js';
import { loadAttestations } from '../report/attestations.js';
import { readBaseline } from '../report/baseline.js';
import { printPdf } from '../report/pdf.js';
import { declaredTargetOf } from '../report/provenance.js';
import { formatSummary } from '../report/summary.js';
import type { RunResults } from '../report/types.js';
import { loadTargetsFile, selectTarget } from '../targets/load.js';
import { checkReachable } from '../targets/preflight.js';
import { PROBES_ENV } from '../fixtures/probes.js';
import { RUN_CONTEXT_ENV, writeRunContext, type RunContext } from '../targets/run-context.js';
import { parseRunArgs } from './args.js';
import { PACKAGE_ROOT, TOOL, defaultTargetsFile } from './package.js';
import { prepareTarget, type GauntletRequest } from './prepare-target.js';
import { ConfigError } from '../targets/load.js';

export async function runCommand(argv: readonly string[]): Promise<number> {
  const options = parseRunArgs(argv);
  const targetsFile = resolve(options.targetsFile ?? defaultTargetsFile());
  const file = loadTargetsFile(targetsFile);
  const config = selectTarget(file, options.target);
  const runId = newRunId();
  // Checked before anything starts, so a mistyped file is a usage error (exit 2), not a lost run.
  if (options.attestationsFile) loadAttestations(resolve(options.attestationsFile));
  if (options.baselineDir) readBaseline(resolve(options.baselineDir));
  if (!options.listOnly) await checkBrowser();
  // Private to this run: holds the TPP key file and the context; removed when the run ends.
  const workDir = mkdtempSync(join(tmpdir(), 'xs2a-run-'));
  const gauntlet = options.gauntletFile ? readGauntlet(options.gauntletFile) : undefined;
  const prepared = await prepareTarget(options.target, config, {
    faults: options.faults,
    targetsDir: dirname(targetsFile),
    workDir,
    env: process.env,
    ...(gauntlet ? { gauntlet } : {}),
  }).catch((error: unknown) => {
    rmSync(workDir, { recursive: true, force: true });
    throw error;
  });
  try {
    const { target } = prepared;
    try {
      await checkReachable(target.baseUrl, target.caPem);
    } catch (error) {
      console.error(`xs2a-conformance: target "${target.name}" unreachable at ${target.baseUrl}: ${(error as Error).message}`);
      return EXIT_CODES.infrastructureFailure;
    }
    const reportRoot = resolve(options.reportRoot ?? 'reports');
    const context: RunContext = {
      runId,
      reportRoot,
      startedAt: new Date().toISOString(),
      tool: TOOL,
      filtered: options.filtered,
      maskPersonalData: options.maskPersonalData,
      target,
      ...(prepared.gauntlet ? { gauntlet: prepared.gauntlet } : {}),
      declaredTarget: declaredTargetOf(config),
      arguments: options.playwrightArgs,
      ...(options.attestationsFile ? { attestationsFile: resolve(options.attestationsFile) } : {}),
      ...(options.baselineDir ? { baselineDir: resolve(options.baselineDir) } : {}),
    };
    const contextFile = join(workDir, 'context.json');
    writeRunContext(contextFile, context);

    const playwrightExit = await runPlaywright(options.playwrightArgs, {
      ...process.env,
      [RUN_CONTEXT_ENV]: contextFile,
      ...(options.consoleReporter ? { XS2A_CONSOLE_REPORTER: options.consoleReporter } : {}),
      ...(options.probes ? { [PROBES_ENV]: String(options.probes) } : {}),
    });
    if (options.listOnly) return playwrightExit;

    const resultsFile = join(reportRoot, runId, 'results.json');
    if (!existsSync(resultsFile)) {
      console.error(`xs2a-conformance: Playwright ended (exit ${playwrightExit}) without writing ${resultsFile}`);
      return EXIT_CODES.infrastructureFailure;
    }
    const results = JSON.parse(readFileSync(resultsFile, 'utf8')) as RunResults;
    if (options.pdf) await printPdf(join(reportRoot, runId), join(reportRoot, 'latest'));
    const report = join(reportRoot, 'latest', 'index.html');
    const shown = relative(process.cwd(), report);
    console.log(formatSummary(results, shown.startsWith('..') ? report : shown));
    return results.exitCode;
  } finally {
    await prepared.stop();
    rmSync(workDir, { recursive: true, force: true });
  }
}

/** Fails fast, before starting anything, when no Chromium is there. Playwright is loaded only as a fallback. */
async function checkBrowser(): Promise<void> {
  try {
    findChromium(process.env);
  } catch (error) {
    if (!(error instanceof BrowserNotFoundError)) throw error;
    const { chromium } = await import('@playwright/test');
    findChromium(process.env, chromium.executablePath());
  }
}

function runPlaywright(args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
  const config = join(PACKAGE_ROOT, 'playwright.config.ts');
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [cli, 'test', '--config', config, ...args], { stdio: 'inherit', env, cwd: PACKAGE_ROOT });
    // The runner owns the embedded bank; Ctrl-C reaches Playwright through the shared process group.
    child.once('error', reject);
    child.once('exit', (code, signal) => resolvePromise(code ?? (signal ? EXIT_CODES.infrastructureFailure : 0)));
  });
}

function readGauntlet(file: string): GauntletRequest {
  try {
    const request = JSON.parse(readFileSync(resolve(file), 'utf8')) as GauntletRequest;
    if (!Array.isArray(request.faults)) throw new Error('it has no "faults" list');
    return request;
  } catch (error) {
    throw new ConfigError('--gauntlet', `${file}: ${(error as Error).message}`);
  }
}

function newRunId(): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-').replace(/-\d{3}Z$/, 'Z');
  return `${stamp}-${randomBytes(2).toString('hex')}`;
}
