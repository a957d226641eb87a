// Identifiers: deterministic name-based UUIDs (RFC 4122 version 5), so that account ids are the same in
// every run and survive a sandbox reset; and UUIDs keyed with a secret of the bank (psu-ids), stable for the
// bank that holds the secret and derivable by nobody else.
import { createHash, createHmac } from 'node:crypto';

/** Namespace of this bank's name-based UUIDs (itself a fixed random UUID). */
const NAMESPACE = Buffer.from('6f1c2b9e4d8a4f3b9c7e2a51d0b8e4f7', 'hex');

export function uuidV5(name: string): string {
  return formatUuid(createHash('sha1').update(NAMESPACE).update(name, 'utf8').digest(), 0x50);
}

/**
 * A UUID keyed with a secret (HMAC-SHA-256 of `name`): the same for the same secret and name, unpredictable
 * without the secret. Labelled version 4, the one RFC 4122 version whose bits promise nothing about how they
 * were made: to anyone without the secret they are as good as random.
 */
export function keyedUuid(secret: Buffer, name: string): string {
  return formatUuid(createHmac('sha256', secret).update(name, 'utf8').digest(), 0x40);
}

function formatUuid(hash: Buffer, version: number): string {
  const bytes = hash.subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | version;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80; // RFC 4122 variant
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export { isUuid } from '../lib/validate/formats.js';

/** The form of X-PSU-IDENTITY: a national identity number or D-number, both 11 digits (check digits not demanded: HDR-17). */
export { hasNationalIdForm as isNationalIdentityNumber } from '../lib/identifiers/index.js';
