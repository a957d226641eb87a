/**
 * RSA keys for a process of the project's own tests, from a pool kept between runs: making the keys of its
 * CAs, banks and TPPs took a fifth of the fast tier's CPU, and three keys (about 0.8 CPU-seconds on a slow
 * core) each of the e2e tier's hundred runs of the command. A test needs keys that differ from each other
 * within its process, which the pool gives (each key once); it never needs a key nobody had before. The pool
 * grows by the keys a run had to make, so the second run makes none. It is kept beside other tools' caches
 * in node_modules/.cache (RSA_KEY_POOL_FILE, scripts/test-tiers.ts), out of the repository: a committed
 * private key, even a test one, is what secret scanners are right to flag.
 *
 * The fast tier's processes take their keys from it (scripts/test-bundle.ts); the command does when
 * XS2A_TEST_RSA_KEY_POOL names the pool (lib/cli/main.ts), as the e2e tier sets it (scripts/test-tiers.ts).
 * Only the command's own process: the keys a Playwright worker makes (a world lane's, another TPP's) must
 * differ from the run's, and a worker taking the pool's first keys would repeat them.
 */
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { generateRsaPrivateKey, takeRsaKeysFrom } from './rsa-key-source.js';

/** Names the pool the command takes its keys from (the project's e2e tests set it; nothing else should). */
export const RSA_KEY_POOL_ENV = 'XS2A_TEST_RSA_KEY_POOL';

function readPool(file: string): string[] {
  try {
    const pool = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return Array.isArray(pool) && pool.every((pem) => typeof pem === 'string') ? pool : [];
  } catch {
    return []; // none yet, or unreadable: the keys are made as without a pool
  }
}

/** New keys in this process come from the pool, then are made (and kept for the next run). */
export function useRsaKeyPool(file: string): void {
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
