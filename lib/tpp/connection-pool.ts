/**
 * A pool of keep-alive connections to a bank (undici's Agent), trusting the bank's CA when one is given.
 * undici is loaded by the first pool made, not with the module: it takes about a fifth of a CPU-second to load,
 * and Playwright's runner, which imports every fixture to list the scenarios, never sends a request.
 */
import { createRequire } from 'node:module';
import type * as Undici from 'undici';

let undici: typeof Undici | undefined;

export function newConnectionPool(ca?: string | readonly string[]): Undici.Agent {
  undici ??= createRequire(import.meta.url)('undici') as typeof Undici;
  const trusted = typeof ca === 'string' ? ca : ca && ca.length > 0 ? [...ca] : undefined;
  return new undici.Agent({ connect: trusted ? { ca: trusted } : {} });
}
