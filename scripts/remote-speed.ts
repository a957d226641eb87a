/**
 * `node --import tsx scripts/remote-speed.ts [--delay-ms 200] [--workers N] [--grep RE] [--tool DIR] [--runs N]`:
 * a run of the suite against a bank across a network. The reference bank is served apart (`serve`, its own
 * process), behind a proxy that holds every answer `--delay-ms` (test/cli/delay-proxy.ts), and the suite runs
 * against it as a remote target, with the entry `serve` prints for itself. Prints each run's wall time and
 * counts. `--tool DIR` runs another checkout's command (an older commit's, for paired figures) against the same bank.
 *
 * Measured on the 2-core machine, every answer 200 ms late, three pairs (other work on the machine): the full
 * suite took 163.4, 163.0 and 162.4 s at a3f5c4a (4 workers, as against any bank over a network), 97.7, 102.9
 * and 99.0 s with the workers for the network (16); 166.5 and 171.6 s with 4 workers on the same commit.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { PACKAGE_ROOT } from '../lib/cli/package-root.js';
import type { RunResults } from '../lib/report/results-types.js';
import { startDelayProxy } from '../test/cli/delay-proxy.js';
import { scriptArguments } from './script-arguments.js';

const USAGE = `usage: node --import tsx scripts/remote-speed.ts [--delay-ms 200] [--workers N] [--grep RE] [--tool DIR] [--runs N] [--keep]

The suite against the reference bank served apart, every answer --delay-ms late (a bank in another data
centre): each run's wall time and counts. --workers sets XS2A_WORKERS (default: the command's own choice);
--tool DIR runs the command of another checkout against the same bank (paired figures); --keep keeps the
reports (their folder is printed).`;

const whole = (name: string, value: string | boolean | undefined) =>
  value === undefined || (typeof value === 'string' && /^\d+$/.test(value))
    ? undefined
    : `${name} is a whole number, not "${String(value)}"`;
const { values } = scriptArguments(USAGE, {
  options: {
    'delay-ms': { type: 'string' },
    workers: { type: 'string' },
    grep: { type: 'string' },
    tool: { type: 'string' },
    runs: { type: 'string' },
    keep: { type: 'boolean' },
  },
  refuse: ({ values: v }) => whole('--delay-ms', v['delay-ms']) ?? whole('--workers', v.workers) ?? whole('--runs', v.runs),
});
const delayMs = Number(values['delay-ms'] ?? 200);
const tool = resolve(String(values.tool ?? PACKAGE_ROOT));
const runs = Number(values.runs ?? 1);

const dir = mkdtempSync(join(tmpdir(), 'xs2a-remote-speed-'));
const proxy = await startDelayProxy(delayMs);
const bank = spawn(
  process.execPath,
  [
    join(PACKAGE_ROOT, 'bin', 'xs2a-conformance.js'),
    'serve',
    '--port',
    '0',
    '--public-url',
    proxy.baseUrl,
    '--ca-out',
    join(dir, 'bank-ca.pem'),
  ],
  {
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
try {
  // serve prints where it listens, then a whole targets.yaml for itself, ended by an empty line.
  const lines = createInterface({ input: bank.stdout });
  const printed: string[] = [];
  for await (const line of lines) {
    const port = /listening at https:\/\/127\.0\.0\.1:(\d+)/.exec(line)?.[1];
    if (port) proxy.upstream = { host: '127.0.0.1', port: Number(port) };
    if (line === 'targets:' || printed.length > 0) {
      if (line === '') break;
      printed.push(line);
    }
  }
  writeFileSync(join(dir, 'targets.yaml'), `${printed.join('\n')}\n`);
  for (let i = 1; i <= runs; i++) {
    const reportDir = join(dir, `run-${i}`);
    const started = Date.now();
    const args = [
      'run',
      '--targets',
      join(dir, 'targets.yaml'),
      '--target',
      'local-sandbox',
      '--report-dir',
      reportDir,
      '--reporter',
      'dot',
      ...(values.grep ? ['--grep', String(values.grep)] : []),
    ];
    const code = await new Promise<number>((done) => {
      const run = spawn(process.execPath, [join(tool, 'bin', 'xs2a-conformance.js'), ...args], {
        stdio: ['ignore', 'ignore', 'inherit'],
        env: { ...process.env, ...(values.workers ? { XS2A_WORKERS: String(values.workers) } : {}) },
      });
      run.once('close', (status) => done(status ?? -1));
    });
    const seconds = (Date.now() - started) / 1000;
    const results = JSON.parse(readFileSync(join(reportDir, 'latest', 'results.json'), 'utf8')) as RunResults;
    const counts = Object.entries(results.summary.tests)
      .filter(([key, n]) => key !== 'total' && n > 0)
      .map(([key, n]) => `${n} ${key}`)
      .join(', ');
    const workers = values.workers ?? "the command's default";
    console.log(
      `run ${i}: delay ${delayMs} ms, workers ${workers}, ${tool}: ${seconds.toFixed(1)} s, exit ${code}, ${results.summary.tests.total} scenarios: ${counts}`,
    );
    // What bounds a run once its scenarios run side by side: the longest ones, each a chain of requests.
    const longest = [...results.tests].sort((a, b) => b.durationMs - a.durationMs).slice(0, 8);
    console.log(
      `  longest: ${longest.map((t) => `${t.scenario} ${(t.durationMs / 1000).toFixed(1)} s`).join(', ')}; all scenarios together ${(results.tests.reduce((sum, t) => sum + t.durationMs, 0) / 1000).toFixed(0)} s`,
    );
  }
} finally {
  bank.kill('SIGINT');
  await proxy.close();
  if (values.keep) console.log(`reports kept in ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
