/**
 * `xs2a-conformance replay <report dir> <scenario id>`: sends a scenario's recorded requests again, freshly
 * signed and dated, to the same target (the embedded reference bank is started again with the same faults),
 * and shows the answer then and now, side by side. Exit 0 replayed (whatever the answers), 2 usage error,
 * 3 target unreachable.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Masker } from '../../report/mask.js';
import { describeAnswer, replayRequest } from '../../report/replay.js';
import type { RunResults } from '../../report/results-types.js';
import { EXIT_CODES } from '../../report/verdict.js';
import { loadTargetsFile, selectTarget } from '../../targets/load.js';
import { DEFAULT_PROFILE, secretsOf } from '../../targets/run-context.js';
import type { SigningDefect } from '../../tpp/index.js';
import type { Command } from 'commander';
import { UsageError, type CliCommand } from '../command.js';
import { defaultTargetsFile } from '../package-root.js';
import { readRunSource } from '../run-source.js';

export interface ReplayOptions {
  reportDir: string;
  scenario: string;
  targetsFile?: string;
  json: boolean;
}

export const replayCommand: CliCommand = {
  configure(command) {
    command
      .argument('<report-dir>', 'the report folder of the run')
      .argument('<scenario>', 'the scenario id (SIG-04.a)')
      .option('--targets <file>', "the targets file (default: the run's, else $XS2A_TARGETS, else ./targets.yaml, else the one shipped)")
      .option('--json', 'print the answers as JSON')
      .addHelpText(
        'after',
        `
Full exchanges are kept for every scenario that did not pass. X-Request-ID, Date, TPP-Signature-Certificate
and Signature are made anew with the TPP of targets.yaml, the scenario's deliberate signing defects applied again, the
rest sent as recorded. The embedded reference bank is started afresh with the run's faults: resources the
scenario created earlier do not exist in it. A production target gets nothing but reads that use no quota
(the TPP client's own guard, as in a run); the answers are masked unless the run was --unmasked.

Example:
  $ xs2a-conformance replay reports/latest SIG-04.a`,
      );
  },
  run(command: Command) {
    const options = command.opts<{ targets?: string; json?: boolean }>();
    const [reportDir = '', scenario = ''] = command.args;
    return runReplay({ reportDir, scenario, json: options.json ?? false, ...(options.targets ? { targetsFile: options.targets } : {}) });
  },
};

interface Replayed {
  request: string;
  malformed?: string;
  then: string;
  now: string;
  sameStatus: boolean;
  note?: string;
}

export async function runReplay(options: ReplayOptions): Promise<number> {
  const results = readResults(options.reportDir);
  const test = results.tests.find((t) => t.scenario === options.scenario && t.gauntletCase === undefined);
  if (!test)
    throw new UsageError(`replay: no scenario ${options.scenario} in ${options.reportDir} (it has ${results.tests.length} scenarios)`);
  const exchanges = test.evidence.exchanges.filter((e) => e.request);
  if (exchanges.length === 0) {
    throw new UsageError(
      `replay: ${test.scenario} ${test.status === 'PASS' ? 'passed, and a passing scenario keeps only a summary line per request' : 'recorded no request'}: nothing to replay`,
    );
  }
  // Loaded when the command runs, not when the program starts.
  const [{ ProductionRefusal, TargetUnreachableError, TppClient, loadTppIdentity }, { prepareTarget }] = await Promise.all([
    import('../../tpp/index.js'),
    import('../prepare-target.js'),
  ]);
  const targetsFile = resolve(options.targetsFile ?? targetsFileOfRun(options.reportDir));
  const config = selectTarget(loadTargetsFile(targetsFile), results.target.name);
  const configured = typeof config.embedded === 'object' ? (config.embedded.faults ?? []) : [];
  const configuredVariants = typeof config.embedded === 'object' ? (config.embedded.variants ?? []) : [];
  const workDir = mkdtempSync(join(tmpdir(), 'xs2a-replay-'));
  const prepared = await prepareTarget(results.target.name, config, {
    faults: results.target.faults.filter((fault) => !configured.includes(fault)),
    variants: (results.target.variants ?? []).filter((variant) => !configuredVariants.includes(variant)),
    targetsDir: dirname(targetsFile),
    workDir,
    env: process.env,
  }).catch((error: unknown) => {
    rmSync(workDir, { recursive: true, force: true });
    throw error;
  });
  try {
    const { target } = prepared;
    const profile = target.tpps[DEFAULT_PROFILE];
    if (!profile) throw new UsageError(`replay: target ${target.name} has no TPP to act as`);
    const identity = loadTppIdentity({
      certificatePem: profile.certificatePem,
      privateKeyPem: readFileSync(profile.privateKeyFile, 'utf8'),
    });
    // The client's own production guard decides what may be sent, as in a run.
    const client = new TppClient({
      baseUrl: target.baseUrl,
      identity,
      timeoutMs: target.timeouts.requestMs,
      safety: { environment: target.environment, sender: `replay of ${test.scenario}`, paths: target.paths },
      ...(target.caPem ? { ca: target.caPem } : {}),
    });
    // What the bank answers now is shown as the report showed it then: masked unless the run was --unmasked.
    const masker = new Masker(results.provenance.masked, secretsOf(target));
    const replayed: Replayed[] = [];
    try {
      for (const exchange of exchanges) {
        const request = replayRequest(exchange, results.target.baseUrl, target.baseUrl);
        if (!request) continue;
        const then = masker.display(describeAnswer(exchange.response, exchange.error));
        const line = masker.display(`${request.method} ${request.url}`);
        const common = { request: line, ...(request.malformed ? { malformed: request.malformed } : {}), then };
        try {
          const response = await client.request({
            method: request.method,
            path: request.url,
            headers: request.headers,
            omitHeaders: request.omitHeaders,
            signingDefects: request.signingDefects as SigningDefect[],
            ...(request.rawBody !== undefined ? { rawBody: request.rawBody } : {}),
          });
          replayed.push({
            ...common,
            now: masker.display(describeAnswer({ status: response.status, body: response.bodyText })),
            sameStatus: response.status === exchange.response?.status,
            ...(request.masked
              ? {
                  note: 'the report masked PSU identifiers in this request; it was sent masked (replay a report of an --unmasked run to send them as they were)',
                }
              : {}),
          });
        } catch (error) {
          if (error instanceof ProductionRefusal) {
            replayed.push({ ...common, now: `not sent: ${error.message}`, sameStatus: false });
            continue;
          }
          if (!(error instanceof TargetUnreachableError)) throw error;
          replayed.push({ ...common, now: `no answer: ${masker.display(error.message)}`, sameStatus: false });
        }
      }
    } finally {
      await client.close();
    }
    print(options, results, test.scenario, test.status, target, replayed);
    return replayed.some((r) => r.now.startsWith('no answer')) ? EXIT_CODES.infrastructureFailure : 0;
  } finally {
    await prepared.stop();
    rmSync(workDir, { recursive: true, force: true });
  }
}

function print(
  options: ReplayOptions,
  results: RunResults,
  scenario: string,
  status: string,
  target: { name: string; baseUrl: string; faults: string[] },
  replayed: Replayed[],
): void {
  if (options.json) {
    console.log(
      JSON.stringify(
        {
          scenario,
          status,
          run: results.runId,
          target: { name: target.name, baseUrl: target.baseUrl, faults: target.faults },
          exchanges: replayed,
        },
        null,
        2,
      ),
    );
    return;
  }
  console.log(
    `Replaying ${scenario} (${status} in run ${results.runId}) against ${target.name} at ${target.baseUrl}${target.faults.length ? `, faults: ${target.faults.join(', ')}` : ''}`,
  );
  replayed.forEach((r, i) => {
    console.log(`\n${i + 1}/${replayed.length} ${r.request}${r.malformed ? `  (malformed on purpose: ${r.malformed})` : ''}`);
    console.log(`  then: ${r.then}`);
    console.log(`  now:  ${r.now}`);
    console.log(`  ${r.sameStatus ? 'same status as in the run' : 'the status differs from the run'}`);
    if (r.note) console.log(`  note: ${r.note}`);
  });
}

/** The targets file the run read (run-source.json beside its report), while it is there; else the default one. */
function targetsFileOfRun(reportDir: string): string {
  const recorded = readRunSource(resolve(reportDir))?.targetsFile;
  if (recorded !== undefined && existsSync(recorded)) return recorded;
  if (recorded !== undefined)
    console.error(
      `xs2a-conformance: replay: the run's targets file ${recorded} is gone; reading ${defaultTargetsFile()} (--targets to choose)`,
    );
  return defaultTargetsFile();
}

function readResults(reportDir: string): RunResults {
  const file = join(resolve(reportDir), 'results.json');
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as RunResults;
  } catch (error) {
    throw new UsageError(`replay: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
}
