/**
 * `merge` takes shards' report folders that any CI job could have written: each results.json is checked
 * against the schema, everything it brings is escaped in the merged index.html (the page's own markup and the
 * catalogue its script draws), evidence paths stay inside their shard's folder, and shards that do not cover
 * their split make an INCOMPLETE report and a non-zero exit. In process, with the real command line.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { assembleResults } from '../../lib/report/results.js';
import { resultsSchemaErrors } from '../../lib/report/results-schema.js';
import type { RunResults, TestRecord } from '../../lib/report/results-types.js';
import { incompleteness } from '../../lib/report/selection.js';
import { scratchDir } from '../support/scratch.js';
import { runInProcess } from '../support/in-process-cli.js';
import { sampleResults, testRecord } from './sample-results.js';

const PNG = Buffer.from('89504e470d0a1a0a', 'hex');

/** A shard's report folder: results.json as the reporter assembles it, and its evidence files. */
function shardDir(
  current: number,
  total: number,
  tests: TestRecord[],
  scenarios: number,
  edit: (results: RunResults) => unknown = (r) => r,
): string {
  const sample = sampleResults();
  const results = assembleResults({
    context: {
      runId: `shard-${current}-of-${total}`,
      startedAt: sample.startedAt,
      tool: sample.tool,
      target: {
        ...sample.target,
        environment: 'staging',
        deviations: [{ requirement: 'PAG-02', reason: 'links omit limit', until: '2099-12-31' }],
        capabilities: [],
      },
    },
    provenance: sample.provenance,
    tests,
    runErrors: [],
    selection: {
      tests: tests.length,
      shard: { current, total },
      scenarios,
      specFiles: 1,
      reasons: incompleteness({ shard: { current, total }, leftOut: 0, filesNotRun: 0 }),
    },
    interrupted: false,
    finishedAt: new Date(sample.finishedAt),
  });
  const dir = scratchDir(`xs2a-shard-${current}-`);
  mkdirSync(join(dir, 'files', 'SIG-04.a'), { recursive: true });
  writeFileSync(join(dir, 'files', 'SIG-04.a', 'shot.png'), PNG);
  writeFileSync(join(dir, 'files', 'SIG-04.a', 'page.html'), '<html><script>x0</script>"onerror=x0</html>');
  writeFileSync(join(dir, 'results.json'), JSON.stringify(edit(results)));
  return dir;
}

/** SIG-04.a fails, with a screenshot, the page's HTML, a trace, a redirect, a warning; ERR-01.a stopped with an error. */
function richTests(): TestRecord[] {
  const failing = testRecord('SIG-04.a', 'FAIL', ['SIG-04'], { reason: 'a reason', warnings: ['a warning'] });
  failing.evidence.redirects.push({ url: 'https://tpp/cb?code=1', pages: ['https://bank/login', 'https://bank/otp'] });
  failing.evidence.files.push(
    { name: 'sca-page', path: 'files/SIG-04.a/shot.png', contentType: 'image/png' },
    { name: 'page-html', path: 'files/SIG-04.a/page.html', contentType: 'text/html' },
    { name: 'sca-trace', path: 'files/SIG-04.a/trace.zip', contentType: 'application/zip' },
  );
  return [
    testRecord('SIG-03.a', 'PASS', ['SIG-03']),
    failing,
    testRecord('PAG-02.a', 'FAIL', ['PAG-02']),
    testRecord('ERR-01.a', 'ERROR', ['ERR-01'], { error: 'stopped: an error', reason: 'stopped' }),
  ];
}

const merged = (reportDir: string) => readFileSync(join(reportDir, 'latest', 'index.html'), 'utf8');

type Path = (string | number)[];

/** Every leaf of a JSON value (string, number, boolean) by its path. */
function leaves(value: unknown, path: Path = []): Path[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => leaves(item, [...path, i]));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => leaves(v, [...path, k]));
  return [path];
}

function plant(target: unknown, path: Path, value: unknown): void {
  let at = target as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  at[path.at(-1) ?? ''] = value;
}

const payload = (n: number) => `<script>x${n}</script>"onerror=x${n}'`;
const RAW = /<script>x\d+|"onerror=x\d+|'onerror|href="\s*javascript:/i;

