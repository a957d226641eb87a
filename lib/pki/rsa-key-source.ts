// Where the RSA keys of new certificates come from. node:crypto makes each one: tens of milliseconds, and
// hundreds on a slow core. A process of the project's own tests may take them from a pool made on an earlier
// run instead (test/support/rsa-key-pool.ts): its tests need keys that differ from one another, not keys that
// nobody ever had. Nothing outside the project's tests sets a source.
import { generateKeyPairSync, type KeyObject } from 'node:crypto';

let source: (() => KeyObject) | undefined;

/** A new RSA-2048 private key (its public key: createPublicKey of it). */
export function newRsaPrivateKey(): KeyObject {
  return source?.() ?? generateRsaPrivateKey();
}

/** A key made now, whatever the source. */
export function generateRsaPrivateKey(): KeyObject {
  return generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
}

/** From now on in this process, new keys come from `next`: each call must give a key it never gave before. */
export function takeRsaKeysFrom(next: () => KeyObject): void {
  source = next;
}
