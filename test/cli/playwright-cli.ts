/** Runs Playwright's own command line on the project, as a user of `npx playwright test` would. */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../lib/cli/package-root.js';

export interface ProcessRun {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export const PLAYWRIGHT_CLI = join(PACKAGE_ROOT, 'node_modules', '@playwright', 'test', 'cli.js');

/** `npx playwright <args>` in the project root; `env` is added to this process's environment. */
export function runPlaywright(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<ProcessRun> {
  return runProcess(process.execPath, [PLAYWRIGHT_CLI, ...args], env);
}

export function runProcess(command: string, args: readonly string[], env: NodeJS.ProcessEnv = {}, cwd = PACKAGE_ROOT): Promise<ProcessRun> {
  const child = spawn(command, args, { cwd, env: { ...process.env, FORCE_COLOR: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ exitCode: code ?? -1, stdout, stderr }));
  });
}
