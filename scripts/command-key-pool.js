// @ts-check
/**
 * Preloaded into every process of the e2e tier (`NODE_OPTIONS=--import=…`, scripts/test-tiers.ts): a process of
 * the command (bin/xs2a-conformance.js, however reached: node_modules/.bin, npx, an installed copy) takes its new
 * RSA keys from the tests' pool (scripts/rsa-key-pool.js); every other process (the test file's own, Playwright's
 * runner and workers, a bank) is left as it is. The pool is RSA_KEY_POOL_FILE, or the file `?pool=` names in this
 * module's URL (the pool's own test).
 */
import { realpathSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import process from 'node:process';
import { URL } from 'node:url';

/** @param {string | undefined} script */
function isTheCommand(script) {
  if (!script) return false;
  try {
    const file = realpathSync(script);
    return basename(file) === 'xs2a-conformance.js' && basename(dirname(file)) === 'bin';
  } catch {
    return false;
  }
}

if (isTheCommand(process.argv[1])) {
  const { useRsaKeyPool } = await import('./rsa-key-pool.js');
  useRsaKeyPool(new URL(import.meta.url).searchParams.get('pool') ?? undefined);
}
