/**
 * Every command the documentation shows (the `sh` blocks of README.md, CONTRIBUTING.md, docs/*.md,
 * suites/README.md and any README of examples/) and every command of the example pipelines (examples/ci) is
 * run here as written, against the embedded reference bank, in one folder of its own that links to the
 * project (so reports land there), file after file in that order (a later command may read what an earlier
 * one of its file wrote). A command the tests cannot run says so in its comment
 * (`[not run by the tests: why]`). An `sh` block in any other Markdown file of the project fails here, so
 * that no documented command goes unrun (test/ excepted: the clean-room bank's README is its author's). Along the way: `npx playwright
 * test` gives the verdict and counts of
 * `npm test`, and each pipeline's two shards merged give the unsharded run's report. The files a reader brings
 * (the TPP's key and certificate, their CA's certificate) are test ones made here.
 *
 * Each command runs narrowed to SLICE by XS2A_GREP (the documentation's own way to narrow a run without editing
 * it): what is proven here is that the command works as written, its report, exit code and merge; the whole
 * suite is run once, by the check's own conformance stage (scripts/check.ts), not once per command.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { before, describe, test } from 'node:test';
import { parse } from 'yaml';
import { PACKAGE_ROOT } from '../../lib/cli/package-root.js';
import { generateCertificateAuthority, generateTppCertificate } from '../../lib/pki/index.js';
import type { RunResults } from '../../lib/report/results-types.js';
import { scratchDir } from '../support/scratch.js';
import { runProcess, type ProcessRun } from './playwright-cli.js';

/** Commands that install things from the network: the machine running the tests already has them. */
const SETUP = /^(npm ci\b|npx playwright install)/;
const NOT_RUN = /\[not run by the tests: ([^\]]+)\]/;
/**
 * A few scenarios that touch every kind of work a run does: a signature refusal (an error body: the fault
 * error-body-missing-fields makes it fail), a payment, a basket, the sandbox, an account read on a consent,
 * an SCA flow of a payment and of an account access (suites/sca, which the README runs on its own).
 */
const SLICE = '(SIG-04\\.a|ERR-09\\.a|PAY-01\\.a|SCA-24\\.a|END-13\\.a|SBX-05\\.a|PSU-03\\.a) ';
const LOCAL_ONLY = new Set(['reports', 'test-results', 'playwright-report', 'blob-report', '.git', 'reference-ca.pem']);

/** A folder that looks like the project (each entry a link to it) and keeps what commands write. */
function workspace(): string {
  const dir = scratchDir('xs2a-documented-');
  for (const entry of readdirSync(PACKAGE_ROOT)) if (!LOCAL_ONLY.has(entry)) symlinkSync(join(PACKAGE_ROOT, entry), join(dir, entry));
  return dir;
}

/**
 * What the certification commands (docs/certification.md) expect a TPP to have: its QSeal key and certificate, and their issuer's
 * certificate.
 */
function bringTppFiles(dir: string): void {
  const issuer = generateCertificateAuthority({ commonName: 'Test eIDAS issuer' });
  const tpp = generateTppCertificate(issuer, {
    organizationName: 'Test TPP',
    organizationIdentifier: 'PSDNO-FSA-README',
    roles: ['PSP_AI', 'PSP_PI'],
  });
  writeFileSync(join(dir, 'tpp-key.pem'), tpp.privateKeyPem, { mode: 0o600 });
  writeFileSync(join(dir, 'tpp.pem'), tpp.certificatePem);
  writeFileSync(join(dir, 'eidas-issuer.pem'), issuer.certificatePem);
}

function sh(command: string, cwd: string, env: NodeJS.ProcessEnv = {}): Promise<ProcessRun> {
  // A listing runs nothing (it lists the whole suite); a command with a --grep of its own is narrow already,
  // and XS2A_GREP would narrow it further (both apply).
  const slice = / (--list|--grep|-g)\b/.test(command) ? '' : SLICE;
  // One Playwright worker (XS2A_WORKERS, which a command's own --workers overrides): a worker costs about 2.5
  // CPU-seconds to start, more than the slice's scenarios take; this file measured 401 CPU-s with the
  // default four, 318 with one, on a machine whose two cores the other e2e files want too.
  return runProcess('bash', ['-c', command], { CI: '1', XS2A_GREP: slice, XS2A_WORKERS: '1', ...env }, cwd);
}

