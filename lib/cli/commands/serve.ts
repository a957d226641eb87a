/**
 * `xs2a-conformance serve`: the reference bank as a stand-alone sandbox, for a TPP to point its own client
 * at (and for trying faults and variants by hand). Runs until interrupted.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { SCA_PAGE_SETS } from '../../../reference/sca-page-set.js';
import { knownFaults, knownVariants, startReferenceBank, UnknownSwitchError } from '../../../reference/server.js';
import { UsageError } from '../args.js';

export async function serveCommand(argv: readonly string[]): Promise<number> {
  let port = 8443;
  let host = '127.0.0.1';
  let caOut = resolve('reference-ca.pem');
  const faults: string[] = [];
  const variants: string[] = [];
  let scaPages: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`serve: ${argv[i - 1]} needs a value`);
      return v;
    };
    const arg = argv[i];
    if (arg === '--port') port = Number(value());
    else if (arg === '--host') host = value();
    else if (arg === '--fault') faults.push(value());
    else if (arg === '--variant') variants.push(value());
    else if (arg === '--ca-out') caOut = resolve(value());
    else if (arg === '--sca-pages') scaPages = value();
    else if (arg === '--list-faults') {
      for (const { name, description, breaks } of knownFaults()) console.log(`${name.padEnd(36)} ${description} (breaks ${breaks.join(', ')})`);
      return 0;
    } else if (arg === '--list-variants') {
      for (const { name, description, allowedBy, source, excludes } of knownVariants()) {
        console.log(`${name.padEnd(36)} ${description}\n${''.padEnd(36)} allowed by ${source}: "${allowedBy}"${excludes.length ? `\n${''.padEnd(36)} excludes ${excludes.join(', ')}` : ''}`);
      }
      return 0;
    } else throw new UsageError(`serve: unknown option ${arg}`);
  }
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('serve: --port must be 0-65535');
  if (scaPages !== undefined && !Object.hasOwn(SCA_PAGE_SETS, scaPages)) throw new UsageError(`serve: --sca-pages must be one of ${Object.keys(SCA_PAGE_SETS).join(', ')}`);
  const bank = await startReferenceBank({ port, host, faults, variants, ...(scaPages === undefined ? {} : { scaPages }) }).catch((error: unknown) => {
    if (error instanceof UnknownSwitchError) throw new UsageError(`serve: --${error.kind}: ${error.message}`);
    throw error;
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
}
