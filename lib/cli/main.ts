/** The `xs2a-conformance` command (bin/xs2a-conformance.js): the commands of lib/cli/commands, exit codes in lib/cli/command.ts. */
import { COMMANDS } from './commands/index.js';
import { runProgram } from './program.js';

// `xs2a-conformance … | head` closes the pipe early: that ends the output, it is not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? 0);
  });
}

process.exitCode = await runProgram(COMMANDS, process.argv.slice(2));
