/**
 * `xs2a-conformance proxy --target NAME`: the judging proxy in front of a bank of targets.yaml (see
 * lib/traffic/proxy.ts). It prints each broken rule as it passes, appends every exchange to a HAR file, and
 * writes both reports (TPP side, bank side) when stopped. With the embedded reference bank as the target,
 * the bank is started behind the proxy, its links and SCA pages reached through it, so the PSU's redirects
 * are judged too.
 *
 * Exit codes: 0 stopped with nothing failed; 1 a MUST rule failed on either side; 2 usage or configuration error.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { repeatable, wholeNumber, type CliCommand } from '../command.js';
import { defaultTargetsFile } from '../package-root.js';

export const proxyCommand: CliCommand = {
  configure(command) {
    command
      .requiredOption('--target <name>', 'the bank (targets.yaml); the embedded reference bank is started behind the proxy')
      .option('--targets <file>', 'the targets file (default: $XS2A_TARGETS, else ./targets.yaml, else the one shipped)')
      .option('--port <n>', 'HTTPS port to listen on (0: a free one)', wholeNumber(0, 65535), 9443)
      .option('--host <address>', 'address to listen on', '127.0.0.1')
      .option('--har <file>', 'where to append the traffic (default: <report-dir>/<run-id>/traffic.har)')
      .option('--ca-out <file>', "where to write the proxy's CA certificate", 'proxy-ca.pem')
      .option(
        '--trust-ca <file>',
        'a CA the bank trusts for TPP certificates (repeatable); without one, TPP-18 is not judged',
        repeatable,
        [],
      )
      .option('--report-dir <dir>', 'where reports go (<dir>/<run-id>/tpp/ and bank/)', 'reports')
      .option(
        '--unmasked',
        'keep PSU identifiers, credentials and personal data in the reports and the HAR as sent (masked by default; an audit of the HAR judges signatures and digests only then)',
      )
      .addHelpText(
        'after',
        `
Point the TPP's client at the printed address (the bank's base path kept), trusting the proxy's CA. Requests
and answers pass unchanged, the TPP's certificate and signature included: the proxy never signs. Each broken
rule is printed as it passes; the reports are written when the proxy is stopped (Ctrl-C). The proxy is
bounded as the reference bank is (its deadlines, its connections per client address) and answers with the
specification's error body what it refuses itself: a request target that is no path (400), a body over its
limit (413), no answer of the bank or one over its limit (502). Exit codes: 0 nothing failed, 1 a MUST rule
failed (either side), 2 usage or configuration error.`,
      );
  },
  async run(command: Command) {
    const options = command.opts<{
      target: string;
      targets?: string;
      port: number;
      host: string;
      har?: string;
      caOut: string;
      trustCa: string[];
      reportDir: string;
      unmasked?: boolean;
    }>();
    // Loaded when the command runs, not for --help.
    const { startProxySession } = await import('../proxy-session.js');
    const session = await startProxySession({
      target: options.target,
      targetsFile: options.targets ?? defaultTargetsFile(),
      port: options.port,
      host: options.host,
      ...(options.har === undefined ? {} : { harFile: options.har }),
      caOut: options.caOut,
      trustCaFiles: options.trustCa,
      reportDir: options.reportDir,
      unmasked: options.unmasked ?? false,
    });
    writeFileSync(resolve(options.caOut), session.caPem);
    console.log(`Judging proxy for ${options.target} at ${session.baseUrl} (its CA: ${resolve(options.caOut)})`);
    console.log(`Traffic: ${session.harFile}; reports when stopped (Ctrl-C)`);
    await new Promise<void>((done) => {
      process.once('SIGINT', done);
      process.once('SIGTERM', done);
    });
    const { tpp, bank, dir, exitCode } = await session.stop();
    console.log(`TPP side: ${tpp.verdict} · bank side: ${bank.verdict} · ${session.proxy.exchanges} exchanges · reports in ${dir}`);
    return exitCode;
  },
};
