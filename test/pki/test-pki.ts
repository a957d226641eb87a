// Certificates for the tests: a CA and a TPP seal certificate issued by it.
import { generateCertificateAuthority, generateTppCertificate } from '../../lib/pki/index.js';
import type { KeyAndCertificate } from '../../lib/pki/index.js';
import { loadTppIdentity } from '../../lib/tpp/index.js';
import type { TppIdentity } from '../../lib/tpp/index.js';

export interface TestPki {
  ca: KeyAndCertificate;
  tpp: KeyAndCertificate;
  identity: TppIdentity;
}

const made = new Map<string, TestPki>();

/**
 * The test PKI for these CA names, made once per process: the test files of a fast-tier process share it
 * (scripts/test-bundle.ts), and its two RSA keys are most of their set-up.
 */
export function testPki(ca: { commonName?: string; organizationName?: string } = {}): TestPki {
  const names = JSON.stringify([ca.commonName, ca.organizationName]);
  const known = made.get(names);
  if (known) return known;
  const authority = generateCertificateAuthority({
    commonName: ca.commonName ?? 'xs2a-conformance Test CA',
    organizationName: ca.organizationName ?? 'xs2a-conformance',
    countryName: 'NO',
  });
  const tpp = generateTppCertificate(authority, {
    organizationName: 'Test TPP AS',
    organizationIdentifier: 'PSDNO-FSA-123456',
    roles: ['PSP_AI', 'PSP_PI'],
  });
  const pki = { ca: authority, tpp, identity: loadTppIdentity(tpp) };
  made.set(names, pki);
  return pki;
}
