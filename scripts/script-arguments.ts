/**
 * The arguments of the project's scripts, read one way: `--help` (`-h`) prints the script's usage and exits 0;
 * an argument the script does not take is a usage error, its reason and the usage on stderr, exit 2, as the
 * command's own (lib/cli). node's util.parseArgs does the reading: options, their values, positionals.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

type OptionsConfig = NonNullable<ParseArgsConfig['options']>;

/** What a script was given: its options' values by name, and its positionals. */
export interface ScriptArguments {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/** What a script takes: its options, and how many positionals at most (none unless said). */
export interface ScriptArgumentsSpec {
  options?: OptionsConfig;
  maxPositionals?: number;
  /** The first positional is required and is one of these (a tier, say). */
  choices?: readonly string[];
  /** The reason the arguments cannot be used, when parsing alone cannot tell (a number that is not one). */
  refuse?: (given: ScriptArguments) => string | undefined;
}

/** Where the usage goes, and how the script ends: the process's own, unless a test says otherwise. */
export interface ScriptExit {
  out: (text: string) => void;
  err: (text: string) => void;
  exit: (code: number) => never;
}

const PROCESS_EXIT: ScriptExit = {
  out: (text) => console.log(text),
  err: (text) => console.error(text),
  exit: (code) => process.exit(code),
};

/** The usage error: its reason, then the usage, on stderr; exit 2. */
function usageError(usage: string, reason: string, to: ScriptExit = PROCESS_EXIT): never {
  to.err(`${reason}\n${usage}`);
  return to.exit(2);
}

/** Reads a script's arguments (process.argv after the script, unless given), or ends it: with its usage, or a usage error. */
export function scriptArguments(
  usage: string,
  spec: ScriptArgumentsSpec = {},
  argv: readonly string[] = process.argv.slice(2),
  to: ScriptExit = PROCESS_EXIT,
): ScriptArguments {
  let given: ScriptArguments;
  try {
    const parsed = parseArgs({
      args: [...argv],
      options: { ...spec.options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
    // A plain object: parseArgs gives one without a prototype.
    given = { values: { ...parsed.values }, positionals: parsed.positionals };
  } catch (error) {
    // node's reason, without its advice on passing a positional that starts with "-".
    return usageError(usage, (error as Error).message.replace(/\. To specify a positional argument[\s\S]*$/, ''), to);
  }
  if (given.values.help === true) {
    to.out(usage);
    return to.exit(0);
  }
  const extra = given.positionals[spec.maxPositionals ?? 0];
  if (extra !== undefined) return usageError(usage, `unexpected argument "${extra}"`, to);
  const [first] = given.positionals;
  if (spec.choices && (first === undefined || !spec.choices.includes(first))) {
    return usageError(
      usage,
      first === undefined ? `no argument given (one of ${spec.choices.join(', ')})` : `unknown argument "${first}"`,
      to,
    );
  }
  const refused = spec.refuse?.(given);
  return refused === undefined ? given : usageError(usage, refused, to);
}
