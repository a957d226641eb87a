/**
 * A report is its user's alone: it may hold a bank's answers about test PSUs. Folders 0700, files 0600,
 * whichever process writes them (the reporter, merge, package) and whatever its umask.
 */
import { chmodSync, copyFileSync, mkdirSync, writeFileSync } from 'node:fs';

const PRIVATE_DIR = 0o700;
const PRIVATE_FILE = 0o600;

export function mkdirPrivate(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR });
}

export function writePrivate(file: string, data: string | Uint8Array): void {
  writeFileSync(file, data, { mode: PRIVATE_FILE });
  chmodSync(file, PRIVATE_FILE); // a file that was there keeps its mode through writeFileSync
}

export function copyPrivate(from: string, to: string): void {
  copyFileSync(from, to);
  keepPrivate(to);
}

/** A file another writer made (Chromium's PDF), made its user's alone. */
export function keepPrivate(file: string): void {
  chmodSync(file, PRIVATE_FILE);
}
