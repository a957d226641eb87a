// TPP certificates: parsing of the TPP-Signature-Certificate header, the PSD2 roles of the
// ETSI TS 119 495 QCStatement, trust (chain to --trust-ca when given), and a bounded cache so
// that a certificate is parsed once.

import { X509Certificate, createHash, type KeyObject } from 'node:crypto';
import { derChildren, derInteger, derOid, derString, readDer, type DerNode } from './asn1.js';
import { dnFromDer, type DnAttribute } from './dn.js';
import { ApiError } from './errors.js';

export type PsdRole = 'PSP_AS' | 'PSP_PI' | 'PSP_AI' | 'PSP_IC';

export interface TppCertificate {
  x509: X509Certificate;
  publicKey: KeyObject;
  /** SHA-256 of the SubjectPublicKeyInfo, hex: the TPP's identity */
  tppKey: string;
  serial: bigint;
  issuer: DnAttribute[];
  subjectCommonName: string;
  organizationName: string | undefined;
  organizationIdentifier: string | undefined;
  /** undefined when the certificate carries no PSD2 QCStatement */
  roles: ReadonlySet<PsdRole> | undefined;
  isRsa: boolean;
  validFrom: number;
  validTo: number;
  trusted: boolean;
}

const ROLE_OIDS: Record<string, PsdRole> = {
  '0.4.0.19495.1.1': 'PSP_AS',
  '0.4.0.19495.1.2': 'PSP_PI',
  '0.4.0.19495.1.3': 'PSP_AI',
  '0.4.0.19495.1.4': 'PSP_IC',
};
const ROLE_NAMES = new Set<string>(['PSP_AS', 'PSP_PI', 'PSP_AI', 'PSP_IC']);

function readPsd2Roles(extensions: DerNode | undefined): Set<PsdRole> | undefined {
  if (!extensions) return undefined;
  // [3] EXPLICIT Extensions
  const [seq] = derChildren(extensions);
  if (!seq) return undefined;
  for (const ext of derChildren(seq)) {
    const parts = derChildren(ext);
    const id = parts[0];
    const value = parts[parts.length - 1];
    if (!id || !value || derOid(id) !== '1.3.6.1.5.5.7.1.3') continue;
    const statements = readDer(value.content);
    for (const st of derChildren(statements)) {
      const [stId, stInfo] = derChildren(st);
      if (!stId || derOid(stId) !== '0.4.0.19495.2' || !stInfo) continue;
      const roles = new Set<PsdRole>();
      const [rolesSeq] = derChildren(stInfo);
      if (rolesSeq) {
        for (const role of derChildren(rolesSeq)) {
          const [roleOid, roleName] = derChildren(role);
          const byOid = roleOid && roleOid.tag === 0x06 ? ROLE_OIDS[derOid(roleOid)] : undefined;
          if (byOid) roles.add(byOid);
          else if (roleName) {
            const n = derString(roleName);
            if (ROLE_NAMES.has(n)) roles.add(n as PsdRole);
          }
        }
      }
      return roles;
    }
  }
  return undefined;
}

interface TbsParts {
  serial: bigint;
  issuer: DnAttribute[];
  subject: DnAttribute[];
  extensions: DerNode | undefined;
}

function readTbs(der: Buffer): TbsParts {
  const cert = readDer(der);
  const [tbs] = derChildren(cert);
  if (!tbs) throw new Error('no tbsCertificate');
  const f = derChildren(tbs);
  let i = 0;
  if (f[0] && f[0].tag === 0xa0) i = 1; // version
  const serialNode = f[i];
  const issuerNode = f[i + 2];
  const subjectNode = f[i + 4];
  if (!serialNode || !issuerNode || !subjectNode) throw new Error('truncated tbsCertificate');
  const extensions = f.slice(i + 6).find((n) => n.tag === 0xa3);
  return { serial: derInteger(serialNode), issuer: dnFromDer(issuerNode), subject: dnFromDer(subjectNode), extensions };
}

/** Splits a PEM bundle into certificates. */
function readPemBundle(pem: string): X509Certificate[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  return blocks.map((b) => new X509Certificate(b));
}

const invalid = (msg: string): ApiError => new ApiError(400, 'CERTIFICATE_INVALID', msg);

export class CertificateStore {
  private readonly cache = new Map<string, TppCertificate>();
  private readonly trustAnchors: X509Certificate[] | undefined;

  constructor(trustCaPem: string | undefined) {
    if (trustCaPem !== undefined) {
      const anchors = readPemBundle(trustCaPem);
      if (!anchors.length) throw new Error('--trust-ca holds no PEM certificate');
      this.trustAnchors = anchors;
    }
  }

  /** Parses (or returns from cache) the certificate of a TPP-Signature-Certificate header value. */
  fromHeader(value: string): TppCertificate {
    const hit = this.cache.get(value);
    if (hit) {
      // keep recently used entries at the end
      this.cache.delete(value);
      this.cache.set(value, hit);
      return hit;
    }
    const parsed = this.parse(value);
    this.cache.set(value, parsed);
    if (this.cache.size > 500) {
      const oldest = this.cache.keys().next();
      if (!oldest.done) this.cache.delete(oldest.value);
    }
    return parsed;
  }

  private parse(value: string): TppCertificate {
    let der: Buffer;
    const trimmed = value.trim();
    if (trimmed.includes('-----BEGIN')) {
      const body = /-----BEGIN CERTIFICATE-----([\s\S]+?)-----END CERTIFICATE-----/.exec(trimmed.replace(/\\n/g, '\n'));
      if (!body?.[1]) throw invalid('TPP-Signature-Certificate is not a certificate');
      der = Buffer.from(body[1].replace(/\s+/g, ''), 'base64');
    } else {
      const compact = trimmed.replace(/\s+/g, '');
      if (!/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) throw invalid('TPP-Signature-Certificate is not base64');
      der = Buffer.from(compact, 'base64');
    }
    let x509: X509Certificate;
    let tbs: TbsParts;
    let roles: Set<PsdRole> | undefined;
    try {
      x509 = new X509Certificate(der);
      tbs = readTbs(der);
      roles = readPsd2Roles(tbs.extensions);
    } catch {
      throw invalid('TPP-Signature-Certificate is not a well-formed X.509 certificate');
    }
    const publicKey = x509.publicKey;
    const spki = publicKey.export({ type: 'spki', format: 'der' });
    const cn = tbs.subject.find((a) => a.oid === '2.5.4.3')?.value ?? '';
    const orgId = tbs.subject.find((a) => a.oid === '2.5.4.97')?.value;
    let trusted = true;
    if (this.trustAnchors) {
      trusted = this.trustAnchors.some((ca) => {
        try {
          return x509.checkIssued(ca) && x509.verify(ca.publicKey);
        } catch {
          return false;
        }
      });
    }
    return {
      x509,
      publicKey,
      tppKey: createHash('sha256').update(spki).digest('hex'),
      serial: tbs.serial,
      issuer: tbs.issuer,
      subjectCommonName: cn,
      organizationName: tbs.subject.find((a) => a.oid === '2.5.4.10')?.value,
      organizationIdentifier: orgId,
      roles,
      isRsa: publicKey.asymmetricKeyType === 'rsa',
      validFrom: Date.parse(x509.validFrom),
      validTo: Date.parse(x509.validTo),
      trusted,
    };
  }
}
