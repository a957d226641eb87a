/**
 * No dead code: knip (configuration in knip.jsonc) finds no unused file, export, type or dependency, and no
 * dependency used but not declared. An export kept on purpose says so in knip.jsonc or with a `@public` tag.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { PACKAGE_ROOT } from '../../lib/cli/package-root.js';

interface KnipFileIssues {
  file: string;
  [kind: string]: unknown;
}

test('knip finds no unused file, export, type or dependency', () => {
  const knip = spawnSync(
    process.execPath,
    [join(PACKAGE_ROOT, 'node_modules', 'knip', 'bin', 'knip.js'), '--reporter', 'json', '--no-progress'],
    {
      cwd: PACKAGE_ROOT,
      encoding: 'utf8',
      timeout: 120_000,
    },
  );
  assert.ok(knip.stdout.trim().startsWith('{'), `knip did not report (exit ${knip.status}): ${knip.stderr}`);
  const report = JSON.parse(knip.stdout) as { issues?: KnipFileIssues[] };
  // Every finding of every kind, one line each: `lib/x.ts:12: exports: name`.
  const findings = (report.issues ?? []).flatMap(({ file, ...kinds }) =>
    Object.entries(kinds).flatMap(([kind, found]) =>
      (Array.isArray(found) ? (found as { name?: unknown; line?: number }[]) : []).map(
        (item) =>
          `${file}${item.line === undefined ? '' : `:${item.line}`}: ${kind}: ${typeof item.name === 'string' ? item.name : JSON.stringify(item)}`,
      ),
    ),
  );
  assert.deepEqual(findings, []);
  assert.equal(knip.status, 0, knip.stderr);
});
