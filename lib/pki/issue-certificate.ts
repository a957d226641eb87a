// The one place certificates are made. node-forge builds the structure;
// node:crypto makes the keys and the signature (forge's pure-JS RSA is an order
// of magnitude slower).
import { createHash, createPrivateKey, createPublicKey, randomBytes, sign } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import forge from 'node-forge';
import { newRsaPrivateKey } from './rsa-key-source.js';
import { readCertificateFields } from './x509-fields.js';

export interface KeyAndCertificate {
  certificatePem: string;
  privateKeyPem: string;
}

/** A subject attribute; `printable` chooses PrintableString (country codes), otherwise UTF8String. */
export interface SubjectAttribute {
  oid: string;
  value: string;
  printable?: boolean;
}

export interface IssueOptions {
  /** In certificate order, most significant first (C, O, ..., CN). */
  subject: SubjectAttribute[];
  /** The issuing CA; absent for a self-signed certificate. */
  issuer?: KeyAndCertificate;
  /** forge extension objects (names it knows, or `{ id, value }` with an ASN.1 value). */
  extensions: object[];
  validDays: number;
  notBefore?: Date;
  /** Reuse this key instead of making a new one (RSA key generation costs tens of milliseconds). */
  privateKeyPem?: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;
// Backdated a little so a certificate made now is valid on a host whose clock is slightly behind.
const DEFAULT_BACKDATE_MS = 5 * 60 * 1000;
const { asn1 } = forge;

export function issueCertificate(options: IssueOptions): KeyAndCertificate {
  const privateKey = options.privateKeyPem ? createPrivateKey(options.privateKeyPem) : newRsaPrivateKey();
  const publicKey = createPublicKey(privateKey);
  const publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const privateKeyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const issuerPublicKey = options.issuer ? createPublicKey(options.issuer.certificatePem) : publicKey;

  const certificate = forge.pki.createCertificate();
  certificate.publicKey = forge.pki.publicKeyFromPem(publicKeyPem);
  certificate.serialNumber = randomSerialHex();
  const notBefore = options.notBefore ?? new Date(Date.now() - DEFAULT_BACKDATE_MS);
  certificate.validity.notBefore = notBefore;
  certificate.validity.notAfter = new Date(notBefore.getTime() + options.validDays * DAY_MS);
  const subject = options.subject.map((attribute) => ({
    type: attribute.oid,
    value: attribute.value,
    // @types/node-forge types this as a tag class, but forge reads it as the universal type number.
    valueTagClass: (attribute.printable ? asn1.Type.PRINTABLESTRING : asn1.Type.UTF8) as unknown as forge.asn1.Class,
  }));
  certificate.setSubject(subject);
  certificate.setIssuer(subject);
  certificate.setExtensions([
    { id: '2.5.29.14', value: octetString(keyIdentifier(publicKey)) }, // subjectKeyIdentifier
    // authorityKeyIdentifier: SEQUENCE { [0] keyIdentifier }
    {
      id: '2.5.29.35',
      value: asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
        asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, false, keyIdentifier(issuerPublicKey)),
      ]),
    },
    ...options.extensions,
  ]);
  return { certificatePem: signCertificate(certificate, options.issuer, privateKeyPem), privateKeyPem };
}

/**
 * At least 8 random bytes (here 16), positive and with a non-zero first byte,
 * so the DER INTEGER needs no padding and the hex serial has 32 digits.
 */
function randomSerialHex(): string {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0] ?? 0) & 0x7f || 0x01;
  return bytes.toString('hex');
}

/** RFC 5280 4.2.1.2 method 1: SHA-1 of the subjectPublicKey bits (for RSA, the RSAPublicKey DER). */
function keyIdentifier(publicKey: KeyObject): string {
  const rsaPublicKey = publicKey.export({ type: 'pkcs1', format: 'der' });
  return createHash('sha1').update(rsaPublicKey).digest().toString('binary');
}

function octetString(bytes: string): forge.asn1.Asn1 {
  return asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OCTETSTRING, false, bytes);
}

// forge has this function but its type definitions do not declare it.
const getTbsCertificate = (forge.pki as unknown as { getTBSCertificate(this: void, c: forge.pki.Certificate): forge.asn1.Asn1 })
  .getTBSCertificate;

function signCertificate(certificate: forge.pki.Certificate, issuer: KeyAndCertificate | undefined, ownKeyPem: string): string {
  certificate.signatureOid = certificate.siginfo.algorithmOid = forge.pki.oids.sha256WithRSAEncryption ?? '1.2.840.113549.1.1.11';
  const tbs = getTbsCertificate(certificate);
  if (issuer) {
    // The issuer Name must be byte-for-byte the CA's subject (RFC 5280 7.1 name
    // chaining); forge would re-encode the attributes, so copy the element.
    const issuerName = Buffer.from(readCertificateFields(issuer.certificatePem).subjectDer).toString('binary');
    (tbs.value as forge.asn1.Asn1[])[3] = asn1.fromDer(issuerName);
  }
  certificate.tbsCertificate = tbs;
  const signingKey = createPrivateKey(issuer?.privateKeyPem ?? ownKeyPem);
  const tbsDer = Buffer.from(asn1.toDer(tbs).getBytes(), 'binary');
  certificate.signature = sign('sha256', tbsDer, signingKey).toString('binary');
  return forge.pki.certificateToPem(certificate);
}