/**
 * A server command: started in a process group of its own, run until it says it listens, then stopped as a
 * terminal's Ctrl-C would (SIGINT to the group: npx and the server).
 */
function serve(command: string, cwd: string): Promise<ProcessRun> {
  const child = spawn('bash', ['-c', `exec ${command}`], {
    cwd,
    env: { ...process.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const group = (signal: NodeJS.Signals) => child.pid !== undefined && process.kill(-child.pid, signal);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (/listening at https:\/\/|Serving .* at http:\/\//.test(stdout)) group('SIGINT');
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => group('SIGKILL'), 60_000);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ exitCode: code ?? -1, stdout, stderr });
    }),
  );
}

function results(dir: string): RunResults {
  return JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunResults;
}

/** What must be equal between two runs of the same suite against the same target: verdict, counts, every status. */
function outcome(run: RunResults) {
  return {
    verdict: run.verdict,
    exitCode: run.exitCode,
    filtered: run.filtered,
    reasons: run.verdictReasons,
    tests: run.summary.tests,
    requirements: run.summary.requirements,
    scenarios: Object.fromEntries(
      run.tests.filter((t) => t.gauntletCase === undefined).map((t) => [`${t.file}:${t.line} ${t.scenario}`, t.status]),
    ),
    statuses: Object.fromEntries(run.requirements.map((r) => [r.id, r.status])),
  };
}

/** The JUnit totals line. */
function junitTotals(dir: string): string {
  return /<testsuites [^>]*>/.exec(readFileSync(join(dir, 'junit.xml'), 'utf8'))?.[0].replace(/ time="[^"]*"/, '') ?? '';
}

function assertSameReport(merged: string, unsharded: string, label: string): void {
  assert.deepEqual(outcome(results(merged)), outcome(results(unsharded)), `${label}: merged shards differ from the unsharded run`);
  assert.equal(junitTotals(merged), junitTotals(unsharded), `${label}: JUnit`);
  assert.match(readFileSync(join(merged, 'index.html'), 'utf8'), new RegExp(results(unsharded).verdict));
}

interface DocumentedCommand {
  file: string;
  line: number;
  command: string;
  comment: string;
}

/** Folders no documentation of the project lives in: installs, outputs, and the tests (whose Markdown is their own). */
const NOT_DOCUMENTATION = new Set(['node_modules', '.git', 'test', ...LOCAL_ONLY]);

/** Every Markdown file of the project, relative to its root. */
function markdownFiles(dir = PACKAGE_ROOT): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return NOT_DOCUMENTATION.has(entry.name) ? [] : markdownFiles(path);
    return entry.isFile() && entry.name.endsWith('.md') ? [relative(PACKAGE_ROOT, path)] : [];
  });
}

/**
 * The files whose commands run, in the order they run: the README (its `npm test` is the unsharded run the
 * others are compared with), CONTRIBUTING.md, docs/ by name, suites/README.md, then any README of examples/.
 */
function documentationFiles(): string[] {
  const all = markdownFiles();
  const docs = all.filter((file) => /^docs\/[^/]+\.md$/.test(file)).sort();
  const examples = all.filter((file) => /^examples\/(.+\/)?README\.md$/.test(file)).sort();
  return ['README.md', 'CONTRIBUTING.md', ...docs, 'suites/README.md', ...examples];
}

