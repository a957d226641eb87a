/** Runs the xs2a-conformance command as a user would, in a child process, and reads what it wrote. */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../lib/cli/package-root.js';
import type { RunResults } from '../../lib/report/results-types.js';
import { scratchDir } from './scratch.js';

/** The installed command: it runs from any folder (bin/xs2a-conformance.js loads its own code). */
export const COMMAND_BIN = join(PACKAGE_ROOT, 'bin', 'xs2a-conformance.js');

export interface CliRun {
  exitCode: number;
  stdout: string;
  stderr: string;
  reportDir: string;
  results?: RunResults;
}

/**
 * The command's own number of workers, for a run that wants them: runCli gives one otherwise. Most of these
 * runs select a few scenarios, which one worker plays in about the time a second takes to start (about 2.5
 * CPU-seconds: a Playwright, its fixtures, a browser), and the e2e tier runs two files at once on shared cores.
 */
export const COMMAND_DEFAULT_WORKERS: NodeJS.ProcessEnv = { XS2A_WORKERS: '' };

/**
 * `{reportDir}` in an argument is the run's own temporary folder; `prepare` may write files into it first.
 * One Playwright worker unless `env` says otherwise (COMMAND_DEFAULT_WORKERS, or a number).
 */
export async function runCli(args: string[], env: NodeJS.ProcessEnv = {}, prepare?: (reportDir: string) => void): Promise<CliRun> {
  const reportDir = scratchDir('xs2a-cli-test-');
  prepare?.(reportDir);
  const child = spawn(process.execPath, [COMMAND_BIN, ...args.map((a) => a.replace('{reportDir}', reportDir))], {
    env: { ...process.env, CI: '1', XS2A_CONSOLE_REPORTER: 'dot', XS2A_WORKERS: '1', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exitCode = await new Promise<number>((resolve) => child.once('exit', (code) => resolve(code ?? -1)));
  const resultsFile = join(reportDir, 'latest', 'results.json');
  const results = existsSync(resultsFile) ? (JSON.parse(readFileSync(resultsFile, 'utf8')) as RunResults) : undefined;
  return { exitCode, stdout, stderr, reportDir, ...(results ? { results } : {}) };
}
