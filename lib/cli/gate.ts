/**
 * The CI gate: which verdicts exit 0. By default the weakest that passes is INCOMPLETE (nothing failed, but
 * not everything was judged), so a filtered run stays usable; `--require conformant` demands CONFORMANT and
 * `--fail-on warning` refuses a failed SHOULD or MAY. A run that did not pass its gate exits 4, apart from
 * the verdict's own codes (1 non-conformant, 3 interrupted or not judged).
 */
import { Option, type Command } from 'commander';
import type { RunResults } from '../report/results-types.js';

export const GATE_NOT_MET = 4;

export interface GateOptions {
  require: 'conformant' | 'incomplete';
  failOn?: 'warning';
}

export function gateOptions(command: Command): void {
  command
    .addOption(
      new Option('--require <verdict>', 'the weakest verdict that exits 0').choices(['conformant', 'incomplete']).default('incomplete'),
    )
    .addOption(new Option('--fail-on <level>', 'also exit non-zero (4) when a SHOULD or MAY requirement failed').choices(['warning']));
}

/** The exit code of a run under the gate; says on stderr why a gate was not met. */
export function applyGate(results: Pick<RunResults, 'exitCode' | 'verdict' | 'summary'>, gate: GateOptions): number {
  if (results.exitCode !== 0) return results.exitCode;
  if (gate.require === 'conformant' && results.verdict !== 'CONFORMANT') {
    console.error(`xs2a-conformance: --require conformant: the verdict is ${results.verdict} (exit ${GATE_NOT_MET})`);
    return GATE_NOT_MET;
  }
  const warnings = results.summary.requirements.WARNING;
  if (gate.failOn === 'warning' && warnings > 0) {
    console.error(`xs2a-conformance: --fail-on warning: ${warnings} requirement(s) WARNING (exit ${GATE_NOT_MET})`);
    return GATE_NOT_MET;
  }
  return 0;
}
