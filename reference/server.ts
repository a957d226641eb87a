// The reference ASPSP: a real HTTPS bank implementing the specification, the
// embedded default target of the suite and a sandbox a TPP can point its client
// at. Each start makes a fresh CA and server certificate; the CA is returned so a
// client can trust it explicitly (no system trust store is touched).
import type { AddressInfo } from 'node:net';
import { isIP } from 'node:net';
import { generateCertificateAuthority, generateServerCertificate, type KeyAndCertificate } from '../lib/pki/index.js';
import { buildReferenceApp } from './app.js';
import { Faults } from './faults.js';

export { KNOWN_FAULTS } from './faults.js';

export interface ReferenceBankOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Interface to listen on; 127.0.0.1 by default. */
  host?: string;
  /** Names from KNOWN_FAULTS; each makes the bank break one rule. */
  faults?: string[];
  logger?: boolean;
  /**
   * The CA that issues the server certificate. Default: a fresh one per start. Give
   * one to keep a CA that clients already trust across restarts (or to start many
   * banks quickly in tests).
   */
  ca?: KeyAndCertificate;
  /** When given, TPP signing certificates must chain to one of these CAs; otherwise any certificate is accepted (sandbox). */
  trustedTppCaPems?: string[];
}

export interface ReferenceBank {
  baseUrl: string;
  port: number;
  /** PEM of the CA that issued the bank's server certificate. */
  caPem: string;
  faults: readonly string[];
  close(): Promise<void>;
}

/** How clients address a listening host in a URL. */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return 'localhost';
  return isIP(host) === 6 ? `[${host}]` : host;
}

export async function startReferenceBank(options: ReferenceBankOptions = {}): Promise<ReferenceBank> {
  const faults = new Faults(options.faults ?? []); // throws on unknown names, before any work
  const host = options.host ?? '127.0.0.1';
  const ca = options.ca ?? generateCertificateAuthority({ commonName: 'Reference ASPSP Test CA', organizationName: 'xs2a-conformance', countryName: 'NO' });
  const ips = ['127.0.0.1', '::1'];
  const names = ['localhost'];
  if (isIP(host) !== 0 && !ips.includes(host) && host !== '0.0.0.0' && host !== '::') ips.push(host);
  if (isIP(host) === 0 && !names.includes(host)) names.push(host);
  const server = generateServerCertificate(ca, { hostnames: names, ipAddresses: ips });

  const { app, bank } = await buildReferenceApp({
    faults,
    tls: { key: server.privateKeyPem, cert: server.certificatePem },
    ...(options.logger === undefined ? {} : { logger: options.logger }),
    ...(options.trustedTppCaPems === undefined ? {} : { trustedTppCaPems: options.trustedTppCaPems }),
  });
  await app.listen({ port: options.port ?? 0, host });
  const { port } = app.server.address() as AddressInfo;
  bank.baseUrl = `https://${urlHost(host)}:${port}`;

  return {
    baseUrl: bank.baseUrl,
    port,
    caPem: ca.certificatePem,
    faults: faults.names,
    close: () => app.close(),
  };
}
