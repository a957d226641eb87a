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

/**
 * The clean-room bank (test/clean-room-bank/) is another team's code, written from the specification alone and
 * importing nothing of the project (dependencies.test.ts): its names are its own, not ours to keep apart.
 */
const FOREIGN = join('test', 'clean-room-bank');

function sources(dir: string): string[] {
  return readdirSync(join(PACKAGE_ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && basename(file) !== 'index.ts')
    .map((file) => join(dir, file))
    .filter((file) => !file.startsWith(FOREIGN));
}

test('no two source files share a base name', () => {
  const byName = new Map<string, string[]>();
  for (const file of FOLDERS.flatMap(sources)) byName.set(basename(file), [...(byName.get(basename(file)) ?? []), file]);
  assert.ok(byName.size > 100, 'the source files were read');
  const collisions = [...byName].filter(([, files]) => files.length > 1).map(([name, files]) => `${name}: ${files.sort().join(', ')}`);
  assert.deepEqual(collisions.sort(), []);
});
