/**
 * Every test is located at its line in its spec file, by Playwright itself: `--list`, `file:line` filters and
 * every reporter (GitHub annotations included) name the spec file, and a failed check points at the check's
 * own line, never at lib/.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { PACKAGE_ROOT } from '../../lib/cli/package-root.js';
import { runCli } from '../support/run-cli.js';
import { runPlaywright } from './playwright-cli.js';

const SIGNING_SPEC = 'suites/authentication/request-signing.spec.ts';

/** 1-based line of the first line of the spec file matching `pattern`. */
function lineOf(file: string, pattern: RegExp): number {
  const index = readFileSync(join(PACKAGE_ROOT, file), 'utf8')
    .split('\n')
    .findIndex((line) => pattern.test(line));
  assert.ok(index >= 0, `${pattern} not found in ${file}`);
  return index + 1;
}

/**
 * The line of the `test(` that registers a scenario written over several lines (Prettier's layout: `test(`, then
 * `...scenario(`, then its id on a line of its own), which is where Playwright places the test.
 */
function scenarioLine(id: string): number {
  const idLine = lineOf(SIGNING_SPEC, new RegExp(`^\\s+'${id.replace('.', '\\.')}',$`));
  const lines = readFileSync(join(PACKAGE_ROOT, SIGNING_SPEC), 'utf8').split('\n');
  assert.deepEqual([lines[idLine - 3], lines[idLine - 2]?.trim()], ['test(', '...scenario('], `${id} is written over several lines`);
  return idLine - 2;
}

interface ListedSpec {
  title: string;
  file: string;
  line: number;
}

function specsOf(report: { suites?: unknown[] }): ListedSpec[] {
  const out: ListedSpec[] = [];
  const walk = (suite: { specs?: ListedSpec[]; suites?: unknown[] }) => {
    out.push(...(suite.specs ?? []));
    for (const child of suite.suites ?? []) walk(child as typeof suite);
  };
  for (const suite of report.suites ?? []) walk(suite as Parameters<typeof walk>[0]);
  return out;
}

describe('test locations', { concurrency: 3 }, () => {
  test('--list shows every scenario in its own spec file', async () => {
    const listed = await runPlaywright(['test', '--list', '--reporter=json']);
    assert.equal(listed.exitCode, 0, listed.stderr);
    const specs = specsOf(JSON.parse(listed.stdout) as { suites?: unknown[] });
    assert.ok(specs.length >= 262, `${specs.length} tests listed`);
    const misplaced = specs
      .filter((spec) => !/^[a-z-]+\/[a-z-]+\.spec\.ts$/.test(spec.file))
      .map((spec) => `${spec.title} at ${spec.file}:${spec.line}`);
    assert.deepEqual(misplaced, [], 'tests located outside their spec file');
    const files = new Set(specs.map((spec) => spec.file));
    assert.ok(files.size > 30, `${files.size} files`);

    const text = await runPlaywright(['test', '--list']);
    assert.match(text.stdout, new RegExp(`Total: ${specs.length} tests in ${files.size} files`));
    assert.doesNotMatch(text.stdout, /lib\/fixtures/);
  });

  test('a file:line filter selects exactly the scenario written on that line', async () => {
    const line = scenarioLine('SIG-04.a');
    const listed = await runPlaywright(['test', `${SIGNING_SPEC}:${line}`, '--list', '--reporter=json']);
    assert.equal(listed.exitCode, 0, listed.stderr);
    assert.deepEqual(
      specsOf(JSON.parse(listed.stdout) as { suites?: unknown[] }).map((spec) => spec.title.split(' ')[0]),
      ['SIG-04.a'],
    );
  });

  test("a failed check's GitHub annotation names the spec file and the check's line", async () => {
    const run = await runCli([
      'run',
      '--inject-fault',
      'accept-missing-signature',
      '--grep',
      'SIG-04\\.a',
      '--reporter',
      'github',
      '--report-dir',
      '{reportDir}',
    ]);
    assert.equal(run.exitCode, 1, run.stderr + run.stdout);
    // The fault breaks SIG-04 and ERR-35: one annotation each, at the line of its own check.
    const checkLines = [
      lineOf(SIGNING_SPEC, /check\.status\('SIG-04', response\)/),
      lineOf(SIGNING_SPEC, /check\.status\('ERR-35', response\)/),
    ];
    const annotations = run.stdout.split('\n').filter((line) => line.startsWith('::error'));
    const located = annotations.map((annotation) =>
      /^::error file=([^,]+),title=.*?,line=(\d+),col=\d+::/.exec(annotation)?.slice(1, 3).join(':'),
    );
    assert.deepEqual(
      located,
      checkLines.map((line) => `${SIGNING_SPEC}:${line}`),
      run.stdout,
    );
    assert.doesNotMatch(run.stdout, /lib\/fixtures\//, 'no frame of lib/fixtures is shown');
    const record = run.results?.tests.find((t) => t.scenario === 'SIG-04.a');
    assert.equal(record?.file, SIGNING_SPEC);
    assert.equal(record?.line, scenarioLine('SIG-04.a'));
  });
});
