// verifySignedRequest: every rule of Authentication items 3-8 with its failure code.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  buildSigningString,
  computeDigest,
  encodeRfc2047,
  formatSignatureHeader,
  parseSignatureHeader,
  STRICT_VERIFICATION,
  verifySignedRequest,
} from '../../lib/httpsig/index.js';
import type { IncomingRequest, SignatureParams, VerificationFailureCode, VerifyOptions } from '../../lib/httpsig/index.js';
import { testPki } from '../pki/test-pki.js';
import { NOW, signTestRequest, withHeaders } from '../tpp/signed-request.js';

const { ca, tpp, identity } = testPki();
const options: VerifyOptions = { now: NOW, maxClockSkewSeconds: 60 };

function verify(request: IncomingRequest, overrides: Partial<VerifyOptions> = {}) {
  return verifySignedRequest(request, { ...options, ...overrides });
}

function assertFailure(
  request: IncomingRequest,
  code: VerificationFailureCode,
  message?: RegExp | string,
  overrides: Partial<VerifyOptions> = {},
): void {
  const result = verify(request, overrides);
  assert.equal(result.ok, false, 'expected the request to be rejected');
  if (result.ok) return;
  assert.equal(result.failure.code, code, result.failure.message);
  if (typeof message === 'string') assert.equal(result.failure.message, message);
  else if (message) assert.match(result.failure.message, message);
}

function signatureParams(request: IncomingRequest): SignatureParams {
  return parseSignatureHeader(request.headers.signature ?? '');
}

/** Re-signs a request with chosen parts (the keyId is not signed, so it can change freely). */
function resigned(request: IncomingRequest, changes: Partial<SignatureParams>): IncomingRequest {
  const params = { ...signatureParams(request), ...changes };
  const signingString = buildSigningString(params.headers, (name) => request.headers[name], request);
  const signature = changes.signature ?? identity.sign(signingString);
  return withHeaders(request, { signature: formatSignatureHeader({ ...params, signature }) });
}

const valid = signTestRequest(identity).incoming;

describe('verifySignedRequest accepts', () => {
  it('a request signed per the specification, reporting the certificate and signed headers', () => {
    const result = verify(valid);
    assert.ok(result.ok, result.ok ? '' : result.failure.message);
    assert.equal(result.certificate.serialNumber, new X509Certificate(tpp.certificatePem).serialNumber);
    assert.deepEqual(result.signedHeaders, ['date', 'digest', 'x-request-id', 'psu-id', 'tpp-redirect-uri']);
  });

  it('a GET with an empty body and its Digest', () => {
    const { incoming } = signTestRequest(identity, { method: 'GET', path: '/v1/accounts' });
    assert.equal(incoming.headers.digest, computeDigest(new Uint8Array()));
    assert.ok(verify(incoming).ok);
  });

  it('a SHA-512 Digest', () => {
    const { incoming } = signTestRequest(identity, { digestAlgorithm: 'SHA-512' });
    assert.match(incoming.headers.digest ?? '', /^SHA-512=/);
    assert.ok(verify(incoming).ok);
  });

  it('signed headers in any order, and (request-target) among them', () => {
    assert.ok(verify(resigned(valid, { headers: ['x-request-id', 'tpp-redirect-uri', 'digest', 'psu-id', 'date'] })).ok);
    assert.ok(
      verify(resigned(valid, { headers: ['(request-target)', 'date', 'digest', 'x-request-id', 'psu-id', 'tpp-redirect-uri'] })).ok,
    );
  });

  it('a keyId naming the certificate in other words: serial with colons in lower case, issuer reordered with S= and spaces', () => {
    const certificate = new X509Certificate(tpp.certificatePem);
    const serial = certificate.serialNumber.toLowerCase().match(/../g)?.join(':');
    assert.ok(verify(resigned(valid, { keyId: `SN=00:${serial},CA=C=NO, CN=xs2a-conformance Test CA, O=xs2a-conformance` })).ok);
  });

  it('the algorithm in upper case', () => {
    assert.ok(verify(resigned(valid, { algorithm: 'RSA-SHA256' })).ok);
  });

  it('an RFC 2047-wrapped Signature header (item 7)', () => {
    assert.ok(verify(withHeaders(valid, { signature: encodeRfc2047(valid.headers.signature ?? '') })).ok);
  });

  it('a certificate issued by a trusted CA when trust anchors are given', () => {
    assert.ok(verify(valid, { trustedCaPems: [tpp.certificatePem, ca.certificatePem] }).ok);
  });
});

