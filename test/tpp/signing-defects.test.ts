// Each deliberate signing defect produces exactly what it claims, and the verifier
// answers it with the code the specification's rules give.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  buildSigningString,
  computeDigest,
  decodeRfc2047,
  formatHttpDate,
  parseKeyId,
  parseSignatureHeader,
  sameDistinguishedName,
  verifyRsaSha256,
  verifySignedRequest,
} from '../../lib/httpsig/index.js';
import type { VerificationFailureCode } from '../../lib/httpsig/index.js';
import type { SigningDefect } from '../../lib/tpp/index.js';
import { testPki } from '../pki/test-pki.js';
import { NOW, NOW_HTTP_DATE, signTestRequest } from './signed-request.js';
import type { SignedTestRequest } from './signed-request.js';

const { identity } = testPki();
const BODY = '{"instructedAmount":{"currency":"EUR","amount":"12.50"}}';

function withDefects(...signingDefects: SigningDefect[]): SignedTestRequest {
  return signTestRequest(identity, { body: BODY, signingDefects });
}

function verdict(request: SignedTestRequest): VerificationFailureCode | 'OK' {
  const result = verifySignedRequest(request.incoming, { now: NOW, maxClockSkewSeconds: 60 });
  return result.ok ? 'OK' : result.failure.code;
}

const clean = withDefects();
const cleanParams = parseSignatureHeader(clean.incoming.headers.signature ?? '');

