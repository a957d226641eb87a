/** The commands of `xs2a-conformance`, in the order `--help` lists them. A new command is one module, added here. */
import type { CliCommand } from '../command.js';
import { auditCommand } from './audit.js';
import { listCommand } from './list.js';
import { mergeCommand } from './merge.js';
import { proxyCommand } from './proxy.js';
import { packageCommand } from './package.js';
import { replayCommand } from './replay.js';
import { requirementsCommand } from './requirements.js';
import { runCommand } from './run.js';
import { serveCommand } from './serve.js';
import { verifyCommand } from './verify.js';

export const COMMANDS: readonly CliCommand[] = [runCommand, mergeCommand, packageCommand, verifyCommand, replayCommand, listCommand, requirementsCommand, serveCommand, proxyCommand, auditCommand];
