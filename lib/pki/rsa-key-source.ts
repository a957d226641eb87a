// Where the RSA keys of new certificates come from. node:crypto makes each one: tens of milliseconds, and
// hundreds on a slow core. A process of the project's own tests may take them from a pool made on an earlier
// run instead (scripts/rsa-key-pool.js): its tests need keys that differ from one another, not keys that
// nobody ever had. Nothing outside the project's tests sets a source.
import { generateKeyPair, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';

/**
 * The source, when one is set: each call gives a key it never gave before. A slot of the whole process (a
 * registered symbol) rather than of this module, so that the pool a test preloads before the command's modules
 * (scripts/command-key-pool.js) reaches this module's copy in the command's bundle.
 */
const RSA_KEY_SOURCE = Symbol.for('xs2a-conformance.rsa-key-source');
const source = (): KeyObject | undefined => (globalThis as { [RSA_KEY_SOURCE]?: () => KeyObject })[RSA_KEY_SOURCE]?.();

/** A new RSA-2048 private key (its public key: createPublicKey of it). */
export function newRsaPrivateKey(): KeyObject {
  return source() ?? generateRsaPrivateKey();
}

/**
 * A new RSA key (PKCS#8 PEM) for a certificate's `privateKeyPem`: the source's, else made on libuv's thread
 * pool, beside other work. Here rather than beside the certificates (node-forge): a Playwright worker makes a
 * world lane's key with it, and the runner that imports the fixtures to list the scenarios loads no forge.
 */
export async function generateRsaKeyPem(): Promise<string> {
  const sourced = source();
  if (sourced) return sourced.export({ type: 'pkcs8', format: 'pem' }).toString();
  const { privateKey } = await promisify(generateKeyPair)('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  return privateKey;
}

/** A key made now, whatever the source. */
function generateRsaPrivateKey(): KeyObject {
  return generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
}
