/**
 * The program: every command of lib/cli/commands/index.ts under one commander root, with `--help` for each
 * (no side effects), `--version`, and usage errors (unknown option or command, a value no parser accepts)
 * reported on one line with the nearest known name, exit 2.
 */
import { Command, CommanderError } from 'commander';
import { BrowserNotFoundError } from '../sca/browser.js';
import { ConfigError } from '../targets/config-error.js';
import { EXIT_CODES } from '../report/verdict.js';
import { UsageError, type CliCommand } from './command.js';
import { versionText } from './tool-version.js';
import { TOOL } from './package-root.js';

const EXIT_HELP = `
Exit codes:
  0  conformant, or nothing failed (an INCOMPLETE run exits 0 unless --require conformant)
  1  NON_CONFORMANT: a MUST requirement failed
  2  usage or configuration error (bad option, targets.yaml, unknown target, fault or variant)
  3  target unreachable, browser missing, a scenario stopped with an error, or the run INTERRUPTED
  4  the run did not reach what --require or --fail-on asks for`;

/** Commander's codes for output the user asked for (help, version): exit 0. */
const ASKED_FOR = new Set(['commander.helpDisplayed', 'commander.help', 'commander.version']);

export function buildProgram(commands: readonly CliCommand[], exit: { code: number }): Command {
  const program = new Command(TOOL.name)
    .description('Conformance test suite and compliance checker for an XS2A 1.3 Open Banking interface')
    .version(versionText(), '-V, --version', 'the versions of this tool, its requirement catalogue and the specification')
    .helpOption('-h, --help', 'this help')
    .showSuggestionAfterError(true)
    .exitOverride()
    .addHelpText('after', EXIT_HELP);
  for (const spec of commands) {
    const command = program.command(spec.name, spec.isDefault ? { isDefault: true } : {}).summary(spec.summary).description(spec.summary);
    command.helpOption('-h, --help', 'this help');
    spec.configure(command);
    command.action(async (...args: unknown[]) => {
      exit.code = await spec.run(args.at(-1) as Command);
    });
  }
  return program;
}

/** Runs the command line; resolves to the exit code. Errors the user can act on are one line on stderr. */
export async function runProgram(commands: readonly CliCommand[], argv: readonly string[]): Promise<number> {
  const exit = { code: 0 };
  const program = buildProgram(commands, exit);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return exit.code;
  } catch (error) {
    if (error instanceof CommanderError) return ASKED_FOR.has(error.code) ? 0 : EXIT_CODES.configurationError;
    if (error instanceof ConfigError || error instanceof UsageError) {
      console.error(`${TOOL.name}: ${error.message}`);
      return EXIT_CODES.configurationError;
    }
    if (error instanceof BrowserNotFoundError) {
      console.error(`${TOOL.name}: ${error.message}`);
      return EXIT_CODES.infrastructureFailure;
    }
    console.error(`${TOOL.name}: internal error:`, error);
    return EXIT_CODES.infrastructureFailure;
  }
}

/** What a command line means, without running anything (for the project's tests): the command, its options, its arguments. */
export async function parseCommandLine(commands: readonly CliCommand[], argv: readonly string[]): Promise<{ command: string; options: Record<string, unknown>; args: string[] }> {
  let parsed: { command: string; options: Record<string, unknown>; args: string[] } | undefined;
  const capturing = commands.map((spec) => ({
    ...spec,
    run: (command: Command) => {
      parsed = { command: spec.name, options: command.opts(), args: command.args };
      return Promise.resolve(0);
    },
  }));
  const program = buildProgram(capturing, { code: 0 }).configureOutput({ writeErr: () => {}, writeOut: () => {} });
  await program.parseAsync([...argv], { from: 'user' });
  if (!parsed) throw new Error(`no command ran for ${argv.join(' ')}`);
  return parsed;
}
