/**
 * RSA keys for a process of the project's own tests, from a pool kept between runs: making the keys of its
 * CAs, banks and TPPs took a fifth of the fast tier's CPU. A test needs keys that differ from each other
 * within its process, which the pool gives (each key once); it never needs a key nobody had before. The pool
 * grows by the keys a run had to make, so the second run makes none. It is kept beside other tools' caches
 * in node_modules/.cache, out of the repository: a committed private key, even a test one, is what secret
 * scanners are right to flag.
 */
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PACKAGE_ROOT } from '../../lib/cli/package-root.js';
import { generateRsaPrivateKey, takeRsaKeysFrom } from '../../lib/pki/rsa-key-source.js';

const RSA_KEY_POOL_FILE = join(PACKAGE_ROOT, 'node_modules', '.cache', 'xs2a-conformance', 'test-rsa-keys.json');

function readPool(file: string): string[] {
  try {
    const pool = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return Array.isArray(pool) && pool.every((pem) => typeof pem === 'string') ? pool : [];
  } catch {
    return []; // none yet, or unreadable: the keys are made as without a pool
  }
}

/** New keys in this process come from the pool, then are made (and kept for the next run). */
export function useRsaKeyPool(file = RSA_KEY_POOL_FILE): void {
  const pooled = readPool(file);
  const made: string[] = [];
  let taken = 0;
  takeRsaKeysFrom((): KeyObject => {
    const pem = pooled[taken++];
    if (pem !== undefined) return createPrivateKey(pem);
    const key = generateRsaPrivateKey();
    made.push(key.export({ type: 'pkcs8', format: 'pem' }).toString());
    return key;
  });
  process.once('exit', () => {
    if (made.length === 0) return;
    // Processes of one tier end at about the same time: the longest pool wins; a lost race only costs keys.
    const grown = [...pooled, ...made];
    if (readPool(file).length >= grown.length) return;
    mkdirSync(dirname(file), { recursive: true });
    const draft = `${file}.${process.pid}`;
    writeFileSync(draft, JSON.stringify(grown), { mode: 0o600 });
    renameSync(draft, file);
  });
}
