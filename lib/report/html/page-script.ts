/**
 * The report page's script (browser.js), minified by esbuild (the compiler tsx already runs this project with)
 * once per version of the file and of esbuild, and kept among the tool's own files in node_modules/.cache:
 * starting esbuild and minifying took about 0.15 CPU-seconds of every run, which writes one report. A cache
 * that cannot be read or written (a read-only install) only costs the minifying.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as Esbuild from 'esbuild';
import { TOOL_CACHE_DIR } from '../../support/install-paths.js';

const require = createRequire(import.meta.url);
const HERE = dirname(fileURLToPath(import.meta.url));
const OPTIONS = { minify: true, target: 'es2020' } as const;

/** `source` minified: from `cacheDir` when this source was minified before with these options, else made now and kept. */
export function minifiedPageScript(source: string, cacheDir = TOOL_CACHE_DIR): string {
  const esbuildVersion = (require('esbuild/package.json') as { version: string }).version;
  const key = createHash('sha256')
    .update(`${esbuildVersion}\n${JSON.stringify(OPTIONS)}\n${source}`)
    .digest('hex')
    .slice(0, 32);
  const file = join(cacheDir, `page-script-${key}.js`);
  try {
    return readFileSync(file, 'utf8');
  } catch {
    // not minified yet (or unreadable): below
  }
  const { transformSync } = require('esbuild') as typeof Esbuild;
  const minified = transformSync(source, OPTIONS).code.trim();
  try {
    mkdirSync(cacheDir, { recursive: true });
    const draft = `${file}.${process.pid}`;
    writeFileSync(draft, minified);
    renameSync(draft, file); // whole or not at all: processes of one run may minify at the same time
  } catch {
    // a read-only install: minified again next time
  }
  return minified;
}

let script: string | undefined;

/** The page script of this tool, read and minified at the first page rendered (not when a command starts). */
export function pageScript(): string {
  script ??= minifiedPageScript(readFileSync(join(HERE, 'browser.js'), 'utf8'));
  return script;
}
