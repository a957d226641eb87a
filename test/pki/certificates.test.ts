// Generated certificates: what a bank and a TLS client check in them.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  findExtension,
  generateServerCertificate,
  generateTppCertificate,
  organizationIdentifierOf,
  readCertificateFields,
  readPsd2QcStatement,
} from '../../lib/pki/index.js';
import { testPki } from './test-pki.js';

const DAY_MS = 86_400_000;
const { ca, tpp } = testPki({ organizationName: 'Prøvebank AS' });
const caCertificate = new X509Certificate(ca.certificatePem);
const tppCertificate = new X509Certificate(tpp.certificatePem);
const server = generateServerCertificate(ca, { hostnames: ['localhost', 'bank.test'], ipAddresses: ['127.0.0.1', '::1'], validDays: 30 });
const serverCertificate = new X509Certificate(server.certificatePem);

function assertRsa2048WithMatchingKey(pair: { certificatePem: string; privateKeyPem: string }): void {
  const certificate = new X509Certificate(pair.certificatePem);
  assert.equal(certificate.publicKey.asymmetricKeyType, 'rsa');
  assert.equal(certificate.publicKey.asymmetricKeyDetails?.modulusLength, 2048);
  assert.match(pair.privateKeyPem, /^-----BEGIN PRIVATE KEY-----/);
  assert.ok(certificate.checkPrivateKey(createPrivateKey(pair.privateKeyPem)));
}

function assertIssuedByCa(certificate: X509Certificate): void {
  assert.ok(certificate.checkIssued(caCertificate));
  assert.ok(certificate.verify(caCertificate.publicKey));
  // RFC 5280 name chaining: the issuer is the CA subject byte for byte (UTF-8 name included).
  assert.deepEqual(readCertificateFields(certificate).issuerDer, readCertificateFields(caCertificate).subjectDer);
}

describe('generateCertificateAuthority', () => {
  it('is a self-signed RSA 2048 CA with the names given', () => {
    assertRsa2048WithMatchingKey(ca);
    assert.equal(caCertificate.ca, true);
    assert.ok(caCertificate.verify(caCertificate.publicKey));
    assert.equal(caCertificate.subject, 'C=NO\nO=Prøvebank AS\nCN=xs2a-conformance Test CA');
    assert.equal(caCertificate.issuer, caCertificate.subject);
  });
});

