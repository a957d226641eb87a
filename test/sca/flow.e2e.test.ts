import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { expand, globToRegExp, redirectMatcher } from '../../lib/sca/flow.js';
import { execFileSync } from 'node:child_process';
import { BrowserNotFoundError, BrowserTrustError, chromiumArgs, findChromium, trustBankCas } from '../../lib/sca/browser.js';
import { generateCertificateAuthority } from '../../lib/pki/index.js';
import { readZip, rewriteZip, writeZip } from '../../lib/sca/zip-rewrite.js';
import { scratchDir } from '../support/scratch.js';

describe('SCA step language', () => {
  test('URL globs: ** spans slashes, * does not', () => {
    assert.ok(globToRegExp('**/sca/*').test('https://bank.example/sca/abc'));
    assert.ok(!globToRegExp('**/sca/*').test('https://bank.example/sca/abc/consent'));
    assert.ok(globToRegExp('**/login**').test('https://bank.example/auth/login?x=1'));
    assert.ok(!globToRegExp('https://a.example/x.y').test('https://a.example/xzy'));
  });

  test('placeholders take values from the PSU; an unknown one is an error naming it', () => {
    assert.equal(expand('{{psu.nationalId}}', { psu: { nationalId: '13039319955' } }), '13039319955');
    assert.throws(() => expand('{{psu.pin}}', { psu: {} }), /\{\{psu\.pin\}\}/);
  });

  test('the redirect is recognised by origin and path, whatever query the bank adds', () => {
    const isRedirect = redirectMatcher('https://tpp.example/callback?state=1');
    assert.ok(isRedirect('https://tpp.example/callback?psu-id=x'));
    assert.ok(!isRedirect('https://tpp.example/other'));
    assert.ok(!isRedirect('https://evil.example/callback'));
  });
});

describe('finding Chromium', () => {
  test('CHROMIUM_PATH wins when it exists, then the system candidates in order', () => {
    assert.equal(findChromium({ CHROMIUM_PATH: process.execPath }), process.execPath);
    assert.equal(findChromium({}, undefined, ['/nonexistent/a', process.execPath]), process.execPath);
  });

  test('nothing found: an error that says what to install', () => {
    assert.throws(
      () => findChromium({ CHROMIUM_PATH: '/nonexistent/chrome' }, '/nonexistent/playwright-chrome', ['/nonexistent/system-chrome']),
      (error: unknown) => {
        assert.ok(error instanceof BrowserNotFoundError);
        assert.match(error.message, /apt-get install -y chromium-headless-shell/);
        assert.match(error.message, /CHROMIUM_PATH=\/nonexistent\/chrome \(missing\)/);
        assert.match(error.message, /\/nonexistent\/system-chrome/);
        return true;
      },
    );
  });
});

describe("the browser's arguments and trust", () => {
  test('the sandbox is off only as root (Chromium will not start sandboxed as root); no certificate error is ever ignored', () => {
    assert.ok(chromiumArgs(0).includes('--no-sandbox'));
    assert.ok(!chromiumArgs(1000).includes('--no-sandbox'));
    for (const args of [chromiumArgs(0), chromiumArgs(1000)])
      assert.deepEqual(
        args.filter((arg) => /certificate|ssl|insecure/i.test(arg)),
        [],
      );
  });

  test("the browser's own home trusts exactly the bank's CAs, as TLS issuers only", () => {
    const home = scratchDir('browser-trust-');
    const first = generateCertificateAuthority({ commonName: 'Bank CA one' });
    const second = generateCertificateAuthority({ commonName: 'Bank CA two' });
    trustBankCas(home, [first.certificatePem + second.certificatePem, first.certificatePem]);
    const listed = execFileSync('certutil', ['-L', '-d', `sql:${join(home, '.pki', 'nssdb')}`], { encoding: 'utf8' });
    const trusted = listed
      .split('\n')
      .filter((line) => line.startsWith('bank-ca-'))
      .map((line) => line.replace(/\s+/g, ' ').trim());
    assert.deepEqual(trusted, ['bank-ca-0 C,,', 'bank-ca-1 C,,']);
  });

  test('without certutil: an error that says what to install', () => {
    const ca = generateCertificateAuthority({ commonName: 'Bank CA' });
    assert.throws(
      () => trustBankCas(scratchDir('browser-trust-'), [ca.certificatePem], '/nonexistent/certutil'),
      (error: unknown) => {
        assert.ok(error instanceof BrowserTrustError);
        assert.match(error.message, /apt-get install -y libnss3-tools/);
        return true;
      },
    );
  });
});

describe('rewriting a zip (masking a Playwright trace)', () => {
  test('every entry is transformed, names and other bytes kept, and the result reads back', () => {
    const path = join(scratchDir('zip-rewrite-'), 'trace.zip');
    const binary = Buffer.from([0, 255, 1, 128, 0x50, 0x4b, 0x05, 0x06]);
    writeZip(
      path,
      new Map([
        ['trace.trace', Buffer.from('{"value":"13039319955"}')],
        ['resources/x.dat', binary],
      ]),
    );
    rewriteZip(path, (_name, content) => Buffer.from(content.toString('latin1').replaceAll('13039319955', '*******9955'), 'latin1'));
    const entries = readZip(path);
    assert.deepEqual([...entries.keys()], ['trace.trace', 'resources/x.dat']);
    assert.equal(entries.get('trace.trace')?.toString(), '{"value":"*******9955"}');
    assert.deepEqual(entries.get('resources/x.dat'), binary);
  });
});
