/**
 * The audit streams: what it holds does not grow with the file. Two HARs of realistic signed traffic, 5 MB
 * and 20 MB, each audited in a process of its own whose live heap (after a collection, every second: more
 * often doubled the audit's time) is sampled: the larger file costs the audit a few MB more at most, not the
 * 15 MB more it holds (a reader that held the file would need that for its text alone, and several times it
 * parsed). The live heap, not the peak of the heap used: that counts garbage not yet collected, which depends
 * on when the collector runs; on a busy machine the peaks of one streaming audit were 8.8 and 12.6 MB apart.
 * The peak of a 100 MB HAR is measured by scripts/audit-heap.ts (README: Audit of recorded traffic).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { generateHar } from '../../lib/traffic/generate-har.js';
import { testPki } from '../pki/test-pki.js';
import { scratchDir } from '../support/scratch.js';

interface HeapRun {
  entries: number;
  baselineLiveHeapMb: number;
  peakLiveHeapMb: number;
  failed: string[];
}

function auditInChild(file: string): HeapRun {
  const audit = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', 'scripts/audit-heap.ts', '--audit', file], {
    encoding: 'utf8',
  });
  assert.equal(audit.status, 0, audit.stderr);
  return JSON.parse(audit.stdout.trim().split('\n').at(-1) ?? '{}') as HeapRun;
}

describe('the audit of a HAR streams', () => {
  const dir = scratchDir('xs2a-audit-streaming-');
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('a file four times larger costs the audit a few MB of heap more, not the 15 MB more it holds', async () => {
    const identity = testPki().identity;
    const [small, large] = [join(dir, 'small.har'), join(dir, 'large.har')];
    const entries = [await generateHar(small, 5, identity), await generateHar(large, 20, identity)];
    const runs = [auditInChild(small), auditInChild(large)];
    assert.deepEqual(
      runs.map((r) => r.entries),
      entries,
      'every entry audited',
    );
    assert.deepEqual(
      runs.flatMap((r) => r.failed),
      [],
      'the clean traffic found clean',
    );
    const own = runs.map((r) => r.peakLiveHeapMb - r.baselineLiveHeapMb);
    const growth = (own[1] ?? 0) - (own[0] ?? 0);
    assert.ok(
      growth < 8,
      `the audits' largest live heap above their start ${own.map((mb) => mb.toFixed(1)).join(' MB, then ')} MB: ${growth.toFixed(1)} MB more for 15 MB more of file`,
    );
  });
});
