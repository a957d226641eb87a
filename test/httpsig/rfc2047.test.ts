import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeRfc2047, encodeRfc2047, needsRfc2047, Rfc2047Error } from '../../lib/httpsig/index.js';

describe('RFC 2047 encoded-words (Authentication item 7)', () => {
  it('needs encoding only beyond printable ASCII', () => {
    assert.equal(needsRfc2047('keyId="SN=1,CA=CN=Test CA",algorithm="rsa-sha256"'), false);
    assert.equal(needsRfc2047('CA=O=Bank Ø AS'), true);
    assert.equal(needsRfc2047('line\nbreak'), true);
  });

  it('encodes as one UTF-8 B word and decodes back', () => {
    const text = 'keyId="SN=1A,CA=CN=Bank Ø AS,C=NO"';
    const encoded = encodeRfc2047(text);
    assert.equal(encoded, `=?utf-8?B?${Buffer.from(text, 'utf8').toString('base64')}?=`);
    assert.equal(needsRfc2047(encoded), false);
    assert.equal(decodeRfc2047(encoded), text);
  });

  it('decodes ISO-8859-1 in B and Q encodings, charset case-insensitive', () => {
    assert.equal(decodeRfc2047(`=?ISO-8859-1?B?${Buffer.from('Bank Ø', 'latin1').toString('base64')}?=`), 'Bank Ø');
    assert.equal(decodeRfc2047('=?iso-8859-1?Q?Bank_=D8_AS?='), 'Bank Ø AS');
    assert.equal(decodeRfc2047('=?utf-8?q?Bank_=C3=98?='), 'Bank Ø');
  });

  it('joins adjacent encoded-words, dropping the whitespace between them (RFC 2047 6.2)', () => {
    assert.equal(decodeRfc2047('=?utf-8?Q?Bank_?= =?utf-8?B?w5g=?='), 'Bank Ø');
  });

  it('leaves a value that is not encoded alone', () => {
    assert.equal(decodeRfc2047('keyId="x"'), 'keyId="x"');
  });

  it('rejects malformed words and unknown charsets', () => {
    assert.throws(() => decodeRfc2047('=?utf-8?B?not base64?='), Rfc2047Error);
    assert.throws(() => decodeRfc2047('=?utf-8?X?abc?='), Rfc2047Error);
    assert.throws(() => decodeRfc2047('=?koi8-r?B?YWJj?='), /unsupported RFC 2047 charset "koi8-r"/);
    assert.throws(() => decodeRfc2047('=?utf-8?Q?bad=Z1?='), Rfc2047Error);
  });
});
