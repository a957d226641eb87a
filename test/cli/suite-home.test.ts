/**
 * Where Playwright loads the suite from (issue 37, item 1). Installed under node_modules, the tool's TypeScript
 * is refused there (ERR_UNKNOWN_FILE_EXTENSION for playwright.config.ts, reported as "no scenario matches"), so
 * the suite is given to Playwright from a copy in the user's cache, made once per version of its files, whose
 * dependencies resolve as the tool's own do (hoisted or nested) and whose tool cache is the installation's.
 * A checkout runs where it is. (test/cli/packed-install.e2e.test.ts runs a packed tool in another project.)
 */
import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { test } from 'node:test';
import { installedUnderNodeModules, suiteHome } from '../../lib/cli/suite-home.js';
import { PACKAGE_ROOT } from '../../lib/cli/package-root.js';
import { scratchDir } from '../support/scratch.js';

function write(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/** A bank's project with the tool installed in it: one dependency hoisted beside it, one nested in it. */
function installed(): { root: string; project: string } {
  const project = scratchDir('xs2a-home-project-');
  const root = join(project, 'node_modules', 'xs2a-conformance');
  write(
    join(root, 'package.json'),
    JSON.stringify({ name: 'xs2a-conformance', dependencies: { hoisted: '1', '@scope/nested': '1', optional: '1' } }),
  );
  write(join(root, 'playwright.config.ts'), 'export default {};\n');
  write(join(root, 'lib', 'fixtures', 'index.ts'), 'export const x = 1;\n');
  write(join(root, 'suites', 'sig', 'a.spec.ts'), "import '../../lib/fixtures/index.js';\n");
  write(join(root, 'test', 'not-loaded.test.ts'), '');
  write(join(project, 'node_modules', 'hoisted', 'package.json'), '{}');
  write(join(root, 'node_modules', '@scope', 'nested', 'package.json'), '{}');
  return { root, project };
}

test('a checkout runs from where it is', () => {
  assert.equal(installedUnderNodeModules(PACKAGE_ROOT), false);
  assert.equal(suiteHome(PACKAGE_ROOT), PACKAGE_ROOT);
});

test('an installed tool gives Playwright a copy outside node_modules, its dependencies and cache linked', () => {
  const { root, project } = installed();
  const cache = scratchDir('xs2a-home-cache-');
  const home = suiteHome(root, { XDG_CACHE_HOME: cache });
  assert.ok(home.startsWith(join(cache, 'xs2a-conformance', 'suite-')), home);
  assert.ok(!home.split(sep).includes('node_modules'));
  assert.equal(readFileSync(join(home, 'suites', 'sig', 'a.spec.ts'), 'utf8'), "import '../../lib/fixtures/index.js';\n");
  assert.ok(existsSync(join(home, 'playwright.config.ts')) && existsSync(join(home, 'lib', 'fixtures', 'index.ts')));
  assert.ok(!existsSync(join(home, 'test')), 'only what Playwright loads');
  assert.equal(readlinkSync(join(home, 'node_modules', 'hoisted')), join(project, 'node_modules', 'hoisted'));
  assert.equal(readlinkSync(join(home, 'node_modules', '@scope', 'nested')), join(root, 'node_modules', '@scope', 'nested'));
  assert.ok(!existsSync(join(home, 'node_modules', 'optional')), 'a dependency not installed is not linked');
  assert.equal(
    readlinkSync(join(home, 'node_modules', '.cache')),
    join(root, 'node_modules', '.cache'),
    "the installation's own cache (its HAR mark key)",
  );
  assert.equal(statSync(join(cache, 'xs2a-conformance')).mode & 0o777, 0o700);

  const made = lstatSync(join(home, '.complete')).mtimeMs;
  assert.equal(suiteHome(root, { XDG_CACHE_HOME: cache }), home, 'made once');
  assert.equal(lstatSync(join(home, '.complete')).mtimeMs, made);
  write(join(root, 'suites', 'sig', 'a.spec.ts'), '// changed\n');
  const changed = suiteHome(root, { XDG_CACHE_HOME: cache });
  assert.notEqual(changed, home, 'a changed file makes a new copy');
  assert.equal(readFileSync(join(changed, 'suites', 'sig', 'a.spec.ts'), 'utf8'), '// changed\n');
});
