// The TPP's signing identity: its certificate and private key. The key stays
// inside this object (a private field, omitted from JSON and inspection) so it
// cannot leak into reports or logs; callers sign through it.
import { createPrivateKey, X509Certificate } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { inspect } from 'node:util';
import { keyIdOf, signRsaSha256 } from '../httpsig/index.js';

export class TppIdentity {
  readonly certificate: X509Certificate;
  readonly certificatePem: string;
  /** The keyId part: SN=<serial>,CA=<issuer in RFC 2253 form>. */
  readonly keyId: string;
  /** The TPP-Signature-Certificate value: the DER in base64, no line breaks. */
  readonly signatureCertificate: string;
  readonly #privateKey: KeyObject;

  constructor(certificate: X509Certificate, privateKey: KeyObject) {
    if (privateKey.asymmetricKeyType !== 'rsa') {
      throw new Error(`the TPP key is ${privateKey.asymmetricKeyType ?? 'of unknown type'}; rsa-sha256 signing needs an RSA key`);
    }
    if (!certificate.checkPrivateKey(privateKey)) {
      throw new Error(`the private key does not belong to the TPP certificate ${certificate.subject.replaceAll('\n', ', ')}`);
    }
    this.certificate = certificate;
    this.certificatePem = certificate.toString();
    this.keyId = keyIdOf(certificate);
    this.signatureCertificate = certificate.raw.toString('base64');
    this.#privateKey = privateKey;
  }

  /** The signature part for a signing string: base64 RSA-SHA256. */
  sign(signingString: string): string {
    return signRsaSha256(signingString, this.#privateKey);
  }

  toJSON(): { keyId: string; certificatePem: string } {
    return { keyId: this.keyId, certificatePem: this.certificatePem };
  }

  [inspect.custom](): string {
    return `TppIdentity { keyId: ${JSON.stringify(this.keyId)}, privateKey: [hidden] }`;
  }
}

export function loadTppIdentity(pems: { certificatePem: string; privateKeyPem: string }): TppIdentity {
  return new TppIdentity(new X509Certificate(pems.certificatePem), createPrivateKey(pems.privateKeyPem));
}

export async function loadTppIdentityFromFiles(files: { certificateFile: string; privateKeyFile: string }): Promise<TppIdentity> {
  const [certificatePem, privateKeyPem] = await Promise.all([
    readFile(files.certificateFile, 'utf8'),
    readFile(files.privateKeyFile, 'utf8'),
  ]);
  return loadTppIdentity({ certificatePem, privateKeyPem });
}
