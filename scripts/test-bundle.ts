/**
 * One process of the fast tier (scripts/test-tiers.ts): imports the test files named in XS2A_TEST_BUNDLE, so
 * that their tests run in this process, one file after another, on modules loaded once, with RSA keys from
 * the pool kept between runs (scripts/rsa-key-pool.js).
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { useRsaKeyPool } from './rsa-key-pool.js';
import { scriptArguments } from './script-arguments.js';
import { BUNDLE_ENV } from './test-tiers.js';

scriptArguments(`usage: XS2A_TEST_BUNDLE='["test/…test.ts", …]' node --import tsx [node:test options] scripts/test-bundle.ts

One process of the fast tier: runs the test files XS2A_TEST_BUNDLE names (scripts/test-tiers.ts starts it).`);
useRsaKeyPool();
const files = JSON.parse(process.env[BUNDLE_ENV] ?? '[]') as string[];
for (const file of files) await import(pathToFileURL(resolve(file)).href);
