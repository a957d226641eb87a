// @ts-check
/**
 * The tool's own cache folder, among other tools' caches in node_modules/.cache of its install: what is costly to
 * make again and may be lost at any time (the command's bundle, the report page's minified script, the project's
 * test RSA key pool). Plain JavaScript: the command's launcher reads it before anything can load TypeScript.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const TOOL_CACHE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'node_modules', '.cache', 'xs2a-conformance');
