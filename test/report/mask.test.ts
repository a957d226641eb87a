import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { Masker, maskError, visibleControls } from '../../lib/report/mask.js';

const NATIONAL_ID = '13039319955';
const PSU_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';
const KEY = 'test key';

describe('masking personal data', () => {
  test('a national identity number is masked whole: no digit of it is kept (the last two are check digits)', () => {
    const masker = new Masker(true, [NATIONAL_ID], KEY);
    const masked = masker.text('{"customerNumber":"13039319955"}');
    assert.equal(masked, `{"customerNumber":"${masker.tag(NATIONAL_ID)}"}`);
    assert.match(masked, /^\{"customerNumber":"\[masked:[0-9a-f]{6}\]"\}$/);
  });

  test('a national identity number written with separators is masked too', () => {
    const masker = new Masker(true, [NATIONAL_ID], KEY);
    for (const written of ['130393 19955', '130393-19955', '13.03.93 199 55', '130393\u00a019955']) {
      const masked = masker.text(`born ${written}.`);
      assert.equal(masked, `born ${masker.tag(NATIONAL_ID)}.`, written);
    }
  });

  test('psu-id and psu-corporate-id are masked by name in every escaping of a query string', () => {
    const masker = new Masker(true, [], KEY);
    const tag = masker.tag(PSU_ID);
    const forms = [
      [`https://tpp.example/cb?psu-id=${PSU_ID}&context=PRIVATE`, `https://tpp.example/cb?psu-id=${tag}&context=PRIVATE`],
      [`<a href="/cb?x=1&amp;psu-id=${PSU_ID}&amp;context=PRIVATE">`, `<a href="/cb?x=1&amp;psu-id=${tag}&amp;context=PRIVATE">`],
      [
        `"url":"https://tpp.example/cb?x=1\\u0026psu-id=${PSU_ID}\\u0026context=PRIVATE"`,
        `"url":"https://tpp.example/cb?x=1\\u0026psu-id=${tag}\\u0026context=PRIVATE"`,
      ],
      [
        `redirect_uri=https%3A%2F%2Ftpp%2Fcb%3Fx%3D1%26psu-id%3D${PSU_ID}%26context%3DPRIVATE`,
        `redirect_uri=https%3A%2F%2Ftpp%2Fcb%3Fx%3D1%26psu-id%3D${tag}%26context%3DPRIVATE`,
      ],
      [`{"PSU-ID": "${PSU_ID}"}`, `{"PSU-ID": "${tag}"}`],
      [`PSU-Corporate-ID: ${PSU_ID}\nnext`, `PSU-Corporate-ID: ${tag}\nnext`],
    ] as const;
    for (const [input, expected] of forms) assert.equal(masker.text(input), expected);
  });

  test('PSU headers are masked whole; the same identifier gets the same tag everywhere, another key another tag', () => {
    const masker = new Masker(true, [], KEY);
    assert.deepEqual(masker.headers({ 'PSU-ID': PSU_ID, 'X-Request-ID': 'r1' }), { 'PSU-ID': masker.tag(PSU_ID), 'X-Request-ID': 'r1' });
    masker.add(PSU_ID);
    assert.equal(masker.text(`id ${PSU_ID}`), `id ${masker.tag(PSU_ID)}`);
    assert.notEqual(new Masker(true, [], 'another key').tag(PSU_ID), masker.tag(PSU_ID));
  });

  test('a learnt secret is masked in its URL-encoded, form-encoded, HTML-escaped and JSON-escaped forms', () => {
    const secret = 'p&ss "w0rd" ø';
    const masker = new Masker(true, [secret], KEY);
    const tag = masker.tag(secret);
    for (const form of [
      secret,
      encodeURIComponent(secret),
      encodeURIComponent(secret).replace(/%20/g, '+'),
      'p&amp;ss &quot;w0rd&quot; ø',
      JSON.stringify(secret).slice(1, -1),
    ]) {
      assert.equal(masker.text(`<${form}>`), `<${tag}>`, form);
    }
  });

  test('masking twice changes nothing (the reporter masks what the fixtures masked)', () => {
    const masker = new Masker(true, [NATIONAL_ID], KEY);
    const once = masker.text(`?psu-id=${PSU_ID}&n=${NATIONAL_ID}`);
    assert.equal(masker.text(once), once);
  });

  test('--unmasked leaves everything as it is', () => {
    const masker = new Masker(false, [NATIONAL_ID]);
    assert.equal(masker.text(`${NATIONAL_ID}?psu-id=${PSU_ID}`), `${NATIONAL_ID}?psu-id=${PSU_ID}`);
  });

  test('a malformed % escape after psu-id= is masked, not thrown at (it hid a real failure)', () => {
    const masker = new Masker(true, [], KEY);
    assert.equal(masker.text('?psu-id=%E0%A4%A&x=1'), `?psu-id=${masker.tag('%E0%A4%A')}&x=1`);
  });

  test('it never throws, and a planted secret never survives, whatever surrounds it (property)', () => {
    const secretArbitrary = fc.oneof(
      fc.stringMatching(/^\d{11}$/),
      fc.uuid(),
      fc.string({ unit: 'grapheme', minLength: 4, maxLength: 24 }),
    );
    const escape = fc.constantFrom<(s: string) => string>(
      (s) => s,
      encodeURIComponent,
      (s) => JSON.stringify(s).slice(1, -1),
      (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;'),
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), secretArbitrary, escape, fc.string({ unit: 'binary' }), (before, secret, form, after) => {
        const masker = new Masker(true, [secret], KEY);
        const output = masker.text(`${before}${form(secret)}${after}`);
        // The secret may survive only where the text around it already held it (it is then masked there too).
        return !output.includes(secret) || `${before}${after}`.includes(secret.slice(0, 4));
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (prefix, value) => {
        const masker = new Masker(true, [value], KEY);
        masker.text(`${prefix}?psu-id=${value}&psu-corporate-id=%${value}`);
        masker.display(value);
        masker.headers({ 'PSU-ID': value, x: value });
        return true;
      }),
      { numRuns: 2000 },
    );
  });
});

