/**
 * Options that switch the embedded reference bank's behaviour (`--inject-fault`/`--fault`, `--variant`):
 * each name is checked against what the bank declares as it is parsed, so a typo is a usage error (exit 2)
 * that names the option and the nearest declared name (reference/switches.ts), before anything starts.
 */
import { InvalidArgumentError, Option } from 'commander';
import { assertDeclared, UnknownSwitchError } from '../../reference/server.js';

export function switchOption(flags: string, kind: 'fault' | 'variant', description: string): Option {
  return new Option(flags, description)
    .argParser((name: string, previous: string[] = []) => {
      try {
        assertDeclared(kind, [name]);
      } catch (error) {
        if (error instanceof UnknownSwitchError) throw new InvalidArgumentError(error.message);
        throw error;
      }
      return [...previous, name];
    })
    .default([]);
}