/** The catalogue as the page's script draws it (lib/report/html/browser.js, run here against a stand-in for the DOM). */
async function drawnCatalogue(html: string): Promise<string> {
  const scriptText = (id: string) => new RegExp(`<script[^>]* id="${id}">([^<]*)</script>`).exec(html)?.[1] ?? '';
  const element = (textContent = '') => ({
    textContent,
    innerHTML: '',
    value: '',
    dataset: {},
    addEventListener() {},
    insertAdjacentHTML() {},
  });
  const elements: Record<string, ReturnType<typeof element>> = {
    catalogue: element(),
    'catalogue-data': element(scriptText('catalogue-data')),
    statuses: element(scriptText('statuses')),
  };
  for (const id of ['declared-target', 'suite-files', 'q', 'fs', 'fl', 'fa', 'shown', 'clear']) elements[id] = element();
  const document = {
    documentElement: { dataset: {} as Record<string, string> },
    getElementById: (id: string) => elements[id] ?? null,
    querySelectorAll: () => [],
    addEventListener() {},
  };
  const source = readFileSync(new URL('../../lib/report/html/browser.js', import.meta.url), 'utf8').replace(
    '(async function ()',
    'return (async function ()',
  );
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the page's own script, run as the browser runs it
  await (new Function('document', 'window', 'location', 'navigator', source) as (...args: unknown[]) => Promise<void>)(
    document,
    { addEventListener() {} },
    { hash: '' },
    {},
  );
  assert.equal(document.documentElement.dataset.ready, '1', elements.catalogue?.textContent);
  return elements.catalogue?.innerHTML ?? '';
}

describe('merge: what a shard brings is checked and escaped (M4)', () => {
  test('a payload in every string field of a shard survives nowhere unescaped in the merged index.html', async () => {
    const dir = shardDir(1, 1, richTests(), 4);
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunResults & { tests: TestRecord[] };
    // The catalogue's own records are folded again by merge; the shard's deviations come from its KNOWN_DEVIATION ones.
    const planted = leaves(results).filter(
      (path) => path[0] !== 'requirements' || results.requirements[path[1] as number]?.status === 'KNOWN_DEVIATION',
    );
    const accepted = planted.filter((path, n) => {
      const copy = structuredClone(results);
      plant(copy, path, payload(n));
      return resultsSchemaErrors(copy).length === 0;
    });
    assert.ok(accepted.length > 60, `${accepted.length} fields take any string`);
    const copy = structuredClone(results);
    accepted.forEach((path) => plant(copy, path, payload(planted.indexOf(path))));
    for (const exchange of copy.tests.flatMap((t) => t.evidence.exchanges)) {
      for (const message of [exchange.request, exchange.response])
        if (message) message.headers = { [payload(9000)]: payload(9001), ...message.headers };
    }
    copy.tests[1]?.evidence.files.push({ name: 'trace', path: 'javascript:alert(document.domain)', contentType: 'application/zip' });
    writeFileSync(join(dir, 'results.json'), JSON.stringify(copy));

    const out = scratchDir('xs2a-merged-');
    const run = await runInProcess(['merge', dir, '--report-dir', out]);
    assert.notEqual(run.exitCode, 2, run.stderr);
    const html = merged(out);
    const catalogue = await drawnCatalogue(html);
    for (const [where, text] of [
      ['the page', html],
      ['the catalogue the page draws', catalogue],
    ] as const) {
      const raw = RAW.exec(text);
      assert.ok(raw === null, `unescaped in ${where}: …${raw ? text.slice(Math.max(0, raw.index - 200), raw.index + 100) : ''}`);
    }
    const shown = new Set([...`${html}${catalogue}`.matchAll(/&lt;script&gt;x(\d+)/g)].map((m) => m[1]));
    assert.ok(shown.size > 40, `${shown.size} planted fields reached the page, escaped`);
  });

  test('a shard the schema refuses is refused: exit 2, naming the shard and the field, and nothing is written', async () => {
    const dir = shardDir(1, 1, richTests(), 4, (results) => {
      const tests = results.tests as unknown as Record<string, unknown>[];
      if (tests[1]) tests[1].line = '<img src=x onerror=alert(1)>';
      return results;
    });
    const out = scratchDir('xs2a-merged-');
    const run = await runInProcess(['merge', dir, '--report-dir', out]);
    assert.equal(run.exitCode, 2, run.stdout);
    assert.match(
      run.stderr,
      new RegExp(`merge: ${dir}/results\\.json is not a report this tool can merge: /tests/\\d/line: must be integer`),
    );
    assert.equal(existsSync(join(out, 'latest')), false);
  });

  for (const [label, path] of [
    ['a ../ path', '../../outside.txt'],
    ['an absolute path', '/etc/hostname'],
  ] as const) {
    test(`an evidence file with ${label} is refused (exit 2), and nothing outside the shard is copied`, async () => {
      const dir = shardDir(1, 1, richTests(), 4, (results) => {
        results.tests.find((t) => t.scenario === 'SIG-04.a')?.evidence.files.push({ name: 'loot', path, contentType: 'text/plain' });
        return results;
      });
      writeFileSync(join(dir, '..', 'outside.txt'), 'a file of the machine, not of the shard');
      const out = scratchDir('xs2a-merged-');
      const run = await runInProcess(['merge', dir, '--report-dir', out]);
      assert.equal(run.exitCode, 2, run.stdout);
      assert.match(
        run.stderr,
        new RegExp(`merge: ${dir}: SIG-04\\.a names the evidence file "${path.replace(/\./g, '\\.')}", an unsafe path \\(`),
      );
      assert.equal(existsSync(join(out, 'latest')), false);
    });
  }

  test('an evidence file that is a symbolic link, or under a linked folder, is refused (exit 2)', async () => {
    const secret = join(scratchDir('xs2a-secret-'), 'secret.png');
    writeFileSync(secret, 'a file of the machine');
    const linked = shardDir(1, 1, richTests(), 4);
    symlinkSync(secret, join(linked, 'files', 'SIG-04.a', 'link.png'));
    const results = JSON.parse(readFileSync(join(linked, 'results.json'), 'utf8')) as RunResults;
    results.tests
      .find((t) => t.scenario === 'SIG-04.a')
      ?.evidence.files.push({ name: 'link', path: 'files/SIG-04.a/link.png', contentType: 'image/png' });
    writeFileSync(join(linked, 'results.json'), JSON.stringify(results));
    const run = await runInProcess(['merge', linked, '--report-dir', scratchDir('xs2a-merged-')]);
    assert.equal(run.exitCode, 2);
    assert.match(run.stderr, /SIG-04\.a names the evidence file "files\/SIG-04\.a\/link\.png", a symbolic link: refused/);

    const underLink = shardDir(1, 1, richTests(), 4);
    const elsewhere = scratchDir('xs2a-elsewhere-');
    mkdirSync(join(elsewhere, 'SIG-04.a'));
    writeFileSync(join(elsewhere, 'SIG-04.a', 'shot.png'), PNG);
    // `files` itself is a link to a folder outside the shard.
    rmSync(join(underLink, 'files'), { recursive: true });
    symlinkSync(elsewhere, join(underLink, 'files'));
    const outside = await runInProcess(['merge', underLink, '--report-dir', scratchDir('xs2a-merged-')]);
    assert.equal(outside.exitCode, 2);
    assert.match(
      outside.stderr,
      /SIG-04\.a names the evidence file "files\/SIG-04\.a\/shot\.png", which leads outside its folder \(through a link\): refused/,
    );
  });
});