describe('verifySignedRequest rejects (all 400)', () => {
  it('no Signature header: SIGNATURE_MISSING', () => {
    assertFailure(withHeaders(valid, { signature: undefined }), 'SIGNATURE_MISSING');
    assertFailure(withHeaders(valid, { signature: '  ' }), 'SIGNATURE_MISSING');
  });

  it('no TPP-Signature-Certificate: CERTIFICATE_MISSING', () => {
    assertFailure(withHeaders(valid, { 'tpp-signature-certificate': undefined }), 'CERTIFICATE_MISSING');
  });

  it('a certificate that is not base64 DER: CERTIFICATE_INVALID', () => {
    assertFailure(withHeaders(valid, { 'tpp-signature-certificate': 'not base64!' }), 'CERTIFICATE_INVALID', /not base64/);
    assertFailure(
      withHeaders(valid, { 'tpp-signature-certificate': tpp.certificatePem.replaceAll('\n', '') }),
      'CERTIFICATE_INVALID',
      /not base64/,
    );
    assertFailure(
      withHeaders(valid, { 'tpp-signature-certificate': Buffer.from('garbage').toString('base64') }),
      'CERTIFICATE_INVALID',
      /not a DER X\.509 certificate/,
    );
  });

  it('a certificate not issued by a trusted CA: CERTIFICATE_INVALID', () => {
    assertFailure(valid, 'CERTIFICATE_INVALID', /is not issued by a trusted CA/, { trustedCaPems: [tpp.certificatePem] });
  });

  it('a certificate outside its validity: CERTIFICATE_EXPIRED', () => {
    const certificate = new X509Certificate(tpp.certificatePem);
    const afterExpiry = new Date(Date.parse(certificate.validTo) + 1000);
    const beforeStart = new Date(Date.parse(certificate.validFrom) - 1000);
    assertFailure(valid, 'CERTIFICATE_EXPIRED', /expired at/, { now: afterExpiry });
    assertFailure(valid, 'CERTIFICATE_EXPIRED', /is not valid before/, { now: beforeStart });
  });

  it('an unparseable Signature header or one lacking algorithm, headers or signature: SIGNATURE_INVALID', () => {
    assertFailure(withHeaders(valid, { signature: 'garbage' }), 'SIGNATURE_INVALID', /malformed/);
    for (const part of ['algorithm', 'headers', 'signature']) {
      const value = (valid.headers.signature ?? '').replace(new RegExp(`,?${part}="[^"]*"`), '');
      assertFailure(withHeaders(valid, { signature: value }), 'SIGNATURE_INVALID', `the Signature header lacks the ${part} part`);
    }
  });

  it('no keyId part: KID_MISSING', () => {
    const value = (valid.headers.signature ?? '').replace(/keyId="[^"]*",/, '');
    assertFailure(withHeaders(valid, { signature: value }), 'KID_MISSING', 'the Signature header lacks the keyId part');
  });

  it('a malformed keyId, or one naming another serial or issuer: KID_INVALID', () => {
    assertFailure(resigned(valid, { keyId: 'Test' }), 'KID_INVALID', /not of the form SN=<serial>,CA=<issuer>/);
    assertFailure(
      resigned(valid, { keyId: 'SN=1234,CA=CN=xs2a-conformance Test CA,O=xs2a-conformance,C=NO' }),
      'KID_INVALID',
      /serial 1234 is not the serial/,
    );
    const serial = new X509Certificate(tpp.certificatePem).serialNumber;
    assertFailure(
      resigned(valid, { keyId: `SN=${serial},CA=CN=Other CA,O=xs2a-conformance,C=NO` }),
      'KID_INVALID',
      /issuer "CN=Other CA.*" is not the issuer/,
    );
  });

  it('an algorithm other than rsa-sha256: SIGNATURE_INVALID', () => {
    assertFailure(
      resigned(valid, { algorithm: 'hmac-sha256' }),
      'SIGNATURE_INVALID',
      'Signature algorithm "hmac-sha256" is not supported; only rsa-sha256 is',
    );
  });

  it('rsa-sha256 with a certificate whose key is not RSA: SIGNATURE_INVALID', () => {
    const ecPem = execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-nodes',
        '-keyout',
        '/dev/null',
        '-subj',
        '/CN=EC TPP',
        '-days',
        '1',
      ],
      { encoding: 'utf8' },
    );
    const ec = new X509Certificate(ecPem);
    const request = withHeaders(resigned(valid, { keyId: `SN=${ec.serialNumber},CA=CN=EC TPP` }), {
      'tpp-signature-certificate': ec.raw.toString('base64'),
    });
    // openssl makes the certificate valid from this very second.
    assertFailure(request, 'SIGNATURE_INVALID', "Signature algorithm rsa-sha256 does not match the certificate's ec key", {
      now: new Date(Date.now() + 1000),
    });
  });

  it('no Date, X-Request-ID or Digest: HTTP_HEADER_REQUIRED, even for a GET', () => {
    assertFailure(withHeaders(valid, { date: undefined }), 'HTTP_HEADER_REQUIRED', 'a signed request needs the Date header');
    assertFailure(
      withHeaders(valid, { 'x-request-id': undefined, digest: undefined }),
      'HTTP_HEADER_REQUIRED',
      'a signed request needs the X-Request-ID, Digest headers',
    );
    const get = signTestRequest(identity, { method: 'GET', path: '/v1/accounts' }).incoming;
    assertFailure(withHeaders(get, { digest: undefined }), 'HTTP_HEADER_REQUIRED', /Digest/);
  });

  it('a Date that is not an IMF-fixdate: FORMAT_ERROR', () => {
    for (const date of [
      'Monday, 02-Jun-25 10:00:00 GMT',
      'Mon Jun  2 10:00:00 2025',
      '2025-06-02T10:00:00Z',
      'Tue, 02 Jun 2025 10:00:00 GMT',
      'Mon, 31 Feb 2025 10:00:00 GMT',
      'Mon, 02 Jun 2025 10:00:00 +0000',
    ]) {
      assertFailure(resigned(withHeaders(valid, { date }), {}), 'FORMAT_ERROR', /is not an RFC 7231 IMF-fixdate/);
    }
  });

  it('a Date nothing reads: FORMAT_ERROR, unless the policy requires neither a Date nor its form (then it is none)', () => {
    const unreadable = resigned(withHeaders(valid, { date: 'garbage' }), {});
    assertFailure(unreadable, 'FORMAT_ERROR', /is not an RFC 7231 IMF-fixdate/, {
      policy: { ...STRICT_VERIFICATION, requiresHttpDate: false },
    });
    assertFailure(unreadable, 'FORMAT_ERROR', /is not an RFC 7231 IMF-fixdate/, {
      policy: { ...STRICT_VERIFICATION, requiresDate: false },
    });
    assert.ok(verify(unreadable, { policy: { ...STRICT_VERIFICATION, requiresDate: false, requiresHttpDate: false } }).ok);
  });

  it('a Date more than 60 s from the server clock: TIMESTAMP_INVALID; exactly 60 s is fine', () => {
    const at = (offsetMs: number) => ({ now: new Date(NOW.getTime() + offsetMs) });
    assert.ok(verify(valid, at(60_000)).ok);
    assert.ok(verify(valid, at(-60_000)).ok);
    // Whole-second resolution: 60.999 s later is still second 60.
    assert.ok(verify(valid, at(60_999)).ok);
    assertFailure(valid, 'TIMESTAMP_INVALID', 'Date header is 61 s behind the server clock; at most 60 s allowed', at(61_000));
    assertFailure(valid, 'TIMESTAMP_INVALID', 'Date header is 61 s ahead of the server clock; at most 60 s allowed', at(-61_000));
  });

  it('a Digest that does not match the body: SIGNATURE_INVALID', () => {
    assertFailure(
      { ...valid, body: Buffer.concat([valid.body, Buffer.from(' ')]) },
      'SIGNATURE_INVALID',
      /Digest SHA-256 does not match the body/,
    );
  });

  it('a signature not covering date, digest, x-request-id, or a present psu-id, psu-corporate-id or tpp-redirect-uri: SIGNATURE_INVALID naming it', () => {
    const all = ['date', 'digest', 'x-request-id', 'psu-id', 'tpp-redirect-uri'];
    for (const left of all) {
      assertFailure(
        resigned(valid, { headers: all.filter((name) => name !== left) }),
        'SIGNATURE_INVALID',
        new RegExp(`does not cover the ${left} header`),
      );
    }
    const corporate = signTestRequest(identity, { headers: { 'PSU-ID': 'p', 'PSU-Corporate-ID': 'c' } }).incoming;
    assertFailure(
      resigned(corporate, { headers: ['date', 'digest', 'x-request-id', 'psu-id'] }),
      'SIGNATURE_INVALID',
      /does not cover the psu-corporate-id header/,
    );
  });

  it('a headers part naming a header the request lacks: SIGNATURE_INVALID', () => {
    const corporate = signTestRequest(identity, { headers: { 'PSU-Corporate-ID': 'c' } }).incoming;
    assertFailure(
      withHeaders(corporate, { 'psu-corporate-id': undefined }),
      'SIGNATURE_INVALID',
      'the Signature headers part names psu-corporate-id, which the request does not carry',
    );
  });

  it('a signature that does not verify: SIGNATURE_INVALID', () => {
    assertFailure(
      withHeaders(valid, { 'x-request-id': 'another-id' }),
      'SIGNATURE_INVALID',
      /does not verify with the key of TPP-Signature-Certificate/,
    );
    assertFailure(resigned(valid, { signature: Buffer.alloc(256, 1).toString('base64') }), 'SIGNATURE_INVALID', /does not verify/);
    assertFailure(resigned(valid, { signature: 'not*base64' }), 'SIGNATURE_INVALID', 'the signature part is not base64');
  });

  it('reports the most basic problem first when there are several', () => {
    assertFailure(
      withHeaders(valid, { signature: undefined, 'tpp-signature-certificate': undefined, date: undefined }),
      'SIGNATURE_MISSING',
    );
    assertFailure(withHeaders(valid, { 'tpp-signature-certificate': undefined, date: undefined }), 'CERTIFICATE_MISSING');
  });
});
