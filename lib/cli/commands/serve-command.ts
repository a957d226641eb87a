/**
 * `xs2a-conformance serve`: the reference bank as a stand-alone sandbox, for a TPP to point its own client
 * at (and for trying faults and variants by hand). Runs until interrupted. With --judge it judges every TPP's requests
 * against the TPP rules (lib/traffic/sandbox-judging.ts): a header names what a request broke, each TPP
 * reads its own report at GET /v1/sandbox/tpp-report, and every report is written when it stops.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { BROKEN_RULES_HEADER, TPP_REPORT_PATH } from '../../../reference/plugins/tpp-judging.js';
import { SCA_PAGE_SETS } from '../../../reference/sca-pages/named-page-sets.js';
import { knownFaults, knownVariants, startReferenceBank } from '../../../reference/server.js';
import { repeatable, UsageError, wholeNumber, type CliCommand } from '../command.js';
import { TOOL } from '../package-root.js';
import { addSwitchOptions } from '../switch-options.js';

interface ServeOptions {
  port: number;
  host: string;
  fault: string[];
  variant: string[];
  caOut: string;
  scaPages?: string;
  listFaults?: boolean;
  listVariants?: boolean;
  judge?: boolean;
  reportDir: string;
  trustCa: string[];
  acceptAnyCertificate?: boolean;
  unmasked?: boolean;
}

export const serveCommand: CliCommand = {
  configure(command) {
    command
      .option('--port <n>', 'HTTPS port (0: a free one)', wholeNumber(0, 65535), 8443)
      .option('--host <address>', 'address to listen on', '127.0.0.1');
    addSwitchOptions(command, [
      { flags: '--fault <name>', kind: 'fault', description: 'inject a fault (repeatable; see --list-faults)' },
      { flags: '--variant <name>', kind: 'variant', description: 'take another legal reading of the specification (repeatable; see --list-variants)' },
    ]);
    command
      .option('--ca-out <file>', "where to write the bank's CA certificate", 'reference-ca.pem')
      .addOption(new Option('--sca-pages <set>', 'the SCA page set').choices(Object.keys(SCA_PAGE_SETS)))
      .option('--list-faults', 'list the faults the bank can inject, one a line, and exit')
      .option('--list-variants', 'list the legal readings the bank can take, with the sentence that allows each, and exit')
      .option('--trust-ca <file>', 'a CA whose TPP certificates the bank accepts (repeatable): it then checks certificates as production does', repeatable, [])
      .option('--accept-any-certificate', 'accept any well-formed TPP certificate, as a local sandbox (the default without --trust-ca)')
      .option('--judge', `judge every TPP's requests against the TPP rules: the header ${BROKEN_RULES_HEADER} names what a request broke, GET /v1${TPP_REPORT_PATH} (signed) gives the caller its report`)
      .option('--report-dir <dir>', 'with --judge: where every TPP report is written when the sandbox stops', 'reports')
      .option('--unmasked', 'with --judge: show PSU identifiers in the reports (masked by default)');
  },
  async run(command: Command) {
    const options = command.opts<ServeOptions>();
    if (options.listFaults) {
      for (const { name, description, breaks } of knownFaults()) console.log(`${name.padEnd(36)} ${description} (breaks ${breaks.join(', ')})`);
      return 0;
    }
    if (options.listVariants) {
      for (const { name, description, allowedBy, source, excludes } of knownVariants()) {
        console.log(`${name.padEnd(36)} ${description}\n${''.padEnd(36)} allowed by ${source}: "${allowedBy}"${excludes.length ? `\n${''.padEnd(36)} excludes ${excludes.join(', ')}` : ''}`);
      }
      return 0;
    }
    if (options.acceptAnyCertificate && options.trustCa.length > 0) throw new UsageError('serve: --trust-ca and --accept-any-certificate exclude each other');
    const trustedTppCaPems = options.trustCa.map((file) => readCertificateFile(file));
    const caOut = resolve(options.caOut);
    let baseUrl = '';
    // Loaded when judging, not for --help.
    const judge = options.judge
      ? new (await import('../../traffic/sandbox-judging.js')).SandboxJudging({ tool: TOOL, baseUrl: () => baseUrl, maskPersonalData: !options.unmasked, ...(trustedTppCaPems.length > 0 ? { trustedCaPems: trustedTppCaPems } : {}) })
      : undefined;
    const bank = await startReferenceBank({
      port: options.port,
      host: options.host,
      faults: options.fault,
      variants: options.variant,
      ...(options.scaPages === undefined ? {} : { scaPages: options.scaPages }),
      ...(trustedTppCaPems.length > 0 ? { trustedTppCaPems } : {}),
      ...(judge === undefined ? {} : { judge }),
    });
    baseUrl = bank.baseUrl;
    writeFileSync(caOut, bank.caPem);
    console.log(`Reference bank listening at ${bank.baseUrl}`);
    console.log(`Its CA certificate (trust it explicitly in your client): ${caOut}`);
    if (bank.faults.length) console.log(`Faults injected: ${bank.faults.join(', ')}`);
    if (bank.variants.length) console.log(`Variants (legal readings the bank takes): ${bank.variants.join(', ')}`);
    console.log(trustedTppCaPems.length > 0 ? `TPP certificates must be issued by one of ${options.trustCa.join(', ')}` : 'Any well-formed TPP certificate is accepted (--accept-any-certificate)');
    if (judge) console.log(`Judging TPP requests: see the ${BROKEN_RULES_HEADER} answer header, and GET ${bank.baseUrl}/v1${TPP_REPORT_PATH} (signed) for your report`);
    await new Promise<void>((done) => {
      process.once('SIGINT', done);
      process.once('SIGTERM', done);
    });
    await bank.close();
    if (judge) {
      const { all, folders } = judge.writeReports(resolve(options.reportDir));
      console.log(`TPP reports (${folders.length} TPP${folders.length === 1 ? '' : 's'}, ${all.verdict}): ${folders.join(', ') || 'none'}`);
    }
    return 0;
  },
};

function readCertificateFile(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`serve: --trust-ca ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  if (!text.includes('-----BEGIN CERTIFICATE-----')) throw new UsageError(`serve: --trust-ca ${file} is not a PEM certificate`);
  return text;
}
