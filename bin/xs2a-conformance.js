#!/usr/bin/env node
// The command, from the bundle of its TypeScript sources (lib/cli/command-bundle.js) when one was made from the
// sources as they are; otherwise it makes one first. Should that fail (a read-only install), it runs the sources
// through tsx, as `node --import tsx lib/cli/main.ts` does: the same code, slower to start.
import process from 'node:process';
import { currentBundle, makeBundle } from '../lib/cli/command-bundle.js';

const bundle = currentBundle() ?? (await makeBundle().catch(() => undefined));
if (bundle) {
  process.setSourceMapsEnabled(true);
  await import(bundle);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../lib/cli/main.ts');
}
