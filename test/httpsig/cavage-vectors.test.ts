// draft-cavage-http-signatures appendix C: our signing string plus node:crypto
// must reproduce the published signatures exactly, and verification must accept them.
import assert from 'node:assert/strict';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { buildSigningString, checkDigest, formatSignatureHeader, signRsaSha256, verifyRsaSha256 } from '../../lib/httpsig/index.js';
import { joyent } from './joyent.js';

interface Vectors {
  keyId: string;
  algorithm: string;
  request: { method: string; path: string; headers: Record<string, string>; body: string };
  cases: { headers: string[]; signature: string }[];
}

const fixtures = new URL('../fixtures/cavage/', import.meta.url);
const vectors = JSON.parse(readFileSync(new URL('vectors.json', fixtures), 'utf8')) as Vectors;
const privateKey = createPrivateKey(readFileSync(new URL('test-key.pem', fixtures), 'utf8'));
const publicKey = createPublicKey(privateKey);
const { request } = vectors;
const signingStringFor = (headers: string[]): string =>
  buildSigningString(headers, (name) => request.headers[name], { method: request.method, path: request.path });

describe('draft-cavage appendix C test vectors', () => {
  for (const vector of vectors.cases) {
    const label = vector.headers.join(' ');

    it(`reproduces the signature over "${label}"`, () => {
      assert.equal(signRsaSha256(signingStringFor(vector.headers), privateKey), vector.signature);
    });

    it(`verifies the published signature over "${label}"`, () => {
      assert.equal(verifyRsaSha256(signingStringFor(vector.headers), vector.signature, publicKey), true);
    });

    it(`agrees with Joyent's http-signature on "${label}"`, () => {
      const signature = formatSignatureHeader({
        keyId: vectors.keyId,
        algorithm: vectors.algorithm,
        headers: vector.headers,
        signature: vector.signature,
      });
      const parsed = joyent.parseRequest(
        { method: request.method, url: request.path, httpVersion: '1.1', headers: { ...request.headers, signature } },
        // The vectors are from 2014: do not hold their Date against them.
        { clockSkew: Number.MAX_SAFE_INTEGER, headers: vector.headers },
      );
      assert.equal(parsed.signingString, signingStringFor(vector.headers));
      assert.equal(joyent.verifySignature(parsed, publicKey.export({ type: 'spki', format: 'pem' }).toString()), true);
    });
  }

  it('writes the (request-target) line as the draft does', () => {
    assert.equal(signingStringFor(['(request-target)', 'host']), '(request-target): post /foo?param=value&pet=dog\nhost: example.com');
  });

  it('the Digest of the vector request matches its body', () => {
    assert.deepEqual(checkDigest(request.headers.digest ?? '', Buffer.from(request.body)), { ok: true });
  });
});
