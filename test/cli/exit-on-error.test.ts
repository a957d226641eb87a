/**
 * How the command ends on an error (lib/cli/program.ts, exitOnError): each error of lib/ by the exit class its
 * code maps to in lib/errors.ts, one line when the user can act on it, its stack when it is a fault of the
 * tool; commander's own ends as they were.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CommanderError, type Command } from 'commander';
import { UsageError, type CliCommandEntry } from '../../lib/cli/command.js';
import { GATE_NOT_MET } from '../../lib/cli/gate.js';
import { PreflightUnreachableError } from '../../lib/cli/prepare-run.js';
import { exitOnError, runProgram } from '../../lib/cli/program.js';
import { ConformanceError, ERRORS } from '../../lib/errors.js';
import { CertificateAuthorityError } from '../../lib/pki/certificate-authority.js';
import { DerError } from '../../lib/pki/der.js';
import { EXIT_CODES } from '../../lib/report/verdict.js';
import { BrowserNotFoundError } from '../../lib/sca/browser.js';
import { ConfigError } from '../../lib/targets/config-error.js';
import { TargetUnreachableError } from '../../lib/tpp/target-unreachable.js';

/** A program of one command whose run throws `error`; its exit code and what it said on stderr. */
async function programThrowing(error: unknown): Promise<{ code: number; stderr: string }> {
  const entry: CliCommandEntry = {
    name: 'go',
    summary: 'throws',
    usage: '[options]',
    isDefault: true,
    load: () => Promise.resolve({ configure: (_command: Command) => {}, run: () => Promise.reject(error as Error) }),
  };
  const said: string[] = [];
  const consoleError = console.error;
  console.error = (...args: unknown[]) =>
    void said.push(args.map((arg) => (arg instanceof Error ? (arg.stack ?? arg.message) : String(arg))).join(' '));
  try {
    return { code: await runProgram([entry], ['go']), stderr: said.join('\n') };
  } finally {
    console.error = consoleError;
  }
}

describe('the exit of an error', () => {
  test('every code of the catalogue maps to 2, 3 or 4, as the exit codes name them', () => {
    const classes = new Set<number>([EXIT_CODES.configurationError, EXIT_CODES.infrastructureFailure, GATE_NOT_MET]);
    assert.deepEqual(
      Object.entries(ERRORS).filter(([, entry]) => !classes.has(entry.exit)),
      [],
    );
  });

  test('a usage or configuration error is one line, exit 2', () => {
    for (const error of [new UsageError('bad'), new ConfigError('targets.x.baseUrl', 'bad'), new CertificateAuthorityError('bad')]) {
      assert.deepEqual(exitOnError(error), { exitCode: 2, say: 'line' }, error.name);
    }
  });

  test('a target or browser not there is one line, exit 3', () => {
    for (const error of [
      new PreflightUnreachableError('down'),
      new TargetUnreachableError('https://bank.example', new Error('ECONNREFUSED')),
      new BrowserNotFoundError(['/usr/bin/chromium']),
    ]) {
      assert.deepEqual(exitOnError(error), { exitCode: 3, say: 'line' }, error.name);
    }
  });

  test("a parser's error, or anything not of lib/, is a fault of the tool: its stack, exit 3", () => {
    assert.deepEqual(exitOnError(new DerError('short')), { exitCode: 3, say: 'stack' });
    assert.deepEqual(exitOnError(new TypeError('x is undefined')), { exitCode: 3, say: 'stack' });
    assert.deepEqual(exitOnError('a string'), { exitCode: 3, say: 'stack' });
  });

  test("commander's help and version exit 0, its usage errors 2; it has said its own", () => {
    assert.deepEqual(exitOnError(new CommanderError(0, 'commander.helpDisplayed', '')), { exitCode: 0, say: 'nothing' });
    assert.deepEqual(exitOnError(new CommanderError(0, 'commander.version', '')), { exitCode: 0, say: 'nothing' });
    assert.deepEqual(exitOnError(new CommanderError(1, 'commander.unknownOption', "error: unknown option '--x'")), {
      exitCode: 2,
      say: 'nothing',
    });
  });

  test('an error of lib/ has its code and its class name', () => {
    const error = new UsageError('bad');
    assert.ok(error instanceof ConformanceError);
    assert.equal(error.code, 'XC_ERR_USAGE');
    assert.equal(error.name, 'UsageError');
    assert.equal(new PreflightUnreachableError('down').name, 'PreflightUnreachableError');
    assert.equal(new TargetUnreachableError('https://bank.example', new Error('x')).name, 'TargetUnreachableError');
  });

  test('the program says a preflight that found the target down on one line and exits 3', async () => {
    const { code, stderr } = await programThrowing(
      new PreflightUnreachableError('target "sandbox" unreachable at https://bank.example: ECONNREFUSED'),
    );
    assert.equal(code, 3);
    assert.equal(stderr, 'xs2a-conformance: target "sandbox" unreachable at https://bank.example: ECONNREFUSED');
  });

  test('the program says a fault of the tool with its stack and exits 3', async () => {
    const { code, stderr } = await programThrowing(new DerError('the element runs past the end'));
    assert.equal(code, 3);
    assert.match(stderr, /^xs2a-conformance: internal error: DerError: the element runs past the end\n\s+at /);
  });
});
