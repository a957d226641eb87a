/**
 * The command line as a user meets it: help for every command without side effects, the tool's own version,
 * usage errors (exit 2) that name the nearest known option, reporter, fault or variant, and output that a
 * closed pipe (`| head`) ends quietly.
 */
import assert from 'node:assert/strict';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { COMMANDS } from '../../lib/cli/commands/index.js';
import { TOOL } from '../../lib/cli/package-root.js';
import { COMMAND_BIN } from '../support/run-cli.js';
import { scratchDir } from '../support/scratch.js';
import { runProcess } from './playwright-cli.js';

/** The command, run in a folder of its own (so anything it writes would show there). */
function cli(args: readonly string[], env: NodeJS.ProcessEnv = {}) {
  const cwd = scratchDir('xs2a-cli-');
  return runProcess(process.execPath, [COMMAND_BIN, ...args], env, cwd).then((run) => ({ ...run, cwd }));
}

describe('the command line', { concurrency: 4 }, () => {
  for (const name of ['', ...COMMANDS.map((command) => command.name)]) {
    test(`${name || 'the program'} --help prints usage, exits 0 and does nothing else`, async () => {
      const run = await cli([...(name ? [name] : []), '--help']);
      assert.equal(run.exitCode, 0, run.stderr);
      assert.match(run.stdout, new RegExp(`^Usage: xs2a-conformance${name ? ` ${name}` : ''} `));
      assert.equal(run.stderr, '');
      // Before: run --help started the bank, printed Playwright's help and exited 3.
      assert.deepEqual(readdirSync(run.cwd), [], 'help wrote files');
      assert.doesNotMatch(run.stdout, /Usage: npx playwright|listening at/);
    });
  }

  test('--version names this tool, its catalogue and the specification, not Playwright', async () => {
    const run = await cli(['--version']);
    assert.equal(run.exitCode, 0);
    assert.match(
      run.stdout,
      new RegExp(
        `^${TOOL.name} ${TOOL.version.replace(/\./g, '\\.')}\\ncatalogue: \\d+ requirements, sha256:[0-9a-f]{12}\\nspecification: `,
      ),
    );
  });

  test('a mistyped option exits 2 naming the nearest option, before anything starts', async () => {
    const run = await cli(['run', '--taget', 'reference']);
    assert.equal(run.exitCode, 2);
    assert.match(run.stderr, /unknown option '--taget'\n\(Did you mean --target\?\)/);
    const bare = await cli(['--taget', 'reference']);
    assert.equal(bare.exitCode, 2, 'the default command too');
    for (const option of ['--add-reporter', '--ui-port', '--browser', '--shuffle']) {
      const foreign = await cli(['run', option, 'x']);
      assert.equal(foreign.exitCode, 2, `${option}: ${foreign.stderr}`);
    }
  });

  test('an unknown console reporter is a usage error, not silently ignored', async () => {
    const run = await cli(['run', '--reporter', 'dott']);
    assert.equal(run.exitCode, 2);
    assert.match(run.stderr, /unknown console reporter "dott"; did you mean "dot"\?/);
    const file = await cli(['run', '--reporter', 'junit']);
    assert.equal(file.exitCode, 2);
    assert.match(file.stderr, /the report always has results\.json, index\.html and junit\.xml/);
  });

  test('a mistyped scaVariants name in targets.yaml exits 2 naming the field and the nearest variant', async () => {
    const dir = scratchDir('xs2a-variants-');
    writeFileSync(
      join(dir, 'targets.yaml'),
      'targets:\n  mine:\n    embedded: true\n    environment: sandbox\n    scaVariants:\n      reject-paymnet:\n        - match: "**/confirm"\n          steps: [{ click: { selector: "#reject" } }]\n',
    );
    const run = await cli(['run', '--targets', join(dir, 'targets.yaml'), '--target', 'mine']);
    assert.equal(run.exitCode, 2, run.stderr);
    assert.match(
      run.stderr,
      /targets\.mine\.scaVariants\.reject-paymnet: no scenario asks for this variant; did you mean "reject-payment"\?/,
    );
  });

  test('output cut short by a closed pipe ends quietly (no EPIPE)', async () => {
    const run = await runProcess('bash', ['-o', 'pipefail', '-c', `"${process.execPath}" "${COMMAND_BIN}" serve --list-faults | head -1`]);
    assert.equal(run.exitCode, 0, run.stderr);
    assert.equal(run.stderr, '');
    assert.equal(run.stdout.split('\n').filter(Boolean).length, 1);
  });
});
