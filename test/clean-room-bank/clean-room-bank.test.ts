// Smoke test: starts the clean-room bank in process with certificates made by openssl in a
// temporary folder, then checks that a correctly signed GET /v1/accounts is answered 401 with
// an scaRedirect link and that an unsigned one is answered 400 with the specification's error body.
//
// Run: node --import tsx --test test/clean-room-bank/clean-room-bank.test.ts

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { X509Certificate, createHash, createSign, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startCleanRoomBank, type CleanRoomBank } from './index.js';

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

describe('clean-room bank', () => {
  let dir = '';
  let bank: CleanRoomBank | undefined;
  let serverCert = '';
  let tppKey = '';
  let tppCertB64 = '';
  let keyId = '';

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'clean-room-bank-'));
    const openssl = (...args: string[]): void => {
      execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
    };
    openssl(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'server.key',
      '-out',
      'server.pem',
      '-days',
      '2',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    );
    openssl(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'tpp.key',
      '-out',
      'tpp.pem',
      '-days',
      '2',
      '-subj',
      '/C=NO/O=Smoke Test TPP AS/CN=tpp.smoke.test',
    );
    serverCert = readFileSync(join(dir, 'server.pem'), 'utf8');
    tppKey = readFileSync(join(dir, 'tpp.key'), 'utf8');
    const tppPem = readFileSync(join(dir, 'tpp.pem'), 'utf8');
    const x509 = new X509Certificate(tppPem);
    tppCertB64 = tppPem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
    keyId = `SN=${x509.serialNumber},CA=${x509.issuer.split('\n').reverse().join(',')}`;
    bank = await startCleanRoomBank({ cert: serverCert, key: readFileSync(join(dir, 'server.key'), 'utf8') });
  });

  after(async () => {
    await bank?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  function call(path: string, signed: boolean): Promise<Answer> {
    const url = new URL(path, bank?.url);
    const headers: Record<string, string> = {
      'X-Request-ID': randomUUID(),
      Date: new Date().toUTCString(),
      'TPP-Session-ID': 'smoke-session',
      'TPP-Redirect-URI': 'https://tpp.smoke.test/callback',
      'PSU-IP-Address': '192.0.2.10',
    };
    if (signed) {
      headers.Digest = 'SHA-256=' + createHash('sha256').update('').digest('base64');
      headers['TPP-Signature-Certificate'] = tppCertB64;
      const names = ['date', 'digest', 'x-request-id', 'tpp-redirect-uri'];
      const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
      const signingString = names.map((n) => `${n}: ${lower[n] ?? ''}`).join('\n');
      const signature = createSign('RSA-SHA256').update(signingString).sign(tppKey, 'base64');
      headers.Signature = `keyId="${keyId}",algorithm="rsa-sha256",headers="${names.join(' ')}",signature="${signature}"`;
    }
    return new Promise((resolve, reject) => {
      const req = request(url, { method: 'GET', headers, ca: serverCert }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          try {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> });
          } catch (e) {
            reject(e instanceof Error ? e : new Error(String(e)));
          }
        });
      });
      req.on('error', reject);
      req.end();
    });
  }

  test('a correctly signed GET /v1/accounts gets 401 with an scaRedirect link', async () => {
    const { status, body } = await call('/v1/accounts', true);
    assert.equal(status, 401);
    assert.equal(body.status, 401);
    assert.equal(typeof body.code, 'string');
    const links = body._links as Record<string, { href: string; verbs: string[] }> | undefined;
    assert.ok(links?.scaRedirect, 'scaRedirect link present');
    assert.ok(links.scaRedirect.href.startsWith(`${bank?.url ?? ''}/sca/`));
    assert.deepEqual(links.scaRedirect.verbs, ['GET']);
  });

  test('an unsigned GET /v1/accounts gets 400 with the error body of the specification', async () => {
    const { status, body } = await call('/v1/accounts', false);
    assert.equal(status, 400);
    assert.deepEqual(Object.keys(body).sort(), ['code', 'id', 'message', 'status', 'system']);
    assert.equal(typeof body.id, 'string');
    assert.equal(typeof body.system, 'string');
    assert.equal(body.status, 400);
    assert.equal(body.code, 'SIGNATURE_MISSING');
    assert.equal(typeof body.message, 'string');
  });
});