describe('without defects', () => {
  it('sends X-Request-ID, Date, Digest, TPP-Signature-Certificate and Signature over the present signable headers in order', () => {
    const headers = clean.signed.headers;
    assert.match(headers.get('X-Request-ID') ?? '', /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(headers.get('Date'), NOW_HTTP_DATE);
    assert.equal(headers.get('Digest'), computeDigest(BODY));
    assert.equal(headers.get('TPP-Signature-Certificate'), identity.certificate.raw.toString('base64'));
    assert.deepEqual(cleanParams, {
      keyId: identity.keyId,
      algorithm: 'rsa-sha256',
      headers: ['date', 'digest', 'x-request-id', 'psu-id', 'tpp-redirect-uri'],
      signature: cleanParams.signature,
    });
    assert.equal(verdict(clean), 'OK');
  });

  it('makes a fresh X-Request-ID for every request', () => {
    assert.notEqual(withDefects().signed.headers.get('X-Request-ID'), clean.signed.headers.get('X-Request-ID'));
  });

  it('keeps headers the caller set itself', () => {
    const request = signTestRequest(identity, { headers: { 'x-request-id': 'chosen-id', Date: 'Sun, 05 Jan 2014 21:31:40 GMT' } });
    assert.equal(request.signed.headers.get('X-Request-ID'), 'chosen-id');
    assert.equal(request.signed.headers.get('Date'), 'Sun, 05 Jan 2014 21:31:40 GMT');
    assert.equal(verdict(request), 'TIMESTAMP_INVALID');
  });
});

describe('each defect', () => {
  it('no-signature: no Signature header → SIGNATURE_MISSING', () => {
    const request = withDefects({ kind: 'no-signature' });
    assert.equal(request.signed.headers.has('Signature'), false);
    assert.equal(request.signed.headers.has('TPP-Signature-Certificate'), true);
    assert.equal(verdict(request), 'SIGNATURE_MISSING');
  });

  it('no-certificate: no TPP-Signature-Certificate → CERTIFICATE_MISSING', () => {
    const request = withDefects({ kind: 'no-certificate' });
    assert.equal(request.signed.headers.has('TPP-Signature-Certificate'), false);
    assert.equal(request.signed.headers.has('Signature'), true);
    assert.equal(verdict(request), 'CERTIFICATE_MISSING');
  });

  it('no-date: no Date, and date not signed → HTTP_HEADER_REQUIRED', () => {
    const request = withDefects({ kind: 'no-date' });
    assert.equal(request.signed.headers.has('Date'), false);
    assert.deepEqual(request.signed.signedHeaders, ['digest', 'x-request-id', 'psu-id', 'tpp-redirect-uri']);
    assert.equal(verdict(request), 'HTTP_HEADER_REQUIRED');
  });

  it('no-digest: no Digest, and digest not signed → HTTP_HEADER_REQUIRED', () => {
    const request = withDefects({ kind: 'no-digest' });
    assert.equal(request.signed.headers.has('Digest'), false);
    assert.deepEqual(request.signed.signedHeaders, ['date', 'x-request-id', 'psu-id', 'tpp-redirect-uri']);
    assert.equal(verdict(request), 'HTTP_HEADER_REQUIRED');
  });

  it('wrong-key: signature by another key, everything else intact → SIGNATURE_INVALID', () => {
    const request = withDefects({ kind: 'wrong-key' });
    const params = parseSignatureHeader(request.incoming.headers.signature ?? '');
    assert.equal(params.keyId, identity.keyId);
    assert.notEqual(params.signature, cleanParams.signature);
    assert.equal(verdict(request), 'SIGNATURE_INVALID');
  });

  it('body-changed-after-signing: the body sent has one more byte than the one digested → SIGNATURE_INVALID', () => {
    const request = withDefects({ kind: 'body-changed-after-signing' });
    assert.equal(Buffer.from(request.incoming.body).toString(), `${BODY} `);
    assert.equal(request.incoming.headers.digest, computeDigest(BODY));
    assert.equal(verdict(request), 'SIGNATURE_INVALID');
  });

  it('date-skew: Date shifted by the seconds given, correctly signed → TIMESTAMP_INVALID beyond 60 s', () => {
    const ahead = withDefects({ kind: 'date-skew', seconds: 61 });
    assert.equal(ahead.signed.headers.get('Date'), formatHttpDate(new Date(NOW.getTime() + 61_000)));
    assert.equal(verdict(ahead), 'TIMESTAMP_INVALID');
    assert.equal(verdict(withDefects({ kind: 'date-skew', seconds: -61 })), 'TIMESTAMP_INVALID');
    assert.equal(verdict(withDefects({ kind: 'date-skew', seconds: 60 })), 'OK');
    assert.equal(verdict(withDefects({ kind: 'date-skew', seconds: -60 })), 'OK');
  });

  it('wrong-serial: keyId with another serial, same issuer → KID_INVALID', () => {
    const request = withDefects({ kind: 'wrong-serial' });
    const keyId = parseKeyId(parseSignatureHeader(request.incoming.headers.signature ?? '').keyId);
    const original = parseKeyId(identity.keyId);
    assert.notEqual(keyId.serial, original.serial);
    assert.equal(keyId.serial.length, original.serial.length);
    assert.equal(keyId.issuer, original.issuer);
    assert.equal(verdict(request), 'KID_INVALID');
    assert.equal(
      parseKeyId(parseSignatureHeader(withDefects({ kind: 'wrong-serial', serial: '01' }).incoming.headers.signature ?? '').keyId).serial,
      '01',
    );
  });

  it('wrong-issuer: keyId with another issuer, same serial → KID_INVALID', () => {
    const request = withDefects({ kind: 'wrong-issuer' });
    const keyId = parseKeyId(parseSignatureHeader(request.incoming.headers.signature ?? '').keyId);
    assert.equal(keyId.serial, identity.certificate.serialNumber);
    assert.equal(sameDistinguishedName(keyId.issuer, parseKeyId(identity.keyId).issuer), false);
    assert.equal(verdict(request), 'KID_INVALID');
  });

  it('wrong-issuer with a non-ASCII issuer: the Signature header goes RFC 2047-encoded (item 7) → KID_INVALID', () => {
    const request = withDefects({ kind: 'wrong-issuer', issuer: 'CN=Bank Ø Test CA,C=NO' });
    const sent = request.incoming.headers.signature ?? '';
    assert.match(sent, /^=\?utf-8\?B\?[A-Za-z0-9+/=]+\?=$/);
    assert.match(decodeRfc2047(sent), /CA=CN=Bank Ø Test CA,C=NO"/);
    assert.equal(verdict(request), 'KID_INVALID');
  });

  it('algorithm: the algorithm part says what it is told, signature still RSA-SHA256 → SIGNATURE_INVALID', () => {
    const request = withDefects({ kind: 'algorithm', name: 'hmac-sha256' });
    const params = parseSignatureHeader(request.incoming.headers.signature ?? '');
    assert.equal(params.algorithm, 'hmac-sha256');
    const signingString = buildSigningString(params.headers, (name) => request.incoming.headers[name]);
    assert.ok(verifyRsaSha256(signingString, params.signature, identity.certificate.publicKey));
    assert.equal(verdict(request), 'SIGNATURE_INVALID');
  });

  it('headers-out-of-order: the same signed headers in another order, still a valid signature → accepted', () => {
    const request = withDefects({ kind: 'headers-out-of-order' });
    const params = parseSignatureHeader(request.incoming.headers.signature ?? '');
    assert.notDeepEqual(params.headers, cleanParams.headers);
    assert.deepEqual([...params.headers].sort(), [...cleanParams.headers].sort());
    assert.equal(verdict(request), 'OK');
  });

  it('unsigned-header: a present signable header left out of the signature → SIGNATURE_INVALID naming it', () => {
    for (const header of ['psu-id', 'tpp-redirect-uri', 'x-request-id'] as const) {
      const request = withDefects({ kind: 'unsigned-header', header });
      assert.ok(request.incoming.headers[header], `${header} is still sent`);
      assert.equal(parseSignatureHeader(request.incoming.headers.signature ?? '').headers.includes(header), false);
      const result = verifySignedRequest(request.incoming, { now: NOW, maxClockSkewSeconds: 60 });
      assert.equal(result.ok ? 'OK' : result.failure.code, 'SIGNATURE_INVALID');
      assert.match(result.ok ? '' : result.failure.message, new RegExp(`does not cover the ${header} header`));
    }
  });
});
