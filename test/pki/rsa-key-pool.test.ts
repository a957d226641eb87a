// The pool of RSA keys the project's own tests take rather than make (scripts/rsa-key-pool.js), in a process of
// its own: the fast tier's processes already take their keys from the real pool. The e2e tier preloads it into
// the command's processes (scripts/command-key-pool.js), and into no other.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, test } from 'node:test';
import { PACKAGE_ROOT } from '../../lib/cli/package-root.js';
import { COMMAND_BIN } from '../support/run-cli.js';
import { scratchDir } from '../support/scratch.js';

const pem = () => generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

/** Three keys, as the command's start asks them (the test CA's, the TPP's, the bank's), from a process using `pool`. */
function keysOfAProcess(pool: string): string[] {
  const script = `
    import { useRsaKeyPool } from './scripts/rsa-key-pool.js';
    import { generateRsaKeyPem, newRsaPrivateKey } from './lib/pki/rsa-key-source.ts';
    useRsaKeyPool(${JSON.stringify(pool)});
    const keys = [await generateRsaKeyPem(), newRsaPrivateKey().export({ type: 'pkcs8', format: 'pem' }).toString(), await generateRsaKeyPem()];
    console.log(JSON.stringify(keys));`;
  return JSON.parse(
    execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: PACKAGE_ROOT, encoding: 'utf8' }),
  ) as string[];
}

describe('the RSA key pool of the project tests', () => {
  test('a process takes each pooled key once, in order, then makes one and keeps it for the next process', () => {
    const pool = join(scratchDir('xs2a-key-pool-'), 'keys.json');
    const pooled = [pem(), pem()];
    writeFileSync(pool, JSON.stringify(pooled), { mode: 0o600 });

    const first = keysOfAProcess(pool);
    assert.deepEqual(first.slice(0, 2), pooled, 'the async PEM keys and the KeyObject keys alike come from the pool');
    assert.equal(new Set(first).size, 3, 'the key made once the pool ran out is a new one');
    assert.deepEqual(JSON.parse(readFileSync(pool, 'utf8')), first, 'the pool grew by the key the process made');
    assert.equal(statSync(pool).mode & 0o777, 0o600);

    assert.deepEqual(keysOfAProcess(pool), first, 'the next process makes none');
  });

  test("preloaded, it gives the command's process its keys (through the bundle), and no other process", () => {
    const pool = join(scratchDir('xs2a-key-pool-'), 'keys.json');
    const pooled = [pem(), pem(), pem()];
    writeFileSync(pool, JSON.stringify(pooled), { mode: 0o600 });
    const preload = `--import=${pathToFileURL(join(PACKAGE_ROOT, 'scripts', 'command-key-pool.js')).href}?pool=${encodeURIComponent(pool)}`;
    const out = scratchDir('xs2a-key-pool-cert-');
    const options = { cwd: out, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: preload } } as const;
    execFileSync(process.execPath, [COMMAND_BIN, 'cert', '--roles', 'PSP_AI', '--organization-id', 'PSDNO-FSA-123456'], options);
    const written = ['tpp-ca-key.pem', 'tpp-key.pem'].map((file) =>
      createPrivateKey(readFileSync(join(out, file), 'utf8'))
        .export({ type: 'pkcs8', format: 'pem' })
        .toString(),
    );
    assert.deepEqual(new Set(written), new Set(pooled.slice(0, 2)), "the CA and the TPP keys are the pool's first two");
    assert.equal(
      execFileSync(process.execPath, ['-p', "Symbol.for('xs2a-conformance.rsa-key-source') in globalThis"], options).trim(),
      'false',
      'a process not of the command has no source',
    );
  });
});
