// A self-signed test CA: the trust anchor for the reference bank's TLS
// certificate and for generated TPP certificates; or a tester's own, loaded.
import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { issueCertificate } from './issue-certificate.js';
import type { KeyAndCertificate, SubjectAttribute } from './issue-certificate.js';
import { SUBJECT_OID } from './subject-oids.js';
import { ConformanceError } from '../errors.js';

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

/** Why a CA's certificate and key given as PEM cannot issue certificates. */
export class CertificateAuthorityError extends ConformanceError {
  readonly code = 'XC_ERR_CERTIFICATE_AUTHORITY';
}

/**
 * A CA given as PEM files' contents (a tester's own test CA): its certificate must be a CA's and its key the
 * certificate's, or nothing it issues would chain to it.
 */
export function loadCertificateAuthority(certificatePem: string, privateKeyPem: string): KeyAndCertificate {
  let certificate: X509Certificate;
  let privateKey: KeyObject;
  try {
    certificate = new X509Certificate(certificatePem);
  } catch (error) {
    throw new CertificateAuthorityError(`the CA certificate is not a PEM X.509 certificate (${(error as Error).message})`);
  }
  try {
    privateKey = createPrivateKey(privateKeyPem);
  } catch (error) {
    throw new CertificateAuthorityError(`the CA key is not a PEM private key (${(error as Error).message})`);
  }
  if (!certificate.ca)
    throw new CertificateAuthorityError(
      `the certificate ${certificate.subject.replaceAll('\n', ', ')} is not a CA's (basicConstraints cA is not true)`,
    );
  if (!certificate.checkPrivateKey(privateKey)) throw new CertificateAuthorityError("the CA key is not the CA certificate's key");
  if (privateKey.asymmetricKeyType !== 'rsa')
    throw new CertificateAuthorityError(
      `the CA key is ${privateKey.asymmetricKeyType ?? 'of unknown type'}; this tool signs certificates with RSA keys`,
    );
  return { certificatePem: certificate.toString(), privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
}
