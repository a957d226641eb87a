/**
 * `xs2a-conformance show-report [dir]`: serves a report folder on 127.0.0.1 and opens it in the desktop's
 * browser. It prints the address first, so it works headless (a CI job, a container: `--no-open`, or no
 * display to open one on), and serves until Ctrl-C. Exit 0 when stopped, 2 for a folder with no report.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { serveReport } from '../../report/report-server.js';
import { REPORT_FILES } from '../../report/write.js';
import { UsageError, wholeNumber, type CliCommand } from '../command.js';

export const showReportCommand: CliCommand = {
  configure(command) {
    command
      .argument('[dir]', 'the report folder, or a --report-dir holding latest/', 'reports')
      .option('--port <n>', 'the port to serve on (default: a free one)', wholeNumber(0, 65535))
      .option('--no-open', 'print the address only, open no browser (CI, a machine without a display)')
      .addHelpText(
        'after',
        `
Serves only the report's own files, on 127.0.0.1 (this machine), until Ctrl-C.

Examples:
  $ xs2a-conformance show-report
  $ xs2a-conformance show-report reports/release/latest --no-open`,
      );
  },
  async run(command: Command) {
    const { port = 0, open } = command.opts<{ port?: number; open: boolean }>();
    const [given = 'reports'] = command.args;
    const dir = [resolve(given), resolve(given, 'latest')].find((candidate) => existsSync(join(candidate, REPORT_FILES.html)));
    if (!dir) throw new UsageError(`show-report: no ${REPORT_FILES.html} in ${given} nor in ${join(given, 'latest')}`);
    const { server, url } = await serveReport(dir, port);
    console.log(`Serving ${dir} at ${url} (Ctrl-C to stop)`);
    if (open) openInBrowser(url);
    await new Promise<void>((done) => {
      const stop = () => server.close(() => done());
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    return 0;
  },
};

/** The desktop's own opener, when there is a desktop; nothing happens without one (the address is printed). */
function openInBrowser(url: string): void {
  const opener =
    process.platform === 'darwin'
      ? ['open', url]
      : process.platform === 'win32'
        ? ['cmd', '/c', 'start', '', url]
        : process.env.DISPLAY || process.env.WAYLAND_DISPLAY
          ? ['xdg-open', url]
          : undefined;
  if (!opener) return;
  const [program = '', ...args] = opener;
  spawn(program, args, { stdio: 'ignore', detached: true })
    .on('error', () => undefined)
    .unref();
}
