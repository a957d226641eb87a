/** The commands of `xs2a-conformance`, in the order `--help` lists them. A new command is one module, added here. */
import type { CliCommand } from '../command.js';
import { auditCommand } from './audit-command.js';
import { listCommand } from './list-command.js';
import { mergeCommand } from './merge-command.js';
import { proxyCommand } from './proxy-command.js';
import { packageCommand } from './package-command.js';
import { replayCommand } from './replay-command.js';
import { requirementsCommand } from './requirements-command.js';
import { runCommand } from './run-command.js';
import { serveCommand } from './serve-command.js';
import { verifyCommand } from './verify-command.js';

export const COMMANDS: readonly CliCommand[] = [runCommand, mergeCommand, packageCommand, verifyCommand, replayCommand, listCommand, requirementsCommand, serveCommand, proxyCommand, auditCommand];
