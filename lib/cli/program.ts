/**
 * The program: every command of lib/cli/commands/index.ts under one commander root, with `--help` for each
 * (no side effects), `--version`, and usage errors (unknown option or command, a value no parser accepts)
 * reported on one line with the nearest known name, exit 2.
 */
import { Command, CommanderError } from 'commander';
import { ConformanceError, exitClassOf } from '../errors.js';
import { EXIT_CODES } from '../report/verdict.js';
import { didYouMean, UsageError, type CliCommand, type CliCommandEntry } from './command.js';
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

/**
 * The program, every command listed by its entry; a command's module is loaded and configured only when
 * commander dispatches to it (its preSubcommand hook, before the command parses its own arguments), or when
 * `help <command>` asks for its help (`preload`).
 */
export function buildProgram(
  entries: readonly CliCommandEntry[],
  exit: { code: number },
  preload?: string,
): { program: Command; ready: Promise<void> } {
  const program = new Command(TOOL.name)
    .description('Conformance test suite and compliance checker for an XS2A 1.3 Open Banking interface')
    .version(versionText(), '-V, --version', 'the versions of this tool, its requirement catalogue and the specification')
    .helpOption('-h, --help', 'this help')
    .showSuggestionAfterError(true)
    .exitOverride()
    // Commander lists a command by its arguments and options, which an entry not yet loaded has none of: its usage.
    .configureHelp({ subcommandTerm: (command) => `${command.name()} ${command.usage()}` })
    .addHelpText('after', EXIT_HELP);
  const loaders = new Map<Command, () => Promise<void>>();
  for (const entry of entries) {
    const command = program
      .command(entry.name, entry.isDefault ? { isDefault: true } : {})
      .summary(entry.summary)
      .description(entry.summary)
      .usage(entry.usage);
    command.helpOption('-h, --help', 'this help');
    let loaded: Promise<void> | undefined;
    loaders.set(
      command,
      () =>
        (loaded ??= entry.load().then((spec: CliCommand) => {
          spec.configure(command);
          command.action(async (...args: unknown[]) => {
            exit.code = await spec.run(args.at(-1) as Command);
          });
        })),
    );
  }
  program.hook('preSubcommand', (_program, command) => loaders.get(command)?.());
  const wanted = preload === undefined ? undefined : program.commands.find((command) => command.name() === preload);
  return { program, ready: (wanted && loaders.get(wanted)?.()) ?? Promise.resolve() };
}

/**
 * A word where a command goes that names none (`verfy`, a command of a later version) is a usage error naming the
 * commands. Commander would hand it to the default command as a test filter: a run that starts the target for
 * nothing, or runs the scenarios of whatever spec file the word happens to match. Filters follow `run`.
 */
function checkCommandWord(entries: readonly CliCommandEntry[], first: string | undefined): void {
  if (first === undefined || !/^[a-z][a-z-]*$/.test(first) || first === 'help' || entries.some((entry) => entry.name === first)) return;
  const names = entries.map((entry) => entry.name);
  throw new UsageError(
    `unknown command "${first}"${didYouMean(first, names)} (commands: ${names.join(', ')}; a test filter goes after run: ${TOOL.name} run ${first})`,
  );
}

/** `help <command>`: commander prints that command's help without dispatching to it, so its module is loaded first. */
function helpAskedFor(argv: readonly string[]): string | undefined {
  return argv[0] === 'help' ? argv[1] : undefined;
}

/** Runs the command line; resolves to the exit code. Errors the user can act on are one line on stderr. */
export async function runProgram(entries: readonly CliCommandEntry[], argv: readonly string[]): Promise<number> {
  const exit = { code: 0 };
  try {
    checkCommandWord(entries, argv[0]);
    const { program, ready } = buildProgram(entries, exit, helpAskedFor(argv));
    await ready;
    await program.parseAsync([...argv], { from: 'user' });
    return exit.code;
  } catch (error) {
    const { exitCode, say } = exitOnError(error);
    if (say === 'line') console.error(`${TOOL.name}: ${(error as Error).message}`);
    if (say === 'stack') console.error(`${TOOL.name}: internal error:`, error);
    return exitCode;
  }
}

/**
 * How the command ends on an error (lib/errors.ts): commander has said its own (help, version: exit 0; a usage
 * error: 2); an error of lib/ the user can act on is one line, with its code's exit class; anything else is a
 * fault of the tool, shown with its stack, exit 3.
 */
export function exitOnError(error: unknown): { exitCode: number; say: 'nothing' | 'line' | 'stack' } {
  if (error instanceof CommanderError) return { exitCode: ASKED_FOR.has(error.code) ? 0 : EXIT_CODES.configurationError, say: 'nothing' };
  if (error instanceof ConformanceError) {
    const { exit, internal } = exitClassOf(error);
    return { exitCode: exit, say: internal ? 'stack' : 'line' };
  }
  return { exitCode: EXIT_CODES.infrastructureFailure, say: 'stack' };
}

/** What a command line means, without running anything (for the project's tests): the command, its options, its arguments. */
export async function parseCommandLine(
  entries: readonly CliCommandEntry[],
  argv: readonly string[],
): Promise<{ command: string; options: Record<string, unknown>; args: string[] }> {
  let parsed: { command: string; options: Record<string, unknown>; args: string[] } | undefined;
  const capturing = entries.map((entry) => ({
    ...entry,
    load: async (): Promise<CliCommand> => ({
      ...(await entry.load()),
      run: (command: Command) => {
        parsed = { command: entry.name, options: command.opts(), args: command.args };
        return Promise.resolve(0);
      },
    }),
  }));
  const { program } = buildProgram(capturing, { code: 0 });
  program.configureOutput({ writeErr: () => {}, writeOut: () => {} });
  await program.parseAsync([...argv], { from: 'user' });
  if (!parsed) throw new Error(`no command ran for ${argv.join(' ')}`);
  return parsed;
}
