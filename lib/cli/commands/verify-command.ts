/**
 * `xs2a-conformance verify <package.zip>`: checks a certification package (lib/report/verify.ts) and says
 * what was changed when it fails. Exit 0 verified, 1 not (the package was changed, or is not signed when
 * --require-signature asks), 2 usage error.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Command } from 'commander';
import { UsageError, type CliCommand } from '../command.js';

export interface VerifyCommandOptions {
  packageFile: string;
  caFiles: string[];
  requireSignature: boolean;
  json: boolean;
}

export const verifyCommand: CliCommand = {
  configure(command) {
    command
      .argument('<package>', 'the zip made by xs2a-conformance package')
      .option('--ca <file>', 'a CA certificate (PEM) trusted to issue the signing certificate (repeatable)', (value: string, previous: string[] = []) => [...previous, value])
      .option('--require-signature', 'an unsigned package fails')
      .option('--json', 'print the outcome as JSON')
      .addHelpText(
        'after',
        `
Checks the zip as made (a byte changed anywhere is found and its file named), every file against
MANIFEST.sha256, the manifest's signature and its certificate, and results.json against its published schema.

Exit codes: 0 verified, 1 changed (or not signed when --require-signature asks), 2 usage error.`,
      );
  },
  run(command: Command) {
    const options = command.opts<{ ca?: string[]; requireSignature?: boolean; json?: boolean }>();
    return runVerify({ packageFile: command.args[0] ?? '', caFiles: options.ca ?? [], requireSignature: options.requireSignature ?? false, json: options.json ?? false });
  },
};

export async function runVerify(options: VerifyCommandOptions): Promise<number> {
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
  // Loaded when the command runs, not when the program starts.
  const { verifyPackage } = await import('../../report/verify.js');
  const verification = await verifyPackage(zip, { trustAnchorsPem, requireSignature: options.requireSignature });
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  if (options.json) {
    console.log(JSON.stringify(verification, null, 2));
  } else {
    // A changed zip names its files with whatever bytes it holds: their control characters are shown, not obeyed.
    const { visibleControls } = await import('../../report/mask.js');
    for (const line of verification.passed) console.log(`  ok       ${visibleControls(line)}`);
    for (const line of verification.problems) console.log(`  CHANGED  ${visibleControls(line)}`);
    for (const line of verification.notes) console.log(`  note     ${visibleControls(line)}`);
    console.log(verification.ok ? `Verified: ${options.packageFile} (${seconds} s)` : `NOT VERIFIED: ${options.packageFile} was changed or is incomplete (${verification.problems.length} problem(s))`);
  }
  return verification.ok ? 0 : 1;
}
