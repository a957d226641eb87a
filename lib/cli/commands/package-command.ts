/**
 * `xs2a-conformance package <report dir>`: one zip with the report folder whole and a SHA-256 manifest;
 * `--sign` signs the manifest with the TPP's key (its certificate inside). Exit 0 written, 2 usage error.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { writePrivate } from '../../report/private-files.js';
import type { SigningKey } from '../../report/manifest-signing.js';
import { interpolateTarget, loadTargetsFile, selectTarget } from '../../targets/load.js';
import type { Command } from 'commander';
import { UsageError, type CliCommand } from '../command.js';
import { defaultTargetsFile } from '../package-root.js';
import { readPem } from '../../targets/target-files.js';

export interface PackageOptions {
  reportDir: string;
  out?: string;
  sign: boolean;
  key?: string;
  certificate?: string;
  target?: string;
  targetsFile?: string;
}

export const packageCommand: CliCommand = {
  configure(command) {
    command
      .argument('<report-dir>', 'the report folder (reports/latest, or reports/<run-id>)')
      .option('-o, --out <file>', 'the zip to write (default: <report dir>.zip beside the folder)')
      .option(
        '--sign',
        'sign the manifest (a detached JWS, the certificate inside) with the TPP key given by --key and --certificate, or --target',
      )
      .option('--key <file>', "the TPP's private key (PEM)")
      .option('--certificate <file>', "the TPP's certificate (PEM)")
      .option('--target <name>', 'sign with the TPP certificate and key of this target of targets.yaml')
      .option('--targets <file>', 'the targets file (default: $XS2A_TARGETS, else ./targets.yaml, else the one shipped)')
      .addHelpText(
        'after',
        `
The zip holds the folder whole (results.json, index.html, junit.xml, index.pdf, every evidence file) and
MANIFEST.sha256, the SHA-256 of each file (sha256sum -c MANIFEST.sha256 checks it without this tool).
A symbolic link, or anything that is not a regular file or folder, is refused by name (exit 2).

Example:
  $ xs2a-conformance package reports/latest --sign --key tpp-key.pem --certificate tpp.pem -o certification.zip
  $ xs2a-conformance verify certification.zip --ca eidas-issuer.pem`,
      );
  },
  run(command: Command) {
    const options = command.opts<Omit<PackageOptions, 'reportDir' | 'targetsFile'> & { targets?: string; sign?: boolean }>();
    return runPackage({
      reportDir: command.args[0] ?? '',
      sign: options.sign ?? false,
      ...(options.out ? { out: options.out } : {}),
      ...(options.key ? { key: options.key } : {}),
      ...(options.certificate ? { certificate: options.certificate } : {}),
      ...(options.target ? { target: options.target } : {}),
      ...(options.targets ? { targetsFile: options.targets } : {}),
    });
  },
};

export async function runPackage(options: PackageOptions): Promise<number> {
  const reportDir = resolve(options.reportDir);
  const out = resolve(options.out ?? `${reportDir.replace(/\/+$/, '')}.zip`);
  const signingKey = options.sign ? readSigningKey(options) : undefined;
  const started = performance.now();
  // Loaded when the command runs, not when the program starts (every command's --help would pay for it).
  const { createPackage } = await import('../../report/certification-package.js');
  const { visibleControls } = await import('../../report/mask.js');
  // A file name of the folder is shown, its control characters never obeyed.
  const result = await createPackage(reportDir, signingKey).catch((error: Error) => {
    throw new UsageError(`package: ${visibleControls(error.message)}`);
  });
  writePrivate(out, result.zip);
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  console.log(
    `Package: ${out} (${result.files} files and MANIFEST.sha256${result.signed ? ', signed' : ''}; ${result.zip.length} bytes, ${seconds} s)`,
  );
  console.log(`Check it: xs2a-conformance verify ${out}`);
  return 0;
}

function readSigningKey(options: PackageOptions): SigningKey {
  if (options.key && options.certificate) {
    return {
      privateKeyPem: readFileSync(resolve(options.key), 'utf8'),
      certificatePem: readFileSync(resolve(options.certificate), 'utf8'),
    };
  }
  if (options.target) {
    const file = resolve(options.targetsFile ?? defaultTargetsFile());
    const config = interpolateTarget(options.target, selectTarget(loadTargetsFile(file), options.target), process.env);
    const tpp = config.tpp;
    if (!tpp?.certificate || !tpp.privateKey || tpp.generate) {
      throw new UsageError(
        `package: target ${options.target} has no TPP certificate and key of its own to sign with (a generated one lives only for its run)`,
      );
    }
    const field = `targets.${options.target}.tpp`;
    return {
      privateKeyPem: readPem(tpp.privateKey, `${field}.privateKey`, dirname(file)),
      certificatePem: readPem(tpp.certificate, `${field}.certificate`, dirname(file)),
    };
  }
  throw new UsageError('package: --sign needs --key and --certificate, or --target NAME');
}
