/**
 * Paths inside a report folder, as results.json names its evidence files and a certification package names
 * its entries: relative, `/`-separated, and unable to leave the folder they are read from or unpacked into,
 * or to disguise themselves when printed. A package or a shard can come from anyone, so a path is checked
 * before it is joined to anything.
 */
import { lstatSync, realpathSync, type Stats } from 'node:fs';
import { join, sep } from 'node:path';

// Control characters, and the invisible marks that reorder or hide text when it is shown (as mask.ts's visibleControls).
// eslint-disable-next-line no-control-regex
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** Why a path cannot name a file of a report folder; undefined when it can. */
export function unsafeReportPath(path: string): string | undefined {
  if (path === '') return 'empty';
  if (HIDDEN.test(path)) return 'a control character';
  if (path.includes('\\')) return 'a backslash';
  if (path.startsWith('/')) return 'an absolute path';
  if (/^[A-Za-z]:/.test(path)) return 'a drive letter';
  const segments = path.split('/');
  if (segments.includes('..')) return 'a ".." segment';
  if (segments.some((segment) => segment === '' || segment === '.')) return 'an empty or "." segment';
  return undefined;
}

/**
 * What is wrong with reading `path` (safe by unsafeReportPath) of the folder `root`: a link, something that
 * is not a regular file, or a real location outside `root` (a linked folder on the way); undefined when
 * it is a file of `root`, or is not there.
 */
export function unreadableReportFile(root: string, path: string): string | undefined {
  const file = join(root, path);
  let stat: Stats;
  try {
    stat = lstatSync(file);
  } catch {
    return undefined;
  }
  if (stat.isSymbolicLink()) return 'a symbolic link';
  if (!stat.isFile()) return `not a regular file (${kindOf(stat)})`;
  if (!realpathSync(file).startsWith(realpathSync(root) + sep)) return 'which leads outside its folder (through a link)';
  return undefined;
}

/** What a directory entry that is neither a regular file nor a folder is. */
export function kindOf(stat: Stats): string {
  if (stat.isSymbolicLink()) return 'a symbolic link';
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  return stat.isDirectory() ? 'a folder' : 'a regular file';
}
