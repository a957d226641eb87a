/** Runs the xs2a-conformance command as a user would, in a child process, and reads what it wrote. */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunResults } from '../../lib/report/results-types.js';

export interface CliRun {
  exitCode: number;
  stdout: string;
  stderr: string;
  reportDir: string;
  results?: RunResults;
}

/** `{reportDir}` in an argument is the run's own temporary folder; `prepare` may write files into it first. */
export async function runCli(args: string[], env: NodeJS.ProcessEnv = {}, prepare?: (reportDir: string) => void): Promise<CliRun> {
  const reportDir = mkdtempSync(join(tmpdir(), 'xs2a-cli-test-'));
  prepare?.(reportDir);
  const child = spawn(process.execPath, ['--import', 'tsx', 'lib/cli/main.ts', ...args.map((a) => a.replace('{reportDir}', reportDir))], {
    env: { ...process.env, CI: '1', XS2A_CONSOLE_REPORTER: 'dot', ...env },
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
