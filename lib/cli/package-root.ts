/** Where the tool lives and what it is called: the package root holds playwright.config.ts and the suites. */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PACKAGE_ROOT } from '../support/install-paths.js';

export { PACKAGE_ROOT };

const manifest = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
export const TOOL = { name: manifest.name, version: manifest.version };

/** XS2A_TARGETS, else targets.yaml in the working directory, else the one shipped with the tool. */
export function defaultTargetsFile(env: NodeJS.ProcessEnv = process.env): string {
  if (env.XS2A_TARGETS) return env.XS2A_TARGETS;
  const local = resolve('targets.yaml');
  return existsSync(local) ? local : join(PACKAGE_ROOT, 'targets.yaml');
}
