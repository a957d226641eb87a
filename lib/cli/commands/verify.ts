/**
 * `xs2a-conformance verify <package.zip>`: checks a certification package (lib/report/verify.ts) and says
 * what was changed when it fails. Exit 0 verified, 1 not (the package was changed, or is not signed when
 * --require-signature asks), 2 usage error.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { verifyPackage } from '../../report/verify.js';
import { UsageError } from '../args.js';
import { parseCommandArgs } from './options.js';

export const VERIFY_USAGE = `Usage: xs2a-conformance verify <package.zip> [options]

Checks a package made by \`xs2a-conformance package\`: the zip as made (a byte changed anywhere is found and
its file named), every file against MANIFEST.sha256, the manifest's signature and its certificate, and
results.json against its published schema.

Options:
  --ca FILE               a CA certificate (PEM) trusted to issue the signing certificate (repeatable)
  --require-signature     an unsigned package fails
  --json                  print the outcome as JSON
  -h, --help              this text

Exit codes: 0 verified, 1 changed or not signed as required, 2 usage error.`;

export interface VerifyCommandOptions {
  packageFile: string;
  caFiles: string[];
  requireSignature: boolean;
  json: boolean;
}

export function parseVerifyArgs(argv: readonly string[]): VerifyCommandOptions | 'help' {
  const { values, positionals } = parseCommandArgs('verify', argv, {
    ca: { type: 'string', multiple: true },
    'require-signature': { type: 'boolean' },
    json: { type: 'boolean' },
  });
  if (values.help) return 'help';
  const [packageFile, ...extra] = positionals;
  if (!packageFile || extra.length) throw new UsageError('verify: give one package file');
  return { packageFile, caFiles: values.ca ?? [], requireSignature: values['require-signature'] ?? false, json: values.json ?? false };
}

export async function verifyCommand(options: VerifyCommandOptions): Promise<number> {
  const read = (file: string, what: string) => {
    try {
      return readFileSync(resolve(file));
    } catch (error) {
      throw new UsageError(`verify: cannot read ${what} ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
  };
  const zip = read(options.packageFile, 'the package');
  const trustAnchorsPem = options.caFiles.map((file) => read(file, 'the CA certificate').toString('utf8'));
  const started = performance.now();
  const verification = await verifyPackage(zip, { trustAnchorsPem, requireSignature: options.requireSignature });
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  if (options.json) {
    console.log(JSON.stringify(verification, null, 2));
  } else {
    for (const line of verification.passed) console.log(`  ok       ${line}`);
    for (const line of verification.problems) console.log(`  CHANGED  ${line}`);
    for (const line of verification.notes) console.log(`  note     ${line}`);
    console.log(verification.ok ? `Verified: ${options.packageFile} (${seconds} s)` : `NOT VERIFIED: ${options.packageFile} was changed or is incomplete (${verification.problems.length} problem(s))`);
  }
  return verification.ok ? 0 : 1;
}
