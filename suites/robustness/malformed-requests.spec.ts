/**
 * Robustness: property-based malformed requests to every operation (wrong types, missing and duplicated
 * fields and headers, huge and deeply nested bodies, bytes that are not UTF-8, path traversal, broken
 * signatures). Whatever is wrong, the answer is never a 5xx (Errors > Rules; ERR-44). A failure is shrunk
 * to the smallest request that still fails, and that request is the evidence. Every answer is also judged
 * by the rules of every response (a 4xx carries the error body: ERR-01 to ERR-04), each under its own
 * requirement; a connection the target drops is no 5xx. Some probes reach the sandbox mock-data operation
 * that writes.
 */
import { describeProbe, probeSettings, probeWith, scenario, test } from '../../lib/fixtures/index.js';

test(
  ...scenario(
    'ERR-44.d',
    'malformed requests to every operation are never answered with a 5xx',
    { checks: ['ERR-44'], writes: 'sends malformed requests, some to a sandbox mock-data operation' },
    async ({ tpp, target, check }) => {
      const { runs, seed } = probeSettings();
      const result = await probeWith(tpp, target.paths);
      const found = result.counterexample;
      check.that('ERR-44', found === undefined, {
        expected: `${runs} malformed requests (seed ${seed}), none answered with a 5xx`,
        actual: found ? `${found.failure}, after ${found.shrinks} shrinks, for: ${describeProbe(found.request)}` : `${result.runs} held`,
      });
    },
  ),
);
