/**
 * The bank's rules stand apart from HTTP's framework: nothing under reference/services or reference/state
 * imports fastify (nor a fastify plugin package), not even a type. A service reads a request through a
 * BankContext (reference/http/bank-context.ts): the TPP's world, its switches, the TPP, headers and URL.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { PACKAGE_ROOT } from '../../lib/cli/package-root.js';

const FOLDERS = ['reference/services', 'reference/state'];

/** Every module a file names: static imports and re-exports (types too) and dynamic imports. */
function specifiers(text: string): string[] {
  const found = [...text.matchAll(/\b(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map((m) => m[1] as string);
  return found;
}

const isFastify = (specifier: string) =>
  specifier === 'fastify' || specifier.startsWith('fastify/') || specifier === 'fastify-plugin' || specifier.startsWith('@fastify/');

test('no service and no state of the bank imports fastify', () => {
  const files = FOLDERS.flatMap((dir) =>
    readdirSync(join(PACKAGE_ROOT, dir), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts'))
      .map((f) => join(dir, f)),
  );
  assert.ok(files.length > 20, 'the files were read');
  const offenders = files.flatMap((file) =>
    specifiers(readFileSync(join(PACKAGE_ROOT, file), 'utf8'))
      .filter(isFastify)
      .map((s) => `${file} -> ${s}`),
  );
  assert.deepEqual(offenders, []);
});

test('the check sees an import of fastify, a type import and a dynamic one alike', () => {
  const text =
    "import type { FastifyRequest } from 'fastify';\nimport fp from 'fastify-plugin';\nconst f = await import('@fastify/formbody');";
  assert.deepEqual(specifiers(text).filter(isFastify), ['fastify', 'fastify-plugin', '@fastify/formbody']);
});
