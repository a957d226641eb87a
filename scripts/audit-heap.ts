/**
 * `node --import tsx scripts/audit-heap.ts [megabytes]`: the peak heap of auditing a HAR of that size
 * (default 100 MB), generated first (lib/traffic/generate-har.ts: realistic signed traffic). The audit runs
 * in a child process of its own; its heap is sampled every 5 ms. Prints file size, entries, time, the heap
 * before the audit and its peak.
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

const MB = 1_048_576;

if (process.argv[2] === '--audit') {
  // The child: audit one file, sampling the heap.
  const file = process.argv[3] ?? '';
  const baseline = process.memoryUsage().heapUsed;
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  }, 5);
  const started = performance.now();
  const { entries, judging } = await auditHar(file, { environment: 'sandbox' });
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().heapUsed);
  const failed = judging.tppTally.summaries().flatMap((s) => [...s.rules.values()].filter((r) => r.fail > 0).map((r) => r.rule));
  console.log(JSON.stringify({ entries, ms: Math.round(performance.now() - started), baselineHeapMb: baseline / MB, peakHeapMb: peak / MB, failed }));
} else {
  const megabytes = Number(process.argv[2] ?? 100);
  const dir = mkdtempSync(join(tmpdir(), 'xs2a-audit-heap-'));
  try {
    const ca = generateCertificateAuthority({ commonName: 'Heap test CA', organizationName: 'xs2a-conformance', countryName: 'NO' });
    const identity = loadTppIdentity(generateTppCertificate(ca, { organizationName: 'Heap TPP', organizationIdentifier: 'PSDNO-FSA-HEAP', roles: ['PSP_AI', 'PSP_PI'] }));
    const file = join(dir, 'traffic.har');
    const generated = await generateHar(file, megabytes, identity);
    const size = statSync(file).size / MB;
    const child = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/audit-heap.ts', '--audit', file], { encoding: 'utf8' });
    if (child.status !== 0) throw new Error(child.stderr);
    const result = JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '{}') as { entries: number; ms: number; baselineHeapMb: number; peakHeapMb: number; failed: string[] };
    console.log(`HAR ${size.toFixed(1)} MB, ${generated} entries; audited ${result.entries} in ${(result.ms / 1000).toFixed(1)} s`);
    console.log(`heap before the audit ${result.baselineHeapMb.toFixed(1)} MB, peak ${result.peakHeapMb.toFixed(1)} MB (${(result.peakHeapMb - result.baselineHeapMb).toFixed(1)} MB for the audit)`);
    console.log(`rules failed: ${result.failed.join(', ') || 'none'}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