function hasShellBlock(file: string): boolean {
  return /^```sh\s*$/m.test(readFileSync(join(PACKAGE_ROOT, file), 'utf8'));
}

function documentedCommands(file: string): DocumentedCommand[] {
  const lines = readFileSync(join(PACKAGE_ROOT, file), 'utf8').split('\n');
  const out: DocumentedCommand[] = [];
  let inShell = false;
  lines.forEach((text, i) => {
    if (/^```sh\s*$/.test(text)) inShell = true;
    else if (/^```/.test(text)) inShell = false;
    else if (inShell && text.trim() !== '') {
      const split = /\s#\s/.exec(text);
      out.push({
        file,
        line: i + 1,
        command: (split ? text.slice(0, split.index) : text).trim(),
        comment: split ? text.slice(split.index).trim() : '',
      });
    }
  });
  return out;
}

describe('the documentation holds its commands where they are run', () => {
  test('every Markdown file with an sh block is one whose commands run here', () => {
    const read = new Set(documentationFiles());
    assert.deepEqual(
      markdownFiles().filter((file) => hasShellBlock(file) && !read.has(file)),
      [],
    );
  });

  test('README.md and CONTRIBUTING.md hold commands (the list is not read empty)', () => {
    for (const file of ['README.md', 'CONTRIBUTING.md']) assert.ok(hasShellBlock(file), `${file} has no sh block`);
  });
});

/** The report of the README's `npm test`: the unsharded run everything else is compared with. */
let unsharded: string | undefined;

describe('the documentation, command by command', { concurrency: 1 }, () => {
  const dir = workspace();
  bringTppFiles(dir);

  for (const { file, line, command, comment } of documentationFiles().flatMap(documentedCommands)) {
    const notRun = NOT_RUN.exec(comment);
    const title = `${file}:${line}: ${command}`;
    if (notRun) {
      test(title, { skip: `not run by the tests: ${notRun[1]}` }, () => {});
      continue;
    }
    if (SETUP.test(command.split('&&').pop()?.trim() ?? '') && !command.includes('&&')) {
      test(title, { skip: 'installs from the network; this machine has it' }, () => {});
      continue;
    }
    test(title, async () => {
      // `npm ci && npm test`: the install is the machine's own.
      const runnable = command
        .split('&&')
        .map((part) => part.trim())
        .filter((part) => !SETUP.test(part))
        .join(' && ');
      const expected = Number(/exit (\d+)/.exec(comment)?.[1] ?? 0);
      const server = / (serve|show-report)( |$)/.test(runnable);
      const run = server ? await serve(runnable, dir) : await sh(runnable, dir);
      if (server)
        assert.match(
          run.stdout,
          /Reference bank listening at https:\/\/127\.0\.0\.1:\d+\n|Serving .* at http:\/\/127\.0\.0\.1:\d+/,
          run.stderr,
        );
      else assert.equal(run.exitCode, expected, `${run.stderr}\n${run.stdout.slice(-3000)}`);
      if (runnable === 'npm test') unsharded = copyLatest(dir, 'unsharded');
      if (runnable === 'npx playwright test') {
        assert.deepEqual(
          outcome(results(join(dir, 'reports', 'latest'))),
          outcome(results(unshardedReport())),
          'npx playwright test and npm test differ',
        );
      }
      if (runnable === 'npx playwright test --list') assert.match(run.stdout, /Total: \d{3} tests in \d+ files/);
      if (/request-signing\.spec\.ts:12$/.test(runnable))
        assert.deepEqual(
          results(join(dir, 'reports', 'latest')).tests.map((t) => t.scenario),
          ['SIG-04.a'],
        );
      if (/ --baseline /.test(runnable))
        assert.ok(
          results(join(dir, 'reports', 'latest')).baseline?.fixes.some((c) => c.id === 'SIG-04'),
          'the baseline run shows the fix',
        );
      if (/ verify .*--require-signature/.test(runnable))
        assert.match(run.stdout, /ok +MANIFEST\.sha256 is signed \(PS256, [^)]+\) by .*PSDNO-FSA-README/);
      if (/ merge /.test(runnable)) assertSameReport(join(dir, 'reports', 'merged', 'latest'), unshardedReport(), file);
    });
  }
});

/** The unsharded report (the README's `npm test`, else the pipelines' own run). */
function unshardedReport(): string {
  assert.ok(unsharded, "the README's npm test ran first");
  return unsharded;
}

function copyLatest(dir: string, name: string): string {
  const to = join(dir, name);
  cpSync(join(dir, 'reports', 'latest'), to, { recursive: true });
  return to;
}

describe('the example pipelines, as written', { concurrency: 1 }, () => {
  before(async () => {
    if (unsharded) return;
    const dir = workspace();
    const run = await sh('npx xs2a-conformance run --report-dir reports', dir);
    assert.equal(run.exitCode, 0, run.stderr);
    unsharded = copyLatest(dir, 'unsharded');
  });

  test('GitHub Actions: two shards, their artefacts, the merge', async () => {
    const workflow = parse(readFileSync(join(PACKAGE_ROOT, 'examples', 'ci', 'github-actions.yml'), 'utf8')) as GitHubWorkflow;
    const dir = workspace();
    const env = { ...workflow.env };
    const shard = workflow.jobs.shard;
    await Promise.all(
      shard.strategy.matrix.shard.map(async (index) => {
        const expand = (text: string) => text.replace(/\$\{\{ matrix\.shard \}\}/g, String(index));
        for (const step of shard.steps) {
          if (step.run && !SETUP.test(step.run)) {
            const run = await sh(expand(step.run), dir, env);
            assert.equal(run.exitCode, 0, `${expand(step.run)}\n${run.stderr}`);
          }
          // actions/upload-artifact, then download-artifact into shards/<name>: a copy.
          if (step.uses?.startsWith('actions/upload-artifact') && step.with?.name?.startsWith('conformance-shard')) {
            cpSync(join(dir, expand(step.with.path ?? '')), join(dir, 'shards', expand(step.with.name)), { recursive: true });
          }
        }
      }),
    );
    for (const step of workflow.jobs.verdict.steps) {
      if (!step.run || SETUP.test(step.run)) continue;
      const summary = join(dir, 'step-summary.md');
      const run = await sh(step.run, dir, { ...env, GITHUB_STEP_SUMMARY: summary });
      assert.equal(run.exitCode, 0, `${step.run}\n${run.stderr}`);
      assert.match(readFileSync(summary, 'utf8'), new RegExp(`^## xs2a-conformance: ${results(unshardedReport()).verdict}`));
    }
    assertSameReport(join(dir, 'reports', 'merged', 'latest'), unshardedReport(), 'GitHub Actions');
  });

  test('GitLab CI: parallel: 2, the artefacts in the workspace, the merge', async () => {
    const pipeline = parse(readFileSync(join(PACKAGE_ROOT, 'examples', 'ci', 'gitlab-ci.yml'), 'utf8')) as GitLabPipeline;
    const dir = workspace();
    const job = pipeline.conformance;
    await Promise.all(
      Array.from({ length: job.parallel ?? 1 }, async (_, i) => {
        for (const line of job.script.filter((l) => !SETUP.test(l))) {
          const run = await sh(line, dir, {
            ...gitLabJobEnv(pipeline.variables, dir, `conformance-${i + 1}`),
            CI_NODE_INDEX: String(i + 1),
            CI_NODE_TOTAL: String(job.parallel),
          });
          assert.equal(run.exitCode, 0, `${line}\n${run.stderr}`);
        }
      }),
    );
    for (const line of pipeline['conformance-verdict'].script.filter((l) => !SETUP.test(l))) {
      const run = await sh(line, dir, gitLabJobEnv(pipeline.variables, dir, 'conformance-verdict'));
      assert.equal(run.exitCode, 0, `${line}\n${run.stderr}`);
    }
    assertSameReport(join(dir, 'reports', 'merged', 'latest'), unshardedReport(), 'GitLab CI');
  });
});

/**
 * A GitLab job's variables as it sees them: $CI_PROJECT_DIR expanded, and npm's cache its own. Each GitLab job
 * runs in a container of its own with its own copy of the cache; here the jobs share one folder, and two npx
 * installing into one empty cache at once race (seen as ENOENT on .npm/_npx/…/.bin/xs2a-conformance).
 */
function gitLabJobEnv(variables: Record<string, string>, dir: string, job: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = Object.fromEntries(
    Object.entries(variables).map(([name, value]) => [name, value.replaceAll('$CI_PROJECT_DIR', dir)]),
  );
  if (env.npm_config_cache !== undefined) env.npm_config_cache = `${env.npm_config_cache}-${job}`;
  return { ...env, CI_PROJECT_DIR: dir };
}

interface GitHubStep {
  run?: string;
  uses?: string;
  with?: { name?: string; path?: string };
}
interface GitHubWorkflow {
  env: Record<string, string>;
  jobs: { shard: { strategy: { matrix: { shard: number[] } }; steps: GitHubStep[] }; verdict: { steps: GitHubStep[] } };
}
interface GitLabPipeline {
  variables: Record<string, string>;
  conformance: { parallel?: number; script: string[] };
  'conformance-verdict': { script: string[] };
}
