// @ts-check
/**
 * Where the tool is installed: its root (package.json, playwright.config.ts, the suites), and its own cache
 * folder among other tools' caches in node_modules/.cache: what is costly to make again and may be lost at any
 * time (the command's bundle, the report page's minified script, the project's test RSA key pool). Plain
 * JavaScript: the command's launcher reads it before anything can load TypeScript.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export const TOOL_CACHE_DIR = join(PACKAGE_ROOT, 'node_modules', '.cache', 'xs2a-conformance');
