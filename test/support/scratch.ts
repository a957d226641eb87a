/**
 * Temporary folders of a test process: removed when the process ends, unless a test failed (node:test then
 * exits non-zero), so that a failure's files can be looked into. A check used to leave hundreds of them in
 * the system's temporary folder (the README's workspaces 12 MB each, a gauntlet run's report over 100 MB).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];
process.once('exit', (code) => {
  if (code === 0) for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A new folder in the system's temporary folder, its name `prefix` and six random characters. */
export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
