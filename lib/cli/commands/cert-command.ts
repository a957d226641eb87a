/**
 * `xs2a-conformance cert`: a test certificate for a TPP developer, shaped like an eIDAS QSealC: the PSD2
 * roles in its ETSI TS 119 495 QCStatement, the organisation's identifier (organizationIdentifier, e.g.
 * PSDNO-FSA-123456) in its subject, issued by a CA given (--ca-cert, --ca-key) or by a test CA made and
 * written beside it. No bank's production trusts it: it is for the judging sandbox (`serve --judge
 * --trust-ca <the CA>`), the proxy in front of a sandbox, and a TPP's own tests.
 *
 *   cert --roles PSP_AI,PSP_PI --organization-id PSDNO-FSA-123456 [--organization-name NAME] [--ca-cert FILE --ca-key FILE]
 *        [--out-dir DIR] [--name BASE] [--valid-days N] [--force]
 *
 * Exit codes: 0 written; 2 usage error (a role unknown, an organisation id not of the form, a CA that cannot
 * issue, a file that is there already without --force).
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { keyIdOf } from '../../httpsig/index.js';
import {
  ALL_PSD2_ROLES,
  CertificateAuthorityError,
  generateCertificateAuthority,
  generateTppCertificate,
  loadCertificateAuthority,
  readCertificateFields,
  type KeyAndCertificate,
  type Psd2Role,
} from '../../pki/index.js';
import { didYouMean, UsageError, wholeNumber, type CliCommand } from '../command.js';

/** ETSI EN 319 412-1, 5.1.4: "PSD", the NCA's country, a hyphen, the NCA's identifier, a hyphen, the authorisation number. */
const ORGANIZATION_ID = /^PSD[A-Z]{2}-[A-Z]{2,8}-[A-Za-z0-9._-]+$/;

interface CertOptions {
  roles: Psd2Role[];
  organizationId: string;
  organizationName: string;
  commonName?: string;
  country: string;
  caCert?: string;
  caKey?: string;
  outDir: string;
  name: string;
  validDays: number;
  force?: boolean;
}

function rolesOf(raw: string): Psd2Role[] {
  const roles = raw
    .split(',')
    .map((role) => role.trim().toUpperCase())
    .filter((role) => role !== '');
  if (roles.length === 0) throw new InvalidArgumentError(`expected one or more of ${ALL_PSD2_ROLES.join(', ')}`);
  for (const role of roles) {
    if (!(ALL_PSD2_ROLES as readonly string[]).includes(role))
      throw new InvalidArgumentError(
        `unknown PSD2 role "${role}"${didYouMean(role, ALL_PSD2_ROLES)} (expected one or more of ${ALL_PSD2_ROLES.join(', ')})`,
      );
  }
  return [...new Set(roles)] as Psd2Role[];
}

function organizationIdOf(raw: string): string {
  if (!ORGANIZATION_ID.test(raw))
    throw new InvalidArgumentError(
      `"${raw}" is not an organizationIdentifier of the PSD2 form PSD<country>-<NCA>-<number>, e.g. PSDNO-FSA-123456`,
    );
  return raw;
}

function countryOf(raw: string): string {
  if (!/^[A-Z]{2}$/.test(raw)) throw new InvalidArgumentError(`"${raw}" is not a country code of two capital letters`);
  return raw;
}

export const certCommand: CliCommand = {
  configure(command) {
    command
      .requiredOption('--roles <R[,R...]>', `the PSD2 roles (${ALL_PSD2_ROLES.join(', ')})`, rolesOf)
      .requiredOption('--organization-id <id>', 'the organizationIdentifier, e.g. PSDNO-FSA-123456', organizationIdOf)
      .option('--organization-name <name>', "the organisation's name (subject O)", 'Test TPP')
      .option('--common-name <name>', 'the subject CN (default: the organisation name)')
      .option('--country <CC>', "the organisation's country (subject C)", countryOf, 'NO')
      .option('--ca-cert <file>', "the issuing CA's certificate (PEM); with --ca-key. Without both, a test CA is made and written too")
      .option('--ca-key <file>', "the issuing CA's private key (PEM)")
      .option('--out-dir <dir>', 'where the PEM files go', '.')
      .option('--name <base>', 'the files: <base>-cert.pem and <base>-key.pem (and <base>-ca-cert.pem, <base>-ca-key.pem)', 'tpp')
      .option('--valid-days <n>', 'days the certificate is valid from now', wholeNumber(1, 3650), 365)
      .option('--force', 'overwrite files that are there already')
      .addHelpText(
        'after',
        `
Private keys are written 0600. A test certificate: no bank's production trusts it.

Examples:
  $ xs2a-conformance cert --roles PSP_AI,PSP_PI --organization-id PSDNO-FSA-123456 --organization-name "Fjord Pay AS"
  $ xs2a-conformance serve --judge --trust-ca tpp-ca-cert.pem
  $ xs2a-conformance cert --roles PSP_PI --organization-id PSDNO-FSA-654321 --ca-cert my-ca.pem --ca-key my-ca-key.pem --name pisp

Exit codes: 0 written; 2 usage error.`,
      );
  },
  run: (command: Command) => Promise.resolve(writeCertificate(command.opts<CertOptions>())),
};

