/**
 * Refreshes scripts/fast-tier-seconds.json, the seconds each fast-tier file's tests take, by which
 * scripts/test-tiers.ts shares the files out among the tier's processes. Each file runs alone, one after
 * another, so that none slows another; its module loading is left out (a process of the tier pays it once
 * for all its files). Run it on an idle machine after adding a test file or changing one's cost much:
 * `node --import tsx scripts/fast-tier-seconds.ts`.
 */
import { writeFileSync } from 'node:fs';
import { finished } from 'node:stream/promises';
import { run } from 'node:test';
import { FAST_TIER_SECONDS_FILE, testFilesOf } from './test-tiers.js';

const seconds: Record<string, number> = {};
for (const file of testFilesOf('fast')) {
  let milliseconds = 0;
  const stream = run({ files: [file] });
  // The top-level tests and suites, one after another, make up the file's time.
  stream.on('test:pass', (data) => {
    if (data.nesting === 0) milliseconds += data.details.duration_ms;
  });
  stream.on('test:fail', (data) => {
    if (data.nesting > 0) return;
    milliseconds += data.details.duration_ms;
    console.error(`${file}: "${data.name}" failed`);
  });
  await finished(stream.resume());
  seconds[file] = Math.round(milliseconds / 100) / 10;
  console.log(`${seconds[file].toFixed(1).padStart(6)} s  ${file}`);
}
writeFileSync(FAST_TIER_SECONDS_FILE, `${JSON.stringify(seconds, null, 2)}\n`);
