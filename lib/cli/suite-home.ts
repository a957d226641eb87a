/**
 * Where Playwright loads the suite from. Playwright compiles the TypeScript of the config, the fixtures and the
 * suites itself, but never a file whose path goes through node_modules (it takes those for packages' own
 * JavaScript), and Node refuses `.ts` there: installed as a dependency of a bank's project, the tool's
 * playwright.config.ts would not even load. So an installed tool gives Playwright a copy of what it loads, in a
 * folder outside node_modules (the user's cache: $XDG_CACHE_HOME or ~/.cache), made once per version of those
 * files (a digest of their names, sizes and times) and whole or not at all. Its node_modules holds links to the
 * tool's dependencies, found where Node finds them from the tool itself, and to the tool's own cache, so that
 * both sides of a run share the installation's secrets (the HAR mark key). A checkout runs from where it is.
 *
 * Cost (the 2-core machine, three fresh caches): the copy, 2.9 MB in 334 files, 113-131 ms once per version;
 * then a stat of each file at each start, 2-3 ms.
 */
import { createHash, randomUUID } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { PACKAGE_ROOT } from './package-root.js';

/** What Playwright's processes load: the config and everything it and the suites import, and the manifest it names. */
const LOADED = ['playwright.config.ts', 'package.json', 'tsconfig.json', 'lib', 'suites', 'reference'];
/** Written last into a finished copy. */
const COMPLETE = '.complete';

/** Whether Playwright would refuse to compile the tool where it is. */
export function installedUnderNodeModules(root: string = PACKAGE_ROOT): boolean {
  return root.split(sep).includes('node_modules');
}

/** The folder Playwright loads the suite from: the tool's own, or its copy outside node_modules. */
export function suiteHome(root: string = PACKAGE_ROOT, env: NodeJS.ProcessEnv = process.env): string {
  if (!installedUnderNodeModules(root)) return root;
  const files = LOADED.flatMap((entry) => filesOf(root, entry));
  const digest = createHash('sha256');
  for (const file of files) {
    const { size, mtimeMs } = statSync(join(root, file));
    digest.update(`${file}\0${size}\0${mtimeMs}\0`);
  }
  const name = `suite-${digest.digest('hex').slice(0, 16)}`;
  const cache = join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'xs2a-conformance');
  try {
    return copyOnce(root, cache, name);
  } catch {
    // A home without a writable cache (a container's read-only one): a copy of this run's own.
    const own = mkdtempSync(join(tmpdir(), 'xs2a-suite-'));
    process.once('exit', () => rmSync(own, { recursive: true, force: true }));
    return copyOnce(root, own, name);
  }
}

function copyOnce(root: string, cache: string, name: string): string {
  const home = join(cache, name);
  if (existsSync(join(home, COMPLETE))) return home;
  mkdirSync(cache, { recursive: true, mode: 0o700 });
  // Several runs may start at once: each makes a copy of its own and renames it into place; the first wins.
  const scratch = join(cache, `.making-${randomUUID()}`);
  try {
    for (const entry of LOADED.filter((name) => existsSync(join(root, name))))
      cpSync(join(root, entry), join(scratch, entry), { recursive: true });
    linkDependencies(root, join(scratch, 'node_modules'));
    writeFileSync(join(scratch, COMPLETE), '');
    try {
      renameSync(scratch, home);
    } catch (error) {
      if (!existsSync(join(home, COMPLETE))) throw error;
    }
    return home;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Links to the tool's dependencies (each where Node finds it from the tool's root) and to its cache. */
function linkDependencies(root: string, modules: string): void {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  for (const name of Object.keys(manifest.dependencies ?? {})) {
    const found = nodeModulesOf(root)
      .map((dir) => join(dir, name))
      .find((dir) => existsSync(dir));
    if (found === undefined) continue; // an optional one not installed: Node would not find it either
    mkdirSync(dirname(join(modules, name)), { recursive: true });
    symlinkSync(found, join(modules, name), 'dir');
  }
  const cache = join(root, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  symlinkSync(cache, join(modules, '.cache'), 'dir');
}

/** The node_modules folders Node looks in from `dir`, nearest first. */
function nodeModulesOf(dir: string): string[] {
  const found: string[] = [];
  for (let at = dir; ; at = dirname(at)) {
    if (!at.endsWith(`${sep}node_modules`)) found.push(join(at, 'node_modules'));
    if (dirname(at) === at) return found;
  }
}

/** A file or a folder's files, relative to the root, sorted; none when it is missing. */
function filesOf(root: string, entry: string): string[] {
  const path = join(root, entry);
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [entry];
  return readdirSync(path, { recursive: true, withFileTypes: true })
    .filter((found) => found.isFile())
    .map((found) => join(entry, found.parentPath.slice(path.length + 1), found.name))
    .sort();
}
