/**
 * Everything a run needs before Playwright starts, shared by `xs2a-conformance run` and the global setup of a
 * plain `npx playwright test`: load targets.yaml, check the browser, start or reach the target, write the run
 * context into a private temporary folder. `cleanup()` stops the embedded bank and removes the folder (keys
 * included); it also runs on process exit, whatever ends the run.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { SCA_VARIANTS } from '../fixtures/sca-variants.js';
import { loadAttestations } from '../report/attestations.js';
import { readBaseline } from '../report/baseline.js';
import { declaredTargetOf } from '../report/provenance.js';
import { BrowserNotFoundError, findChromium } from '../sca/browser.js';
import { ConfigError } from '../targets/config-error.js';
import { interpolateTarget, loadTargetsFile, selectTarget } from '../targets/load.js';
import { checkReachable } from '../targets/preflight.js';
import { writeRunContext, type RunContext, type RunTarget } from '../targets/run-context.js';
import { checkTargetFiles, pemSource } from '../targets/target-files.js';
import type { ScaDriver, TargetConfig } from '../targets/target-types.js';
import { didYouMean } from './command.js';
import { TOOL, defaultTargetsFile } from './package-root.js';
import { prepareTarget, type GauntletRequest } from './prepare-target.js';
import { checkTarget } from './target-checks.js';
import { ConformanceError } from '../errors.js';

export interface RunRequest {
  target: string;
  targetsFile?: string;
  faults: readonly string[];
  /** Legal readings the embedded bank takes (`--variant`). */
  variants?: readonly string[];
  /** What drives the SCA pages, instead of the target's `scaDriver`. */
  scaDriver?: ScaDriver;
  reportRoot: string;
  maskPersonalData: boolean;
  /** A gauntlet request (JSON file, lib/cli/prepare-target.ts): cases of switches on one TPP each, for the project's own tests. */
  gauntletFile?: string;
  /** Only list the tests: no browser needed. */
  listOnly?: boolean;
  /** Record the run's traffic as a HAR file (unmasked, the requests broken on purpose marked). */
  harFile?: string;
  /** People's verdicts on requirements no scenario can judge (`--attestations FILE`). */
  attestationsFile?: string;
  /** An earlier report to compare the run with (`--baseline DIR`). */
  baselineDir?: string;
  /** What reaches Playwright (filters, workers…), for the report's provenance. */
  arguments?: string[];
}

export interface PreparedRun {
  context: RunContext;
  /** The context file the workers read (XS2A_RUN_CONTEXT). */
  contextFile: string;
  /** Under the gauntlet: the switches the bank was asked for each case's TPP, by case name. */
  consulted?: () => Record<string, string[]>;
  cleanup(): Promise<void>;
}

/** The target did not answer its preflight: one line, exit 3 (lib/errors.ts). A request's own is lib/tpp's TargetUnreachableError. */
export class PreflightUnreachableError extends ConformanceError {
  readonly code = 'XC_ERR_PREFLIGHT_UNREACHABLE';
}

