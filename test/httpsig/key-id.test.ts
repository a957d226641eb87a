// keyId (Authentication item 5): SN=<serial upper-case hex>,CA=<issuer in RFC 2253
// form>, and the comparisons by meaning a verifier needs (see xs2a-facts).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import {
  DistinguishedNameError,
  issuerRfc2253,
  KeyIdFormatError,
  keyIdOf,
  parseDistinguishedName,
  parseKeyId,
  parseSignatureHeader,
  formatSignatureHeader,
  sameDistinguishedName,
  sameSerial,
} from '../../lib/httpsig/index.js';
import { generateCertificateAuthority } from '../../lib/pki/index.js';
import { testPki } from '../pki/test-pki.js';
import { scratchDir } from '../support/scratch.js';

// A CA name with every character RFC 2253 makes special, and one that is not ASCII.
const awkwardCa = generateCertificateAuthority({
  commonName: '#1 "Quoted" CA, Inc + Partners <x>; back\\slash ',
  organizationName: 'Bank Ø AS',
  countryName: 'NO',
});
// Self-signed, so its issuer is that name; one RSA key keeps the file fast.
const certificate = new X509Certificate(awkwardCa.certificatePem);

describe('keyIdOf', () => {
  it('writes SN= with the serial in upper-case hex and CA= with the issuer in RFC 2253 order (most significant last)', () => {
    const keyId = keyIdOf(certificate);
    assert.match(keyId, /^SN=[0-9A-F]{32},CA=CN=.*,O=Bank Ø AS,C=NO$/);
    assert.equal(keyId, `SN=${certificate.serialNumber},CA=${issuerRfc2253(certificate).replaceAll('\\"', '\\22')}`);
  });

  it('escapes , + " \\ < > ; a leading # and a trailing space (RFC 2253 2.4)', () => {
    assert.equal(issuerRfc2253(certificate), 'CN=\\#1 \\"Quoted\\" CA\\, Inc \\+ Partners \\<x\\>\\; back\\\\slash\\ ,O=Bank Ø AS,C=NO');
  });

  it('writes a double quote as \\22 so the keyId fits a quoted Signature parameter', () => {
    const keyId = keyIdOf(certificate);
    assert.equal(keyId.includes('"'), false);
    const header = formatSignatureHeader({ keyId, algorithm: 'rsa-sha256', headers: ['date'], signature: 'c2ln' });
    assert.equal(parseSignatureHeader(header).keyId, keyId);
  });

  it('accepts a PEM as well as a parsed certificate', () => {
    assert.equal(keyIdOf(certificate.toString()), keyIdOf(certificate));
  });

  it('names the certificate, by meaning, the way the verifier compares', () => {
    const { serial, issuer } = parseKeyId(keyIdOf(certificate));
    assert.ok(sameSerial(serial, certificate.serialNumber));
    assert.ok(sameDistinguishedName(issuer, issuerRfc2253(certificate)));
    assert.deepEqual(
      parseDistinguishedName(issuer).map((attribute) => attribute.value),
      ['#1 "Quoted" CA, Inc + Partners <x>; back\\slash ', 'Bank Ø AS', 'NO'],
    );
  });
});

describe('keyIdOf agrees with OpenSSL (an implementation we did not write)', () => {
  const directory = scratchDir('keyid-openssl-');
  after(() => rmSync(directory, { recursive: true, force: true }));

  /** `openssl x509 -serial -issuer -nameopt RFC2253`, with UTF-8 printed as is rather than as \\XX escapes. */
  function openssl(certificatePem: string): { serial: string; issuer: string } {
    const file = join(directory, 'certificate.pem');
    writeFileSync(file, certificatePem);
    const output = execFileSync('openssl', ['x509', '-in', file, '-noout', '-serial', '-issuer', '-nameopt', 'RFC2253,-esc_msb'], {
      encoding: 'utf8',
    });
    const field = (name: string): string => new RegExp(`^${name}=(.*)$`, 'm').exec(output)?.[1] ?? assert.fail(`no ${name} in ${output}`);
    return { serial: field('serial'), issuer: field('issuer') };
  }

  it('on the serial and, character for character, the issuer', () => {
    const expected = openssl(certificate.toString());
    assert.equal(issuerRfc2253(certificate), expected.issuer);
    // The one deliberate difference: keyIdOf writes " as \\22 rather than \\" (see keyIdOf).
    assert.equal(keyIdOf(certificate), `SN=${expected.serial},CA=${expected.issuer.replaceAll('\\"', '\\22')}`);
  });

  it('on a plain name too', () => {
    const plain = testPki().ca; // CN=xs2a-conformance Test CA, O=xs2a-conformance, C=NO
    const expected = openssl(plain.certificatePem);
    assert.equal(keyIdOf(plain.certificatePem), `SN=${expected.serial},CA=${expected.issuer}`);
  });
});

