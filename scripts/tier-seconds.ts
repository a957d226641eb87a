/**
 * Refreshes scripts/<tier>-tier-seconds.json, the seconds each file of a tier takes, by which
 * scripts/test-tiers.ts shares the files out among the fast tier's processes and the e2e tier's lanes. Each
 * file runs alone, one after another, so that none slows another; its module loading is left out (a fast-tier
 * process pays it once for all its files). Run it on an idle machine after adding a test file or changing one's
 * cost much: `node --import tsx scripts/tier-seconds.ts fast` (a minute) or `… e2e` (about fifteen).
 */
import { writeFileSync } from 'node:fs';
import { finished } from 'node:stream/promises';
import { run } from 'node:test';
import { scriptArguments } from './script-arguments.js';
import { testFilesOf, tierSecondsFile } from './test-tiers.js';

const USAGE = `usage: node --import tsx scripts/tier-seconds.ts <fast|e2e>

Measures each file of the tier alone and writes scripts/<tier>-tier-seconds.json.`;
const TIERS = ['fast', 'e2e'] as const;
const tier = scriptArguments(USAGE, { maxPositionals: 1, choices: TIERS }).positionals[0] as (typeof TIERS)[number];

const seconds: Record<string, number> = {};
for (const file of testFilesOf(tier)) {
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
writeFileSync(tierSecondsFile(tier), `${JSON.stringify(seconds, null, 2)}\n`);
