/**
 * `xs2a-conformance package <report dir>`: one zip with the report folder whole and a SHA-256 manifest;
 * `--sign` signs the manifest with the TPP's key (its certificate inside). Exit 0 written, 2 usage error.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createPackage } from '../../report/package.js';
import type { SigningKey } from '../../report/signing.js';
import { interpolateTarget, loadTargetsFile, selectTarget } from '../../targets/load.js';
import { UsageError } from '../args.js';
import { defaultTargetsFile } from '../package.js';
import { readPem } from '../prepare-target.js';
import { parseCommandArgs } from './options.js';

export const PACKAGE_USAGE = `Usage: xs2a-conformance package <report dir> [options]

Zips a report folder (results.json, index.html, junit.xml, index.pdf, every evidence file) with
MANIFEST.sha256, the SHA-256 of each file (sha256sum -c checks it too).

Options:
  -o, --out FILE          the zip to write (default: <report dir>.zip beside the folder)
  --sign                  sign the manifest (a detached JWS, the certificate inside) with the TPP's key:
  --key FILE              the private key (PEM), with
  --certificate FILE      its certificate (PEM); or
  --target NAME           the TPP key and certificate of this target of targets.yaml
  --targets FILE          the targets file (default: $XS2A_TARGETS, ./targets.yaml, the one shipped)
  -h, --help              this text`;

export interface PackageOptions {
  reportDir: string;
  out?: string;
  sign: boolean;
  key?: string;
  certificate?: string;
  target?: string;
  targetsFile?: string;
}

export function parsePackageArgs(argv: readonly string[]): PackageOptions | 'help' {
  const { values, positionals } = parseCommandArgs('package', argv, {
    out: { type: 'string', short: 'o' },
    sign: { type: 'boolean' },
    key: { type: 'string' },
    certificate: { type: 'string' },
    target: { type: 'string' },
    targets: { type: 'string' },
  });
  if (values.help) return 'help';
  const [reportDir, ...extra] = positionals;
  if (!reportDir || extra.length) throw new UsageError('package: give one report folder');
  return {
    reportDir,
    sign: values.sign ?? false,
    ...(values.out ? { out: values.out } : {}),
    ...(values.key ? { key: values.key } : {}),
    ...(values.certificate ? { certificate: values.certificate } : {}),
    ...(values.target ? { target: values.target } : {}),
    ...(values.targets ? { targetsFile: values.targets } : {}),
  };
}

export async function packageCommand(options: PackageOptions): Promise<number> {
  const reportDir = resolve(options.reportDir);
  const out = resolve(options.out ?? `${reportDir.replace(/\/+$/, '')}.zip`);
  const signingKey = options.sign ? readSigningKey(options) : undefined;
  const started = performance.now();
  const result = await createPackage(reportDir, signingKey).catch((error: Error) => {
    throw new UsageError(`package: ${error.message}`);
  });
  writeFileSync(out, result.zip);
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  console.log(`Package: ${out} (${result.files} files and MANIFEST.sha256${result.signed ? ', signed' : ''}; ${result.zip.length} bytes, ${seconds} s)`);
  console.log(`Check it: xs2a-conformance verify ${out}`);
  return 0;
}

function readSigningKey(options: PackageOptions): SigningKey {
  if (options.key && options.certificate) {
    return { privateKeyPem: readFileSync(resolve(options.key), 'utf8'), certificatePem: readFileSync(resolve(options.certificate), 'utf8') };
  }
  if (options.target) {
    const file = resolve(options.targetsFile ?? defaultTargetsFile());
    const config = interpolateTarget(options.target, selectTarget(loadTargetsFile(file), options.target), process.env);
    const tpp = config.tpp;
    if (!tpp?.certificate || !tpp.privateKey || tpp.generate) {
      throw new UsageError(`package: target ${options.target} has no TPP certificate and key of its own to sign with (a generated one lives only for its run)`);
    }
    const field = `targets.${options.target}.tpp`;
    return { privateKeyPem: readPem(tpp.privateKey, `${field}.privateKey`, dirname(file)), certificatePem: readPem(tpp.certificate, `${field}.certificate`, dirname(file)) };
  }
  throw new UsageError('package: --sign needs --key and --certificate, or --target NAME');
}
