/**
 * `xs2a-conformance verify <package.zip>`: checks a certification package (lib/report/verify.ts), says what
 * failed, and what was verified: the verdict (recomputed), the target, the tool, the run, the signer and the
 * trust anchor. Exit 0 verified, or whole with its signer not checked (INTEGRITY ONLY, without
 * --require-signature); 1 not verified; 2 usage error.
 */
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Command } from 'commander';
import type { ProblemKind, Verification } from '../../report/verify.js';
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
      .option(
        '--ca <file>',
        'a CA certificate (PEM) trusted to issue the signing certificate (repeatable); "Verified" needs one',
        (value: string, previous: string[] = []) => [...previous, value],
      )
      .option('--require-signature', 'fail unless the package is signed by a certificate a --ca issued')
      .option('--json', 'print the outcome as JSON')
      .addHelpText(
        'after',
        `
Checks every entry's name and size before reading it, the zip as made (a byte changed anywhere is found and
its file named), every file against MANIFEST.sha256, the manifest's signature and its certificate, and
results.json against its published schema, its verdict and counts recomputed from the results inside.
Then prints what was verified: the verdict, the target (and whether it was the embedded reference bank),
the tool, the run, the signer and the trust anchor.

"Verified" needs --ca: without a trust anchor anyone can sign with a certificate that copies a subject, so a
whole package is "INTEGRITY ONLY: ... its signer is not checked".

Exit codes: 0 verified, or integrity only (no --ca, or not signed) without --require-signature; 1 not
verified: changed, refused, its results do not hold, its signer not issued by a --ca, or --require-signature
without a signature or without --ca; 2 usage error.`,
      );
  },
  run(command: Command) {
    const options = command.opts<{ ca?: string[]; requireSignature?: boolean; json?: boolean }>();
    return runVerify({
      packageFile: command.args[0] ?? '',
      caFiles: options.ca ?? [],
      requireSignature: options.requireSignature ?? false,
      json: options.json ?? false,
    });
  },
};

const LABELS: Record<ProblemKind, string> = { changed: 'CHANGED', refused: 'REFUSED', signer: 'SIGNER', results: 'RESULTS' };
const FAILURES: Record<ProblemKind, string> = {
  changed: 'was changed or is incomplete',
  refused: 'holds entries it refuses to read',
  signer: 'does not show who signed it',
  results: 'has a results.json that does not hold',
};

export async function runVerify(options: VerifyCommandOptions): Promise<number> {
  const read = (file: string, what: string) => {
    try {
      return readFileSync(resolve(file));
    } catch (error) {
      throw new UsageError(`verify: cannot read ${what} ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
  };
  const trustAnchorsPem = options.caFiles.map((file) => read(file, 'the CA certificate').toString('utf8'));
  const started = performance.now();
  // Loaded when the command runs, not when the program starts.
  const { oversizedPackage, verifyPackage } = await import('../../report/verify.js');
  // Its size first: a file too large to be a package is refused before it is read.
  const verification =
    oversizedPackage(sizeOf(options.packageFile)) ??
    (await verifyPackage(read(options.packageFile, 'the package'), { trustAnchorsPem, requireSignature: options.requireSignature }));
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  if (options.json) console.log(JSON.stringify(verification, null, 2));
  else {
    // A package names its files and its signer with whatever bytes it holds: their control characters are shown, not obeyed.
    const { visibleControls } = await import('../../report/mask.js');
    const lines = [
      ...verification.passed.map((line) => `  ok       ${line}`),
      ...verification.problems.map(({ kind, text }) => `  ${LABELS[kind].padEnd(9)}${text}`),
      ...verification.notes.map((line) => `  note     ${line}`),
      ...whatWasVerified(verification, trustAnchorsPem.length > 0),
      outcomeLine(verification, options.packageFile, seconds),
    ];
    for (const line of lines) console.log(visibleControls(line));
  }
  return verification.outcome === 'not-verified' ? 1 : 0;
}

/** A file's size; 0 when it cannot be read (reading it then says why). */
function sizeOf(file: string): number {
  try {
    return statSync(resolve(file)).size;
  } catch {
    return 0;
  }
}

/** The verdict, target, tool, run, signer and trust anchor, as the package states them and verify found them. */
function whatWasVerified({ report, signer, trustAnchor }: Verification, anchorsGiven: boolean): string[] {
  const lines: string[] = [];
  if (report) {
    const verdict =
      report.recomputedVerdict !== report.verdict
        ? `${report.verdict} as stated, but the results inside give ${report.recomputedVerdict}: it does not follow`
        : `${report.verdict} (recomputed from the results inside: the same${report.verdictFollows ? '' : ', but its records or counts do not follow, see RESULTS'})`;
    const { target, tool } = report;
    const faults = target.faults.length ? `, faults injected: ${target.faults.join(', ')}` : '';
    const of = target.embedded
      ? `the embedded reference bank${faults}; it certifies no bank`
      : "a bank's interface, not the embedded reference bank";
    const commit = tool.commit ? `, commit ${tool.commit}${tool.dirty ? ' (with local changes)' : ''}` : ', no commit recorded';
    lines.push(
      `Verdict:      ${verdict}`,
      `Target:       ${target.name} at ${target.baseUrl} (${target.environment}): ${of}`,
      `Tool:         ${tool.name} ${tool.version}${commit}`,
      `Run:          ${report.runId}, ${report.startedAt} to ${report.finishedAt}`,
    );
  }
  lines.push(
    signer
      ? `Signed by:    ${signer.subject} (${signer.algorithm ?? '?'}, at ${signer.signedAt ?? '?'}; certificate SHA-256 ${signer.sha256})`
      : 'Signed by:    nobody (the package is not signed)',
  );
  if (trustAnchor) lines.push(`Trust anchor: ${trustAnchor.subject} (SHA-256 ${trustAnchor.sha256}), given with --ca`);
  else if (signer)
    lines.push(
      anchorsGiven
        ? 'Trust anchor: none of the CAs given with --ca issued the certificate'
        : 'Trust anchor: none given (--ca FILE): the signer is not checked, anyone can make a certificate with this subject',
    );
  return lines;
}

function outcomeLine({ outcome, problems, signer }: Verification, file: string, seconds: string): string {
  if (outcome === 'verified') return `Verified: ${file} (${seconds} s)`;
  if (outcome === 'integrity-only') {
    return signer
      ? `INTEGRITY ONLY: ${file} is whole as packaged, but its signer is not checked (no --ca given) (${seconds} s)`
      : `INTEGRITY ONLY: ${file} is whole as packaged, but not signed: who made it is unproven (${seconds} s)`;
  }
  const failures = [...new Set(problems.map((p) => FAILURES[p.kind]))];
  const said = failures.length > 1 ? `${failures.slice(0, -1).join(', ')} and ${failures.at(-1) ?? ''}` : (failures[0] ?? '');
  return `NOT VERIFIED: ${file} ${said} (${problems.length} problem(s))`;
}
