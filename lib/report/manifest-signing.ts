/**
 * Signing the package manifest with the TPP's key: a JWS (RFC 7515) in flattened JSON form with a detached
 * payload (the manifest's bytes, Appendix F), its certificate in `x5c` and its SHA-256 thumbprint in
 * `x5t#S256`, the signing time in `sigT` (as JAdES names it). RSA keys sign with PS256, EC P-256 keys with
 * ES256. jose (panva/jose: zero dependencies, every JOSE RFC, audited and widely used) does the JOSE part;
 * the certificate checks use node:crypto.
 */
import { createHash, createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { FlattenedSign, flattenedVerify, type FlattenedJWS, type JWSHeaderParameters } from 'jose';

export interface SigningKey {
  privateKeyPem: string;
  certificatePem: string;
}

export const SIGNATURE_TYPE = 'xs2a-conformance-manifest+jws';

function algorithmFor(key: KeyObject): 'PS256' | 'ES256' {
  if (key.asymmetricKeyType === 'rsa') return 'PS256';
  if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') return 'ES256';
  throw new Error(`cannot sign with a ${key.asymmetricKeyType ?? 'unknown'} key: an RSA or EC P-256 key is needed`);
}

export async function signManifest(manifest: Uint8Array, key: SigningKey, now = new Date()): Promise<string> {
  const privateKey = createPrivateKey(key.privateKeyPem);
  const certificate = new X509Certificate(key.certificatePem);
  if (!certificate.checkPrivateKey(privateKey))
    throw new Error(`the key does not belong to the certificate ${oneLine(certificate.subject)}`);
  const header: JWSHeaderParameters = {
    alg: algorithmFor(privateKey),
    typ: SIGNATURE_TYPE,
    x5c: [certificate.raw.toString('base64')],
    'x5t#S256': createHash('sha256').update(certificate.raw).digest('base64url'),
    sigT: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
  };
  const jws = await new FlattenedSign(manifest).setProtectedHeader(header).sign(privateKey);
  const { payload: _payload, ...detached } = jws;
  return `${JSON.stringify(detached, null, 2)}\n`;
}

export interface SignatureCheck {
  /** The signature verifies over these manifest bytes with the certificate's key. */
  valid: boolean;
  problems: string[];
  notes: string[];
  signer?: { subject: string; issuer: string; serialNumber: string; sha256: string; signedAt?: string; algorithm?: string };
  /** The CA given (`--ca`) that issued the signer's certificate: without one, who signed is unproven. */
  trustAnchor?: { subject: string; sha256: string };
}

/**
 * Checks a detached manifest signature: that it verifies with the certificate it carries, that the
 * certificate was valid when it signed, and (given trust anchors) which of them issued it.
 */
export async function checkManifestSignature(
  manifest: Uint8Array,
  jwsText: string,
  trustAnchorsPem: readonly string[] = [],
  now = new Date(),
): Promise<SignatureCheck> {
  const problems: string[] = [];
  const notes: string[] = [];
  let jws: FlattenedJWS;
  let header: JWSHeaderParameters;
  try {
    jws = JSON.parse(jwsText) as FlattenedJWS;
    header = JSON.parse(Buffer.from(jws.protected ?? '', 'base64url').toString('utf8')) as JWSHeaderParameters;
  } catch (error) {
    return { valid: false, problems: [`the signature file is not a JWS in JSON form (${(error as Error).message})`], notes };
  }
  const der = header.x5c?.[0];
  if (!der) return { valid: false, problems: ['the signature carries no certificate (x5c)'], notes };
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(Buffer.from(der, 'base64'));
  } catch (error) {
    return { valid: false, problems: [`the certificate in the signature cannot be read (${(error as Error).message})`], notes };
  }
  const signedAt = typeof header.sigT === 'string' ? header.sigT : undefined;
  const signer = {
    subject: oneLine(certificate.subject),
    issuer: oneLine(certificate.issuer),
    serialNumber: certificate.serialNumber,
    sha256: certificate.fingerprint256,
    ...(signedAt ? { signedAt } : {}),
    ...(header.alg ? { algorithm: header.alg } : {}),
  };
  let valid = false;
  try {
    await flattenedVerify({ ...jws, payload: Buffer.from(manifest).toString('base64url') }, certificate.publicKey, {
      algorithms: ['PS256', 'ES256'],
    });
    valid = true;
  } catch (error) {
    problems.push(`the signature does not match MANIFEST.sha256 (${(error as Error).message}): the manifest or the signature was changed`);
  }
  const thumbprint = createHash('sha256').update(certificate.raw).digest('base64url');
  if (header['x5t#S256'] !== undefined && header['x5t#S256'] !== thumbprint)
    problems.push('the certificate thumbprint (x5t#S256) does not match the certificate');
  const from = Date.parse(certificate.validFrom);
  const to = Date.parse(certificate.validTo);
  const at = signedAt ? Date.parse(signedAt) : Number.NaN;
  if (Number.isNaN(at)) problems.push('the signature has no signing time (sigT)');
  else if (at < from || at > to)
    problems.push(`the certificate was not valid when it signed (${signedAt}; valid ${certificate.validFrom} to ${certificate.validTo})`);
  if (now.getTime() > to) notes.push(`the certificate has expired since (${certificate.validTo}); it was valid when it signed`);
  // Anyone can make a certificate with any subject: only a trust anchor says who signed (none given: the caller says so).
  const anchor = issuerAmong(certificate, trustAnchorsPem);
  if (trustAnchorsPem.length > 0 && !anchor)
    problems.push(`the certificate (issuer ${signer.issuer}) was not issued by a CA given with --ca`);
  const trustAnchor = anchor ? { subject: oneLine(anchor.subject), sha256: anchor.fingerprint256 } : undefined;
  return { valid: valid && problems.length === 0, problems, notes, signer, ...(trustAnchor ? { trustAnchor } : {}) };
}

/** The anchor that is the certificate, or issued it (its signature checked with the anchor's key). */
function issuerAmong(certificate: X509Certificate, anchorsPem: readonly string[]): X509Certificate | undefined {
  const anchors = anchorsPem
    .flatMap((pem) => pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [])
    .map((pem) => new X509Certificate(pem));
  return anchors.find(
    (anchor) =>
      certificate.fingerprint256 === anchor.fingerprint256 || (certificate.checkIssued(anchor) && certificate.verify(anchor.publicKey)),
  );
}

function oneLine(dn: string): string {
  return dn.split('\n').join(', ');
}