describe('text for a person to read', () => {
  test('control characters a bank sends are shown, not obeyed; tabs and line ends stay', () => {
    assert.equal(visibleControls('a\u001b[2Jb\rc\td\ne\u202e'), 'a\\u{1b}[2Jb\\u{d}c\td\ne\\u{202e}');
  });

  test('an error on its way out is masked in message and stack, keeping its type', () => {
    class ScaTrouble extends Error {}
    const masker = new Masker(true, [NATIONAL_ID], KEY);
    const error = new ScaTrouble(`login of ${NATIONAL_ID} failed at /cb?psu-id=${PSU_ID}\u001b[31m`);
    const masked = maskError(error, masker);
    assert.ok(masked instanceof ScaTrouble);
    for (const text of [masked.message, masked.stack ?? '']) {
      assert.ok(!text.includes(NATIONAL_ID) && !text.includes(PSU_ID) && !text.includes('\u001b'), text);
    }
  });

  test('the gaps of issue 35 (L6): a learnt psu-id in capitals, a header value with spaces, JSON inside JSON, an HTML-entity =, identifiers nobody configured', () => {
    const masker = new Masker(true, [], KEY);
    masker.add(PSU_ID);
    assert.equal(masker.text(`id ${PSU_ID.toUpperCase()}`), `id ${masker.tag(PSU_ID)}`);
    assert.equal(masker.text('Authorization: Bearer abc def\nnext'), `Authorization: ${masker.tag('Bearer abc def')}\nnext`);
    assert.equal(masker.text(`curl -H 'Cookie: a=1; b=2' -H 'X: y'`), `curl -H 'Cookie: ${masker.tag('a=1; b=2')}' -H 'X: y'`);
    assert.doesNotMatch(
      masker.text(JSON.stringify({ body: JSON.stringify({ 'PSU-ID': 'f81d4fae-7dec-11d0-a765-00a0c91e6bf6' }) })),
      /f81d4fae/,
    );
    assert.doesNotMatch(masker.text('<a href="/cb?x=1&amp;psu-id&#61;f81d4fae-7dec-11d0-a765-00a0c91e6bf6">'), /f81d4fae/);
    const unconfigured = masker.text(
      'customers 12085592767 and 120855 92767, account NO93 8601 1117 947 and no9386011117947; not 12345678901',
    );
    assert.equal(
      unconfigured,
      `customers ${masker.tag('12085592767')} and ${masker.tag('12085592767')}, account ${masker.tag('NO9386011117947')} and ${masker.tag('NO9386011117947')}; not 12345678901`,
    );
  });

  test('a form a PSU posts is masked field by field; the enumerated PSU headers stay readable', () => {
    const masker = new Masker(true, [], KEY);
    const { body, headers } = masker.message(
      { 'Content-Type': 'application/x-www-form-urlencoded', 'PSU-Context': 'PRIVATE', 'PSU-IP-Address': '203.0.113.7' },
      'user=anything&pin=1234&go=',
    );
    assert.equal(body, `user=${masker.tag('anything')}&pin=${masker.tag('1234')}&go=`);
    assert.equal(headers['PSU-Context'], 'PRIVATE');
    assert.equal(headers['PSU-IP-Address'], masker.tag('203.0.113.7'));
  });
});
