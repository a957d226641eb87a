/**
 * Finding and launching the Chromium that drives SCA pages. Playwright cannot download its own browser on
 * machines without internet access, so the system browser is preferred, in a fixed, documented order.
 */
import { existsSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tlsHandshake } from '../targets/preflight.js';

const SYSTEM_CANDIDATES = [
  '/usr/bin/chromium-headless-shell',
  '/usr/lib/chromium/chromium',
  '/usr/bin/chromium',
] as const;

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
] as const;

export class BrowserNotFoundError extends Error {
  constructor(tried: string[]) {
    super(
      [
        'No Chromium found for the SCA browser steps. Tried: ' + tried.join(', ') + '.',
        'Install one:  sudo apt-get install -y chromium-headless-shell   (or: chromium)',
        'or point CHROMIUM_PATH at a Chromium or Chrome binary.',
      ].join('\n'),
    );
    this.name = 'BrowserNotFoundError';
  }
}

/**
 * CHROMIUM_PATH, then the Debian packages, then Playwright's own download (if one happens to be there).
 * `playwrightDefault` is chromium.executablePath(), passed in so this module stays free of Playwright.
 */
export function findChromium(
  env: NodeJS.ProcessEnv = process.env,
  playwrightDefault?: string,
  systemCandidates: readonly string[] = SYSTEM_CANDIDATES,
): string {
  const tried: string[] = [];
  const fromEnv = env.CHROMIUM_PATH;
  if (fromEnv) {
    if (existsSync(fromEnv)) return fromEnv;
    tried.push(`CHROMIUM_PATH=${fromEnv} (missing)`);
  }
  for (const candidate of systemCandidates) {
    if (existsSync(candidate)) return candidate;
    tried.push(candidate);
  }
  if (playwrightDefault && existsSync(playwrightDefault)) return playwrightDefault;
  if (playwrightDefault) tried.push(playwrightDefault);
  throw new BrowserNotFoundError(tried);
}

/**
 * Chromium has no per-context CA option. Instead of trusting everything (ignoreHTTPSErrors), the suite
 * verifies a host's chain with the target's explicit CA in Node, then pins exactly the public keys it saw
 * (Chromium's --ignore-certificate-errors-spki-list), so the browser accepts that server and nothing else.
 */
export async function verifiedSpkiPins(url: string, caPem: string, timeoutMs = 5000): Promise<string[]> {
  const chain = await tlsHandshake(url, caPem, timeoutMs);
  return chain.map((certificate) =>
    createHash('sha256').update(certificate.publicKey.export({ type: 'spki', format: 'der' })).digest('base64'),
  );
}
