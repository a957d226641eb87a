import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  buildSigningString,
  encodeRfc2047,
  formatSignatureHeader,
  parseSignatureHeader,
  SignatureFormatError,
  SigningStringError,
} from '../../lib/httpsig/index.js';
import type { SignatureParams } from '../../lib/httpsig/index.js';

const params: SignatureParams = {
  keyId: 'SN=9FA1,CA=CN=D-TRUST CA 2-1 2015,O=D-Trust GmbH,C=DE',
  algorithm: 'rsa-sha256',
  headers: ['digest', 'x-request-id', 'date'],
  signature: 'c2lnbmF0dXJl',
};

describe('Signature header (Authentication item 5)', () => {
  it('writes keyId, algorithm, headers, signature in that order', () => {
    assert.equal(
      formatSignatureHeader(params),
      'keyId="SN=9FA1,CA=CN=D-TRUST CA 2-1 2015,O=D-Trust GmbH,C=DE",algorithm="rsa-sha256",headers="digest x-request-id date",signature="c2lnbmF0dXJl"',
    );
  });

  it('reads back what it writes, commas inside keyId included', () => {
    assert.deepEqual(parseSignatureHeader(formatSignatureHeader(params)), params);
  });

  it('reads parts in any order, with spaces after commas, and lower-cases header names', () => {
    const value =
      'signature="c2lnbmF0dXJl", headers="Digest X-Request-ID Date", algorithm="rsa-sha256", keyId="SN=9FA1,CA=CN=D-TRUST CA 2-1 2015,O=D-Trust GmbH,C=DE"';
    assert.deepEqual(parseSignatureHeader(value), params);
  });

  it('ignores unknown parameters (draft-cavage 2.1)', () => {
    assert.deepEqual(parseSignatureHeader(`${formatSignatureHeader(params)},created=1402170695`), params);
  });

  it('decodes an RFC 2047 wrapped value (item 7)', () => {
    const nonAscii = { ...params, keyId: 'SN=1,CA=O=Bank Ø AS,C=NO' };
    assert.deepEqual(parseSignatureHeader(encodeRfc2047(formatSignatureHeader(nonAscii))), nonAscii);
    const latin1 = `=?iso-8859-1?B?${Buffer.from(formatSignatureHeader(nonAscii), 'latin1').toString('base64')}?=`;
    assert.deepEqual(parseSignatureHeader(latin1), nonAscii);
  });

  it('names the missing parts', () => {
    assert.throws(
      () => parseSignatureHeader('keyId="x",headers="date"'),
      (error: unknown) =>
        error instanceof SignatureFormatError &&
        error.message === 'the Signature header lacks the algorithm, signature parts' &&
        error.missingParts.join() === 'algorithm,signature',
    );
    assert.throws(
      () => parseSignatureHeader('keyId="",algorithm="rsa-sha256",headers="date",signature="c2ln"'),
      (error: unknown) => error instanceof SignatureFormatError && error.missingParts.join() === 'keyId',
    );
  });

  it('rejects malformed values with a message', () => {
    for (const value of ['garbage', 'keyId="unterminated', 'keyId="a" algorithm="b"', 'keyId="a",keyId="b"', '=?utf-8?B?!!?=']) {
      assert.throws(() => parseSignatureHeader(value), SignatureFormatError, value);
    }
  });

  it('refuses to write a value containing a double quote', () => {
    assert.throws(() => formatSignatureHeader({ ...params, keyId: 'SN=1,CA=CN="x"' }), /keyId part cannot contain a double quote/);
  });
});

describe('signing string (Authentication item 6)', () => {
  const headers: Record<string, string> = {
    date: 'Sun, 05 Jan 2014 21:31:40 GMT',
    'x-request-id': ' 99391c7e-ad88-49ec-a2ad-99ddcb1f7721 ',
  };

  it('is "name: value" lines in the listed order, values trimmed', () => {
    assert.equal(
      buildSigningString(['x-request-id', 'date'], (name) => headers[name]),
      'x-request-id: 99391c7e-ad88-49ec-a2ad-99ddcb1f7721\ndate: Sun, 05 Jan 2014 21:31:40 GMT',
    );
  });

  it('throws, naming the header, when a listed header is absent', () => {
    assert.throws(
      () => buildSigningString(['date', 'digest'], (name) => headers[name]),
      (error: unknown) => error instanceof SigningStringError && error.headerName === 'digest',
    );
  });

  it('needs a request target to write (request-target)', () => {
    assert.throws(() => buildSigningString(['(request-target)'], () => undefined), SigningStringError);
    assert.equal(
      buildSigningString(['(request-target)'], () => undefined, { method: 'GET', path: '/v1/accounts?withBalance=true' }),
      '(request-target): get /v1/accounts?withBalance=true',
    );
  });
});
