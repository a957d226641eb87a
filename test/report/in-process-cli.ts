/** The real command line of xs2a-conformance, run in this process (no child to start): its exit code and what it printed. */
import { COMMANDS } from '../../lib/cli/commands/index.js';
import { runProgram } from '../../lib/cli/program.js';

export interface InProcessRun {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export async function runInProcess(argv: readonly string[]): Promise<InProcessRun> {
  const out: string[] = [];
  const err: string[] = [];
  const { log, error } = console;
  console.log = (...args: unknown[]) => void out.push(args.map(String).join(' '));
  console.error = (...args: unknown[]) => void err.push(args.map(String).join(' '));
  try {
    const exitCode = await runProgram(COMMANDS, argv);
    return { exitCode, stdout: out.join('\n'), stderr: err.join('\n') };
  } finally {
    console.log = log;
    console.error = error;
  }
}
