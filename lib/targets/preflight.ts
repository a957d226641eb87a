/**
 * TLS handshakes with a target: the preflight's first question (does it answer, and with a certificate the
 * target's CA issued?) and the verified certificate chain the browser is told to trust. A handshake that fails
 * is told apart by why: a bank that does not answer is unreachable (exit 3); a certificate that tls.ca did not
 * issue, or one for another host than baseUrl names, is the target's configuration (exit 2), named with what
 * the bank presented and what the file holds, as a person needs to fix it.
 */
import { X509Certificate } from 'node:crypto';
import { connect, type PeerCertificate } from 'node:tls';
import { oneLine } from './target-files.js';

/** Completes a TLS 1.2+ handshake, verifying the server against `caPem` (or the system store), and returns its chain. */
export function tlsHandshake(url: string, caPem: string | undefined, timeoutMs = 5000): Promise<X509Certificate[]> {
  return handshake(url, caPem, timeoutMs, true).then(({ chain }) => chain);
}

/** What a TLS handshake with the target came to. */
export type TlsDiagnosis =
  | { outcome: 'trusted'; chain: X509Certificate[] }
  /** No answer, or no TLS: nothing about the configuration can be told. */
  | { outcome: 'unreachable'; reason: string }
  /** The bank's certificate does not chain to tls.ca, or is for another host, or out of its dates. */
  | { outcome: 'untrusted'; field: 'tls.ca' | 'baseUrl'; reason: string };

/** Why Node refused a chain: the CA given did not issue it. */
const NOT_ISSUED_BY_CA =
  /^(UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?|SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|CERT_UNTRUSTED|CERT_SIGNATURE_FAILURE)$/;

/**
 * A handshake verified against `ca` (a PEM and where it came from, for the message); on a refused chain, a second
 * one that reads what the bank presents without trusting it, to say who issued it.
 */
export async function diagnoseTls(url: string, ca: { pem: string; source: string } | undefined, timeoutMs = 5000): Promise<TlsDiagnosis> {
  try {
    return { outcome: 'trusted', chain: (await handshake(url, ca?.pem, timeoutMs, true)).chain };
  } catch (error) {
    const code = (error as Error).message;
    const host = new URL(url).hostname;
    if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
      const leaf = await presented(url, timeoutMs);
      return {
        outcome: 'untrusted',
        field: 'baseUrl',
        reason: `the bank's TLS certificate is not for ${host}${leaf ? ` (it names ${namesOf(leaf)})` : ''}: baseUrl names another host than the bank's certificate (${code})`,
      };
    }
    if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') {
      const leaf = await presented(url, timeoutMs);
      return {
        outcome: 'unreachable',
        reason: `the bank's TLS certificate${leaf ? ` (${subjectOf(leaf)}, valid ${leaf.validFrom} to ${leaf.validTo})` : ''} is out of its dates (${code})`,
      };
    }
    if (!NOT_ISSUED_BY_CA.test(code)) return { outcome: 'unreachable', reason: code };
    const leaf = await presented(url, timeoutMs);
    const shown = leaf ? `the bank presented ${subjectOf(leaf)}, issued by ${issuerOf(leaf)}` : 'the bank presented a certificate';
    const held = ca
      ? `tls.ca (${ca.source}) holds ${caSubjects(ca.pem)}, which did not issue it`
      : 'tls.ca is not set, and no CA of the system store issued it';
    return {
      outcome: 'untrusted',
      field: 'tls.ca',
      reason: `${shown}; ${held} (${code}). Give tls.ca the CA certificate that issued the bank's TLS certificate`,
    };
  }
}

export async function checkReachable(baseUrl: string, caPem: string | undefined, timeoutMs = 5000): Promise<void> {
  await tlsHandshake(baseUrl, caPem, timeoutMs);
}

function handshake(
  url: string,
  caPem: string | undefined,
  timeoutMs: number,
  verify: boolean,
): Promise<{ chain: X509Certificate[]; leaf?: PeerCertificate }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({
      host: hostname.replace(/^\[|\]$/g, ''),
      port: Number(port || 443),
      ...(caPem ? { ca: caPem } : {}),
      // SNI carries host names only.
      servername: /^[\d.]+$/.test(hostname) || hostname.includes(':') ? undefined : hostname,
      minVersion: 'TLSv1.2',
      timeout: timeoutMs,
      rejectUnauthorized: verify,
    });
    socket.once('secureConnect', () => {
      const chain: X509Certificate[] = [];
      const seen = new Set<string>();
      const leaf = socket.getPeerCertificate(true);
      let certificate: PeerCertificate | undefined = leaf;
      while (certificate?.raw && !seen.has(certificate.fingerprint256)) {
        seen.add(certificate.fingerprint256);
        chain.push(new X509Certificate(certificate.raw));
        certificate = (certificate as { issuerCertificate?: PeerCertificate }).issuerCertificate;
      }
      socket.end();
      resolve({ chain, ...(leaf?.raw ? { leaf } : {}) });
    });
    socket.once('timeout', () => {
      socket.destroy();
      reject(new Error(`no TLS answer within ${timeoutMs} ms`));
    });
    socket.once('error', (error: NodeJS.ErrnoException) => reject(new Error(error.code ?? error.message)));
  });
}

/** The bank's own certificate, read without trusting it (to name it): nothing is sent but the handshake. */
async function presented(url: string, timeoutMs: number): Promise<X509Certificate | undefined> {
  try {
    return (await handshake(url, undefined, timeoutMs, false)).chain[0];
  } catch {
    return undefined;
  }
}

const subjectOf = (certificate: X509Certificate) => oneLine(certificate.subject);
const issuerOf = (certificate: X509Certificate) => oneLine(certificate.issuer);
const namesOf = (certificate: X509Certificate) => certificate.subjectAltName ?? subjectOf(certificate);

/** The subjects of the certificates in a PEM bundle. */
function caSubjects(pem: string): string {
  const subjects = [...pem.matchAll(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g)].flatMap(([block]) => {
    try {
      return [subjectOf(new X509Certificate(block))];
    } catch {
      return [];
    }
  });
  return subjects.length === 0 ? 'no certificate' : subjects.join('; ');
}