describe('merge: shards that do not cover their split', () => {
  const pass = (id: string) => testRecord(id, 'PASS', [id.slice(0, 6)]);

  test('shard 1 of 2 alone: INCOMPLETE, the missing shard named, exit 3 without --require', async () => {
    const out = scratchDir('xs2a-merged-');
    const run = await runInProcess(['merge', shardDir(1, 2, [pass('SIG-03.a')], 2), '--report-dir', out]);
    assert.equal(run.exitCode, 3, run.stdout + run.stderr);
    const results = JSON.parse(readFileSync(join(out, 'latest', 'results.json'), 'utf8')) as RunResults;
    assert.equal(results.verdict, 'INCOMPLETE');
    assert.equal(results.exitCode, 3);
    assert.ok(
      results.verdictReasons.includes('the suite did not run as written: shard 2 of 2 is missing from the merge'),
      results.verdictReasons.join('\n'),
    );
    assert.match(run.stdout, /shard 2 of 2 is missing from the merge/);
    assert.match(merged(out), /shard 2 of 2 is missing from the merge/);
  });

  test('shards 1 and 3 of 3: shard 2 named missing, exit 3', async () => {
    const out = scratchDir('xs2a-merged-');
    const run = await runInProcess([
      'merge',
      shardDir(1, 3, [pass('SIG-03.a')], 3),
      shardDir(3, 3, [pass('HDR-03.a')], 3),
      '--report-dir',
      out,
    ]);
    assert.equal(run.exitCode, 3, run.stdout + run.stderr);
    const results = JSON.parse(readFileSync(join(out, 'latest', 'results.json'), 'utf8')) as RunResults;
    assert.equal(results.verdict, 'INCOMPLETE');
    assert.deepEqual(results.runErrors, ['shard 2 of 3 is missing from the merge']);
  });

  test('every shard of the split: no shard error, exit 0 (nothing failed)', async () => {
    const out = scratchDir('xs2a-merged-');
    const run = await runInProcess([
      'merge',
      shardDir(1, 2, [pass('SIG-03.a')], 2),
      shardDir(2, 2, [pass('HDR-03.a')], 2),
      '--report-dir',
      out,
    ]);
    assert.equal(run.exitCode, 0, run.stdout + run.stderr);
    const results = JSON.parse(readFileSync(join(out, 'latest', 'results.json'), 'utf8')) as RunResults;
    assert.equal(results.runErrors, undefined);
    assert.equal(results.selection?.reasons.length, 0);
  });
});
