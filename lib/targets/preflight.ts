/**
 * TLS handshakes with a target: the preflight (does it answer at all? If not, one line and exit 3) and the
 * verified certificate chain the browser is told to trust.
 */
import { X509Certificate } from 'node:crypto';
import { connect } from 'node:tls';

/** Completes a TLS 1.2+ handshake, verifying the server against `caPem` (or the system store), and returns its chain. */
export function tlsHandshake(url: string, caPem: string | undefined, timeoutMs = 5000): Promise<X509Certificate[]> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({
      host: hostname,
      port: Number(port || 443),
      ...(caPem ? { ca: caPem } : {}),
      // SNI carries host names only.
      servername: /^[\d.]+$/.test(hostname) || hostname.includes(':') ? undefined : hostname,
      minVersion: 'TLSv1.2',
      timeout: timeoutMs,
    });
    socket.once('secureConnect', () => {
      const chain: X509Certificate[] = [];
      const seen = new Set<string>();
      let certificate = socket.getPeerCertificate(true);
      while (certificate?.raw && !seen.has(certificate.fingerprint256)) {
        seen.add(certificate.fingerprint256);
        chain.push(new X509Certificate(certificate.raw));
        certificate = certificate.issuerCertificate;
      }
      socket.end();
      resolve(chain);
    });
    socket.once('timeout', () => {
      socket.destroy();
      reject(new Error(`no TLS answer within ${timeoutMs} ms`));
    });
    socket.once('error', (error: NodeJS.ErrnoException) => reject(new Error(error.code ?? error.message)));
  });
}

export async function checkReachable(baseUrl: string, caPem: string | undefined, timeoutMs = 5000): Promise<void> {
  await tlsHandshake(baseUrl, caPem, timeoutMs);
}
