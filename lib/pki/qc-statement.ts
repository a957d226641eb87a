// The PSD2 QCStatement of ETSI TS 119 495 (section 5.1) inside the RFC 3739
// qcStatements extension, which tells a bank which PSD2 roles a TPP's eIDAS
// certificate carries and which national competent authority (NCA) granted them.
//
//   QCStatements ::= SEQUENCE OF SEQUENCE { statementId OID, statementInfo ANY OPTIONAL }
//   PSD2QcType   ::= SEQUENCE { rolesOfPSP SEQUENCE OF RoleOfPSP, nCAName UTF8String, nCAId UTF8String }
//   RoleOfPSP    ::= SEQUENCE { roleOfPspOid OID, roleOfPspName UTF8String }
import type { X509Certificate } from 'node:crypto';
import forge from 'node-forge';
import { childrenOf, decodeOid, decodeString, expectUniversal, readElement, TAG } from './der.js';
import type { DerElement } from './der.js';
import { findExtension } from './x509-fields.js';

export type Psd2Role = 'PSP_AS' | 'PSP_PI' | 'PSP_AI' | 'PSP_IC';

export const QC_STATEMENTS_EXTENSION_OID = '1.3.6.1.5.5.7.1.3';
export const PSD2_QC_STATEMENT_OID = '0.4.0.19495.2';
const QC_COMPLIANCE_OID = '0.4.0.1862.1.1';
const QC_TYPE_OID = '0.4.0.1862.1.6';
const QC_TYPE_ESEAL_OID = '0.4.0.1862.1.6.2';

export const PSD2_ROLE_OIDS: Readonly<Record<Psd2Role, string>> = {
  PSP_AS: '0.4.0.19495.1.1',
  PSP_PI: '0.4.0.19495.1.2',
  PSP_AI: '0.4.0.19495.1.3',
  PSP_IC: '0.4.0.19495.1.4',
};
const ROLE_BY_OID = new Map(Object.entries(PSD2_ROLE_OIDS).map(([role, oid]) => [oid, role as Psd2Role]));

export interface Psd2QcStatement {
  roles: Psd2Role[];
  ncaName: string;
  ncaId: string;
}

const { asn1 } = forge;

/**
 * The qcStatements extension of a PSD2 qualified seal certificate (QSealC, the
 * kind a TPP signs requests with): QcCompliance, QcType eseal and the PSD2 statement.
 */
export function qcStatementsExtension(statement: Psd2QcStatement): { id: string; value: forge.asn1.Asn1 } {
  const roles = statement.roles.map((role) => sequence([oid(PSD2_ROLE_OIDS[role]), utf8(role)]));
  return {
    id: QC_STATEMENTS_EXTENSION_OID,
    value: sequence([
      sequence([oid(QC_COMPLIANCE_OID)]),
      sequence([oid(QC_TYPE_OID), sequence([oid(QC_TYPE_ESEAL_OID)])]),
      sequence([oid(PSD2_QC_STATEMENT_OID), sequence([sequence(roles), utf8(statement.ncaName), utf8(statement.ncaId)])]),
    ]),
  };
}

/**
 * The PSD2 statement of a certificate, or undefined when it has none.
 * Throws when the statement is there but malformed: a bank must not guess roles.
 */
export function readPsd2QcStatement(certificate: string | X509Certificate): Psd2QcStatement | undefined {
  const extension = findExtension(certificate, QC_STATEMENTS_EXTENSION_OID);
  if (!extension) return undefined;
  const statements = childrenOf(expectUniversal(readElement(extension.value), TAG.SEQUENCE, 'a QCStatements SEQUENCE'));
  for (const statement of statements) {
    const [id, info] = childrenOf(expectUniversal(statement, TAG.SEQUENCE, 'a QCStatement SEQUENCE'));
    if (id && decodeOid(id) === PSD2_QC_STATEMENT_OID) return readPsd2QcType(info);
  }
  return undefined;
}

function readPsd2QcType(info: DerElement | undefined): Psd2QcStatement {
  const [roles, ncaName, ncaId] = childrenOf(expectUniversal(info, TAG.SEQUENCE, 'a PSD2QcType SEQUENCE'));
  return {
    roles: childrenOf(expectUniversal(roles, TAG.SEQUENCE, 'a RolesOfPSP SEQUENCE')).map(readRole),
    ncaName: utf8Text(ncaName, 'nCAName'),
    ncaId: utf8Text(ncaId, 'nCAId'),
  };
}

function readRole(element: DerElement): Psd2Role {
  const [roleOid] = childrenOf(expectUniversal(element, TAG.SEQUENCE, 'a RoleOfPSP SEQUENCE'));
  const oidText = decodeOid(expectUniversal(roleOid, TAG.OID, 'a roleOfPspOid'));
  const role = ROLE_BY_OID.get(oidText);
  if (!role) throw new Error(`unknown PSD2 role OID ${oidText}`);
  return role;
}

function utf8Text(element: DerElement | undefined, what: string): string {
  return decodeString(expectUniversal(element, TAG.UTF8_STRING, `${what} as a UTF8String`)) ?? '';
}

function sequence(items: forge.asn1.Asn1[]): forge.asn1.Asn1 {
  return asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, items);
}

function oid(dotted: string): forge.asn1.Asn1 {
  return asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(dotted).getBytes());
}

function utf8(text: string): forge.asn1.Asn1 {
  // forge holds contents as binary strings: the UTF-8 encoding is ours to do.
  return asn1.create(asn1.Class.UNIVERSAL, asn1.Type.UTF8, false, forge.util.encodeUtf8(text));
}
