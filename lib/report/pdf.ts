/**
 * `--pdf`: the HTML report printed to index.pdf by the suite's own Chromium (the one that drives SCA), with
 * the print stylesheet: no toolbar, every group open, A4.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from '@playwright/test';
import { chromiumArgs, findChromium } from '../sca/browser.js';
import { copyPrivate, keepPrivate } from './private-files.js';
import { REPORT_FILES } from './write.js';

/** Prints `<reportDir>/index.html` to `<reportDir>/index.pdf`, and copies the PDF into `copyTo` folders. */
export async function printPdf(reportDir: string, ...copyTo: string[]): Promise<string> {
  const pdf = join(reportDir, REPORT_FILES.pdf);
  const browser = await chromium.launch({ executablePath: findChromium(process.env, chromium.executablePath()), args: chromiumArgs() });
  try {
    const page = await browser.newPage();
    await page.goto(pathToFileURL(join(reportDir, REPORT_FILES.html)).href);
    await page.waitForSelector('html[data-ready]', { timeout: 30_000 });
    await page.evaluate(() => (window as unknown as { xs2aPrint?: () => void }).xs2aPrint?.());
    await page.pdf({
      path: pdf,
      format: 'A4',
      printBackground: true,
      margin: { top: '12mm', bottom: '12mm', left: '10mm', right: '10mm' },
    });
  } finally {
    await browser.close();
  }
  keepPrivate(pdf);
  for (const dir of copyTo) if (existsSync(dir) && dir !== reportDir) copyPrivate(pdf, join(dir, REPORT_FILES.pdf));
  return pdf;
}
