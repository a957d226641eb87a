/**
 * What a command of `xs2a-conformance` is: one module that declares its arguments and options on the
 * commander Command it is given, and runs with what commander parsed. Commands are registered in one place,
 * lib/cli/commands/index.ts, by name, summary and usage; lib/cli/program.ts turns that list into the program
 * (help, version, usage errors) and loads the module of the command that runs.
 *
 * Exit codes, for every command: 0 success (conformant, or nothing failed), 1 non-conformant, 2 usage or
 * configuration error, 3 target unreachable, infrastructure failure or run interrupted, 4 the run did not
 * reach what `--require` or `--fail-on` asked for. An error of lib/ that reaches the program ends it by the exit
 * class of its code (lib/errors.ts, lib/cli/program.ts's exitOnError).
 */
import { InvalidArgumentError, type Command } from 'commander';
import { closest, distance } from 'fastest-levenshtein';
import { ConformanceError } from '../errors.js';

/** A command as the program lists it (lib/cli/commands/index.ts), before its module is loaded. */
export interface CliCommandEntry {
  /** `xs2a-conformance <name>`. */
  name: string;
  /** One line for the program's help. */
  summary: string;
  /** Its usage after the name, as commander derives it from the module's arguments (`[options] <dirs...>`). */
  usage: string;
  /** The command run when none is named (`xs2a-conformance --target x` is `run --target x`). */
  isDefault?: boolean;
  /** The command's module: loaded only when the command runs (or shows its help). */
  load(): Promise<CliCommand>;
}

/** What a command's module gives: its arguments and options, and what it does. */
export interface CliCommand {
  /** Declares arguments, options and extra help on the command. Nothing here may have side effects. */
  configure(command: Command): void;
  /** Runs with what commander parsed (`command.opts()`, `command.args`); resolves to the exit code. */
  run(command: Command): Promise<number>;
}

/** A usage error found after parsing (a value no option parser could judge alone): exit 2, with the message. */
export class UsageError extends ConformanceError {
  readonly code = 'XC_ERR_USAGE';
}

/** `, did you mean "x"?` when a known name is close enough to the one given; empty otherwise. */
export function didYouMean(given: string, known: readonly string[]): string {
  if (known.length === 0) return '';
  const nearest = closest(given, [...known]);
  // Close enough to be a typo: a third of the name may differ.
  return distance(given, nearest) <= Math.max(2, Math.floor(nearest.length / 3)) ? `; did you mean "${nearest}"?` : '';
}

/** An option parser that takes one of `known` (repeatable options collect them): a usage error names the nearest. */
export function oneOf(what: string, known: readonly string[], help = ''): (value: string, previous?: string[]) => string[] {
  return (value, previous = []) => {
    if (!known.includes(value)) {
      throw new InvalidArgumentError(`unknown ${what} "${value}"${didYouMean(value, known)}${help ? ` (${help})` : ''}`);
    }
    return [...previous, value];
  };
}

/** An option parser for a whole number within bounds. */
export function wholeNumber(min: number, max = Number.MAX_SAFE_INTEGER): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < min || n > max)
      throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}, not "${value}"`);
    return n;
  };
}

/** An option parser that collects every value of a repeatable option, in order (`--trust-ca a --trust-ca b`). */
export function repeatable(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
