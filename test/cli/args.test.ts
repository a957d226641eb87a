import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseRunArgs, UsageError } from '../../lib/cli/args.js';

describe('run arguments', () => {
  test('runner options are taken out, the rest passes to Playwright', () => {
    const options = parseRunArgs(['--target', 'sandbox', '--grep', 'signature', '--workers', '2', '--inject-fault=date-check-off']);
    assert.equal(options.target, 'sandbox');
    assert.deepEqual(options.faults, ['date-check-off']);
    assert.deepEqual(options.playwrightArgs, ['--grep', 'signature', '--workers', '2']);
    assert.equal(options.filtered, true);
  });

  test('defaults: the reference target, masked, unfiltered', () => {
    const options = parseRunArgs([]);
    assert.equal(options.target, 'reference');
    assert.equal(options.maskPersonalData, true);
    assert.equal(options.filtered, false);
  });

  test('a worker count is not a file filter, a file name is', () => {
    assert.equal(parseRunArgs(['--workers', '2']).filtered, false);
    assert.equal(parseRunArgs(['suites/authentication']).filtered, true);
    assert.equal(parseRunArgs(['--shard=1/2']).filtered, true);
  });

  test('--reporter picks the console output; --unmasked turns masking off', () => {
    const options = parseRunArgs(['--reporter', 'junit', '--unmasked']);
    assert.equal(options.consoleReporter, 'junit');
    assert.equal(options.maskPersonalData, false);
    assert.deepEqual(options.playwrightArgs, []);
  });

  test('a runner option without its value is a usage error', () => {
    assert.throws(() => parseRunArgs(['--target']), UsageError);
  });
});
