import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Masker, maskValue } from '../../lib/report/mask.js';

describe('masking personal data', () => {
  test('national identity numbers are masked wherever they appear, keeping the last four characters', () => {
    const masker = new Masker(true, ['13039319955']);
    assert.equal(masker.text('{"customerNumber":"13039319955"}'), '{"customerNumber":"*******9955"}');
  });

  test('psu-id in a redirect URL and PSU headers are always masked', () => {
    const masker = new Masker(true);
    const url = 'https://tpp.example/cb?psu-id=0f8fad5b-d9cb-469f-a165-70867728950e&context=PRIVATE';
    assert.equal(masker.text(url), `https://tpp.example/cb?psu-id=${maskValue('0f8fad5b-d9cb-469f-a165-70867728950e')}&context=PRIVATE`);
    assert.deepEqual(masker.headers({ 'PSU-ID': 'abcdef123456', 'X-Request-ID': 'r1' }), { 'PSU-ID': '********3456', 'X-Request-ID': 'r1' });
  });

  test('a learnt identifier is masked in text seen later', () => {
    const masker = new Masker(true);
    masker.add('0f8fad5b-d9cb-469f-a165-70867728950e');
    assert.ok(!masker.text('id 0f8fad5b-d9cb-469f-a165-70867728950e').includes('0f8fad5b'));
  });

  test('--unmasked leaves everything as it is', () => {
    const masker = new Masker(false, ['13039319955']);
    assert.equal(masker.text('13039319955'), '13039319955');
  });
});
