/**
 * Writing a report folder: reports/<run-id>/ with results.json, index.html (evidence images inlined, so it
 * stands alone), junit.xml and the evidence files; then reports/latest/ as a copy of it (its user's alone:
 * lib/report/private-files.ts).
 */
import { cpSync, existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { areaBarsSvg } from './html/area-bars.js';
import { renderHtml } from './html/page.js';
import { renderJunit } from './junit.js';
import { copyPrivate, mkdirPrivate, writePrivate } from './private-files.js';
import type { RunResults } from './results-types.js';

/** A file of the report: an attachment where Playwright left it, or content the reporter made (a body kept whole). */
export type EvidenceFileCopy = ({ from: string } | { content: string }) & {
  /** Its path inside the report folder. */
  to: string;
};

export const REPORT_FILES = {
  results: 'results.json',
  html: 'index.html',
  junit: 'junit.xml',
  pdf: 'index.pdf',
  picture: 'areas.svg',
} as const;

/**
 * Writes <reportRoot>/<runId>/, then makes it <reportRoot>/latest: a copy beside it renamed into place, so
 * `latest` changes only once a whole report exists.
 */
export function writeReport(reportRoot: string, runId: string, results: RunResults, files: readonly EvidenceFileCopy[]): string {
  const runDir = join(reportRoot, runId);
  mkdirPrivate(runDir);
  for (const file of files) {
    const target = join(runDir, file.to);
    mkdirPrivate(join(target, '..'));
    try {
      if ('content' in file) writePrivate(target, file.content);
      else copyPrivate(file.from, target);
    } catch {
      // A missing attachment file must not cost the whole report.
    }
  }
  // One line: results.json is read by programs (and `jq`); pretty-printed it was 60% larger.
  writePrivate(join(runDir, REPORT_FILES.results), JSON.stringify(results));
  writePrivate(join(runDir, REPORT_FILES.html), renderHtml(results, { readEvidence: evidenceReader(runDir) }));
  writePrivate(join(runDir, REPORT_FILES.junit), renderJunit(results));
  writePrivate(join(runDir, REPORT_FILES.picture), areaBarsSvg(results, { heading: true }));
  const latest = join(reportRoot, 'latest');
  const incoming = join(reportRoot, `.latest-${runId}`);
  cpSync(runDir, incoming, { recursive: true });
  rmSync(latest, { recursive: true, force: true });
  renameSync(incoming, latest);
  return runDir;
}

/** Reads an evidence file of the report folder, for inlining; undefined when it is not there. */
export function evidenceReader(reportDir: string): (path: string) => Buffer | undefined {
  return (path) => {
    const file = join(reportDir, path);
    return existsSync(file) ? readFileSync(file) : undefined;
  };
}
