/**
 * Finding and launching the Chromium that drives SCA pages. Playwright cannot download its own browser on
 * machines without internet access, so the system browser is preferred, in a fixed, documented order.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext } from '@playwright/test';
import { scaSiteRefusal, type SafetyPolicy } from '../tpp/index.js';
import { ConformanceError } from '../errors.js';

const SYSTEM_CANDIDATES = ['/usr/bin/chromium-headless-shell', '/usr/lib/chromium/chromium', '/usr/bin/chromium'] as const;

/** Background services off: this machine's network is closed to them, and a conformance run needs none. */
const CHROMIUM_ARGS = [
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
] as const;

/**
 * Chromium's arguments. Its sandbox stays on (the renderer shows a bank's pages, where a PSU types
 * credentials), except as root: Chromium refuses to start sandboxed as root, so there, and only there, it runs
 * with --no-sandbox. No certificate error is ever ignored: the banks' CAs are trusted through the browser's
 * own store (trustBankCas).
 */
export function chromiumArgs(uid: number | undefined = process.getuid?.()): string[] {
  return uid === 0 ? ['--no-sandbox', ...CHROMIUM_ARGS] : [...CHROMIUM_ARGS];
}

export class BrowserNotFoundError extends ConformanceError {
  readonly code = 'XC_ERR_BROWSER_NOT_FOUND';
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

/** Trusting a bank's CA needs NSS's certutil (Debian: libnss3-tools), and it is not there. */
export class BrowserTrustError extends ConformanceError {
  readonly code = 'XC_ERR_BROWSER_TRUST';
  override name = 'BrowserTrustError';
}

/**
 * A home of the browser's own, whose NSS database (Chromium on Linux reads `$HOME/.pki/nssdb`) trusts exactly
 * these CAs as issuers of TLS server certificates, besides Chromium's built-in roots. Chromium then validates
 * the bank's chain and host name itself, as for any site: a certificate for another host name, or from
 * another CA with the bank's CA appended, is refused. The user's own home (and whatever it trusts) is never
 * used. Costs two to three certutil calls (about 0.2 s) per browser launch, nothing per SCA flow.
 */
export function trustBankCas(home: string, caPems: readonly string[], certutil = process.env.CERTUTIL_PATH ?? 'certutil'): void {
  const certificates = [
    ...new Set(caPems.flatMap((pem) => pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [])),
  ];
  if (certificates.length === 0) return;
  const database = join(home, '.pki', 'nssdb');
  mkdirSync(database, { recursive: true, mode: 0o700 });
  const run = (args: string[]) => {
    try {
      execFileSync(certutil, ['-d', `sql:${database}`, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    } catch (error) {
      const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
      throw new BrowserTrustError(
        missing
          ? `the SCA browser cannot be told to trust the bank's CA: NSS's certutil is missing (install it: sudo apt-get install -y libnss3-tools, or set CERTUTIL_PATH)`
          : `certutil could not add the bank's CA to the browser's trust store: ${String((error as { stderr?: Buffer }).stderr ?? error).trim()}`,
      );
    }
  };
  run(['-N', '--empty-password']);
  certificates.forEach((certificate, index) => {
    const file = join(home, `bank-ca-${index}.pem`);
    writeFileSync(file, certificate, { mode: 0o600 });
    // C,, : a trusted issuer of TLS server certificates, and of nothing else (no e-mail, no code signing).
    run(['-A', '-n', `bank-ca-${index}`, '-t', 'C,,', '-i', file]);
  });
}

/**
 * The gate of the browser's requests (lib/tpp/production-guard.ts): on a production target every request the
 * context would send is looked at, and one the gate refuses (a form posted at the SCA site, by a step or by
 * the page's own script) is aborted before it leaves; `refused` is told why. Elsewhere nothing is routed (a
 * routed request costs a round trip through Node).
 */
export async function guardBrowserContext(context: BrowserContext, safety: SafetyPolicy, refused: (reason: string) => void): Promise<void> {
  if (safety.environment !== 'production') return;
  await context.route('**/*', (route) => {
    const request = route.request();
    const refusal = scaSiteRefusal(safety, request.method(), request.url());
    if (refusal === undefined) return route.continue();
    refused(refusal);
    return route.abort('blockedbyclient');
  });
}
