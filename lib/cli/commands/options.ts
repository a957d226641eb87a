/**
 * Option parsing for the report commands (package, verify, replay) with node:util's parseArgs: unknown
 * options and missing values are usage errors (exit 2). Each command exports a function taking its parsed
 * options, so it can be registered on any command-line framework.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from '../args.js';

type Options = NonNullable<ParseArgsConfig['options']>;

export function parseCommandArgs<O extends Options>(command: string, argv: readonly string[], options: O) {
  try {
    return parseArgs({ args: [...argv], options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(`${command}: ${(error as Error).message}`);
  }
}
