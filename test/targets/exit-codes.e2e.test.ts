// A malformed targets file, whatever is wrong with it, is a configuration error: one message, exit 2. Before,
// a YAML alias bomb ended as "internal error" and `--target constructor` as "unreachable", both exit 3.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runCli } from '../support/run-cli.js';
import { scratchDir } from '../support/scratch.js';

function targetsFile(yaml: string): string {
  const file = join(scratchDir('xs2a-targets-'), 'targets.yaml');
  writeFileSync(file, yaml);
  return file;
}

describe('the command with a malformed targets file', { concurrency: 3 }, () => {
  test('a YAML alias bomb: exit 2, not an internal error', async () => {
    const levels = Array.from({ length: 9 }, (_, i) => `l${i + 1}: &l${i + 1} [${Array(9).fill(`*l${i}`).join(', ')}]`);
    const run = await runCli([
      'run',
      '--targets',
      targetsFile(['l0: &l0 ["lol"]', ...levels, 'targets: { x: { embedded: true, environment: sandbox } }'].join('\n')),
    ]);
    assert.equal(run.exitCode, 2, run.stderr);
    assert.match(run.stderr, /not a usable YAML document/);
    assert.doesNotMatch(run.stderr, /internal error/);
  });

  test('--target constructor: an unknown target, exit 2', async () => {
    const run = await runCli(['run', '--target', 'constructor']);
    assert.equal(run.exitCode, 2, run.stderr);
    assert.match(run.stderr, /unknown target "constructor"/);
  });

  test('${VAR} where it does not belong: exit 2, the value not shown', async () => {
    const run = await runCli(
      [
        'run',
        '--targets',
        targetsFile('targets:\n  x: { embedded: true, environment: sandbox, description: "${CI_SECRET}" }\n'),
        '--target',
        'x',
      ],
      { CI_SECRET: 'hunter2-leaked' },
    );
    assert.equal(run.exitCode, 2, run.stderr);
    assert.match(run.stderr, /targets\.x\.description: \$\{…\} is not allowed here/);
    assert.doesNotMatch(run.stderr + run.stdout, /hunter2/);
  });
});
