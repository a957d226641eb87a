// The fields of an X.509 certificate (RFC 5280 4.1) that node:crypto does not
// expose in a structured form: names as attribute lists, validity as dates,
// extensions by OID.
import { X509Certificate } from 'node:crypto';
import { childrenOf, decodeOid, decodeTime, expectUniversal, readElement, TAG } from './der.js';
import type { DerElement } from './der.js';

export interface AttributeTypeAndValue {
  oid: string;
  /** The AttributeValue element as encoded (its tag tells the string type). */
  value: DerElement;
}
/** One RDN: usually a single attribute, several for a multi-valued RDN ("CN=a+O=b"). */
export type RelativeDistinguishedName = AttributeTypeAndValue[];
/** RDNs in certificate (ASN.1) order, which is the reverse of RFC 2253 string order. */
export type Name = RelativeDistinguishedName[];

export interface CertificateExtension {
  oid: string;
  critical: boolean;
  /** The contents of extnValue: the DER of the extension's own structure. */
  value: Uint8Array;
}

export interface CertificateFields {
  issuer: Name;
  /** The issuer Name element exactly as encoded. */
  issuerDer: Uint8Array;
  subject: Name;
  subjectDer: Uint8Array;
  notBefore: Date;
  notAfter: Date;
  extensions: CertificateExtension[];
}

/** Accepts what callers usually hold: a PEM string or a parsed certificate. */
export function toX509Certificate(certificate: string | X509Certificate): X509Certificate {
  return typeof certificate === 'string' ? new X509Certificate(certificate) : certificate;
}

export function readCertificateFields(certificate: string | X509Certificate): CertificateFields {
  const der = new Uint8Array(toX509Certificate(certificate).raw);
  const [tbs] = childrenOf(expectUniversal(readElement(der), TAG.SEQUENCE, 'a Certificate SEQUENCE'));
  const fields = childrenOf(expectUniversal(tbs, TAG.SEQUENCE, 'a TBSCertificate SEQUENCE'));
  // version is an optional explicit [0]; everything after it has a fixed position.
  const start = fields[0]?.tagClass === 'context' && fields[0].tag === 0 ? 1 : 0;
  const issuer = expectUniversal(fields[start + 2], TAG.SEQUENCE, 'the issuer Name');
  const validity = childrenOf(expectUniversal(fields[start + 3], TAG.SEQUENCE, 'the Validity'));
  const subject = expectUniversal(fields[start + 4], TAG.SEQUENCE, 'the subject Name');
  const [notBefore, notAfter] = validity;
  if (!notBefore || !notAfter) throw new Error('Validity lacks notBefore or notAfter');
  const extensionsWrapper = fields.slice(start + 6).find((f) => f.tagClass === 'context' && f.tag === 3);
  return {
    issuer: readName(issuer),
    issuerDer: issuer.encoded,
    subject: readName(subject),
    subjectDer: subject.encoded,
    notBefore: decodeTime(notBefore),
    notAfter: decodeTime(notAfter),
    extensions: extensionsWrapper ? readExtensions(extensionsWrapper) : [],
  };
}

export function findExtension(certificate: string | X509Certificate, oid: string): CertificateExtension | undefined {
  return readCertificateFields(certificate).extensions.find((extension) => extension.oid === oid);
}

function readName(name: DerElement): Name {
  return childrenOf(name).map((rdn) =>
    childrenOf(expectUniversal(rdn, TAG.SET, 'an RDN SET')).map((attribute) => {
      const [type, value] = childrenOf(expectUniversal(attribute, TAG.SEQUENCE, 'an AttributeTypeAndValue'));
      if (!type || !value) throw new Error('AttributeTypeAndValue lacks its type or value');
      return { oid: decodeOid(type), value };
    }),
  );
}

function readExtensions(wrapper: DerElement): CertificateExtension[] {
  const [sequence] = childrenOf(wrapper);
  return childrenOf(expectUniversal(sequence, TAG.SEQUENCE, 'the Extensions SEQUENCE')).map((extension) => {
    const parts = childrenOf(expectUniversal(extension, TAG.SEQUENCE, 'an Extension'));
    const [id, second, third] = parts;
    if (!id) throw new Error('Extension lacks its extnID');
    // critical BOOLEAN DEFAULT FALSE may be absent.
    const hasCritical = second?.tag === TAG.BOOLEAN;
    const value = expectUniversal(hasCritical ? third : second, TAG.OCTET_STRING, 'an extnValue OCTET STRING');
    return { oid: decodeOid(id), critical: hasCritical && second.contents[0] !== 0, value: value.contents };
  });
}
