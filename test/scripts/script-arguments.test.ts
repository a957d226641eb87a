/**
 * The project's scripts read their arguments one way (scripts/script-arguments.ts): `--help` prints the usage
 * and exits 0, anything else they do not take is a usage error with exit 2. Shown here on the reader itself,
 * and required of every script that runs as a program.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { PACKAGE_ROOT } from '../../lib/cli/package-root.js';
import { scriptArguments, type ScriptArguments, type ScriptArgumentsSpec, type ScriptExit } from '../../scripts/script-arguments.js';

const USAGE = 'usage: example [--out FILE] <a|b>';

/** How the script ended: its exit code and what it printed, or the arguments it went on with. */
type Outcome = { code: number; out: string; err: string } | { given: ScriptArguments };

class Ended extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

function read(argv: string[], spec: ScriptArgumentsSpec = {}): Outcome {
  let out = '';
  let err = '';
  const to: ScriptExit = {
    out: (text) => (out += text),
    err: (text) => (err += text),
    exit: (code) => {
      throw new Ended(code);
    },
  };
  try {
    return { given: scriptArguments(USAGE, spec, argv, to) };
  } catch (error) {
    if (!(error instanceof Ended)) throw error;
    return { code: error.code, out, err };
  }
}

const TAKES = { options: { out: { type: 'string' } }, maxPositionals: 1, choices: ['a', 'b'] } satisfies ScriptArgumentsSpec;

describe('scriptArguments', () => {
  test('--help and -h print the usage on stdout and exit 0, whatever positionals come with them', () => {
    for (const argv of [['--help'], ['-h'], ['a', '--help'], ['c', 'extra', '-h']]) {
      assert.deepEqual(read(argv, TAKES), { code: 0, out: USAGE, err: '' }, argv.join(' '));
    }
  });

  test('what the script takes comes back: options by name, positionals in order', () => {
    assert.deepEqual(read(['--out', 'x.json', 'b'], TAKES), { given: { values: { out: 'x.json' }, positionals: ['b'] } });
    assert.deepEqual(read([], {}), { given: { values: {}, positionals: [] } });
  });

  test('anything else is a usage error: the reason, then the usage, on stderr; exit 2', () => {
    const cases: [string[], ScriptArgumentsSpec, string][] = [
      [['--bogus'], TAKES, "Unknown option '--bogus'"],
      [['a', 'extra'], TAKES, 'unexpected argument "extra"'],
      [['anything'], {}, 'unexpected argument "anything"'],
      [['--out'], TAKES, "Option '--out <value>' argument missing"],
      [[], TAKES, 'no argument given (one of a, b)'],
      [['c'], TAKES, 'unknown argument "c"'],
      [['7'], { maxPositionals: 1, refuse: ({ positionals: [n] }) => (Number(n) > 10 ? undefined : `too small: ${n}`) }, 'too small: 7'],
    ];
    for (const [argv, spec, reason] of cases) {
      assert.deepEqual(read(argv, spec), { code: 2, out: '', err: `${reason}\n${USAGE}` }, argv.join(' '));
    }
  });
});

/** Scripts that are modules of others, not programs: they read no arguments. */
const MODULES = ['scripts/script-arguments.ts', 'scripts/test-tiers.ts'];

test('every script that runs as a program reads its arguments through scriptArguments', () => {
  const programs = readdirSync(join(PACKAGE_ROOT, 'scripts'))
    .filter((file) => file.endsWith('.ts'))
    .map((file) => `scripts/${file}`)
    .filter((file) => !MODULES.includes(file));
  assert.ok(programs.length >= 8, `scripts found: ${programs.join(', ')}`);
  const reading = (file: string) => /\bscriptArguments\(/.test(readFileSync(join(PACKAGE_ROOT, file), 'utf8'));
  assert.deepEqual(
    programs.filter((file) => !reading(file)),
    [],
  );
});
