// The reference ASPSP: a real HTTPS bank implementing the specification, the
// embedded default target of the suite and a sandbox a TPP can point its client
// at. Each start makes a fresh CA and server certificate, unless given a CA; the CA
// is returned so a client can trust it explicitly (no system trust store is touched).
import type { AddressInfo, Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { isIP } from 'node:net';
import {
  generateCertificateAuthority,
  generateServerCertificate,
  sharedServerCertificate,
  type KeyAndCertificate,
} from '../lib/pki/index.js';
import { buildReferenceApp } from './app.js';
import { DEFAULT_CONNECTION_LIMITS, type ConnectionCount, type ConnectionLimits } from './connections.js';
import type { SandboxJudge } from './plugins/tpp-judging.js';
import { DEFAULT_STORE_BOUNDS, type StoreBoundsConfig } from './state/store-bounds.js';
import { DEFAULT_TENANT_LIMITS, type Tenancy, type TenantLimits } from './state/tenants.js';
import { scaPageSet } from './sca-pages/named-page-sets.js';
import {
  BehaviourSwitches,
  declaredFaults,
  declaredVariants,
  defineFault,
  defineVariant,
  type FaultDefinition,
  type SwitchSetting,
  type TppSwitches,
  type VariantDefinition,
} from './switches.js';

export type { FaultDefinition, SwitchSetting, VariantDefinition } from './switches.js';
export { assertDeclared, UnknownSwitchError } from './switches.js';

// Authentication 1: TLS 1.2 or higher. A bank-wide fault: the TLS handshake comes before any TPP is known.
const legacyTlsAccepted = defineFault('legacy-tls-accepted', {
  description: 'accepts TLS 1.0 and 1.1 handshakes (with legacy ciphers)',
  breaks: ['SIG-01'],
  scope: 'bank',
});
const serverCertificateForAnotherHost = defineFault('server-certificate-for-another-host', {
  description: 'serves a TLS certificate issued for another host name',
  breaks: ['SIG-01'],
  scope: 'bank',
});

const tls13Only = defineVariant('tls-1-3-only', {
  description: 'the bank takes TLS 1.3 handshakes only: a TLS 1.2 handshake is refused',
  allowedBy:
    'Authentication 1: "Transport: TLS 1.2 or higher is always used." A bank that speaks TLS 1.3 alone always uses a version higher than 1.2: the sentence sets a floor, it does not ask the bank to offer 1.2 itself',
  source: 'Specification, Authentication 1',
  scope: 'bank',
});

// Plain HTTP on the TLS port: this bank closes the connection (the TLS handshake fails). Two banks answer it
// instead, as the web servers in front of many banks do; neither serves the interface over plain HTTP.
const PLAIN_HTTP_ALLOWED_BY =
  'Authentication 1: "Transport: TLS 1.2 or higher is always used." It says what serves the interface, not what a plain-HTTP request to the TLS port gets: a refusal or a redirect to https serves nothing over plain HTTP';
const plainHttpRefused = defineVariant('plain-http-answered-400', {
  description: 'plain HTTP on the TLS port is answered 400 "The plain HTTP request was sent to HTTPS port" (nginx\'s default), not served',
  allowedBy: PLAIN_HTTP_ALLOWED_BY,
  source: 'Specification, Authentication 1',
  excludes: ['plain-http-redirected'],
  scope: 'bank',
});
const plainHttpRedirected = defineVariant('plain-http-redirected', {
  description: "plain HTTP on the TLS port is answered 301 to the bank's https address, not served",
  allowedBy: PLAIN_HTTP_ALLOWED_BY,
  source: 'Specification, Authentication 1',
  scope: 'bank',
});

/** The raw answer to plain HTTP on the TLS port under a variant (undefined: close the connection, this bank's way). */
function plainHttpAnswer(switches: TppSwitches, httpsBase: () => string): string | undefined {
  if (switches.reads(plainHttpRefused)) {
    const body =
      '<html><head><title>400 The plain HTTP request was sent to HTTPS port</title></head><body><center><h1>400 Bad Request</h1></center></body></html>';
    return `HTTP/1.1 400 Bad Request\r\nContent-Type: text/html\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
  }
  if (switches.reads(plainHttpRedirected)) {
    // OpenSSL has read the request line by now: the redirect goes to the bank's root over https.
    return `HTTP/1.1 301 Moved Permanently\r\nLocation: ${httpsBase()}/\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`;
  }
  return undefined;
}

/** Every fault the bank can be started with (importing this module loads every module that declares one). */
export function knownFaults(): FaultDefinition[] {
  return declaredFaults();
}

/** Every variant (another legal reading of the specification) the bank can be started with. */
export function knownVariants(): VariantDefinition[] {
  return declaredVariants();
}

export interface ReferenceBankOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Interface to listen on; 127.0.0.1 by default. */
  host?: string;
  /** Faults from knownFaults(): a name (on for every TPP), or a name and the TPPs it is on for. */
  faults?: (string | SwitchSetting)[];
  /** Variants from knownVariants(), the same way. */
  variants?: (string | SwitchSetting)[];
  logger?: boolean;
  /**
   * The CA that issues the server certificate. Default: a fresh one per start. Give
   * one to keep a CA that clients already trust across restarts (or to start many
   * banks quickly in tests: its server certificate is made once, sharedServerCertificate).
   */
  ca?: KeyAndCertificate;
  /** The key of its TLS certificate, made beforehand beside other work (generateRsaKeyPem); a new one otherwise. */
  tlsKeyPem?: string;
  /** When given, TPP signing certificates must chain to one of these CAs; otherwise any certificate is accepted (sandbox). */
  trustedTppCaPems?: string[];
  /** The SCA page set by name (reference/sca-pages/named-page-sets.ts: `reference`, the default, or `alternative`). */
  scaPages?: string;
  /**
   * The address clients reach the bank at when something stands in front of it (the judging proxy): its links and scaRedirect point there.
   */
  publicBaseUrl?: string;
  /** Judge every TPP's requests against the TPP rules (serve --judge): see reference/plugins/tpp-judging.ts. */
  judge?: SandboxJudge;
  /** How many TPP worlds the bank keeps, and how fast one client may make them (state/tenants.ts). */
  tenantLimits?: Partial<TenantLimits>;
  /** Whose PSUs a TPP meets: a copy of its own per key (the default), or one sandbox of PSUs every TPP sees (`serve`). */
  tenancy?: Tenancy;
  /** Keep a census of the behaviour switches asked, per TPP (`ReferenceBank.asked`): for the gauntlet's plan. */
  census?: boolean;
  /** Told of every request the bank receives, API and SCA pages alike (a request log; tests count what reached the bank). */
  onRequest?: (request: { method: string; url: string }) => void;
  /** How long the bank waits for a client and how many connections one may hold; defaults in connections.ts. */
  connectionLimits?: Partial<ConnectionLimits>;
  /** How much of each kind of record the bank keeps; defaults in state/store-bounds.ts. */
  storeBounds?: Partial<StoreBoundsConfig>;
}

export interface ReferenceBank {
  baseUrl: string;
  port: number;
  /** PEM of the CA that issued the bank's server certificate. */
  caPem: string;
  /** Names of the faults switched on. */
  faults: readonly string[];
  /** Names of the variants switched on. */
  variants: readonly string[];
  /** Under a census: the switches asked so far, by TPP organizationIdentifier. */
  asked(): Map<string, string[]>;
  /** Its connections: open now, the most one client held, refused for holding too many. */
  connections: ConnectionCount;
  close(): Promise<void>;
}

/** How clients address a listening host in a URL. */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return 'localhost';
  return isIP(host) === 6 ? `[${host}]` : host;
}

export async function startReferenceBank(options: ReferenceBankOptions = {}): Promise<ReferenceBank> {
  // Throws UnknownSwitchError on an unknown name, before any work.
  const switches = new BehaviourSwitches({
    faults: options.faults ?? [],
    variants: options.variants ?? [],
    census: options.census ?? false,
  });
  const scaPages = options.scaPages === undefined ? undefined : scaPageSet(options.scaPages); // likewise
  const host = options.host ?? '127.0.0.1';
  const ca =
    options.ca ??
    generateCertificateAuthority({ commonName: 'Reference ASPSP Test CA', organizationName: 'xs2a-conformance', countryName: 'NO' });
  const ips = ['127.0.0.1', '::1'];
  const names = ['localhost'];
  if (isIP(host) !== 0 && !ips.includes(host) && host !== '0.0.0.0' && host !== '::') ips.push(host);
  if (isIP(host) === 0 && !names.includes(host)) names.push(host);
  const bankWide = switches.wholeBank;
  const wrongHost = bankWide.breaks(serverCertificateForAnotherHost);
  const serverNames = wrongHost ? { hostnames: ['bank.invalid'], ipAddresses: [] } : { hostnames: names, ipAddresses: ips };
  // A key made beforehand gets its certificate now; otherwise the CA's certificate for these names is reused.
  const server =
    options.tlsKeyPem === undefined
      ? sharedServerCertificate(ca, serverNames)
      : generateServerCertificate(ca, { ...serverNames, privateKeyPem: options.tlsKeyPem });
  const legacyTls = bankWide.breaks(legacyTlsAccepted)
    ? ({ minVersion: 'TLSv1', ciphers: 'DEFAULT@SECLEVEL=0' } as const)
    : bankWide.reads(tls13Only)
      ? ({ minVersion: 'TLSv1.3' } as const)
      : {};

  const { app, tenants, connections } = await buildReferenceApp({
    switches,
    tls: { key: server.privateKeyPem, cert: server.certificatePem, ...legacyTls },
    ...(options.logger === undefined ? {} : { logger: options.logger }),
    ...(options.trustedTppCaPems === undefined ? {} : { trustedTppCaPems: options.trustedTppCaPems }),
    ...(scaPages === undefined ? {} : { scaPages }),
    ...(options.judge === undefined ? {} : { judge: options.judge }),
    ...(options.onRequest === undefined ? {} : { onRequest: options.onRequest }),
    connectionLimits: { ...DEFAULT_CONNECTION_LIMITS, ...options.connectionLimits },
    storeBounds: { ...DEFAULT_STORE_BOUNDS, ...options.storeBounds },
    tenantLimits: { ...DEFAULT_TENANT_LIMITS, ...options.tenantLimits },
    ...(options.tenancy === undefined ? {} : { tenancy: options.tenancy }),
  });
  // A plain-HTTP request fails the TLS handshake; the raw connection under it can still be answered.
  app.server.on('tlsClientError', (error: Error & { code?: string }, socket: TLSSocket & { _parent?: Socket }) => {
    const raw = socket._parent;
    const answer =
      error.code === 'ERR_SSL_HTTP_REQUEST' && raw !== undefined ? plainHttpAnswer(bankWide, () => tenants.baseUrl) : undefined;
    if (answer !== undefined && raw !== undefined && !raw.destroyed) raw.end(answer);
  });
  await app.listen({ port: options.port ?? 0, host });
  const { port } = app.server.address() as AddressInfo;
  tenants.baseUrl = options.publicBaseUrl?.replace(/\/+$/, '') ?? `https://${urlHost(host)}:${port}`;

  return {
    baseUrl: `https://${urlHost(host)}:${port}`,
    port,
    caPem: ca.certificatePem,
    faults: switches.faultNames,
    variants: switches.variantNames,
    asked: () => switches.asked(),
    connections,
    close: () => app.close(),
  };
}
