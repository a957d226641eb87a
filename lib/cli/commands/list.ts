/** `xs2a-conformance list`: the targets of targets.yaml, one line each. */
import { resolve } from 'node:path';
import { loadTargetsFile } from '../../targets/load.js';
import { UsageError } from '../args.js';
import { defaultTargetsFile } from '../package.js';

export function listCommand(argv: readonly string[]): Promise<number> {
  let file: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--targets') file = argv[++i];
    else throw new UsageError(`list: unknown option ${argv[i]}`);
  }
  const path = resolve(file ?? defaultTargetsFile());
  const { targets } = loadTargetsFile(path);
  console.log(`Targets in ${path}:`);
  for (const [name, target] of Object.entries(targets)) {
    const where = target.embedded ? 'embedded reference bank' : target.baseUrl;
    const capabilities = target.capabilities?.length ? ` [${target.capabilities.join(', ')}]` : '';
    console.log(`  ${name.padEnd(14)} ${target.environment.padEnd(10)} ${where}${capabilities}`);
  }
  return Promise.resolve(0);
}
