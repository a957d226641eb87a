/**
 * The commands of `xs2a-conformance`, in the order `--help` lists them. A new command is one module (what it
 * takes and what it does), named here with its one-line summary and usage: the program lists every command
 * from here, and loads only the module of the command that runs (`--help` and `list` need none of the bank,
 * Playwright or the report's code; test/cli/program.test.ts checks each usage against its module).
 */
import type { CliCommandEntry } from '../command.js';

export const COMMANDS: readonly CliCommandEntry[] = [
  {
    name: 'run',
    summary: 'run the conformance suite against a target (the default command)',
    usage: '[options] [test-filter...]',
    isDefault: true,
    load: async () => (await import('./run-command.js')).runCommand,
  },
  {
    name: 'merge',
    summary: "merge the reports of a sharded run's shards into one report and one verdict",
    usage: '[options] <dirs...>',
    load: async () => (await import('./merge-command.js')).mergeCommand,
  },
  {
    name: 'package',
    summary: "zip a report folder with a SHA-256 manifest, signed with the TPP's key on request",
    usage: '[options] <report-dir>',
    load: async () => (await import('./package-command.js')).packageCommand,
  },
  {
    name: 'verify',
    summary: 'check a certification package: what was changed, who signed it',
    usage: '[options] <package>',
    load: async () => (await import('./verify-command.js')).verifyCommand,
  },
  {
    name: 'replay',
    summary: "send a scenario's recorded requests again, freshly signed, and show the answers then and now",
    usage: '[options] <report-dir> <scenario>',
    load: async () => (await import('./replay-command.js')).replayCommand,
  },
  {
    name: 'init',
    summary: 'write a commented target entry into ./targets.yaml (creating it, or adding to it), from flags or questions',
    usage: '[options]',
    load: async () => (await import('./init-command.js')).initCommand,
  },
  {
    name: 'doctor',
    summary: "check a target's set-up before any scenario runs: variables, files, TLS, base URL, TPP certificate, SCA pages, capabilities",
    usage: '[options]',
    load: async () => (await import('./doctor-command.js')).doctorCommand,
  },
  {
    name: 'show-report',
    summary: 'serve a report folder on this machine and open it in the browser',
    usage: '[options] [dir]',
    load: async () => (await import('./show-report-command.js')).showReportCommand,
  },
  {
    name: 'list',
    summary: 'list the targets of targets.yaml',
    usage: '[options]',
    load: async () => (await import('./list-command.js')).listCommand,
  },
  {
    name: 'requirements',
    summary: 'list the requirement catalogue (--uncovered: what no scenario checks yet), or show the entries named',
    usage: '[options] [ids...]',
    load: async () => (await import('./requirements-command.js')).requirementsCommand,
  },
  {
    name: 'serve',
    summary: 'run the reference bank as a sandbox for your own TPP client',
    usage: '[options]',
    load: async () => (await import('./serve-command.js')).serveCommand,
  },
  {
    name: 'proxy',
    summary: "judge a TPP's traffic to a bank, passing it through unchanged",
    usage: '[options]',
    load: async () => (await import('./proxy-command.js')).proxyCommand,
  },
  {
    name: 'audit',
    summary: "judge recorded traffic (a HAR) on both sides: the TPP's requests and the bank's answers",
    usage: '[options] <traffic.har>',
    load: async () => (await import('./audit-command.js')).auditCommand,
  },
  {
    name: 'cert',
    summary: 'issue a test QWAC/QSealC-like TPP certificate with chosen PSD2 roles, for the sandbox and your own tests',
    usage: '[options]',
    load: async () => (await import('./cert-command.js')).certCommand,
  },
];
