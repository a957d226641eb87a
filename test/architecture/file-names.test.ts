/**
 * Each source file's name says its job without its folder: no two .ts files under lib/, reference/,
 * suites/, test/ and scripts/ share a base name (index.ts, a folder's entry point, excepted). A search for
 * a file name then finds one file, and an import line reads unambiguously.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { test } from 'node:test';
import { PACKAGE_ROOT } from '../../lib/cli/package-root.js';

const FOLDERS = ['lib', 'reference', 'suites', 'test', 'scripts'];

function sources(dir: string): string[] {
  return readdirSync(join(PACKAGE_ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && basename(file) !== 'index.ts')
    .map((file) => join(dir, file));
}

test('no two source files share a base name', () => {
  const byName = new Map<string, string[]>();
  for (const file of FOLDERS.flatMap(sources)) byName.set(basename(file), [...(byName.get(basename(file)) ?? []), file]);
  assert.ok(byName.size > 100, 'the source files were read');
  const collisions = [...byName].filter(([, files]) => files.length > 1).map(([name, files]) => `${name}: ${files.sort().join(', ')}`);
  assert.deepEqual(collisions.sort(), []);
});
