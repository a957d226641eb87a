/**
 * The tool outside its own checkout (issue 37, item 1), as a bank's project uses it: `npm pack`, installed into a
 * fresh project from the tarball, and run there with that project's targets.yaml and reports folder: one
 * scenario, `--list`, and the doctor. Before, Node refused the tool's playwright.config.ts under node_modules
 * (ERR_UNKNOWN_FILE_EXTENSION ".ts"), reported as "no scenario matches the selection". npm installs from its
 * cache (--prefer-offline): about 20 s, most of it npm's.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { PACKAGE_ROOT } from '../../lib/cli/package-root.js';
import type { RunResults } from '../../lib/report/results-types.js';
import { scratchDir } from '../support/scratch.js';
import { runProcess } from './playwright-cli.js';

const npm = (args: string[], cwd: string) => runProcess('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], {}, cwd);

test("packed, installed into another project, it runs there with that project's targets.yaml and reports", async () => {
  const scratch = scratchDir('xs2a-packed-');
  const packed = await npm(['pack', '--pack-destination', scratch, '--json'], PACKAGE_ROOT);
  assert.equal(packed.exitCode, 0, packed.stderr);
  const [{ filename, files }] = JSON.parse(packed.stdout) as [{ filename: string; files: { path: string }[] }];
  const shipped = files.map((file) => file.path);
  assert.ok(
    shipped.includes('playwright.config.ts') &&
      shipped.some((path) => path.startsWith('suites/')) &&
      shipped.includes('bin/xs2a-conformance.js'),
  );
  assert.ok(
    !shipped.some((path) => path.startsWith('test/') || path.startsWith('scripts/') || path === 'playwright.gauntlet.config.ts'),
    "the project's own tests are not shipped, nor the gauntlet's config",
  );

  const project = join(scratch, 'bank-project');
  await runProcess('mkdir', ['-p', project]);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'bank-conformance', private: true }));
  // The bank's own targets file: its target, under its own name.
  writeFileSync(
    join(project, 'targets.yaml'),
    'targets:\n  ours:\n    embedded: true\n    environment: sandbox\n    tpp: { generate: true, redirectUri: https://tpp.example/callback }\n',
  );
  const installed = await npm(['install', '--prefer-offline', '--ignore-scripts', join(scratch, filename)], project);
  assert.equal(installed.exitCode, 0, installed.stderr);

  const env = { XDG_CACHE_HOME: join(scratch, 'cache'), CI: '1', XS2A_WORKERS: '1' };
  const tool = (args: string[]) => runProcess('npx', ['--no-install', 'xs2a-conformance', ...args], env, project);
  const run = await tool(['run', '--target', 'ours', '--grep', 'SIG-04\\.a', '--reporter', 'dot']);
  assert.equal(run.exitCode, 0, run.stdout + run.stderr);
  const results = JSON.parse(readFileSync(join(project, 'reports', 'latest', 'results.json'), 'utf8')) as RunResults;
  assert.equal(results.target.name, 'ours');
  assert.deepEqual(
    results.tests.map((t) => `${t.scenario} ${t.status} ${t.file}`),
    ['SIG-04.a PASS suites/authentication/request-signing.spec.ts'],
  );
  assert.ok(existsSync(join(project, 'reports', 'latest', 'index.html')));

  const listed = await tool(['run', '--target', 'ours', '--list', '--grep', 'SIG-04']);
  assert.equal(listed.exitCode, 0, listed.stderr);
  assert.match(listed.stdout, /authentication\/request-signing\.spec\.ts:\d+:\d+ › SIG-04\.a /);

  // The doctor runs from the install too: this target has no SCA steps yet.
  const doctor = await tool(['doctor', '--target', 'ours']);
  assert.equal(doctor.exitCode, 2, doctor.stdout);
  assert.match(doctor.stdout, /PROBLEM +sca +targets\.ours\.sca: the first SCA page .* matches no rule: sca has none/);

  // The gauntlet (the project's own tests) needs its config, which is not installed: a usage error naming it.
  const gauntlet = await tool(['run', '--target', 'ours', '--gauntlet', 'plan.json']);
  assert.equal(gauntlet.exitCode, 2, gauntlet.stdout + gauntlet.stderr);
  assert.match(gauntlet.stderr, /--gauntlet: .*playwright\.gauntlet\.config\.ts is not installed/);
});
