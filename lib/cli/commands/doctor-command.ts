/**
 * `xs2a-conformance doctor --target NAME`: the whole preflight of a target, every problem at once, before any
 * scenario runs: its environment variables (all of those not set), its files (the CA, the TPP's certificate
 * and key, and that the key is the certificate's), then over the network (lib/cli/target-checks.ts): TLS
 * against tls.ca, the interface under baseUrl, the TPP certificate accepted, the first SCA page against `sca`,
 * and the capabilities it declares. Reads only; against production, the interface alone.
 *
 * Exit codes: 0 nothing wrong (warnings allowed), 2 a problem of the configuration, 3 the target unreachable.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { ConfigError } from '../../targets/config-error.js';
import { interpolateTarget, loadTargetsFile, selectTarget } from '../../targets/load.js';
import { pemSource, targetFileProblems } from '../../targets/target-files.js';
import type { TargetConfig } from '../../targets/target-types.js';
import type { CliCommand } from '../command.js';
import { defaultTargetsFile } from '../package-root.js';
import type { Finding } from '../target-checks.js';

interface DoctorOptions {
  target: string;
  targets?: string;
  json?: boolean;
}

export const doctorCommand: CliCommand = {
  configure(command) {
    command
      .option('--target <name>', 'the target of targets.yaml', 'reference')
      .option('--targets <file>', 'the targets file (default: $XS2A_TARGETS, else ./targets.yaml, else the one shipped)')
      .option('--json', 'the findings as JSON')
      .addHelpText(
        'after',
        `
Checks, all of them, every problem at once: the target's \${VAR}s; its files (tls.ca, the TPP's certificate
and key); TLS against tls.ca (naming what the bank presented); that the interface answers under baseUrl (a
signed GET /v1/accounts); that the bank accepts the TPP certificate; that the first SCA page matches a rule of
sca; that the declared capabilities answer (reads only, never a write, never against production).

Exit codes: 0 nothing wrong (warnings allowed), 2 a problem of the configuration, 3 the target unreachable.

Example:
  $ xs2a-conformance doctor --target sandbox`,
      );
  },
  run: (command: Command) => runDoctor(command.opts<DoctorOptions>()),
};

async function runDoctor(options: DoctorOptions): Promise<number> {
  const targetsFile = resolve(options.targets ?? defaultTargetsFile());
  const raw = selectTarget(loadTargetsFile(targetsFile), options.target);
  const findings = localFindings(options.target, raw, dirname(targetsFile));
  const config = findings.some((finding) => finding.outcome === 'problem')
    ? undefined
    : interpolateTarget(options.target, raw, process.env);
  if (config) findings.push(...(await networkFindings(options.target, config, dirname(targetsFile))));
  else findings.push({ check: 'network', outcome: 'skipped', message: 'the bank was not asked: the problems above come first' });
  // Loaded with the findings: exit codes are the preflight's.
  const { exitCodeOf } = await import('../target-checks.js');
  const code = exitCodeOf(findings);
  if (options.json) console.log(JSON.stringify({ target: options.target, targetsFile, exitCode: code, findings }, null, 2));
  else print(options.target, raw, targetsFile, findings, code);
  return code;
}

/** What can be told without the network: the variables and the files. */
function localFindings(name: string, raw: TargetConfig, baseDir: string): Finding[] {
  let config: TargetConfig;
  try {
    config = interpolateTarget(name, raw, process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.problems.map((problem) => ({
      check: problem.variable ? 'environment' : 'targets.yaml',
      outcome: 'problem',
      field: problem.field,
      message: problem.detail,
    }));
  }
  const files = targetFileProblems(name, config, baseDir);
  return [
    { check: 'environment', outcome: 'ok', message: 'every ${VAR} of the target is set' },
    ...(files.length > 0
      ? files.map((problem): Finding => ({ check: 'files', outcome: 'problem', field: problem.field, message: problem.detail }))
      : [
          {
            check: 'files',
            outcome: 'ok' as const,
            message: config.embedded
              ? 'the embedded bank needs none'
              : "tls.ca and the TPP certificate and key are readable PEM, the key the certificate's, the certificate in its dates",
          },
        ]),
  ];
}

async function networkFindings(name: string, config: TargetConfig, baseDir: string): Promise<Finding[]> {
  // Loaded when the bank is to be asked: the target's preparation (the embedded bank) and the TPP client.
  const [{ prepareTarget }, { checkTarget }] = await Promise.all([import('../prepare-target.js'), import('../target-checks.js')]);
  const workDir = mkdtempSync(join(tmpdir(), 'xs2a-doctor-'));
  try {
    const prepared = await prepareTarget(name, config, { faults: [], targetsDir: baseDir, workDir, env: process.env });
    try {
      return await checkTarget(prepared.target, {
        full: true,
        ...(config.tls?.ca === undefined ? {} : { caSource: pemSource(config.tls.ca, baseDir) }),
      });
    } finally {
      await prepared.stop();
    }
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.problems.map((problem) => ({ check: 'targets.yaml', outcome: 'problem', field: problem.field, message: problem.detail }));
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

const SHOWN: Record<Finding['outcome'], string> = {
  ok: 'ok',
  warning: 'WARNING',
  problem: 'PROBLEM',
  unreachable: 'UNREACHABLE',
  skipped: 'skipped',
};

function print(name: string, raw: TargetConfig, targetsFile: string, findings: readonly Finding[], code: number): void {
  const where = raw.embedded ? 'the embedded reference bank' : (raw.baseUrl ?? '');
  console.log(`Doctor: target "${name}" of ${targetsFile} (${raw.environment}, ${where})`);
  for (const finding of findings) {
    console.log(
      `  ${SHOWN[finding.outcome].padEnd(11)} ${finding.check.padEnd(30)} ${finding.field ? `${finding.field}: ` : ''}${finding.message}`,
    );
  }
  const count = (outcome: Finding['outcome']) => findings.filter((finding) => finding.outcome === outcome).length;
  const problems = count('problem');
  const warnings = count('warning');
  const verdict =
    code === 3
      ? 'the target is unreachable'
      : problems > 0
        ? `${problems} problem${problems === 1 ? '' : 's'} to fix in the fields named`
        : 'the set-up is ready for a run';
  console.log(`${verdict}${warnings > 0 ? `; ${warnings} warning${warnings === 1 ? '' : 's'}` : ''} (exit ${code})`);
}
