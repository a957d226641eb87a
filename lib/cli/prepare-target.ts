/**
 * From a targets.yaml entry to a RunTarget: interpolate it, start the embedded reference bank when asked,
 * read the CA and TPP certificate (or generate a test TPP certificate), and check the target answers.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { generateCertificateAuthority, generateTppCertificate, type KeyAndCertificate } from '../pki/index.js';
import { ConfigError, interpolateTarget } from '../targets/load.js';
import type { RunTarget } from '../targets/run-context.js';
import type { TargetConfig } from '../targets/types.js';
import { startReferenceBank } from '../../reference/server.js';

export interface PreparedTarget {
  target: RunTarget;
  stop(): Promise<void>;
}

const DEFAULT_TIMEOUTS = { requestMs: 10_000, scaMs: 20_000 };

export async function prepareTarget(
  name: string,
  raw: TargetConfig,
  options: { faults: readonly string[]; targetsDir: string; workDir: string; env: NodeJS.ProcessEnv },
): Promise<PreparedTarget> {
  const config = interpolateTarget(name, raw, options.env);
  const field = `targets.${name}`;
  if (options.faults.length && !config.embedded) {
    throw new ConfigError('--inject-fault', `faults can only be injected into the embedded reference bank, not "${name}"`);
  }

  const tppKeyFile = join(options.workDir, 'tpp-key.pem');
  // One test CA per run issues both the embedded bank's TLS certificate and a generated TPP certificate.
  const testCa =
    config.embedded || !loadsOwnCertificate(config)
      ? generateCertificateAuthority({ commonName: 'xs2a-conformance test CA', organizationName: 'xs2a-conformance', countryName: 'NO' })
      : undefined;
  const { issuingCaPem, ...tpp } = readOrGenerateTpp(config, field, options.targetsDir, tppKeyFile, testCa);
  const common = {
    name,
    environment: config.environment,
    tpp: { ...tpp, redirectUri: config.tpp?.redirectUri ?? 'https://tpp.example/callback' },
    psus: config.psus ?? {},
    sca: config.sca ?? [],
    scaVariants: config.scaVariants ?? {},
    capabilities: config.capabilities ?? [],
    paths: config.paths ?? {},
    deviations: config.deviations ?? [],
    timeouts: { ...DEFAULT_TIMEOUTS, ...config.timeouts },
  };

  if (config.embedded) {
    const configured = typeof config.embedded === 'object' ? (config.embedded.faults ?? []) : [];
    // The embedded bank trusts the suite's test CA the way a bank trusts its eIDAS issuers.
    const bank = await startReferenceBank({
      port: 0,
      ...(testCa ? { ca: testCa } : {}),
      faults: [...configured, ...options.faults],
      ...(issuingCaPem ? { trustedTppCaPems: [issuingCaPem] } : {}),
    }).catch((error: Error) => {
      throw new ConfigError(`${field}.embedded`, error.message);
    });
    return {
      target: { ...common, baseUrl: bank.baseUrl, embedded: true, faults: [...bank.faults], caPem: bank.caPem },
      stop: () => bank.close(),
    };
  }
  const caPem = config.tls?.ca ? readPem(config.tls.ca, `${field}.tls.ca`, options.targetsDir) : undefined;
  return {
    target: { ...common, baseUrl: (config.baseUrl ?? '').replace(/\/$/, ''), embedded: false, faults: [], ...(caPem ? { caPem } : {}) },
    stop: async () => {},
  };
}

/** The target names its own TPP certificate and key (rather than asking for a generated one). */
function loadsOwnCertificate(config: TargetConfig): boolean {
  return Boolean(config.tpp?.certificate && config.tpp.privateKey && !config.tpp.generate);
}

function readOrGenerateTpp(
  config: TargetConfig,
  field: string,
  targetsDir: string,
  keyFile: string,
  ca: KeyAndCertificate | undefined,
): { certificatePem: string; privateKeyFile: string; issuingCaPem?: string } {
  const tpp = config.tpp;
  if (tpp?.certificate && tpp.privateKey && loadsOwnCertificate(config)) {
    const certificatePem = readPem(tpp.certificate, `${field}.tpp.certificate`, targetsDir);
    // The key is copied to the run's private folder so workers read it from one place; it is never printed.
    writeFileSync(keyFile, readPem(tpp.privateKey, `${field}.tpp.privateKey`, targetsDir), { mode: 0o600 });
    return { certificatePem, privateKeyFile: keyFile };
  }
  if (!ca) throw new Error('a generated TPP certificate needs the run\'s test CA');
  const generated = generateTppCertificate(ca, {
    organizationName: tpp?.organizationName ?? 'xs2a-conformance test TPP',
    organizationIdentifier: tpp?.organizationIdentifier ?? 'PSDNO-FSA-XC0001',
    countryName: 'NO',
    roles: ['PSP_AS', 'PSP_PI', 'PSP_AI', 'PSP_IC'],
  });
  writeFileSync(keyFile, generated.privateKeyPem, { mode: 0o600 });
  return { certificatePem: generated.certificatePem, privateKeyFile: keyFile, issuingCaPem: ca.certificatePem };
}

/** A PEM given inline or as a file path relative to targets.yaml. */
function readPem(value: string, field: string, baseDir: string): string {
  if (value.trimStart().startsWith('-----BEGIN')) return value;
  const path = isAbsolute(value) ? value : resolve(baseDir, value);
  if (!existsSync(path)) throw new ConfigError(field, `file not found: ${path}`);
  const text = readFileSync(path, 'utf8');
  if (!text.includes('-----BEGIN')) throw new ConfigError(field, `${path} is not a PEM file`);
  return text;
}
