/**
 * Robustness: property-based malformed requests to every operation (wrong types, missing and duplicated
 * fields and headers, huge and deeply nested bodies, bytes that are not UTF-8, path traversal, broken
 * signatures). Whatever is wrong, the answer is a 4xx with the error body, never a 5xx, a hang or a
 * dropped connection (Errors > Rules; ERR-44). A failure is shrunk to the smallest request that still
 * fails, and that request is the evidence. Some probes reach the sandbox mock-data operation that writes.
 */
import { describeProbe, probeSettings, probeWith, scenario, test } from '../../lib/fixtures/index.js';

test(...scenario(
  'ERR-44.d',
  'malformed requests to every operation get a 4xx with the error body: never a 5xx, a hang or a dropped connection',
  { checks: ['ERR-44'], writes: 'sends malformed requests, some to a sandbox mock-data operation' },
  async ({ tpp, target, check }) => {
    const { runs, seed } = probeSettings();
    const result = await probeWith(tpp, target.paths);
    const found = result.counterexample;
    check.that('ERR-44', found === undefined, {
      expected: `${runs} malformed requests (seed ${seed}) each answered with a 4xx and the error body`,
      actual: found ? `${found.failure}, after ${found.shrinks} shrinks, for: ${describeProbe(found.request)}` : `${result.runs} held`,
    });
  },
));
