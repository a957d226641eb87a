/**
 * The program loads only the module of the command that runs: `--help`, `list` or a usage error of `merge`
 * start without the bank, Playwright or the report's code. The registry (lib/cli/commands/index.ts) lists each
 * command by its usage, which must be the one commander derives from the command's own module.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Command } from 'commander';
import { COMMANDS } from '../../lib/cli/commands/index.js';
import type { CliCommandEntry } from '../../lib/cli/command.js';
import { parseCommandLine, runProgram } from '../../lib/cli/program.js';

/** Two commands whose modules count their loads; `a` is the default. */
function countingEntries(): { entries: CliCommandEntry[]; loads: string[] } {
  const loads: string[] = [];
  const entry = (name: string, isDefault = false): CliCommandEntry => ({
    name,
    summary: `the ${name} command`,
    usage: '[options]',
    ...(isDefault ? { isDefault } : {}),
    load: () => {
      loads.push(name);
      return Promise.resolve({ configure: (command: Command) => void command.option('--flag'), run: () => Promise.resolve(0) });
    },
  });
  return { entries: [entry('a', true), entry('b')], loads };
}

describe('the program', () => {
  test("loads the module of the command that runs, and no other's", async () => {
    const named = countingEntries();
    assert.deepEqual(await parseCommandLine(named.entries, ['b', '--flag']), { command: 'b', options: { flag: true }, args: [] });
    assert.deepEqual(named.loads, ['b']);
    const byDefault = countingEntries();
    assert.equal((await parseCommandLine(byDefault.entries, ['--flag'])).command, 'a');
    assert.deepEqual(byDefault.loads, ['a']);
  });

  test("loads none for the program's own help and version, and the one `help <command>` names", async () => {
    for (const argv of [['--help'], ['--version']]) {
      const { entries, loads } = countingEntries();
      const output = captureStdout();
      try {
        assert.equal(await runProgram(entries, argv), 0);
      } finally {
        output.restore();
      }
      assert.deepEqual(loads, [], argv.join(' '));
    }
    const { entries, loads } = countingEntries();
    const output = captureStdout();
    try {
      assert.equal(await runProgram(entries, ['help', 'b']), 0);
    } finally {
      output.restore();
    }
    assert.deepEqual(loads, ['b']);
    assert.match(output.text(), /Usage: xs2a-conformance b \[options\][\s\S]*--flag/);
  });

  test('lists each command by the usage its own module declares', async () => {
    for (const entry of COMMANDS) {
      const command = new Command(entry.name);
      (await entry.load()).configure(command);
      assert.equal(entry.usage, command.usage(), `${entry.name}: lib/cli/commands/index.ts lists a usage its module does not declare`);
    }
  });
});

/** What the program prints, kept from the test's own output. */
function captureStdout(): { text: () => string; restore: () => void } {
  const write = process.stdout.write.bind(process.stdout);
  let text = '';
  process.stdout.write = (chunk: string | Uint8Array) => {
    text += chunk.toString();
    return true;
  };
  return { text: () => text, restore: () => void (process.stdout.write = write) };
}
