/** The `xs2a-conformance` command (bin/xs2a-conformance.js): the commands of lib/cli/commands, exit codes in lib/cli/command.ts. */
import { RSA_KEY_POOL_ENV, useRsaKeyPool } from '../pki/rsa-key-pool.js';
import { COMMANDS } from './commands/index.js';
import { runProgram } from './program.js';

// The project's e2e tests start this command about a hundred times: their runs take the RSA keys of the test
// CA, the TPP and the embedded bank from the pool their fast tier keeps, rather than make three each time.
const keyPool = process.env[RSA_KEY_POOL_ENV];
if (keyPool) useRsaKeyPool(keyPool);

// `xs2a-conformance … | head` closes the pipe early: that ends the output, it is not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? 0);
  });
}

process.exitCode = await runProgram(COMMANDS, process.argv.slice(2));
