/**
 * Finding and launching the Chromium that drives SCA pages. Playwright cannot download its own browser on
 * machines without internet access, so the system browser is preferred, in a fixed, documented order.
 */
import { existsSync } from 'node:fs';
import { X509Certificate, createHash } from 'node:crypto';
import { connect } from 'node:tls';

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
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({
      host: hostname,
      port: Number(port || 443),
      servername: isIpAddress(hostname) ? undefined : hostname,
      ca: caPem,
      minVersion: 'TLSv1.2',
      timeout: timeoutMs,
    });
    socket.once('secureConnect', () => {
      const pins: string[] = [];
      let certificate = socket.getPeerCertificate(true);
      const seen = new Set<string>();
      while (certificate?.raw && !seen.has(certificate.fingerprint256)) {
        seen.add(certificate.fingerprint256);
        pins.push(spkiSha256(new X509Certificate(certificate.raw)));
        certificate = certificate.issuerCertificate;
      }
      socket.end();
      resolve(pins);
    });
    socket.once('timeout', () => {
      socket.destroy();
      reject(new Error(`TLS handshake with ${hostname}:${port} timed out`));
    });
    socket.once('error', reject);
  });
}

function spkiSha256(certificate: X509Certificate): string {
  const spki = certificate.publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(spki).digest('base64');
}

function isIpAddress(host: string): boolean {
  return /^[\d.]+$/.test(host) || host.includes(':');
}
