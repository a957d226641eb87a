// RSA-SHA256 (RSASSA-PKCS1-v1_5 with SHA-256), the only algorithm item 5 allows.
// node:crypto only: native and fast.
import { sign, verify } from 'node:crypto';
import type { KeyObject } from 'node:crypto';

export const SIGNATURE_ALGORITHM = 'rsa-sha256';

/** The signature part: base64 of RSA-SHA256 over the UTF-8 bytes of the signing string. */
export function signRsaSha256(signingString: string, privateKey: KeyObject): string {
  return sign('sha256', Buffer.from(signingString, 'utf8'), privateKey).toString('base64');
}

export function verifyRsaSha256(signingString: string, signatureBase64: string, publicKey: KeyObject): boolean {
  if (publicKey.asymmetricKeyType !== 'rsa') return false;
  return verify('sha256', Buffer.from(signingString, 'utf8'), publicKey, Buffer.from(signatureBase64, 'base64'));
}