describe('parseKeyId', () => {
  it('splits at the first comma: the issuer keeps its own commas', () => {
    assert.deepEqual(parseKeyId('SN=9FA1,CA=CN=D-TRUST CA 2-1 2015,O=D-Trust GmbH,C=DE'), {
      serial: '9FA1',
      issuer: 'CN=D-TRUST CA 2-1 2015,O=D-Trust GmbH,C=DE',
    });
  });

  it('tolerates spaces and lower-case SN/CA', () => {
    assert.deepEqual(parseKeyId(' sn = 9f:a1 , ca = CN=x '), { serial: '9f:a1', issuer: 'CN=x' });
  });

  it('throws on malformed keyIds', () => {
    for (const keyId of ['', 'Test', 'CA=CN=x,SN=1', 'SN=,CA=CN=x', 'SN=XYZ,CA=CN=x', 'SN=1,CA=', 'SN=1,CA=no equals sign', 'SN=1']) {
      assert.throws(() => parseKeyId(keyId), KeyIdFormatError, keyId);
    }
  });
});

describe('sameSerial', () => {
  it('compares as numbers: case, colons, leading zeros and 0x do not matter', () => {
    assert.ok(sameSerial('009FA1', '9fa1'));
    assert.ok(sameSerial('00:9F:A1', '0x9FA1'));
    assert.ok(sameSerial('6D18FC86809E0CF409331343522128B1', '6d:18:fc:86:80:9e:0c:f4:09:33:13:43:52:21:28:b1'));
  });

  it('tells different or malformed serials apart', () => {
    assert.equal(sameSerial('9FA1', '9FA2'), false);
    assert.equal(sameSerial('9FA1', 'not hex'), false);
    assert.equal(sameSerial('', ''), false);
  });
});

describe('sameDistinguishedName', () => {
  const reference = 'CN=Test CA,O=Bank AS,organizationIdentifier=NTRNO-123456789,ST=Oslo,C=NO';

  it('ignores attribute order, type-name case and spaces after separators', () => {
    assert.ok(sameDistinguishedName(reference, 'C=NO, st=Oslo, O=Bank AS, cn=Test CA, ORGANIZATIONIDENTIFIER=NTRNO-123456789'));
  });

  it('treats S as ST, and organizationIdentifier, 2.5.4.97 and OID.2.5.4.97 as one type', () => {
    assert.ok(sameDistinguishedName(reference, 'CN=Test CA,O=Bank AS,2.5.4.97=NTRNO-123456789,S=Oslo,C=NO'));
    assert.ok(sameDistinguishedName(reference, 'CN=Test CA,O=Bank AS,OID.2.5.4.97=NTRNO-123456789,S=Oslo,C=NO'));
  });

  it('compares values case-insensitively with insignificant spaces ignored (caseIgnoreMatch)', () => {
    assert.ok(sameDistinguishedName(reference, 'CN=test  ca,O=BANK AS,organizationIdentifier=ntrno-123456789,ST=oslo,C=no'));
  });

  it('understands RFC 2253 escapes, hex escapes, #hex BER values, quoting and ";" separators', () => {
    assert.ok(sameDistinguishedName('CN=a\\,b\\+c\\"d,C=NO', 'CN=a\\2Cb\\2Bc\\22d,C=NO'));
    assert.ok(sameDistinguishedName('CN=a\\,b\\+c\\"d,C=NO', 'CN="a,b+c\\"d"; C=NO'));
    assert.ok(sameDistinguishedName('O=Bank Ø AS', 'O=Bank \\C3\\98 AS'));
    // #0C03616263 is the DER of UTF8String "abc".
    assert.ok(sameDistinguishedName('CN=abc', 'CN=#0C03616263'));
    assert.ok(sameDistinguishedName('CN=abc+O=x', 'O=x,CN=abc'));
  });

  it('accepts emailAddress as E and EMAIL, and percent-encoding as in the Berlin Group example', () => {
    assert.ok(sameDistinguishedName('emailAddress=ca@bank.example,CN=x', 'CN=x,E=ca@bank.example'));
    assert.ok(sameDistinguishedName('CN=D-TRUST CA 2-1 2015,O=D-Trust GmbH,C=DE', 'CN=D-TRUST%20CA%202-1%202015,O=D-Trust%20GmbH,C=DE'));
  });

  it('tells different names apart', () => {
    assert.equal(sameDistinguishedName(reference, 'CN=Test CA,O=Bank AS,organizationIdentifier=NTRNO-123456789,C=NO'), false);
    assert.equal(sameDistinguishedName(reference, `${reference},OU=Extra`), false);
    assert.equal(sameDistinguishedName('CN=a,CN=a', 'CN=a'), false);
    assert.equal(sameDistinguishedName('CN=Test CA', 'O=Test CA'), false);
    assert.equal(sameDistinguishedName('CN=x', 'not a name'), false);
  });

  it('malformed names throw a DistinguishedNameError', () => {
    assert.throws(() => parseDistinguishedName('CN=x,,O=y'), DistinguishedNameError);
    assert.throws(() => parseDistinguishedName('CN=#0C0'), /malformed #hex/);
    assert.throws(() => parseDistinguishedName(''), /empty/);
  });
});
