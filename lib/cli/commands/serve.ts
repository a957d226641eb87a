/**
 * `xs2a-conformance serve`: the reference bank as a stand-alone sandbox, for a TPP to point its own client
 * at (and for trying faults and variants by hand). Runs until interrupted.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { SCA_PAGE_SETS } from '../../../reference/sca-page-set.js';
import { knownFaults, knownVariants, startReferenceBank } from '../../../reference/server.js';
import { wholeNumber, type CliCommand } from '../command.js';
import { switchOption } from '../switch-options.js';

interface ServeOptions {
  port: number;
  host: string;
  fault: string[];
  variant: string[];
  caOut: string;
  scaPages?: string;
  listFaults?: boolean;
  listVariants?: boolean;
}

export const serveCommand: CliCommand = {
  name: 'serve',
  summary: 'run the reference bank as a sandbox for your own TPP client',
  configure(command) {
    command
      .option('--port <n>', 'HTTPS port (0: a free one)', wholeNumber(0, 65535), 8443)
      .option('--host <address>', 'address to listen on', '127.0.0.1')
      .addOption(switchOption('--fault <name>', 'fault', 'inject a fault (repeatable; see --list-faults)'))
      .addOption(switchOption('--variant <name>', 'variant', 'take another legal reading of the specification (repeatable; see --list-variants)'))
      .option('--ca-out <file>', "where to write the bank's CA certificate", 'reference-ca.pem')
      .addOption(new Option('--sca-pages <set>', 'the SCA page set').choices(Object.keys(SCA_PAGE_SETS)))
      .option('--list-faults', 'list the faults the bank can inject, one a line, and exit')
      .option('--list-variants', 'list the legal readings the bank can take, with the sentence that allows each, and exit');
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
    const caOut = resolve(options.caOut);
    const bank = await startReferenceBank({
      port: options.port,
      host: options.host,
      faults: options.fault,
      variants: options.variant,
      ...(options.scaPages === undefined ? {} : { scaPages: options.scaPages }),
    });
    writeFileSync(caOut, bank.caPem);
    console.log(`Reference bank listening at ${bank.baseUrl}`);
    console.log(`Its CA certificate (trust it explicitly in your client): ${caOut}`);
    if (bank.faults.length) console.log(`Faults injected: ${bank.faults.join(', ')}`);
    if (bank.variants.length) console.log(`Variants (legal readings the bank takes): ${bank.variants.join(', ')}`);
    await new Promise<void>((done) => {
      process.once('SIGINT', done);
      process.once('SIGTERM', done);
    });
    await bank.close();
    return 0;
  },
};
