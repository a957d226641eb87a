/**
 * Small breakages of trust (issue 37, item 4), each a usage error (exit 2) said at once: a word where a command
 * goes that names none (`verfy` ran the default command with it as a test filter: the target started for
 * nothing, or, for a word that matched a spec file, its scenarios ran and replaced reports/latest); a test filter
 * that matches no spec file; an audit of a HAR without entries (it exited 0, as if its traffic had passed).
 */
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runAudit } from '../../lib/cli/commands/audit-command.js';
import { COMMANDS } from '../../lib/cli/commands/index.js';
import { UsageError } from '../../lib/cli/command.js';
import { runProgram } from '../../lib/cli/program.js';
import { scratchDir } from '../support/scratch.js';

/** The program run in this process, its stderr kept. */
async function program(argv: string[]): Promise<{ code: number; stderr: string }> {
  const errors: string[] = [];
  const error = console.error;
  console.error = (...args: unknown[]) => void errors.push(args.join(' '));
  try {
    return { code: await runProgram(COMMANDS, argv), stderr: errors.join('\n') };
  } finally {
    console.error = error;
  }
}

describe('a word where a command goes', () => {
  test('that names no command is a usage error naming the nearest command and all of them, before anything starts', async () => {
    const cwd = process.cwd();
    process.chdir(scratchDir('xs2a-words-'));
    try {
      const { code, stderr } = await program(['verfy', 'certification.zip']);
      assert.equal(code, 2);
      assert.match(
        stderr,
        /unknown command "verfy"; did you mean "verify"\? \(commands: run, merge, .*, doctor, .*; a test filter goes after run: xs2a-conformance run verfy\)/,
      );
      assert.ok(!existsSync('reports'), 'no report written');
      // A word that happens to match a spec file (suites/sandbox/initialisation.spec.ts) ran its scenarios.
      assert.equal((await program(['initialisation'])).code, 2);
    } finally {
      process.chdir(cwd);
    }
  });

  test('a test filter after run must match a spec file of the suite', async () => {
    const { code, stderr } = await program(['run', 'suites/authentcation/request-signing.spec.ts:12']);
    assert.equal(code, 2);
    assert.match(stderr, /the test filter "suites\/authentcation\/request-signing\.spec\.ts:12" matches no spec file of the suite/);
  });
});

test('an audit of a HAR without entries is a usage error, not a clean bill (exit 0 before)', async () => {
  const dir = scratchDir('xs2a-empty-har-');
  const har = join(dir, 'empty.har');
  writeFileSync(har, JSON.stringify({ log: { version: '1.2', creator: { name: 'browser', version: '1' }, entries: [] } }));
  await assert.rejects(
    runAudit({ harFile: har, trustCaFiles: [], reportDir: join(dir, 'reports'), unmasked: false }),
    (error: unknown) => error instanceof UsageError && /empty\.har holds no entries: there is no traffic to judge/.test(error.message),
  );
  assert.ok(!existsSync(join(dir, 'reports')), 'no report of nothing');
});
