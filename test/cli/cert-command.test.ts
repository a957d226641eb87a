/**
 * `xs2a-conformance cert`: a test certificate with the PSD2 roles and organisation id asked for, from a test
 * CA it makes or from the CA given, its keys 0600; a request signed with it verifies against that CA as a
 * trust anchor; what it cannot do is a usage error (exit 2) saying why.
 */
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { keyIdOf, verifySignedRequest } from '../../lib/httpsig/index.js';
import { organizationIdentifierOf, readPsd2QcStatement } from '../../lib/pki/index.js';
import { loadTppIdentity } from '../../lib/tpp/index.js';
import { runInProcess } from '../support/in-process-cli.js';
import { scratchDir } from '../support/scratch.js';
import { signTestRequest } from '../tpp/signed-request.js';

const cert = (args: string[]) => runInProcess(['cert', ...args]);

const mode = (file: string) => statSync(file).mode & 0o777;

describe('xs2a-conformance cert', () => {
  const dir = scratchDir('xs2a-cert-');
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('a certificate with the roles and organisation id asked for, from a new test CA written beside it, keys 0600', async () => {
    const run = await cert([
      '--roles',
      'PSP_AI,psp_pi',
      '--organization-id',
      'PSDNO-FSA-123456',
      '--organization-name',
      'Fjord Pay AS',
      '--out-dir',
      dir,
    ]);
    assert.equal(run.exitCode, 0, run.stderr);
    const certificatePem = readFileSync(join(dir, 'tpp-cert.pem'), 'utf8');
    const caPem = readFileSync(join(dir, 'tpp-ca-cert.pem'), 'utf8');
    assert.deepEqual(readPsd2QcStatement(new X509Certificate(certificatePem))?.roles, ['PSP_AI', 'PSP_PI']);
    assert.equal(organizationIdentifierOf(certificatePem), 'PSDNO-FSA-123456');
    assert.match(new X509Certificate(certificatePem).subject, /O=Fjord Pay AS/);
    assert.ok(new X509Certificate(certificatePem).verify(new X509Certificate(caPem).publicKey), 'issued by the CA written');
    assert.equal(mode(join(dir, 'tpp-key.pem')), 0o600);
    assert.equal(mode(join(dir, 'tpp-ca-key.pem')), 0o600);
    assert.match(run.stdout, new RegExp(`keyId +${keyIdOf(certificatePem).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    // A request it signs verifies where that CA is trusted, as the judging sandbox checks it with --trust-ca.
    const identity = loadTppIdentity({ certificatePem, privateKeyPem: readFileSync(join(dir, 'tpp-key.pem'), 'utf8') });
    const { incoming } = signTestRequest(identity);
    assert.ok(verifySignedRequest(incoming, { now: new Date(), maxClockSkewSeconds: 60 * 86_400, trustedCaPems: [caPem] }).ok);
  });

  test('from the CA given: no CA written, and the certificate chains to it', async () => {
    const run = await cert([
      '--roles',
      'PSP_PI',
      '--organization-id',
      'PSDNO-FSA-654321',
      '--ca-cert',
      join(dir, 'tpp-ca-cert.pem'),
      '--ca-key',
      join(dir, 'tpp-ca-key.pem'),
      '--out-dir',
      dir,
      '--name',
      'pisp',
    ]);
    assert.equal(run.exitCode, 0, run.stderr);
    const issued = new X509Certificate(readFileSync(join(dir, 'pisp-cert.pem'), 'utf8'));
    assert.ok(issued.verify(new X509Certificate(readFileSync(join(dir, 'tpp-ca-cert.pem'), 'utf8')).publicKey));
    assert.deepEqual(readPsd2QcStatement(issued)?.roles, ['PSP_PI']);
    assert.throws(() => statSync(join(dir, 'pisp-ca-cert.pem')));
  });

  test('usage errors exit 2 and say why', async () => {
    const notACa = join(dir, 'not-a-ca.pem');
    writeFileSync(notACa, readFileSync(join(dir, 'tpp-cert.pem')));
    const cases: [string[], RegExp][] = [
      [['--roles', 'PSP_AII', '--organization-id', 'PSDNO-FSA-1'], /unknown PSD2 role "PSP_AII"; did you mean "PSP_AI"\?/],
      [['--roles', 'PSP_AI', '--organization-id', '123456'], /"123456" is not an organizationIdentifier of the PSD2 form/],
      [['--organization-id', 'PSDNO-FSA-1'], /required option '--roles/],
      [['--roles', 'PSP_AI', '--organization-id', 'PSDNO-FSA-1', '--ca-cert', notACa], /--ca-cert and --ca-key go together/],
      [
        [
          '--roles',
          'PSP_AI',
          '--organization-id',
          'PSDNO-FSA-1',
          '--ca-cert',
          notACa,
          '--ca-key',
          join(dir, 'tpp-key.pem'),
          '--out-dir',
          dir,
          '--name',
          'x',
        ],
        /is not a CA's/,
      ],
      [
        ['--roles', 'PSP_AI', '--organization-id', 'PSDNO-FSA-1', '--out-dir', dir],
        /tpp-cert\.pem, .*tpp-key\.pem, .* are there already \(--force overwrites/,
      ],
    ];
    for (const [args, message] of cases) {
      const run = await cert(args);
      assert.equal(run.exitCode, 2, args.join(' '));
      assert.match(run.stderr, message, args.join(' '));
    }
  });
});
