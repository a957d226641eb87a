/**
 * Playwright's global setup: a plain `npx playwright test` (also `--ui`, the VS Code extension, `--shard`)
 * prepares the target as `xs2a-conformance run` does (lib/cli/prepare-run.ts): the embedded bank started in
 * Playwright's own process, certificates, the run context in XS2A_RUN_CONTEXT for the workers and the
 * conformance reporter, and what the run is about in `config.metadata` for Playwright's own reports. When the
 * runner already prepared the target, it does nothing. The teardown it returns stops the bank and removes the
 * private folder.
 *
 * Settings come from the environment: XS2A_TARGET (default reference), XS2A_TARGETS, XS2A_REPORT_DIR
 * (default reports), XS2A_UNMASKED=1. SIGTERM is taken as SIGINT, which Playwright stops on gracefully, so a CI
 * timeout still leaves a report (verdict INTERRUPTED) and no key behind.
 */
import type { FullConfig } from '@playwright/test';
import { RUN_CONTEXT_ENV, readRunContext } from '../targets/run-context.js';

export const METADATA_KEY = 'xs2a-conformance';
const CONFORMANCE_REPORTER = /lib[\\/]report[\\/]reporter\.ts$/;

export default async function globalSetup(config: FullConfig): Promise<(() => Promise<void>) | undefined> {
  if (!config.reporter.some(([name]) => CONFORMANCE_REPORTER.test(name))) {
    console.warn(
      'xs2a-conformance: --reporter replaced the conformance reporter: no conformance report will be written (add ./lib/report/reporter.ts to keep it)',
    );
  }
  const given = readRunContext();
  if (given) {
    describeRun(config, given.runId, given.target.name, given.target.baseUrl);
    return undefined;
  }
  // Loaded only here, when no runner prepared the target: it brings the reference bank, certificates and targets.yaml
  // (fastify, node-forge…), which every run's Playwright process loaded for nothing before.
  const { prepareRun } = await import('./prepare-run.js');
  const prepared = await prepareRun({
    target: process.env.XS2A_TARGET ?? 'reference',
    ...(process.env.XS2A_TARGETS ? { targetsFile: process.env.XS2A_TARGETS } : {}),
    faults: [],
    reportRoot: process.env.XS2A_REPORT_DIR ?? 'reports',
    maskPersonalData: process.env.XS2A_UNMASKED !== '1',
  });
  process.env[RUN_CONTEXT_ENV] = prepared.contextFile;
  describeRun(config, prepared.context.runId, prepared.context.target.name, prepared.context.target.baseUrl);
  const sigterm = () => process.kill(process.pid, 'SIGINT');
  process.once('SIGTERM', sigterm);
  return async () => {
    process.removeListener('SIGTERM', sigterm);
    delete process.env[RUN_CONTEXT_ENV];
    await prepared.cleanup();
  };
}

/** What Playwright's own reports show of the run: nothing secret (no key path, no PSU). */
function describeRun(config: FullConfig, runId: string, target: string, baseUrl: string): void {
  config.metadata[METADATA_KEY] = { runId, target, baseUrl };
}
