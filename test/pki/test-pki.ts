// Certificates for the tests: a CA and a TPP seal certificate issued by it.
// Call once per test file: each makes fresh RSA keys (tens of milliseconds each).
import { generateCertificateAuthority, generateTppCertificate } from '../../lib/pki/index.js';
import type { KeyAndCertificate } from '../../lib/pki/index.js';
import { loadTppIdentity } from '../../lib/tpp/index.js';
import type { TppIdentity } from '../../lib/tpp/index.js';

export interface TestPki {
  ca: KeyAndCertificate;
  tpp: KeyAndCertificate;
  identity: TppIdentity;
}

export function makeTestPki(ca: { commonName?: string; organizationName?: string } = {}): TestPki {
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
  return { ca: authority, tpp, identity: loadTppIdentity(tpp) };
}
