// A TPP's eIDAS seal certificate (QSealC) for signing requests: the subject
// carries organizationIdentifier (ETSI EN 319 412-1) and the certificate the
// PSD2 QCStatement with roles and NCA (ETSI TS 119 495).
import type { X509Certificate } from 'node:crypto';
import { issueCertificate } from './issue-certificate.js';
import type { KeyAndCertificate } from './issue-certificate.js';
import { qcStatementsExtension } from './qc-statement.js';
import type { Psd2Role } from './qc-statement.js';
import { SUBJECT_OID } from './subject-oids.js';
import { decodeString } from './der.js';
import { readCertificateFields } from './x509-fields.js';

/** Every PSD2 role: the suite's own TPPs act as AISP, PISP, PIISP and ASPSP at once. */
export const ALL_PSD2_ROLES: readonly Psd2Role[] = ['PSP_AS', 'PSP_PI', 'PSP_AI', 'PSP_IC'];

/** How far back the suite's generated TPP certificates are valid from. */
const BACKDATE_DAYS = 400;

/**
 * The validity of a TPP certificate the suite makes for itself: from well before today, so that a target
 * clock moved back (a date the specification names, such as the structured-address enforcement of 13 August
 * 2026) still accepts its requests, to a year from now.
 */
export function backdatedValidity(now = Date.now()): { notBefore: Date; validDays: number } {
  return { notBefore: new Date(now - BACKDATE_DAYS * 86_400_000), validDays: BACKDATE_DAYS + 365 };
}

export function generateTppCertificate(
  ca: KeyAndCertificate,
  options: {
    organizationName: string;
    /** e.g. PSDNO-FSA-123456: "PSD", the NCA's country and id, the authorisation number. */
    organizationIdentifier: string;
    commonName?: string;
    countryName?: string;
    roles: Psd2Role[];
    ncaName?: string;
    ncaId?: string;
    validDays?: number;
    notBefore?: Date;
    /** Reuse this key (many test TPPs can share one). */
    privateKeyPem?: string;
  },
): KeyAndCertificate {
  if (options.roles.length === 0) throw new Error('a PSD2 TPP certificate needs at least one role');
  return issueCertificate({
    issuer: ca,
    subject: [
      { oid: SUBJECT_OID.countryName, value: options.countryName ?? 'NO', printable: true },
      { oid: SUBJECT_OID.organizationName, value: options.organizationName },
      { oid: SUBJECT_OID.organizationIdentifier, value: options.organizationIdentifier },
      { oid: SUBJECT_OID.commonName, value: options.commonName ?? options.organizationName },
    ],
    validDays: options.validDays ?? 365,
    ...(options.notBefore ? { notBefore: options.notBefore } : {}),
    ...(options.privateKeyPem ? { privateKeyPem: options.privateKeyPem } : {}),
    extensions: [
      { name: 'basicConstraints', cA: false, critical: true },
      // ETSI EN 319 412-3: a seal certificate is for digital signatures and content commitment.
      { name: 'keyUsage', digitalSignature: true, nonRepudiation: true, critical: true },
      qcStatementsExtension({
        roles: options.roles,
        ncaName: options.ncaName ?? 'Finanstilsynet',
        ncaId: options.ncaId ?? 'NO-FSA',
      }),
    ],
  });
}

/** The subject's organizationIdentifier (OID 2.5.4.97), e.g. PSDNO-FSA-123456. */
export function organizationIdentifierOf(certificate: string | X509Certificate): string | undefined {
  const attribute = readCertificateFields(certificate)
    .subject.flat()
    .find((candidate) => candidate.oid === SUBJECT_OID.organizationIdentifier);
  return attribute ? decodeString(attribute.value) : undefined;
}
