/**
 * `xs2a-conformance serve`: the reference bank as a stand-alone sandbox, for a TPP to point its own client
 * at (and for trying faults and variants by hand). Runs until interrupted. With --judge it judges every TPP's requests
 * against the TPP rules (lib/traffic/sandbox-judging.ts): a header names what a request broke, each TPP
 * reads its own report at GET /v1/sandbox/tpp-report, and every report is written when it stops.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { BROKEN_RULES_HEADER, TPP_REPORT_PATH } from '../../../reference/plugins/tpp-judging.js';
import { SCA_PAGE_SETS } from '../../../reference/sca-pages/named-page-sets.js';
import { knownFaults, knownVariants, startReferenceBank } from '../../../reference/server.js';
import { loadTargetsFile, selectTarget } from '../../targets/load.js';
import { repeatable, UsageError, wholeNumber, type CliCommand } from '../command.js';
import { PACKAGE_ROOT, TOOL } from '../package-root.js';
import { targetEntryYaml } from '../target-entry.js';
import { addSwitchOptions } from '../switch-options.js';

interface ServeOptions {
  port: number;
  host: string;
  publicUrl?: string;
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
      .option('--host <address>', 'address to listen on', '127.0.0.1')
      .option(
        '--public-url <url>',
        'the address TPPs reach the bank at when something stands in front of it (a proxy, a tunnel): its links and scaRedirect point there',
        httpsAddress,
      );
    addSwitchOptions(command, [
      { flags: '--fault <name>', kind: 'fault', description: 'inject a fault (repeatable; see --list-faults)' },
      {
        flags: '--variant <name>',
        kind: 'variant',
        description: 'take another legal reading of the specification (repeatable; see --list-variants)',
      },
    ]);
    command
      .option('--ca-out <file>', "where to write the bank's CA certificate", 'reference-ca.pem')
      .addOption(new Option('--sca-pages <set>', 'the SCA page set').choices(Object.keys(SCA_PAGE_SETS)))
      .option('--list-faults', 'list the faults the bank can inject, one a line, and exit')
      .option('--list-variants', 'list the legal readings the bank can take, with the sentence that allows each, and exit')
      .option(
        '--trust-ca <file>',
        'a CA whose TPP certificates the bank accepts (repeatable): it then checks certificates as production does',
        repeatable,
        [],
      )
      .option('--accept-any-certificate', 'accept any well-formed TPP certificate, as a local sandbox (the default without --trust-ca)')
      .option(
        '--judge',
        `judge every TPP's requests against the TPP rules: the header ${BROKEN_RULES_HEADER} names what a request broke, GET /v1${TPP_REPORT_PATH} (signed) gives the caller its report`,
      )
      .option('--report-dir <dir>', 'with --judge: where every TPP report is written when the sandbox stops', 'reports')
      .option('--unmasked', 'with --judge: show PSU identifiers in the reports (masked by default)');
  },
  async run(command: Command) {
    const options = command.opts<ServeOptions>();
    if (options.listFaults) {
      for (const { name, description, breaks } of knownFaults())
        console.log(`${name.padEnd(36)} ${description} (breaks ${breaks.join(', ')})`);
      return 0;
    }
    if (options.listVariants) {
      for (const { name, description, allowedBy, source, excludes } of knownVariants()) {
        console.log(
          `${name.padEnd(36)} ${description}\n${''.padEnd(36)} allowed by ${source}: "${allowedBy}"${excludes.length ? `\n${''.padEnd(36)} excludes ${excludes.join(', ')}` : ''}`,
        );
      }
      return 0;
    }
    if (options.acceptAnyCertificate && options.trustCa.length > 0)
      throw new UsageError('serve: --trust-ca and --accept-any-certificate exclude each other');
    const trustedTppCaPems = options.trustCa.map((file) => readCertificateFile(file));
    const caOut = resolve(options.caOut);
    let baseUrl = '';
    // Loaded when judging, not for --help.
    const judge = options.judge
      ? new (await import('../../traffic/sandbox-judging.js')).SandboxJudging({
          tool: TOOL,
          baseUrl: () => baseUrl,
          maskPersonalData: !options.unmasked,
          ...(trustedTppCaPems.length > 0 ? { trustedCaPems: trustedTppCaPems } : {}),
        })
      : undefined;
    const bank = await startReferenceBank({
      port: options.port,
      host: options.host,
      // A sandbox as TPP developers meet a bank's: one set of PSUs every TPP sees, each TPP's own data apart.
      tenancy: 'shared-psus',
      ...(options.publicUrl === undefined ? {} : { publicBaseUrl: options.publicUrl }),
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
    console.log(
      trustedTppCaPems.length > 0
        ? `TPP certificates must be issued by one of ${options.trustCa.join(', ')}`
        : 'Any well-formed TPP certificate is accepted (--accept-any-certificate)',
    );
    if (judge)
      console.log(
        `Judging TPP requests: see the ${BROKEN_RULES_HEADER} answer header, and GET ${bank.baseUrl}/v1${TPP_REPORT_PATH} (signed) for your report`,
      );
    console.log(
      `\nA targets.yaml for the suite against this sandbox (xs2a-conformance run --targets FILE --target ${SERVED_TARGET}; or the entry under targets: in yours):`,
    );
    console.log(`targets:\n${servedTargetEntry(options.publicUrl ?? bank.baseUrl, caOut, options)}`);
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

/** The name of the target entry serve prints for itself. */
const SERVED_TARGET = 'local-sandbox';

/**
 * serve's own target entry: the reference bank's PSUs, SCA steps, sandbox operations and capabilities, less what a
 * bank served apart cannot offer a run: each TPP key gets a world of its own here, so a second TPP (a key of its own)
 * never sees the first one's PSUs (second-tpp), and a bank that accepts any certificate, or trusts only the CAs of
 * --trust-ca, does not refuse the suite's untrusted-CA variants as one that trusts its test CA does (test-ca-trusted).
 */
function servedTargetEntry(baseUrl: string, caFile: string, options: ServeOptions): string {
  const reference = selectTarget(loadTargetsFile(join(PACKAGE_ROOT, 'targets.yaml')), 'reference');
  const ownCertificate = options.trustCa.length > 0;
  return targetEntryYaml({
    name: SERVED_TARGET,
    description: 'the reference bank served by xs2a-conformance serve',
    baseUrl,
    environment: 'sandbox',
    ca: caFile,
    // A certificate the bank trusts, when it checks them (--trust-ca): the suite's generated one is not.
    tpp: ownCertificate ? { certificate: 'tpp.pem', privateKey: 'tpp-key.pem' } : { generate: true },
    redirectUri: reference.tpp?.redirectUri ?? 'https://tpp.example/callback',
    psus: reference.psus ?? {},
    sca: options.scaPages === 'alternative' ? 'alternative' : 'reference',
    sandboxOfStartingPoint: true,
    capabilities: (reference.capabilities ?? []).filter((capability) => capability !== 'second-tpp' && capability !== 'test-ca-trusted'),
  });
}

function httpsAddress(value: string): string {
  if (!/^https:\/\/[^\s/?#]+$/.test(value.replace(/\/+$/, '')))
    throw new InvalidArgumentError(`expected an https:// address without a path, not "${value}"`);
  return value.replace(/\/+$/, '');
}

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
