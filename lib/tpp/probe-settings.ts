/**
 * How many robustness probes a run sends and with which seed: from the environment the runner sets
 * (`--probes N`, `XS2A_PROBE_SEED`), read alike by the workers that send them and the reporter that records
 * them in the run's provenance.
 */

/** Probes per run unless `--probes N` says otherwise: enough to reach every operation, few enough to stay fast. */
export const DEFAULT_PROBES = 120;
export const DEFAULT_PROBE_SEED = 20_261_123;
export const PROBES_ENV = 'XS2A_PROBES';
export const PROBE_SEED_ENV = 'XS2A_PROBE_SEED';

export function probeSettings(env: NodeJS.ProcessEnv = process.env): { runs: number; seed: number } {
  const runs = Number(env[PROBES_ENV] ?? DEFAULT_PROBES);
  const seed = Number(env[PROBE_SEED_ENV] ?? DEFAULT_PROBE_SEED);
  return { runs: Number.isInteger(runs) && runs > 0 ? runs : DEFAULT_PROBES, seed: Number.isInteger(seed) ? seed : DEFAULT_PROBE_SEED };
}
