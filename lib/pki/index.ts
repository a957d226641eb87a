// Certificates for tests and the reference bank: a CA, TLS server
// certificates and PSD2 TPP seal certificates, plus reading the PSD2 fields back.
export { CertificateAuthorityError, generateCertificateAuthority, loadCertificateAuthority } from './certificate-authority.js';
export { generateServerCertificate, sharedServerCertificate } from './server-certificate.js';
export { ALL_PSD2_ROLES, backdatedValidity, generateTppCertificate, organizationIdentifierOf } from './tpp-certificate.js';
export type { KeyAndCertificate } from './issue-certificate.js';
export { generateRsaKeyPem } from './rsa-key-source.js';
export { readPsd2QcStatement } from './qc-statement.js';
export type { Psd2Role } from './qc-statement.js';
export { readCertificateFields, findExtension } from './x509-fields.js';
