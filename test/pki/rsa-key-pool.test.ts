// The pool of RSA keys the project's own tests take rather than make (lib/pki/rsa-key-pool.ts), in a process of
// its own: the fast tier's processes already take their keys from the real pool.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { PACKAGE_ROOT } from '../../lib/cli/package-root.js';
import { scratchDir } from '../support/scratch.js';

const pem = () => generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

/** Three keys, as the command's start asks them (the test CA's, the TPP's, the bank's), from a process using `pool`. */
function keysOfAProcess(pool: string): string[] {
  const script = `
    import { useRsaKeyPool } from './lib/pki/rsa-key-pool.ts';
    import { generateRsaKeyPem, newRsaPrivateKey } from './lib/pki/rsa-key-source.ts';
    useRsaKeyPool(${JSON.stringify(pool)});
    const keys = [await generateRsaKeyPem(), newRsaPrivateKey().export({ type: 'pkcs8', format: 'pem' }).toString(), await generateRsaKeyPem()];
    console.log(JSON.stringify(keys));`;
  return JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: PACKAGE_ROOT, encoding: 'utf8' })) as string[];
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
});
