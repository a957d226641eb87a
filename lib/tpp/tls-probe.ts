// Transport probes (spec Authentication 1: TLS 1.2 or higher): one TLS handshake
// at a chosen protocol version. It tells a refusal by the server (an alert, a
// closed connection) from the client's own inability to offer a version, so a
// probe never blames the bank for what the local TLS library will not do. (The
// plain-HTTP request to the TLS port is lib/fixtures/probes.ts' plainHttpAnswer.)
import { connect as connectTls, type SecureVersion } from 'node:tls';

export type TlsProbeOutcome =
  /** Handshake completed and the certificate verified for the host name. */
  | 'established'
  /** Handshake completed but the certificate does not verify (chain or host name). */
  | 'untrusted-certificate'
  /** The server refused the handshake: an alert, or it closed the connection. */
  | 'refused-by-server'
  /** The client could not offer this version (local TLS library): nothing learnt about the server. */
  | 'client-cannot-offer';

export interface TlsProbeResult {
  outcome: TlsProbeOutcome;
  /** The negotiated version, or the error code. */
  detail: string;
}

export interface TlsProbeTarget {
  baseUrl: string;
  /** PEM of the CA the target's certificate chains to; the system store when absent. */
  ca?: string;
}

/** Client-side errors: OpenSSL refused to offer the version before anything reached the server. */
const CLIENT_SIDE = /NO_PROTOCOLS_AVAILABLE|UNSUPPORTED_PROTOCOL|NO_CIPHERS_AVAILABLE|NO_SUITABLE|ERR_TLS_INVALID_PROTOCOL/;

export function probeTls(target: TlsProbeTarget, version: SecureVersion, timeoutMs = 5_000): Promise<TlsProbeResult> {
  const url = new URL(target.baseUrl);
  return new Promise((resolve) => {
    const socket = connectTls({
      host: url.hostname.replace(/^\[|\]$/g, ''),
      port: Number(url.port || 443),
      servername: /^[\d.]+$|:/.test(url.hostname) ? '' : url.hostname,
      minVersion: version,
      maxVersion: version,
      // Legacy versions need legacy ciphers and security level 0 on OpenSSL 3, else the client refuses alone.
      ...(version === 'TLSv1' || version === 'TLSv1.1' ? { ciphers: 'DEFAULT@SECLEVEL=0' } : {}),
      ...(target.ca ? { ca: target.ca } : {}),
      rejectUnauthorized: false,
    });
    const done = (result: TlsProbeResult) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(timeoutMs, () => done({ outcome: 'refused-by-server', detail: `no handshake within ${timeoutMs} ms` }));
    socket.once('secureConnect', () => {
      const protocol = socket.getProtocol() ?? 'unknown';
      if (socket.authorized) done({ outcome: 'established', detail: protocol });
      else done({ outcome: 'untrusted-certificate', detail: `${protocol}: ${String(socket.authorizationError)}` });
    });
    socket.once('error', (error: Error & { code?: string }) => {
      const code = error.code ?? error.message;
      done({ outcome: CLIENT_SIDE.test(code) ? 'client-cannot-offer' : 'refused-by-server', detail: code });
    });
  });
}
