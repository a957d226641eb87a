/**
 * `xs2a-conformance audit traffic.har`: judges recorded traffic between TPPs and a bank on both sides (the
 * TPP rules and the bank's every-exchange rules) and writes both reports, streamed (see lib/traffic/audit.ts).
 *
 * Exit codes: 0 nothing failed; 1 a MUST rule failed on either side; 2 usage error or a file that is no HAR.
 */
import { readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { auditHar } from '../../traffic/audit.js';
import { HarFormatError } from '../../har/index.js';
import { writeResults, type ReportContext } from '../../traffic/report.js';
import { UsageError } from '../args.js';
import { TOOL } from '../package.js';

export const AUDIT_USAGE = `Usage: xs2a-conformance audit <traffic.har> [options]

Judges recorded traffic between TPPs and a bank: each TPP's requests against the TPP rules (TPP-…), the
bank's answers against the rules checked on every exchange. Writes <report-dir>/<run-id>/tpp/ and bank/
(results.json, index.html).

Options:
  --base-path PATH     where the interface lives on the bank (/psd2 for https://bank.example/psd2/v1/...);
                       default: read from each request (what comes before /v1/)
  --environment ENV    sandbox or production: when the structured-address rule is enforced (default: the
                       later date, production's)
  --trust-ca FILE      a CA the bank trusts for TPP certificates (repeatable); without one, TPP-18 is not judged
  --report-dir DIR     where reports go (default: reports)
  --unmasked           show PSU identifiers in the reports (masked by default)
  -h, --help           this text

Exit codes: 0 nothing failed, 1 a MUST rule failed (either side), 2 usage error or not a HAR file.`;

export interface AuditCommandOptions {
  harFile: string;
  basePath?: string;
  environment?: string;
  trustCaFiles: string[];
  reportDir: string;
  unmasked: boolean;
}

/** The options of `audit` from its arguments (until lib/cli parses every command with one library). */
export function parseAuditArgs(argv: readonly string[]): AuditCommandOptions | 'help' {
  const { values, positionals } = parseOrUsageError(argv);
  if (values.help) return 'help';
  if (positionals.length !== 1) throw new UsageError(`audit: give exactly one HAR file (got ${positionals.length})\n\n${AUDIT_USAGE}`);
  return {
    harFile: positionals[0] as string,
    ...(values['base-path'] === undefined ? {} : { basePath: values['base-path'] }),
    ...(values.environment === undefined ? {} : { environment: values.environment }),
    trustCaFiles: values['trust-ca'] ?? [],
    reportDir: values['report-dir'] ?? 'reports',
    unmasked: values.unmasked ?? false,
  };
}

function parseOrUsageError(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        'base-path': { type: 'string' },
        environment: { type: 'string' },
        'trust-ca': { type: 'string', multiple: true },
        'report-dir': { type: 'string' },
        unmasked: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError(`audit: ${(error as Error).message}`);
  }
}

export async function auditCommand(argv: readonly string[]): Promise<number> {
  const options = parseAuditArgs(argv);
  if (options === 'help') {
    console.log(AUDIT_USAGE);
    return 0;
  }
  return runAudit(options);
}

export async function runAudit(options: AuditCommandOptions): Promise<number> {
  const trustedCaPems = options.trustCaFiles.map((file) => readPem(file));
  let result;
  try {
    result = await auditHar(resolve(options.harFile), {
      ...(options.basePath === undefined ? {} : { basePath: options.basePath }),
      ...(options.environment === undefined ? {} : { environment: options.environment }),
      ...(trustedCaPems.length === 0 ? {} : { trustedCaPems }),
    });
  } catch (error) {
    if (error instanceof HarFormatError) throw new UsageError(`audit: ${error.message}`);
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new UsageError(`audit: no such file ${options.harFile}`);
    throw error;
  }
  const runId = `audit-${result.startedAt.toISOString().replace(/[:.]/g, '-')}`;
  const context: ReportContext = {
    runId,
    startedAt: result.startedAt,
    finishedAt: result.finishedAt,
    tool: TOOL,
    target: { name: `audit of ${basename(options.harFile)}`, environment: options.environment ?? 'unknown', baseUrl: options.basePath ?? '', embedded: false, faults: [] },
    source: basename(options.harFile),
    maskPersonalData: !options.unmasked,
  };
  const dir = join(options.reportDir, runId);
  const tpp = result.judging.tppResults(context);
  const bank = result.judging.bankResults({ ...context, target: { ...context.target, name: `${context.target.name}: the bank's answers` } });
  const tppFiles = writeResults(join(dir, 'tpp'), tpp);
  const bankFiles = writeResults(join(dir, 'bank'), bank);
  console.log(`Audited ${result.entries} entries of ${options.harFile} in ${result.finishedAt.getTime() - result.startedAt.getTime()} ms`);
  console.log(`TPP side:  ${tpp.verdict}${failedList(tpp)}  ${tppFiles.html}`);
  console.log(`Bank side: ${bank.verdict}${failedList(bank)}  ${bankFiles.html}`);
  return tpp.requirements.some((r) => r.status === 'FAIL') || bank.requirements.some((r) => r.status === 'FAIL') ? 1 : 0;
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
