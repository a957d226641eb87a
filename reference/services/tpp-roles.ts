// The PSD2 roles of a TPP's certificate (ETSI TS 119 495 QCStatement: PSP_AI, PSP_PI, …), read once per
// certificate. The signature plugin refuses a service the certificate has no role for; GET /v1/user reads
// them under a variant.
import type { X509Certificate } from 'node:crypto';
import { readPsd2QcStatement, type Psd2Role } from '../../lib/pki/index.js';
import { memoised } from '../../lib/support/memo.js';
import { header, type BankContext } from '../http/bank-context.js';

/** PSD2 roles by certificate header value: read once per certificate. */
const rolesByCertificate = new Map<string, readonly Psd2Role[]>();

/** The PSD2 roles of the certificate this request was verified with (none when it has none, or is unknown). */
export function tppRoles(ctx: BankContext): readonly Psd2Role[] {
  const certificate = ctx.tpp?.certificate;
  return certificate === undefined ? [] : rolesOf(header(ctx, 'tpp-signature-certificate') ?? '', certificate);
}

/** The roles of a certificate, by the header value it came in (the cache key). */
export function rolesOf(value: string, certificate: X509Certificate): readonly Psd2Role[] {
  return memoised(rolesByCertificate, value, () => {
    try {
      return readPsd2QcStatement(certificate)?.roles ?? [];
    } catch {
      return [];
    }
  });
}
