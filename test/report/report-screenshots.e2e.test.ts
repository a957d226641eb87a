/**
 * The report as a person sees it: a passing, a failing (one cause, 140 scenarios) and a filtered run's
 * index.html in the suite's Chromium at 1400 px, each screenshot kept (XS2A_SCREENSHOT_DIR, else a temporary
 * folder, printed), the verdict and the picture within the first 900 px; the failing run's page under 2 MB and
 * its verdict visible within 2 s. About 3 s.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { chromium } from '@playwright/test';
import { renderHtml } from '../../lib/report/html/page.js';
import type { RunResults } from '../../lib/report/results-types.js';
import { chromiumArgs, findChromium } from '../../lib/sca/browser.js';
import { scratchDir } from '../support/scratch.js';
import { cleanRun, filteredRun, oneCauseRun } from './one-cause-run.js';

const FIRST_SCREEN = 900;
const shots = process.env.XS2A_SCREENSHOT_DIR ?? scratchDir('xs2a-report-shots-');
mkdirSync(shots, { recursive: true });

describe('the report in a browser, at 1400 px', { concurrency: false }, async () => {
  const browser = await chromium.launch({ executablePath: findChromium(process.env, chromium.executablePath()), args: chromiumArgs() });
  const runs: [string, RunResults][] = [
    ['passing', cleanRun()],
    ['failing', oneCauseRun(140)],
    ['filtered', filteredRun()],
  ];
  for (const [name, results] of runs) {
    test(`${name}: the verdict and the per-area picture in the first screen`, async () => {
      const html = renderHtml(results);
      const file = join(shots, `${name}.html`);
      writeFileSync(file, html);
      const page = await browser.newPage({ viewport: { width: 1400, height: FIRST_SCREEN } });
      try {
        const started = Date.now();
        await page.goto(`file://${file}`);
        await page.locator('.verdict-box .verdict').waitFor();
        const opened = Date.now() - started;
        await page.waitForSelector('html[data-ready]');
        await page.screenshot({ path: join(shots, `${name}.png`) });
        for (const selector of ['.verdict-box .verdict', '#areas svg']) {
          const box = await page.locator(selector).boundingBox();
          assert.ok(box && box.y >= 0 && box.y + box.height <= FIRST_SCREEN, `${selector} at ${JSON.stringify(box)}`);
        }
        if (name === 'failing') {
          assert.ok(html.length <= 2_000_000, `index.html is ${html.length} bytes`);
          assert.ok(opened <= 2_000, `the verdict was visible after ${opened} ms`);
          // The one cause, with its example, starts within the first screen too.
          const cause = await page.locator('.grp-cause h3').first().boundingBox();
          assert.ok(cause && cause.y < FIRST_SCREEN, `the cause at ${JSON.stringify(cause)}`);
        }
        if (name === 'filtered') {
          const error = await page.locator('#SIG-10\\.a').boundingBox();
          assert.ok(error && error.y < FIRST_SCREEN, `the one scenario that ran at ${JSON.stringify(error)}`);
        }
      } finally {
        await page.close();
      }
    });
  }
  test('screenshots kept', async () => {
    await browser.close();
    console.log(`screenshots: ${shots}`);
  });
});
