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
  const write = process.stderr.write.bind(process.stderr);
  console.log = (...args: unknown[]) => void out.push(args.map(String).join(' '));
  console.error = (...args: unknown[]) => void err.push(`${args.map(String).join(' ')}\n`);
  // Commander writes its usage errors to the stream itself, not through console.error.
  process.stderr.write = (chunk: string | Uint8Array) => err.push(chunk.toString()) > 0;
  try {
    const exitCode = await runProgram(COMMANDS, argv);
    return { exitCode, stdout: out.join('\n'), stderr: err.join('').replace(/\n$/, '') };
  } finally {
    console.log = log;
    console.error = error;
    process.stderr.write = write;
  }
}
