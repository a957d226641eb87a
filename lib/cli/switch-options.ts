/**
 * Options that switch the embedded reference bank's behaviour (`--inject-fault`/`--fault`, `--variant`): each
 * name given is checked against what the bank declares (reference/switches.ts) once the command line is parsed
 * and before the command does anything, so a typo is a usage error (exit 2) that names the option and the
 * nearest declared name. The bank's modules declare the names, so they are loaded only when a name is given: a
 * run without switches, its help and its other usage errors start without them.
 */
import { Option, type Command } from 'commander';
import { repeatable } from './command.js';

export interface SwitchOption {
  flags: string;
  kind: 'fault' | 'variant';
  description: string;
}

export function addSwitchOptions(command: Command, switches: readonly SwitchOption[]): void {
  const options = switches.map((declared) => ({
    declared,
    option: new Option(declared.flags, declared.description).argParser(repeatable).default([]),
  }));
  for (const { option } of options) command.addOption(option);
  command.hook('preAction', async (_hooked, actionCommand) => {
    const given = options.flatMap(({ declared, option }) =>
      (actionCommand.getOptionValue(option.attributeName()) as string[]).map((name) => ({ declared, name })),
    );
    if (given.length === 0) return;
    const { assertDeclared, UnknownSwitchError } = await import('../../reference/server.js');
    for (const { declared, name } of given) {
      try {
        assertDeclared(declared.kind, [name]);
      } catch (error) {
        if (!(error instanceof UnknownSwitchError)) throw error;
        // As commander words a value its option parser refuses.
        actionCommand.error(`error: option '${declared.flags}' argument '${name}' is invalid. ${error.message}`, {
          exitCode: 2,
          code: 'commander.invalidArgument',
        });
      }
    }
  });
}
