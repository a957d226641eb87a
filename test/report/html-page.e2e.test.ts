/**
 * The HTML report in Chromium: the catalogue unpacks, anchors lead both ways, filters and search work, and a
 * conforming run's report stays within a tenth of the height and weight it had (709 KB, 220,770 px), measured on a
 * run as large as the suite: every scenario it lists, with the checks a real run makes.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser, type Page } from '@playwright/test';
import fc from 'fast-check';
import { decodeBase85, encodeBase85 } from '../../lib/report/html/base85.js';
import { renderHtml } from '../../lib/report/html/page.js';
import { Masker } from '../../lib/report/mask.js';
import { provenanceOf } from '../../lib/report/provenance.js';
import { assembleResults } from '../../lib/report/results.js';
import type { CheckRecord, RunResults, TestRecord } from '../../lib/report/results-types.js';
import { chromiumArgs, findChromium } from '../../lib/sca/browser.js';
import { listSuiteTests } from '../../lib/cli/suite-listing.js';
import { REQUIREMENTS } from '../../lib/spec/requirements.js';
import { PACKAGE_ROOT } from '../../lib/cli/package-root.js';
import { generateCertificateAuthority, generateTppCertificate } from '../../lib/pki/index.js';
import type { RunContext } from '../../lib/targets/run-context.js';
import { scratchDir } from '../support/scratch.js';
import { sampleResults } from './sample-results.js';

/**
 * Today's report of a conforming run, a tenth of it: the limits this report keeps to (the per-area picture, inline SVG, is 12 KB of it).
 */
const MAX_BYTES = 83_000;
const MAX_HEIGHT = 22_077;

let browser: Browser;
const dir = scratchDir('xs2a-html-');

before(async () => {
  browser = await chromium.launch({ executablePath: findChromium(process.env, chromium.executablePath()), args: chromiumArgs() });
});
after(async () => browser.close());

async function open(results: RunResults, name: string, hash = ''): Promise<{ page: Page; errors: string[]; bytes: number }> {
  const html = renderHtml(results);
  const file = join(dir, `${name}.html`);
  writeFileSync(file, html);
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.goto(pathToFileURL(file).href + hash);
  await page.waitForSelector('html[data-ready]');
  return { page, errors, bytes: Buffer.byteLength(html) };
}

describe('base85, which carries the compressed catalogue', () => {
  test('round-trips any bytes and never writes "<"', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const text = encodeBase85(bytes);
        return !text.includes('<') && Buffer.from(decodeBase85(text)).equals(Buffer.from(bytes));
      }),
    );
  });
});

describe('the report in the browser', () => {
  test('anchors both ways: #SIG-04 is the requirement row, linking to its scenario; the scenario links back', async () => {
    const { page, errors } = await open(sampleResults(), 'sample', '#SIG-04');
    try {
      assert.deepEqual(errors, []);
      const row = page.locator('tr[id="SIG-04"]');
      assert.equal(await row.isVisible(), true, 'the anchor opens its group');
      assert.equal(await row.locator('a[href="#SIG-04.a"]').count(), 1);
      const block = page.locator('[id="SIG-04.a"]');
      assert.ok((await block.locator('a[href="#SIG-04"]').count()) >= 1);
      // The passing scenario's row in the list is its anchor; the failing one's row points to its evidence.
      assert.equal(await page.locator('tr[id="SIG-03.a"]').count(), 1);
      assert.equal(await page.locator('#catalogue tr:has(a[href="#SIG-04.a"]) >> text=evidence').count(), 1);
    } finally {
      await page.close();
    }
  });

  test('filters by status, level and area, and search by text, over requirements and scenarios', async () => {
    const { page } = await open(sampleResults(), 'filters');
    try {
      const shown = async () =>
        page.locator('#catalogue [data-s]:visible').evaluateAll((rows) => rows.map((r) => r.querySelector('.q')?.textContent));
      const atFirst = await shown();
      assert.deepEqual(
        atFirst,
        ['SIG-03', 'SIG-04', 'PAG-02'],
        'requirement groups with something to look at open, failures first; the scenarios folded (the top of the page lists them by cause)',
      );
      await page.selectOption('#fs', 'FAIL');
      assert.deepEqual(await shown(), ['SIG-04', 'SIG-04.a']);
      await page.selectOption('#fs', '');
      await page.fill('#q', 'statement of SIG-03');
      assert.deepEqual(await shown(), ['SIG-03']);
      await page.fill('#q', '');
      await page.selectOption('#fa', 'PAG');
      assert.deepEqual(await shown(), ['PAG-02', 'PAG-02.a']);
      assert.match((await page.textContent('#shown')) ?? '', /^2 of 9 rows shown$/);
      await page.click('#clear');
      assert.deepEqual(await shown(), atFirst, 'cleared: the page as it opened');
    } finally {
      await page.close();
    }
  });
});

