// A TLS server certificate (serverAuth, names in subjectAltName as RFC 6125 requires).
import { isIP } from 'node:net';
import { issueCertificate } from './issue-certificate.js';
import type { KeyAndCertificate } from './issue-certificate.js';
import { SUBJECT_OID } from './subject-oids.js';

// GeneralName tags (RFC 5280 4.2.1.6).
const DNS_NAME = 2;
const IP_ADDRESS = 7;

export function generateServerCertificate(
  ca: KeyAndCertificate,
  options: {
    hostnames: string[];
    ipAddresses?: string[];
    validDays?: number;
    /** Its key, made beforehand (generateRsaKeyPem); a new one otherwise. */
    privateKeyPem?: string;
  },
): KeyAndCertificate {
  const ipAddresses = options.ipAddresses ?? [];
  const invalid = ipAddresses.filter((ip) => isIP(ip) === 0);
  if (invalid.length > 0) throw new Error(`not IP addresses: ${invalid.join(', ')}`);
  const commonName = options.hostnames[0] ?? ipAddresses[0];
  if (commonName === undefined) throw new Error('a server certificate needs at least one hostname or IP address');
  return issueCertificate({
    issuer: ca,
    subject: [{ oid: SUBJECT_OID.commonName, value: commonName }],
    // Kept within the 398 days browsers accept for server certificates.
    validDays: options.validDays ?? 397,
    ...(options.privateKeyPem === undefined ? {} : { privateKeyPem: options.privateKeyPem }),
    extensions: [
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          ...options.hostnames.map((value) => ({ type: DNS_NAME, value })),
          ...ipAddresses.map((ip) => ({ type: IP_ADDRESS, ip })),
        ],
      },
    ],
  });
}

/** The server certificates made by sharedServerCertificate, by CA and then by the names they are for. */
const sharedByCa = new WeakMap<KeyAndCertificate, Map<string, KeyAndCertificate>>();

/**
 * The server certificate `ca` issues for these names, made on the first call and the same for every later one in
 * the process: its RSA key is most of the time a bank or a test server takes to start, and the tests and the
 * gauntlet start dozens of them on one CA.
 */
export function sharedServerCertificate(
  ca: KeyAndCertificate,
  options: { hostnames: string[]; ipAddresses?: string[] },
): KeyAndCertificate {
  const issued = sharedByCa.get(ca) ?? new Map<string, KeyAndCertificate>();
  sharedByCa.set(ca, issued);
  const names = JSON.stringify([options.hostnames, options.ipAddresses ?? []]);
  const certificate = issued.get(names) ?? generateServerCertificate(ca, options);
  issued.set(names, certificate);
  return certificate;
}
