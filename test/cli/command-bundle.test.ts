/**
 * The command's bundle (lib/cli/command-bundle.js) is used only while it was made from the sources as they are:
 * the digest follows every byte and path of them; a changed, missing or unlisted source, a manifest that does not
 * match, or no bundle at all means none is current. Made twice at once, one bundle results; bundles a day old go. Each module keeps
 * its own import.meta.url (paths beside a source resolve as under tsx) and the packages stay outside.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { before, describe, test } from 'node:test';
import { currentBundle, makeBundle, sourceDigest } from '../../lib/cli/command-bundle.js';
import { PACKAGE_ROOT } from '../../lib/cli/package-root.js';
import { scratchDir } from '../support/scratch.js';

const SOURCES: Record<string, string> = { 'lib/a.ts': 'export const a = 1;', 'lib/b.ts': 'export const b = 2;' };
const read = (file: string) => SOURCES[file] ?? '';

describe('the digest of the sources', () => {
  const digest = sourceDigest(Object.keys(SOURCES), read, '0.28.2');

  test('does not depend on the order the sources are listed in', () => {
    assert.equal(sourceDigest(['lib/b.ts', 'lib/a.ts'], read, '0.28.2'), digest);
  });

  test("changes with a source's content, a source's path, a source more, and esbuild's version", () => {
    const others = [
      sourceDigest(['lib/a.ts', 'lib/b.ts'], (file) => (file === 'lib/b.ts' ? 'export const b = 3;' : read(file)), '0.28.2'),
      sourceDigest(['lib/a.ts', 'lib/c.ts'], (file) => read(file === 'lib/c.ts' ? 'lib/b.ts' : file), '0.28.2'),
      sourceDigest(['lib/a.ts', 'lib/b.ts', 'lib/c.ts'], read, '0.28.2'),
      sourceDigest(['lib/a.ts', 'lib/b.ts'], read, '0.28.3'),
      // Where one source ends and the next begins is part of what is hashed.
      sourceDigest(['lib/a.ts', 'lib/b.ts'], (file) => (file === 'lib/a.ts' ? `${read('lib/a.ts')}export const b = 2;` : ''), '0.28.2'),
    ];
    assert.equal(new Set([digest, ...others]).size, others.length + 1);
  });
});

describe('a bundle of the command', () => {
  const dir = scratchDir('xs2a-command-bundle-');
  let made = '';
  before(async () => {
    // Bundles of older sources: one made two days ago, one an hour ago (a bank started from it may still be serving).
    for (const [name, ageHours] of [
      ['old', 48],
      ['recent', 1],
    ] as const) {
      mkdirSync(join(dir, name));
      const then = new Date(Date.now() - ageHours * 3_600_000);
      utimesSync(join(dir, name), then, then);
    }
    // Two processes starting the command at once, as the tests' runs do: one bundle results.
    const [first, second] = await Promise.all([makeBundle(dir), makeBundle(dir)]);
    assert.equal(first, second);
    made = first;
  });

  test('is current once made; making it leaves its folder, and removes bundles a day old', () => {
    assert.equal(currentBundle(dir), made);
    assert.deepEqual(readdirSync(dir).sort(), [fileURLToPath(made).split('/').at(-2), 'current.json', 'recent'].sort());
  });

  test('lists the sources it was made from: the command, the bank and the TypeScript options, not the suites or the tests', () => {
    const { inputs } = JSON.parse(readFileSync(join(dir, 'current.json'), 'utf8')) as { inputs: string[] };
    assert.ok(
      inputs.includes('lib/cli/main.ts') && inputs.includes('lib/support/install-paths.js') && inputs.includes('reference/app.ts'),
      inputs.join(' '),
    );
    assert.deepEqual(
      inputs.filter((file) => !/^(lib|reference)\//.test(file)),
      ['tsconfig.json'],
    );
  });

  test("gives each module its source's import.meta.url, and leaves the packages to node_modules", () => {
    const folder = fileURLToPath(new URL('.', made));
    const code = readdirSync(folder)
      .filter((file) => file.endsWith('.js'))
      .map((file) => readFileSync(join(folder, file), 'utf8'))
      .join('\n');
    assert.doesNotMatch(code, /import\.meta/);
    assert.ok(
      code.includes(JSON.stringify(pathToFileURL(join(PACKAGE_ROOT, 'lib/support/install-paths.js')).href)),
      'install-paths.js keeps its own URL',
    );
    assert.match(code, /from "fastify"/);
    assert.doesNotMatch(code, /node_modules\/fastify/);
  });

  test('is not current when the manifest does not match the sources, names a source that is gone, or is missing', () => {
    const manifestFile = join(dir, 'current.json');
    const manifest = readFileSync(manifestFile, 'utf8');
    const { inputs, digest, esbuild } = JSON.parse(manifest) as { inputs: string[]; digest: string; esbuild: string };
    try {
      // What a changed source looks like from here: the sources no longer give the digest of the folder.
      writeFileSync(manifestFile, JSON.stringify({ inputs: inputs.slice(1), digest, esbuild }));
      assert.equal(currentBundle(dir), undefined);
      writeFileSync(manifestFile, JSON.stringify({ inputs: [...inputs, 'lib/gone.ts'], digest, esbuild }));
      assert.equal(currentBundle(dir), undefined);
      writeFileSync(manifestFile, '{"inputs": ');
      assert.equal(currentBundle(dir), undefined);
    } finally {
      writeFileSync(manifestFile, manifest);
    }
    assert.equal(currentBundle(dir), made);
    assert.equal(currentBundle(scratchDir('xs2a-command-bundle-empty-')), undefined);
  });
});
