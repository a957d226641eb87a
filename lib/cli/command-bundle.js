// @ts-check
/**
 * The command's own code (lib/cli/main.ts and what it imports from this project) as a bundle esbuild makes from
 * the TypeScript sources, kept in the tool's cache. Started through tsx, a run of the command costs about
 * 0.85 CPU-seconds more: tsx's loader thread handles every import, one message each way per module. The check
 * starts the command about a hundred times.
 *
 * A bundle is used only while every source it was made from is byte for byte what it was made from: its folder is
 * named by a digest of those sources (sourceDigest), and `current.json` beside it lists them; a changed source,
 * and the next start makes a bundle again (about half a second). So there is no build step to forget, and no way
 * to run code older than the sources. Plain JavaScript, because it runs before anything can load TypeScript.
 *
 * What the bundle changes, and how it is kept as tsx ran it: each module's `import.meta.url` (and dirname,
 * filename) is its source file's, so that paths beside a source (the package root, the report page's script)
 * resolve as before; packages stay imports of node_modules; dynamic imports stay lazy (code splitting: a
 * command's help loads neither the bank nor Playwright); names are kept (keepNames, as tsx does); a stack trace
 * names the TypeScript lines (linked source maps).
 *
 * Why a bundle made at start and not a plain build (issue 36, item 7; farm-bench medians, 2 shared cores under
 * load, November 2026): `--help` starts in 0.100 CPU-s (0.20 s wall) through this file, in 0.089 CPU-s (0.19 s)
 * from the same bundle started directly, which is what a build made by `npm ci` (a `prepare` script running
 * esbuild) would start, and in 0.33 CPU-s (0.86 s) through tsx. A plain build keeps `npm ci && npm test` two
 * commands and saves the digest's 0.011 CPU-s, but it is made once: after an edit, `npm test`, a developer's
 * command and each of the e2e tier's hundred starts would run code older than the sources, unless each first
 * built again (about 0.7 s wall) or checked, which is what this file does; a registry install would need the
 * build packed as well. So the bundle stays.
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, extname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PACKAGE_ROOT, TOOL_CACHE_DIR } from '../support/install-paths.js';

/** Where bundles live: one folder per digest, and `current.json`, the last one made. */
const COMMAND_BUNDLE_DIR = join(TOOL_CACHE_DIR, 'command');
/** The bundle's entry point, relative to the package root. */
const ENTRY = 'lib/cli/main.ts';
/** Part of every digest: changes when what goes into a bundle does (this file's build options). */
const BUNDLE_FORMAT = '1';
/** A bundle folder not the current one is removed when a new bundle is made and it is older than this. */
const STALE_MS = 24 * 60 * 60 * 1000;

/**
 * @typedef {object} BundleManifest
 * @property {string} digest   the sources' digest, the bundle folder's name
 * @property {string[]} inputs the sources, relative to the package root
 * @property {string} esbuild  the version of esbuild that made it
 */

/**
 * The digest of a bundle's sources: their paths and contents, with what else decides the output (the package
 * root, which the bundle's `import.meta.url`s name; esbuild's version; this file's options).
 * @param {readonly string[]} inputs sources, relative to the package root
 * @param {(file: string) => Buffer | string} read a source's content
 * @param {string} esbuildVersion
 */
export function sourceDigest(inputs, read, esbuildVersion) {
  const hash = createHash('sha256').update(`${BUNDLE_FORMAT}\0${PACKAGE_ROOT}\0${esbuildVersion}\0`);
  for (const file of [...inputs].sort()) hash.update(`${file}\0`).update(read(file)).update('\0');
  return hash.digest('hex').slice(0, 24);
}

/** @param {string} file */
const readSource = (file) => readFileSync(join(PACKAGE_ROOT, file));

/** @param {string} dir */
function readManifest(dir) {
  try {
    return /** @type {BundleManifest} */ (JSON.parse(readFileSync(join(dir, 'current.json'), 'utf8')));
  } catch {
    return undefined;
  }
}

