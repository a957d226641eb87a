/**
 * `node --import tsx scripts/audit-heap.ts [megabytes]`: the peak heap of auditing a HAR of that size
 * (default 100 MB), generated first (lib/traffic/generate-har.ts: realistic signed traffic). The audit runs
 * in a child process of its own; its heap is sampled every 5 ms. Prints file size, entries, time, the heap
 * before the audit and its peak. `--audit FILE` is that child (with node's --expose-gc, it also reports the
 * largest live heap, test/tpp-judge/audit-streaming.e2e.test.ts).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { generateCertificateAuthority, generateTppCertificate } from '../lib/pki/index.js';
import { loadTppIdentity } from '../lib/tpp/index.js';
import { auditHar } from '../lib/traffic/audit.js';
import { generateHar } from '../lib/traffic/generate-har.js';
import { scriptArguments } from './script-arguments.js';

const MB = 1_048_576;

const USAGE = `usage: node --import tsx scripts/audit-heap.ts [megabytes]

The peak heap of auditing a HAR of that size (default 100), generated first. --audit FILE is the audit's own
process (run by the first, and by test/tpp-judge/audit-streaming.e2e.test.ts with node's --expose-gc).`;
const given = scriptArguments(USAGE, {
  options: { audit: { type: 'string' } },
  maxPositionals: 1,
  refuse: ({ values, positionals: [size] }) => {
    if (values.audit !== undefined && size !== undefined) return `--audit takes a file and no size ("${size}")`;
    return size === undefined || Number(size) > 0 ? undefined : `the size is a number of megabytes above 0, not "${size}"`;
  },
});

if (typeof given.values.audit === 'string') {
  // The child: audit one file, sampling the heap. Started with --expose-gc, it also collects every second and
  // keeps the largest live heap: the peak alone counts garbage not yet collected, which depends on when the
  // collector runs (later on a busy machine) more than on what the audit holds.
  const file = given.values.audit;
  const collect = typeof globalThis.gc === 'function' ? globalThis.gc : undefined;
  const liveHeap = () => {
    collect?.();
    return process.memoryUsage().heapUsed;
  };
  const baselineLive = liveHeap();
  const baseline = process.memoryUsage().heapUsed;
  let peak = baseline;
  let peakLive = baselineLive;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  }, 5);
  const collector = collect && setInterval(() => (peakLive = Math.max(peakLive, liveHeap())), 1000);
  const started = performance.now();
  const { entries, judging } = await auditHar(file, { environment: 'sandbox' });
  clearInterval(sampler);
  clearInterval(collector);
  peak = Math.max(peak, process.memoryUsage().heapUsed);
  const failed = judging.tppTally.summaries().flatMap((s) => [...s.rules.values()].filter((r) => r.fail > 0).map((r) => r.rule));
  const live = collect ? { baselineLiveHeapMb: baselineLive / MB, peakLiveHeapMb: peakLive / MB } : {};
  console.log(
    JSON.stringify({
      entries,
      ms: Math.round(performance.now() - started),
      baselineHeapMb: baseline / MB,
      peakHeapMb: peak / MB,
      ...live,
      failed,
    }),
  );
} else {
  const megabytes = Number(given.positionals[0] ?? 100);
  const dir = mkdtempSync(join(tmpdir(), 'xs2a-audit-heap-'));
  try {
    const ca = generateCertificateAuthority({ commonName: 'Heap test CA', organizationName: 'xs2a-conformance', countryName: 'NO' });
    const identity = loadTppIdentity(
      generateTppCertificate(ca, { organizationName: 'Heap TPP', organizationIdentifier: 'PSDNO-FSA-HEAP', roles: ['PSP_AI', 'PSP_PI'] }),
    );
    const file = join(dir, 'traffic.har');
    const generated = await generateHar(file, megabytes, identity);
    const size = statSync(file).size / MB;
    const child = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/audit-heap.ts', '--audit', file], { encoding: 'utf8' });
    if (child.status !== 0) throw new Error(child.stderr);
    const result = JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '{}') as {
      entries: number;
      ms: number;
      baselineHeapMb: number;
      peakHeapMb: number;
      failed: string[];
    };
    console.log(`HAR ${size.toFixed(1)} MB, ${generated} entries; audited ${result.entries} in ${(result.ms / 1000).toFixed(1)} s`);
    console.log(
      `heap before the audit ${result.baselineHeapMb.toFixed(1)} MB, peak ${result.peakHeapMb.toFixed(1)} MB (${(result.peakHeapMb - result.baselineHeapMb).toFixed(1)} MB for the audit)`,
    );
    console.log(`rules failed: ${result.failed.join(', ') || 'none'}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
