// A self-signed test CA: the trust anchor for the reference bank's TLS
// certificate and for generated TPP certificates.
import { issueCertificate } from './issue-certificate.js';
import type { KeyAndCertificate, SubjectAttribute } from './issue-certificate.js';
import { SUBJECT_OID } from './subject-oids.js';

export function generateCertificateAuthority(options: {
  commonName: string;
  organizationName?: string;
  countryName?: string;
  validDays?: number;
  /** Its key, made beforehand (generateRsaKeyPem); a new one otherwise. */
  privateKeyPem?: string;
}): KeyAndCertificate {
  const subject: SubjectAttribute[] = [
    ...(options.countryName ? [{ oid: SUBJECT_OID.countryName, value: options.countryName, printable: true }] : []),
    ...(options.organizationName ? [{ oid: SUBJECT_OID.organizationName, value: options.organizationName }] : []),
    { oid: SUBJECT_OID.commonName, value: options.commonName },
  ];
  return issueCertificate({
    subject,
    validDays: options.validDays ?? 3650,
    ...(options.privateKeyPem === undefined ? {} : { privateKeyPem: options.privateKeyPem }),
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  });
}
