/**
 * `xs2a-conformance audit traffic.har`: judges recorded traffic between TPPs and a bank on both sides (the
 * TPP rules and the bank's every-exchange rules) and writes both reports, streamed (see lib/traffic/audit.ts).
 * Marks in the file excuse an entry only when this installation sealed them; the console and both reports
 * say how many were honoured and how many ignored.
 *
 * Exit codes: 0 nothing failed; 1 a MUST rule failed on either side; 2 usage error, a file that is no HAR or one
 * without an entry.
 */
import { readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { Option, type Command } from 'commander';
import type { RunResults } from '../../report/results-types.js';
import type { ReportContext } from '../../traffic/report.js';
import { repeatable, UsageError, type CliCommand } from '../command.js';
import { TOOL } from '../package-root.js';

export interface AuditCommandOptions {
  harFile: string;
  basePath?: string;
  environment?: string;
  trustCaFiles: string[];
  reportDir: string;
  unmasked: boolean;
}

export const auditCommand: CliCommand = {
  configure(command) {
    command
      .argument('<traffic.har>', 'the recorded traffic, HAR 1.2 (a browser, a proxy, run --har)')
      .option(
        '--base-path <path>',
        'where the interface lives on the bank (/psd2 for https://bank.example/psd2/v1/…; default: read from each request)',
      )
      .addOption(
        new Option(
          '--environment <env>',
          "the bank's environment: when the structured-address rule is enforced (default: the later date, production's)",
        ).choices(['sandbox', 'production']),
      )
      .option(
        '--trust-ca <file>',
        'a CA the bank trusts for TPP certificates (repeatable); without one, TPP-18 is not judged',
        repeatable,
        [],
      )
      .option('--report-dir <dir>', 'where reports go (<dir>/<run-id>/tpp/ and bank/)', 'reports')
      .option('--unmasked', 'show PSU identifiers in the reports (masked by default)')
      .addHelpText(
        'after',
        '\nWrites results.json and index.html for each side. Exit codes: 0 nothing failed, 1 a MUST rule failed (either side),\n2 usage error, a file that is no HAR, or a HAR without entries.',
      );
  },
  run(command: Command) {
    const options = command.opts<{ basePath?: string; environment?: string; trustCa: string[]; reportDir: string; unmasked?: boolean }>();
    return runAudit({
      harFile: command.args[0] as string,
      ...(options.basePath === undefined ? {} : { basePath: options.basePath }),
      ...(options.environment === undefined ? {} : { environment: options.environment }),
      trustCaFiles: options.trustCa,
      reportDir: options.reportDir,
      unmasked: options.unmasked ?? false,
    });
  },
};

export async function runAudit(options: AuditCommandOptions): Promise<number> {
  // Loaded when the command runs, not for --help.
  const [{ auditHar }, { HarFormatError }, { writeResults }, { visibleControls }] = await Promise.all([
    import('../../traffic/audit.js'),
    import('../../har/index.js'),
    import('../../traffic/report.js'),
    import('../../report/mask.js'),
  ]);
  const trustedCaPems = options.trustCaFiles.map((file) => readPem(file));
  let result;
  try {
    result = await auditHar(resolve(options.harFile), {
      ...(options.basePath === undefined ? {} : { basePath: options.basePath }),
      ...(options.environment === undefined ? {} : { environment: options.environment }),
      ...(trustedCaPems.length === 0 ? {} : { trustedCaPems }),
    });
  } catch (error) {
    // The message quotes the file (a URL, a date): its control characters are shown, not obeyed.
    if (error instanceof HarFormatError) throw new UsageError(`audit: ${visibleControls(error.message)}`);
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new UsageError(`audit: no such file ${options.harFile}`);
    throw error;
  }
  // No entry judged is no audit: nothing passed, so exit 0 would say what it does not know.
  if (result.entries === 0)
    throw new UsageError(
      `audit: ${options.harFile} holds no entries: there is no traffic to judge (exit 2; record some, e.g. run --har, the proxy's --har)`,
    );
  const runId = `audit-${result.startedAt.toISOString().replace(/[:.]/g, '-')}`;
  const context: ReportContext = {
    runId,
    startedAt: result.startedAt,
    finishedAt: result.finishedAt,
    tool: TOOL,
    target: {
      name: `audit of ${basename(options.harFile)}`,
      environment: options.environment ?? 'unknown',
      baseUrl: options.basePath ?? '',
      embedded: false,
      faults: [],
    },
    source: basename(options.harFile),
    maskPersonalData: !options.unmasked,
  };
  const dir = join(options.reportDir, runId);
  const marks = marksLine(result.marks);
  const tpp = withReason(result.judging.tppResults(context), marks);
  const bank = withReason(
    result.judging.bankResults({ ...context, target: { ...context.target, name: `${context.target.name}: the bank's answers` } }),
    marks,
  );
  const tppFiles = writeResults(join(dir, 'tpp'), tpp);
  const bankFiles = writeResults(join(dir, 'bank'), bank);
  console.log(
    visibleControls(
      `Audited ${result.entries} entries of ${options.harFile} in ${result.finishedAt.getTime() - result.startedAt.getTime()} ms`,
    ),
  );
  if (marks !== undefined) console.log(marks);
  console.log(visibleControls(`TPP side:  ${tpp.verdict}${failedList(tpp)}  ${tppFiles.html}`));
  console.log(visibleControls(`Bank side: ${bank.verdict}${failedList(bank)}  ${bankFiles.html}`));
  return tpp.requirements.some((r) => r.status === 'FAIL') || bank.requirements.some((r) => r.status === 'FAIL') ? 1 : 0;
}

/** What the file's marks came to; nothing when it carries none. */
function marksLine({ verified, unverified }: { verified: number; unverified: number }): string | undefined {
  if (verified === 0 && unverified === 0) return undefined;
  const entries = (n: number) => `${n} entr${n === 1 ? 'y' : 'ies'}`;
  const ignored =
    unverified === 0
      ? ''
      : `; ${entries(unverified)} carried marks this installation did not seal, ignored as unverified (written by hand, moved from another entry, by another installation, or before marks were sealed)`;
  return `Marks: ${entries(verified)} excused by marks this installation sealed${ignored}`;
}

function withReason(results: RunResults, reason: string | undefined): RunResults {
  return reason === undefined ? results : { ...results, verdictReasons: [...results.verdictReasons, reason] };
}

function failedList(results: { requirements: { id: string; status: string }[] }): string {
  const failed = results.requirements.filter((r) => r.status === 'FAIL' || r.status === 'WARNING').map((r) => `${r.id} ${r.status}`);
  return failed.length === 0 ? '' : ` (${failed.join(', ')})`;
}

function readPem(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--trust-ca ${file}: ${(error as Error).message}`);
  }
}