/**
 * The file URL of the current bundle's entry, if one was made from exactly the sources as they are now.
 * @param {string} [dir] the bundles' folder
 * @returns {string | undefined}
 */
export function currentBundle(dir = COMMAND_BUNDLE_DIR) {
  const manifest = readManifest(dir);
  if (!manifest) return undefined;
  let digest;
  try {
    digest = sourceDigest(manifest.inputs, readSource, manifest.esbuild);
  } catch {
    return undefined; // a source is gone: the sources changed
  }
  const main = join(dir, digest, 'main.js');
  return digest === manifest.digest && existsSync(main) ? pathToFileURL(main).href : undefined;
}

/** esbuild's loader for a source of this project, by its extension. @param {string} file */
function loaderOf(file) {
  const loaders = /** @type {const} */ ({ '.ts': 'ts', '.json': 'json', '.js': 'js', '.mjs': 'js' });
  const loader = loaders[/** @type {keyof typeof loaders} */ (extname(file))];
  if (!loader) throw new Error(`${file}: no loader for this kind of source`);
  return loader;
}

/**
 * Makes a bundle of the sources as they are now and makes it current; returns its entry's file URL. Several
 * processes may make the same one at once: each writes a folder of its own and renames it into place; the first
 * rename wins and the others use its folder, which holds the same.
 * @param {string} [dir] the bundles' folder
 * @returns {Promise<string>}
 */
export async function makeBundle(dir = COMMAND_BUNDLE_DIR) {
  const esbuild = await import('esbuild');
  /**
   * @type {Map<string, string>} the sources as esbuild read them (the digest is of what was bundled), and the TypeScript options it read
   */
  const read = new Map([['tsconfig.json', readFileSync(join(PACKAGE_ROOT, 'tsconfig.json'), 'utf8')]]);
  const scratch = join(dir, `.making-${randomUUID()}`);
  mkdirSync(dir, { recursive: true });
  try {
    await esbuild.build({
      entryPoints: [join(PACKAGE_ROOT, ENTRY)],
      outdir: scratch,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      packages: 'external',
      keepNames: true,
      sourcemap: 'linked',
      sourcesContent: false,
      logLevel: 'silent',
      plugins: [
        {
          name: 'own-import-meta',
          setup(build) {
            build.onLoad({ filter: /.*/, namespace: 'file' }, (args) => {
              const file = relative(PACKAGE_ROOT, args.path);
              const text = readFileSync(args.path, 'utf8');
              read.set(file, text);
              const url = pathToFileURL(args.path).href;
              const contents = text
                .replaceAll('import.meta.url', JSON.stringify(url))
                .replaceAll('import.meta.dirname', JSON.stringify(dirname(args.path)))
                .replaceAll('import.meta.filename', JSON.stringify(args.path));
              return { contents, loader: loaderOf(file) };
            });
          },
        },
      ],
    });
    const inputs = [...read.keys()].sort();
    const digest = sourceDigest(inputs, (file) => /** @type {string} */ (read.get(file)), esbuild.version);
    const folder = join(dir, digest);
    try {
      renameSync(scratch, folder);
    } catch (error) {
      if (!existsSync(join(folder, 'main.js'))) throw error;
    }
    /** @type {BundleManifest} */
    const manifest = { digest, inputs, esbuild: esbuild.version };
    const manifestScratch = join(dir, `.current-${randomUUID()}.json`);
    writeFileSync(manifestScratch, JSON.stringify(manifest));
    renameSync(manifestScratch, join(dir, 'current.json'));
    removeStale(dir, digest);
    return pathToFileURL(join(folder, 'main.js')).href;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * Bundles of older sources, a day after they were made: not at once, as a command started from one (a bank
 * serving for hours) may still load one of its lazy parts.
 * @param {string} dir
 * @param {string} keep
 */
function removeStale(dir, keep) {
  const now = Date.now();
  for (const entry of readdirSync(dir)) {
    if (entry === keep || entry === 'current.json') continue;
    const path = join(dir, entry);
    try {
      if (now - statSync(path).mtimeMs > STALE_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      // another process removed it first
    }
  }
}