describe('a conforming run as large as the suite', () => {
  let results: RunResults;

  before(async () => {
    const listing = await listSuiteTests({ cwd: PACKAGE_ROOT });
    assert.ok(listing.specs.length > 200, `${listing.specs.length} scenarios listed`);
    results = conformingRun(listing.specs);
  });

  test(`index.html weighs at most ${MAX_BYTES} bytes and is at most ${MAX_HEIGHT} px tall in Chromium`, async () => {
    const { page, errors, bytes } = await open(results, 'full');
    try {
      assert.deepEqual(errors, []);
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      console.log(`conforming report of ${results.tests.length} scenarios: ${bytes} bytes, ${height} px`);
      assert.ok(bytes <= MAX_BYTES, `${bytes} bytes`);
      assert.ok(height <= MAX_HEIGHT, `${height} px`);
      assert.equal(
        await page.locator('#catalogue tr[data-s]').count(),
        results.requirements.length + results.tests.length,
        'every row is there',
      );
      // A rule checked on every exchange lists its scenarios only when asked.
      const toggle = page.locator('details.inv[data-r="FMT-01"]').first();
      await page.goto(`${page.url()}#FMT-01`);
      await toggle.locator('summary').click();
      // The links are written by the toggle event, which the browser fires after the click returns.
      await toggle.locator('a').nth(100).waitFor({ state: 'attached' });
      assert.ok((await toggle.locator('a').count()) > 100);
    } finally {
      await page.close();
    }
  });
});

/**
 * A conforming run of the listed scenarios, shaped like a real one: each declared requirement checked with an
 * actual value, and on every exchange the rules the invariants check (as many as a real run makes, ~16 each).
 */
function conformingRun(specs: { title: string; ids: string[] }[]): RunResults {
  const invariants = REQUIREMENTS.filter((r) => r.everyExchange).map((r) => r.id);
  const schemaRules = ['MSG-05', 'MSG-06', 'PAY-41', 'STA-01', 'BSK-03', 'END-10'];
  const tests: TestRecord[] = specs.map((spec, i) => {
    const scenario = spec.title.split(' ')[0] ?? `XXX-00.${i}`;
    const own: CheckRecord[] = spec.ids.map((requirement, j) => ({
      requirement,
      verdict: 'PASS',
      source: 'scenario',
      actual: j % 3 === 0 ? `HTTP 20${j % 2} ${randomUUID()}` : `valid ${['AccountList', 'Balances', 'ErrorBody'][j % 3] ?? ''}`,
      count: 1 + (j % 2),
    }));
    const onEvery: CheckRecord[] = [...invariants, ...schemaRules.slice(0, 1 + (i % schemaRules.length))].map((requirement, j) => ({
      requirement,
      verdict: 'PASS',
      source: 'invariant',
      actual: requirement === 'HDR-03' ? `X-Request-ID: ${randomUUID()}` : `HTTP ${j % 2 ? 201 : 200}`,
      count: 1 + (j % 3),
    }));
    return {
      id: `pw-${i}`,
      scenario,
      title: spec.title,
      file: `suites/area-${scenario.slice(0, 3).toLowerCase()}/scenarios.spec.ts`,
      line: 10 + i,
      requirements: spec.ids,
      status: 'PASS',
      durationMs: 100 + i,
      warnings: [],
      checks: [...own, ...onEvery],
      evidence: { exchanges: [], redirects: [], files: [] },
    };
  });
  const tpp = generateTppCertificate(generateCertificateAuthority({ commonName: 'CA' }), {
    organizationName: 'TPP',
    organizationIdentifier: 'PSDNO-FSA-X',
    roles: ['PSP_AI'],
  });
  const context: RunContext = {
    runId: 'full',
    reportRoot: dir,
    startedAt: new Date(Date.now() - 45_000).toISOString(),
    tool: { name: 'xs2a-conformance', version: '0.0.0' },
    maskPersonalData: true,
    target: {
      name: 'reference',
      environment: 'sandbox',
      baseUrl: 'https://127.0.0.1:8443',
      embedded: true,
      faults: [],
      variants: [],
      tpp: { redirectUri: 'https://tpp.example/cb' },
      tpps: { default: { certificatePem: tpp.certificatePem, privateKeyFile: '/nonexistent' } },
      psus: {},
      sca: [],
      scaVariants: {},
      scaDriver: 'browser',
      capabilities: [],
      paths: {},
      sandbox: {},
      deviations: [],
      timeouts: { requestMs: 1000, scaMs: 1000 },
    },
  };
  const finishedAt = new Date();
  const selection = { tests: tests.length, scenarios: tests.length, specFiles: 47, reasons: [] };
  return assembleResults({
    context,
    tests,
    runErrors: [],
    selection,
    interrupted: false,
    finishedAt,
    provenance: provenanceOf(context, [], finishedAt, new Masker(true)),
  });
}
