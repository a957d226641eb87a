/**
 * Where a run came from, kept beside its report (run-source.json) for the commands that go back to its target
 * (`replay`): the targets file it read, which results.json does not name. Written by `run`; a report without
 * it (a merge, an older run) falls back to the default targets file.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const RUN_SOURCE_FILE = 'run-source.json';

export interface RunSource {
  /** The targets file of the run, absolute. */
  targetsFile: string;
  target: string;
}

/** Into each folder of the report (the run's and latest/), readable by its user alone, as the report is. */
export function writeRunSource(reportDirs: readonly string[], source: RunSource): void {
  for (const dir of reportDirs) writeFileSync(join(dir, RUN_SOURCE_FILE), `${JSON.stringify(source, null, 2)}\n`, { mode: 0o600 });
}

export function readRunSource(reportDir: string): RunSource | undefined {
  try {
    const source = JSON.parse(readFileSync(join(reportDir, RUN_SOURCE_FILE), 'utf8')) as Partial<RunSource>;
    return typeof source.targetsFile === 'string' && typeof source.target === 'string'
      ? { targetsFile: source.targetsFile, target: source.target }
      : undefined;
  } catch {
    return undefined;
  }
}
