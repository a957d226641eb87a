/**
 * `xs2a-conformance merge <dir>...`: the reports of the shards of one run (`run --shard i/n --report-dir dir`)
 * made into one report (results.json, index.html, junit.xml, evidence files) with one verdict, as an
 * unsharded run would have given. Each shard alone is INCOMPLETE; together they certify when every shard of
 * the same split is there, against the same target, and between them they ran every scenario of the suite.
 * Shards that do not cover their split (only 1 of 2, or 1 and 3 of 3) make an INCOMPLETE report naming the
 * missing ones, exit 3: part of the run did not run (in CI, a shard's job failed or its artefact was lost).
 *
 * A shard's folder is whatever a CI job left: its results.json must be valid against the published schema,
 * and its evidence files must be regular files inside it, or the shard is refused (exit 2) before anything
 * is written. The merged page escapes what the shards say like any report (lib/report/html).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { visibleControls } from '../../report/mask.js';
import { unreadableReportFile, unsafeReportPath } from '../../report/report-paths.js';
import { RESULTS_SCHEMA_VERSION, assembleResults } from '../../report/results.js';
import { resultsSchemaErrors } from '../../report/results-schema.js';
import { writeReport } from '../../report/write.js';
import { incompleteness, type Selection } from '../../report/selection.js';
import type { RunResults } from '../../report/results-types.js';
import type { Deviation, Environment } from '../../targets/target-types.js';
import { UsageError, type CliCommand } from '../command.js';
import { applyGate, gateOptions, type GateOptions } from '../gate.js';
import { printSummary } from '../printed-summary.js';

interface MergeOptions extends GateOptions {
  reportDir: string;
}

export const mergeCommand: CliCommand = {
  configure(command) {
    command
      .argument('<dirs...>', "each shard's report folder (its --report-dir, or a run folder holding results.json)")
      .option('--report-dir <dir>', 'where the merged report goes (<dir>/<run-id>/ and <dir>/latest/)', 'reports');
    gateOptions(command);
    command.addHelpText(
      'after',
      `
Example:
  $ xs2a-conformance run --shard 1/2 --report-dir shard-1
  $ xs2a-conformance run --shard 2/2 --report-dir shard-2
  $ xs2a-conformance merge shard-1 shard-2 --require conformant

Shards that do not cover their split (only 1 of 2, or 1 and 3 of 3) make an INCOMPLETE report that names
the missing ones, and exit 3 whatever --require says. A shard whose results.json is not valid against the
published schema, or that names an evidence file outside its folder or through a link, is refused (exit 2).`,
    );
  },
  run(command: Command) {
    const options = command.opts<MergeOptions>();
    const shards = command.args.map(readShard);
    const merged = mergeShards(shards.map((s) => s.results));
    const files = shards.flatMap((shard) =>
      shard.results.tests.flatMap((t) => t.evidence.files.map((f) => ({ from: join(shard.runDir, f.path), to: f.path }))),
    );
    const reportRoot = resolve(options.reportDir);
    writeReport(reportRoot, merged.runId, merged, files);
    const report = join(reportRoot, 'latest', 'index.html');
    const shown = relative(process.cwd(), report);
    printSummary(merged, shown.startsWith('..') ? report : shown);
    return Promise.resolve(applyGate(merged, options));
  },
};

function readShard(dir: string): { runDir: string; results: RunResults } {
  const runDir = [resolve(dir), resolve(dir, 'latest')].find((candidate) => existsSync(join(candidate, 'results.json')));
  if (!runDir) throw new UsageError(`merge: no results.json in ${dir} nor in ${join(dir, 'latest')}`);
  const file = join(runDir, 'results.json');
  // What a shard says is shown, its control characters never obeyed.
  const refuse = (why: string) => new UsageError(`merge: ${visibleControls(`${file} is not a report this tool can merge: ${why}`)}`);
  let results: unknown;
  try {
    results = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw refuse(`not JSON (${(error as Error).message})`);
  }
  const version = (results as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (version !== RESULTS_SCHEMA_VERSION)
    throw refuse(`schema version ${String(version)}, this tool merges version ${RESULTS_SCHEMA_VERSION}`);
  const errors = resultsSchemaErrors(results);
  if (errors.length > 0) throw refuse(errors.slice(0, 5).join('; '));
  const valid = results as RunResults;
  for (const test of valid.tests) {
    for (const { path } of test.evidence.files) {
      const unsafe = unsafeReportPath(path);
      const why = unsafe ? `an unsafe path (${unsafe})` : unreadableReportFile(runDir, path);
      if (why)
        throw new UsageError(
          `merge: ${visibleControls(`${runDir}: ${test.scenario} names the evidence file ${JSON.stringify(path)}, ${why}: refused`)}`,
        );
    }
  }
  return { runDir, results: valid };
}

/** What a shard ran against: a bank by its address; the embedded bank (a new port each run) by its name and faults. */
function targetOf({ target }: RunResults): string {
  return target.embedded
    ? `${target.name} (embedded${target.faults.length ? `, faults ${target.faults.join(', ')}` : ''})`
    : `${target.name} at ${target.baseUrl}`;
}

