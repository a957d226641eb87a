/**
 * The reference bank started apart and reached like any remote bank (its CA and a TPP certificate and key in
 * PEM files), with a request log: what reached the bank, API and SCA pages alike. The safety tests run the
 * real command against it under a targets.yaml they write.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { generateCertificateAuthority, generateTppCertificate } from '../../lib/pki/index.js';
import { loadTargetsFile } from '../../lib/targets/load.js';
import type { TargetConfig } from '../../lib/targets/target-types.js';
import { startReferenceBank, type ReferenceBank } from '../../reference/server.js';
import { runCli, type CliRun } from '../support/run-cli.js';
import { scratchDir } from '../support/scratch.js';

export interface LoggedRequest {
  method: string;
  url: string;
}

export interface RemoteBank {
  bank: ReferenceBank;
  /** Every request the bank received, in order. */
  log: LoggedRequest[];
  /** The folder of targets.yaml and the PEM files. */
  dir: string;
  /** Runs the command against the target `remote` (the shipped reference target's PSUs, SCA steps and capabilities, plus `overrides`). */
  run(args: string[], overrides?: Partial<TargetConfig>, env?: NodeJS.ProcessEnv): Promise<CliRun>;
  close(): Promise<void>;
}

/** The shipped `reference` target: its PSUs, SCA steps, variants and capabilities are what a remote copy of the bank needs. */
export function shippedReferenceTarget(): TargetConfig {
  const reference = loadTargetsFile('targets.yaml').targets.reference;
  if (!reference) throw new Error('targets.yaml has no reference target');
  return reference;
}

export async function startRemoteBank(): Promise<RemoteBank> {
  const issuer = generateCertificateAuthority({ commonName: 'Remote test TPP issuer' });
  const first = generateTppCertificate(issuer, {
    organizationName: 'Remote TPP',
    organizationIdentifier: 'PSDNO-FSA-REMOTE1',
    roles: ['PSP_AI', 'PSP_PI'],
  });
  const second = generateTppCertificate(issuer, {
    organizationName: 'Remote TPP 2',
    organizationIdentifier: 'PSDNO-FSA-REMOTE2',
    roles: ['PSP_AI', 'PSP_PI'],
  });
  const log: LoggedRequest[] = [];
  const bank = await startReferenceBank({ trustedTppCaPems: [issuer.certificatePem], onRequest: (request) => log.push(request) });
  const dir = scratchDir('xs2a-remote-');
  const files = {
    'bank-ca.pem': bank.caPem,
    'tpp.pem': first.certificatePem,
    'tpp-key.pem': first.privateKeyPem,
    'tpp2.pem': second.certificatePem,
    'tpp2-key.pem': second.privateKeyPem,
  };
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content, { mode: 0o600 });
  const { embedded: _embedded, tpp, ...reference } = shippedReferenceTarget();
  return {
    bank,
    log,
    dir,
    run: (args, overrides = {}, env = {}) => {
      const target: TargetConfig = {
        ...reference,
        baseUrl: bank.baseUrl,
        tls: { ca: join(dir, 'bank-ca.pem') },
        tpp: {
          certificate: join(dir, 'tpp.pem'),
          privateKey: join(dir, 'tpp-key.pem'),
          redirectUri: tpp?.redirectUri ?? 'https://tpp.example/callback',
          second: { certificate: join(dir, 'tpp2.pem'), privateKey: join(dir, 'tpp2-key.pem') },
        },
        ...overrides,
      };
      writeFileSync(join(dir, 'targets.yaml'), stringify({ targets: { remote: target } }));
      return runCli(['run', '--targets', join(dir, 'targets.yaml'), '--target', 'remote', '--report-dir', '{reportDir}', ...args], env);
    },
    close: () => bank.close(),
  };
}