describe('generateTppCertificate', () => {
  it('has a positive random serial of at least 8 bytes', () => {
    const serial = tppCertificate.serialNumber;
    assert.match(serial, /^[0-9A-F]+$/);
    assert.ok(serial.length >= 16, serial);
    assert.ok(parseInt(serial.slice(0, 2), 16) >= 0x01 && parseInt(serial.slice(0, 2), 16) < 0x80, serial);
    assert.notEqual(serial, caCertificate.serialNumber);
  });

  it('names the organisation with organizationIdentifier (OID 2.5.4.97)', () => {
    assert.equal(organizationIdentifierOf(tppCertificate), 'PSDNO-FSA-123456');
    assert.equal(organizationIdentifierOf(tpp.certificatePem), 'PSDNO-FSA-123456');
    assert.equal(tppCertificate.subject, 'C=NO\nO=Test TPP AS\norganizationIdentifier=PSDNO-FSA-123456\nCN=Test TPP AS');
  });

  it('carries the PSD2 QCStatement with roles and NCA (ETSI TS 119 495)', () => {
    assert.deepEqual(readPsd2QcStatement(tppCertificate), { roles: ['PSP_AI', 'PSP_PI'], ncaName: 'Finanstilsynet', ncaId: 'NO-FSA' });
  });

  it('encodes the statement as ETSI TS 119 495 lays it out, as OpenSSL reads it', () => {
    const extension = findExtension(tppCertificate, '1.3.6.1.5.5.7.1.3');
    assert.ok(extension);
    const parsed = execFileSync('openssl', ['asn1parse', '-inform', 'DER', '-i'], { input: extension.value, encoding: 'utf8' });
    const structure = parsed
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) =>
        line
          .replace(/^.*?(?:prim|cons):\s+/, '')
          .replace(/\s+/g, ' ')
          .trim(),
      );
    assert.deepEqual(structure, [
      'SEQUENCE', // QCStatements
      'SEQUENCE',
      'OBJECT :0.4.0.1862.1.1', // QcCompliance
      'SEQUENCE',
      'OBJECT :0.4.0.1862.1.6',
      'SEQUENCE',
      'OBJECT :0.4.0.1862.1.6.2', // QcType eseal
      'SEQUENCE',
      'OBJECT :0.4.0.19495.2', // PSD2 statement
      'SEQUENCE', // PSD2QcType
      'SEQUENCE', // rolesOfPSP
      'SEQUENCE',
      'OBJECT :0.4.0.19495.1.3',
      'UTF8STRING :PSP_AI',
      'SEQUENCE',
      'OBJECT :0.4.0.19495.1.2',
      'UTF8STRING :PSP_PI',
      'UTF8STRING :Finanstilsynet', // nCAName
      'UTF8STRING :NO-FSA', // nCAId
    ]);
  });

  it('chains to its CA, is RSA 2048 and is not a CA', () => {
    assertRsa2048WithMatchingKey(tpp);
    assertIssuedByCa(tppCertificate);
    assert.equal(tppCertificate.ca, false);
  });

  it('honours roles, NCA, names, country, notBefore and validDays', () => {
    const notBefore = new Date('2025-01-01T00:00:00Z');
    const custom = generateTppCertificate(ca, {
      organizationName: 'Åpen Betaling AS',
      organizationIdentifier: 'PSDSE-FINA-44059',
      commonName: 'api.apen.example',
      countryName: 'SE',
      roles: ['PSP_AS', 'PSP_PI', 'PSP_AI', 'PSP_IC'],
      ncaName: 'Finansinspektionen',
      ncaId: 'SE-FINA',
      notBefore,
      validDays: 10,
    });
    const certificate = new X509Certificate(custom.certificatePem);
    assert.deepEqual(readPsd2QcStatement(certificate), {
      roles: ['PSP_AS', 'PSP_PI', 'PSP_AI', 'PSP_IC'],
      ncaName: 'Finansinspektionen',
      ncaId: 'SE-FINA',
    });
    assert.equal(certificate.subject, 'C=SE\nO=Åpen Betaling AS\norganizationIdentifier=PSDSE-FINA-44059\nCN=api.apen.example');
    const fields = readCertificateFields(certificate);
    assert.deepEqual([fields.notBefore, fields.notAfter], [notBefore, new Date(notBefore.getTime() + 10 * DAY_MS)]);
    assertIssuedByCa(certificate);
  });

  it('refuses a certificate without roles', () => {
    assert.throws(
      () => generateTppCertificate(ca, { organizationName: 'x', organizationIdentifier: 'PSDNO-FSA-1', roles: [] }),
      /at least one role/,
    );
  });
});

describe('generateServerCertificate', () => {
  it('names every host and IP in subjectAltName and is for serverAuth', () => {
    assert.equal(serverCertificate.subjectAltName, 'DNS:localhost, DNS:bank.test, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1');
    assert.equal(serverCertificate.checkHost('bank.test'), 'bank.test');
    assert.equal(serverCertificate.checkIP('::1'), '::1');
    assert.deepEqual(serverCertificate.keyUsage, ['1.3.6.1.5.5.7.3.1']);
  });

  it('chains to its CA, lasts validDays, and has no PSD2 fields', () => {
    assertRsa2048WithMatchingKey(server);
    assertIssuedByCa(serverCertificate);
    const fields = readCertificateFields(serverCertificate);
    assert.equal(fields.notAfter.getTime() - fields.notBefore.getTime(), 30 * DAY_MS);
    assert.equal(readPsd2QcStatement(serverCertificate), undefined);
    assert.equal(organizationIdentifierOf(serverCertificate), undefined);
  });

  it('rejects an IP address that is not one, and an empty name list', () => {
    assert.throws(() => generateServerCertificate(ca, { hostnames: ['x'], ipAddresses: ['localhost'] }), /not IP addresses: localhost/);
    assert.throws(() => generateServerCertificate(ca, { hostnames: [] }), /at least one hostname/);
  });
});
