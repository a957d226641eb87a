import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { checkDigest, computeDigest } from '../../lib/httpsig/index.js';

const body = Buffer.from('{"hello": "world"}');

describe('computeDigest', () => {
  it('is SHA-256 over the exact bytes by default (the draft-cavage vector)', () => {
    assert.equal(computeDigest(body), 'SHA-256=X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=');
  });

  it('hashes a string as UTF-8', () => {
    assert.equal(computeDigest('{"name":"Ærlig Østby"}'), computeDigest(Buffer.from('{"name":"Ærlig Østby"}', 'utf8')));
  });

  it('supports SHA-512', () => {
    assert.equal(computeDigest(body, 'SHA-512'), `SHA-512=${createHash('sha512').update(body).digest('base64')}`);
  });

  it('digests an empty body (a GET carries Digest too)', () => {
    assert.equal(computeDigest(new Uint8Array()), 'SHA-256=47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=');
  });
});

describe('checkDigest', () => {
  it('accepts SHA-256 and SHA-512 digests of the body', () => {
    assert.deepEqual(checkDigest(computeDigest(body), body), { ok: true });
    assert.deepEqual(checkDigest(computeDigest(body, 'SHA-512'), body), { ok: true });
  });

  it('takes the algorithm token case-insensitively', () => {
    assert.deepEqual(checkDigest(computeDigest(body).replace('SHA-256', 'sha-256'), body), { ok: true });
  });

  it('accepts several entries when every supported one matches, ignoring unknown algorithms', () => {
    assert.deepEqual(checkDigest(`MD5=abc, ${computeDigest(body, 'SHA-512')}`, body), { ok: true });
  });

  it('rejects a digest of other bytes, saying what it expected', () => {
    const result = checkDigest(computeDigest(`${body.toString()} `), body);
    assert.equal(result.ok, false);
    assert.match(!result.ok ? result.reason : '', /does not match the body \(18 bytes\).*X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=/);
  });

  it('rejects unsupported algorithms, malformed entries and empty values', () => {
    for (const value of ['MD5=XrY7u+Ae7tCTyyK7j1rNww==', 'SHA-256', 'SHA-256=not base64!', '', ' , ']) {
      assert.equal(checkDigest(value, body).ok, false, value);
    }
  });
});
