/**
 * The `xs2a-conformance` command. Exit codes: 0 conformant (or nothing failed), 1 non-conformant,
 * 2 configuration or usage error, 3 target unreachable or infrastructure failure.
 */
import { BrowserNotFoundError } from '../sca/browser.js';
import { ConfigError } from '../targets/load.js';
import { EXIT_CODES } from '../report/verdict.js';
import { UsageError } from './args.js';
import { PACKAGE_USAGE, packageCommand, parsePackageArgs } from './commands/package.js';
import { REPLAY_USAGE, parseReplayArgs, replayCommand } from './commands/replay.js';
import { requirementsCommand } from './commands/requirements.js';
import { VERIFY_USAGE, parseVerifyArgs, verifyCommand } from './commands/verify.js';
import { listCommand } from './commands/list.js';
import { serveCommand } from './commands/serve.js';
import { runCommand } from './run.js';

const USAGE = `Usage: xs2a-conformance <command> [options]

Commands:
  run [--target NAME] [--targets FILE] [--inject-fault NAME]... [--report-dir DIR] [--reporter list|line|dot|junit…]
      [--unmasked] [--attestations FILE] [--baseline DIR] [--pdf] [Playwright options…]
                                              run the conformance suite (the default command)
  list [--targets FILE]                       list the targets of targets.yaml
  serve [--port N] [--host H] [--fault NAME]... [--ca-out FILE]
                                              run the reference bank as a sandbox for your own client
  requirements [--json] [--area A] [--level L] [--uncovered]
                                              list the requirement catalogue
  package <report dir> [--sign --key FILE --certificate FILE | --sign --target NAME] [-o FILE]
                                              zip a report with a SHA-256 manifest, signed with the TPP's key
  verify <package.zip> [--ca FILE]... [--require-signature]
                                              check a package: what was changed, who signed it
  replay <report dir> <scenario id> [--targets FILE]
                                              send a scenario's requests again, freshly signed, and compare

Exit codes: 0 conformant (or no failure), 1 non-conformant, 2 configuration error, 3 target unreachable.`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case undefined:
      return runCommand([]);
    case 'run':
      return runCommand(rest);
    case 'list':
      return listCommand(rest);
    case 'serve':
      return serveCommand(rest);
    case 'requirements':
      return requirementsCommand(rest);
    case 'package':
      return withUsage(parsePackageArgs(rest), PACKAGE_USAGE, packageCommand);
    case 'verify':
      return withUsage(parseVerifyArgs(rest), VERIFY_USAGE, verifyCommand);
    case 'replay':
      return withUsage(parseReplayArgs(rest), REPLAY_USAGE, replayCommand);
    case 'help':
    case '--help':
    case '-h':
      console.log(USAGE);
      return 0;
    default:
      // `xs2a-conformance --target x` is `run --target x`.
      if (command.startsWith('-')) return runCommand(argv);
      console.error(`xs2a-conformance: unknown command "${command}"\n\n${USAGE}`);
      return EXIT_CODES.configurationError;
  }
}

/** `--help` prints the command's usage; otherwise the command runs with its parsed options. */
async function withUsage<O>(parsed: O | 'help', usage: string, command: (options: O) => Promise<number>): Promise<number> {
  if (parsed === 'help') {
    console.log(usage);
    return 0;
  }
  return command(parsed);
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  if (error instanceof ConfigError || error instanceof UsageError) {
    console.error(`xs2a-conformance: ${error.message}`);
    process.exitCode = EXIT_CODES.configurationError;
  } else if (error instanceof BrowserNotFoundError) {
    console.error(`xs2a-conformance: ${error.message}`);
    process.exitCode = EXIT_CODES.infrastructureFailure;
  } else {
    console.error('xs2a-conformance: internal error:', error);
    process.exitCode = EXIT_CODES.infrastructureFailure;
  }
}
