/** `xs2a-conformance list`: the targets of targets.yaml, one line each. */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { loadTargetsFile } from '../../targets/load.js';
import type { CliCommand } from '../command.js';
import { defaultTargetsFile } from '../package-root.js';

export const listCommand: CliCommand = {
  configure(command) {
    command.option('--targets <file>', 'the targets file (default: $XS2A_TARGETS, else ./targets.yaml, else the one shipped)');
  },
  run(command: Command) {
    const { targets: file } = command.opts<{ targets?: string }>();
    const path = resolve(file ?? defaultTargetsFile());
    const { targets } = loadTargetsFile(path);
    console.log(`Targets in ${path}:`);
    for (const [name, target] of Object.entries(targets)) {
      const where = target.embedded ? 'embedded reference bank' : target.baseUrl;
      const capabilities = target.capabilities?.length ? ` [${target.capabilities.join(', ')}]` : '';
      console.log(`  ${name.padEnd(14)} ${target.environment.padEnd(10)} ${where}${capabilities}`);
    }
    return Promise.resolve(0);
  },
};
