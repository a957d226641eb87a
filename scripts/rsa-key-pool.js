// @ts-check
/**
 * RSA keys for a process of the project's own tests, from a pool kept between runs: making the keys of its
 * CAs, banks and TPPs took a fifth of the fast tier's CPU, and three keys (about 0.8 CPU-seconds on a slow
 * core) each of the e2e tier's hundred runs of the command. A test needs keys that differ from each other
 * within its process, which the pool gives (each key once); it never needs a key nobody had before. The pool
 * grows by the keys a run had to make, so the second run makes none. It is kept beside other tools' caches
 * in node_modules/.cache (RSA_KEY_POOL_FILE), out of the repository: a committed private key, even a test
 * one, is what secret scanners are right to flag.
 *
 * The fast tier's processes take their keys from it (scripts/test-bundle.ts); so does each process of the
 * command the e2e tier starts, through scripts/command-key-pool.js, which the tier preloads (NODE_OPTIONS):
 * the command itself has no code for it. Plain JavaScript, as that preload runs before anything can load
 * TypeScript. Only the command's own process: the keys a Playwright worker makes (a world lane's, another
 * TPP's) must differ from the run's, and a worker taking the pool's first keys would repeat them.
 */
import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { TOOL_CACHE_DIR } from '../lib/support/install-paths.js';

/** The pool of the project's tests, among other tools' caches. */
export const RSA_KEY_POOL_FILE = join(TOOL_CACHE_DIR, 'test-rsa-keys.json');

/**
 * Where lib/pki/rsa-key-source.ts takes a process's new keys from when it is set: a slot of the whole process
 * (a registered symbol), so that it reaches the copy of that module in the command's bundle.
 */
const RSA_KEY_SOURCE = Symbol.for('xs2a-conformance.rsa-key-source');

/** @param {string} file */
function readPool(file) {
  try {
    const pool = /** @type {unknown} */ (JSON.parse(readFileSync(file, 'utf8')));
    return Array.isArray(pool) && pool.every((pem) => typeof pem === 'string') ? /** @type {string[]} */ (pool) : [];
  } catch {
    return []; // none yet, or unreadable: the keys are made as without a pool
  }
}

/**
 * New keys in this process come from the pool, then are made (and kept for the next run).
 * @param {string} [file]
 */
export function useRsaKeyPool(file = RSA_KEY_POOL_FILE) {
  const pooled = readPool(file);
  /** @type {string[]} */
  const made = [];
  let taken = 0;
  /** @type {Record<symbol, () => import('node:crypto').KeyObject>} */ (/** @type {unknown} */ (globalThis))[RSA_KEY_SOURCE] = () => {
    const pem = pooled[taken++];
    if (pem !== undefined) return createPrivateKey(pem);
    const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    made.push(key.export({ type: 'pkcs8', format: 'pem' }).toString());
    return key;
  };
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