/** One report from the shards' results: the tests of all, folded again against the catalogue. */
export function mergeShards(shards: readonly RunResults[]): RunResults {
  const [first] = shards;
  if (!first) throw new UsageError('merge: no shard given');
  for (const shard of shards) {
    if (shard.gauntlet) throw new UsageError(`merge: ${shard.runId} is a gauntlet run, which certifies nothing to merge`);
    if (targetOf(shard) !== targetOf(first))
      throw new UsageError(`merge: the shards ran against different targets (${targetOf(first)}, ${targetOf(shard)})`);
    if (shard.tool.version !== first.tool.version)
      throw new UsageError(`merge: the shards ran different versions of the tool (${first.tool.version}, ${shard.tool.version})`);
  }
  const tests = shards.flatMap((shard) => shard.tests);
  const ids = tests.map((t) => t.id);
  const twice = ids.filter((id, i) => ids.indexOf(id) !== i);
  if (twice.length > 0) throw new UsageError(`merge: ${twice.length} test(s) appear in more than one shard (the same shard given twice?)`);

  const startedAt = shards.map((s) => s.startedAt).sort()[0] ?? first.startedAt;
  const finishedAt =
    shards
      .map((s) => s.finishedAt)
      .sort()
      .at(-1) ?? first.finishedAt;
  return assembleResults({
    context: {
      runId: `${finishedAt.replace(/[:.]/g, '-').replace(/-\d{3}Z$/, 'Z')}-merged-${randomBytes(2).toString('hex')}`,
      startedAt,
      tool: first.tool,
      target: {
        ...first.target,
        environment: first.target.environment as Environment,
        deviations: deviationsOf(shards),
        capabilities: first.provenance.capabilities,
      },
    },
    // One run in several parts: the first shard's provenance, with the suite files every shard ran.
    provenance: {
      ...first.provenance,
      suiteFiles: [...new Map(shards.flatMap((shard) => shard.provenance.suiteFiles).map((f) => [f.path, f])).values()].sort((a, b) =>
        a.path.localeCompare(b.path),
      ),
    },
    tests,
    // A shard that did not arrive is part of the run that did not run: the verdict function makes that INCOMPLETE, exit 3.
    runErrors: [...splitGaps(shards), ...shards.flatMap((shard) => shard.runErrors ?? [])],
    selection: mergedSelection(shards),
    interrupted: shards.some((shard) => shard.verdict === 'INTERRUPTED'),
    finishedAt: new Date(finishedAt),
  });
}

/** Why the shards do not make up one split (--shard i/n, every i of one n): each missing shard named. */
function splitGaps(shards: readonly RunResults[]): string[] {
  const totals = new Set(shards.map((s) => s.selection?.shard?.total));
  const present = new Set(shards.map((s) => s.selection?.shard?.current));
  const [total] = [...totals];
  if (totals.size !== 1 || total === undefined) return ['the reports are not shards of one split (--shard i/n with the same n)'];
  const missing = Array.from({ length: total }, (_, i) => i + 1).filter((i) => !present.has(i));
  if (missing.length === 0 && shards.length !== total) return [`a shard of ${total} is given twice`];
  return missing.map((i) => `shard ${i} of ${total} is missing from the merge`);
}

/** The shards cover the suite when all n of one split are there and between them they ran every scenario and file. */
function mergedSelection(shards: readonly RunResults[]): Selection {
  const selections = shards.map((shard) => shard.selection);
  const reasons = splitGaps(shards);
  const scenarios = Math.max(...selections.map((s) => s?.scenarios ?? 0));
  const specFiles = Math.max(...selections.map((s) => s?.specFiles ?? 0));
  const tests = shards.flatMap((shard) => shard.tests.filter((t) => t.gauntletCase === undefined));
  reasons.push(
    ...incompleteness({
      leftOut: scenarios - new Set(tests.map((t) => t.title)).size,
      filesNotRun: specFiles - new Set(tests.map((t) => t.file)).size,
    }),
  );
  return { tests: tests.length, scenarios, specFiles, reasons };
}

/** The deviations the shards applied, as their reports show them (each KNOWN_DEVIATION carries its reason and end). */
function deviationsOf(shards: readonly RunResults[]): Deviation[] {
  const byId = new Map<string, Deviation>();
  for (const record of shards.flatMap((shard) => shard.requirements)) {
    if (record.status !== 'KNOWN_DEVIATION' || byId.has(record.id)) continue;
    byId.set(record.id, {
      requirement: record.id,
      reason: record.deviation?.reason ?? record.reason ?? '',
      ...(record.deviation?.until ? { until: record.deviation.until } : {}),
    });
  }
  return [...byId.values()];
}