function readPem(option: string, file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cert: ${option} ${file}: ${(error as Error).message}`);
  }
}

/** The CA given, or undefined when a test CA is to be made; a half-given or unusable one is a usage error. */
function givenCa(options: CertOptions): KeyAndCertificate | undefined {
  if (options.caCert === undefined && options.caKey === undefined) return undefined;
  if (options.caCert === undefined || options.caKey === undefined)
    throw new UsageError("cert: --ca-cert and --ca-key go together: the CA's certificate and its key");
  try {
    return loadCertificateAuthority(readPem('--ca-cert', options.caCert), readPem('--ca-key', options.caKey));
  } catch (error) {
    if (error instanceof CertificateAuthorityError) throw new UsageError(`cert: ${error.message}`);
    throw error;
  }
}

/** A private key, its owner's alone whatever the umask, and whatever mode an overwritten file had. */
function writePrivateKey(file: string, pem: string): void {
  writeFileSync(file, pem, { mode: 0o600 });
  chmodSync(file, 0o600);
}

function writeCertificate(options: CertOptions): number {
  const dir = resolve(options.outDir);
  const given = givenCa(options);
  const files = {
    certificate: join(dir, `${options.name}-cert.pem`),
    key: join(dir, `${options.name}-key.pem`),
    ...(given === undefined
      ? { caCertificate: join(dir, `${options.name}-ca-cert.pem`), caKey: join(dir, `${options.name}-ca-key.pem`) }
      : {}),
  };
  const ca =
    given ??
    generateCertificateAuthority({
      commonName: `${options.organizationName} test CA`,
      organizationName: 'xs2a-conformance test CA',
      countryName: options.country,
    });
  const tpp = generateTppCertificate(ca, {
    organizationName: options.organizationName,
    organizationIdentifier: options.organizationId,
    ...(options.commonName === undefined ? {} : { commonName: options.commonName }),
    countryName: options.country,
    roles: options.roles,
    validDays: options.validDays,
  });
  // Nothing is written while any file is there already: no set half old, half new.
  const taken = Object.values(files).filter((file) => existsSync(file));
  if (taken.length > 0 && options.force !== true)
    throw new UsageError(
      `cert: ${taken.join(', ')} ${taken.length === 1 ? 'is' : 'are'} there already (--force overwrites, or --name another base)`,
    );
  mkdirSync(dir, { recursive: true });
  writeFileSync(files.certificate, tpp.certificatePem, { mode: 0o644 });
  writePrivateKey(files.key, tpp.privateKeyPem);
  if (files.caCertificate !== undefined) writeFileSync(files.caCertificate, ca.certificatePem, { mode: 0o644 });
  if (files.caKey !== undefined) writePrivateKey(files.caKey, ca.privateKeyPem);
  const fields = readCertificateFields(tpp.certificatePem);
  console.log(`A test QSealC for ${options.organizationName} (${options.organizationId}), roles ${options.roles.join(', ')}:`);
  console.log(`  certificate   ${files.certificate}`);
  console.log(`  private key   ${files.key} (0600)`);
  console.log(
    files.caCertificate === undefined
      ? `  issued by     the CA of ${options.caCert ?? ''}`
      : `  issued by     a new test CA: ${files.caCertificate}, its key ${files.caKey ?? ''} (0600)`,
  );
  console.log(`  keyId         ${keyIdOf(tpp.certificatePem)}`);
  console.log(`  valid         ${fields.notBefore.toISOString()} to ${fields.notAfter.toISOString()}`);
  console.log(
    `Have the judging sandbox check certificates as production does: xs2a-conformance serve --judge --trust-ca ${files.caCertificate ?? options.caCert ?? ''}`,
  );
  return 0;
}