export async function prepareRun(request: RunRequest): Promise<PreparedRun> {
  const targetsFile = resolve(request.targetsFile ?? defaultTargetsFile());
  const selected = selectTarget(loadTargetsFile(targetsFile), request.target);
  const config = request.scaDriver ? { ...selected, scaDriver: request.scaDriver } : selected;
  checkScaVariants(request.target, config);
  // Every problem of the target's variables, then of its files, at once: a set-up is fixed in one go.
  const interpolated = interpolateTarget(request.target, config, process.env);
  checkTargetFiles(request.target, interpolated, dirname(targetsFile));
  // Read before anything starts, so a mistyped file is a usage error (exit 2), not a lost run.
  const attestationsFile = request.attestationsFile ? resolve(request.attestationsFile) : undefined;
  const baselineDir = request.baselineDir ? resolve(request.baselineDir) : undefined;
  if (attestationsFile) loadAttestations(attestationsFile);
  if (baselineDir) readBaseline(baselineDir);
  // The browser is needed for SCA through it (and found before anything starts, so that its absence costs nothing).
  if (!request.listOnly && (config.scaDriver ?? 'browser') === 'browser') await checkBrowser();
  const gauntlet = request.gauntletFile ? readGauntlet(request.gauntletFile) : undefined;
  // Private to this run: holds the TPP key files, the test CA key and the context; removed when the run ends.
  const workDir = mkdtempSync(join(tmpdir(), 'xs2a-run-'));
  const removeWorkDir = () => rmSync(workDir, { recursive: true, force: true });
  process.once('exit', removeWorkDir);
  let stop: () => Promise<void> = () => Promise.resolve();
  const cleanup = async () => {
    try {
      await stop();
    } finally {
      removeWorkDir();
      process.removeListener('exit', removeWorkDir);
    }
  };
  try {
    const prepared = await prepareTarget(request.target, config, {
      faults: request.faults,
      variants: request.variants ?? [],
      targetsDir: dirname(targetsFile),
      workDir,
      env: process.env,
      ...(gauntlet ? { gauntlet } : {}),
    });
    stop = () => prepared.stop();
    const { target } = prepared;
    await preflight(target, interpolated.tls?.ca === undefined ? undefined : pemSource(interpolated.tls.ca, dirname(targetsFile)));
    const context: RunContext = {
      runId: newRunId(),
      targetsFile,
      reportRoot: resolve(request.reportRoot),
      startedAt: new Date().toISOString(),
      tool: TOOL,
      maskPersonalData: request.maskPersonalData,
      target,
      ...(prepared.gauntlet ? { gauntlet: prepared.gauntlet } : {}),
      ...(request.harFile ? { harFile: resolve(request.harFile) } : {}),
      declaredTarget: declaredTargetOf(config),
      arguments: request.arguments ?? [],
      ...(attestationsFile ? { attestationsFile } : {}),
      ...(baselineDir ? { baselineDir } : {}),
    };
    const contextFile = join(workDir, 'context.json');
    writeRunContext(contextFile, context);
    const { consulted } = prepared;
    return { context, contextFile, cleanup, ...(consulted ? { consulted } : {}) };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

/**
 * Before any scenario: the embedded bank, started here, need only answer TLS; a remote one gets the short
 * preflight (lib/cli/target-checks.ts): a bank that does not answer is unreachable (exit 3), a certificate tls.ca
 * did not issue or a base URL that does not serve the interface is the configuration's (exit 2, naming the
 * field), never the bank's NON_CONFORMANT. A refused TPP certificate is said, and the run judges the bank.
 */
async function preflight(target: RunTarget, caSource: string | undefined): Promise<void> {
  if (target.embedded) {
    await checkReachable(target.baseUrl, target.caPem, target.timeouts.requestMs).catch((error: Error) => {
      throw new PreflightUnreachableError(`target "${target.name}" unreachable at ${target.baseUrl}: ${error.message}`);
    });
    return;
  }
  const findings = await checkTarget(target, { full: false, ...(caSource === undefined ? {} : { caSource }) });
  const unreachable = findings.find((finding) => finding.outcome === 'unreachable');
  if (unreachable) throw new PreflightUnreachableError(unreachable.message);
  const problems = findings.filter((finding) => finding.outcome === 'problem');
  const stops = problems.filter((finding) => finding.check !== 'tpp-certificate');
  if (stops.length > 0)
    throw ConfigError.of(
      stops.map((finding) => ({ field: finding.field ?? `targets.${target.name}`, detail: finding.message })),
      `targets.${target.name}`,
    );
  for (const finding of [...problems, ...findings.filter((f) => f.outcome === 'warning')]) {
    console.error(
      `xs2a-conformance: ${finding.field ? `${finding.field}: ` : ''}${finding.message} (xs2a-conformance doctor --target ${target.name} checks all of the set-up)`,
    );
  }
}

/** A variant the suite never asks for is a typo: its scenario would silently be NOT_TESTABLE. */
function checkScaVariants(name: string, config: TargetConfig): void {
  for (const variant of Object.keys(config.scaVariants ?? {})) {
    if (!(SCA_VARIANTS as readonly string[]).includes(variant)) {
      throw new ConfigError(
        `targets.${name}.scaVariants.${variant}`,
        `no scenario asks for this variant${didYouMean(variant, SCA_VARIANTS)} (known: ${SCA_VARIANTS.join(', ')})`,
      );
    }
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

function readGauntlet(file: string): GauntletRequest {
  try {
    const request = JSON.parse(readFileSync(resolve(file), 'utf8')) as GauntletRequest;
    if (![request.faults, request.variants, request.census].some(Array.isArray))
      throw new Error('it has none of the lists "faults", "variants", "census"');
    return request;
  } catch (error) {
    throw new ConfigError('--gauntlet', `${file}: ${(error as Error).message}`);
  }
}

function newRunId(): string {
  const stamp = new Date()
    .toISOString()
    .replace(/[:.]/g, '-')
    .replace(/-\d{3}Z$/, 'Z');
  return `${stamp}-${randomBytes(2).toString('hex')}`;
}
