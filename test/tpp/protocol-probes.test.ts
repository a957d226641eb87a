// The robustness probe generator and judge (lib/tpp/malformed-requests.ts): probes
// reach every operation and carry the defects they claim; the judge tells a
// conforming refusal from a 5xx, a missing answer and a body outside the spec.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { playwrightArgs, type RunOptions } from '../../lib/cli/commands/run-command.js';
import { COMMANDS } from '../../lib/cli/commands/index.js';
import { parseCommandLine } from '../../lib/cli/program.js';
import { OperationTable, OPERATIONS } from '../../lib/spec/operations.js';
import { malformedRequest, probeFailure, runProbes } from '../../lib/tpp/malformed-requests.js';

const ERROR_BODY = JSON.stringify({ id: 'e1', system: 'bank', status: 400, code: 'FORMAT_ERROR', message: 'no' });

describe('robustness probes', () => {
  const sample = fc.sample(malformedRequest(), { numRuns: 2_000, seed: 1 });

  it('reach every operation of lib/spec/operations.ts', () => {
    const table = new OperationTable();
    for (const operation of OPERATIONS) {
      const reached = sample.some((probe) => table.find(operation.method, probe.path.split('?')[0] ?? '')?.path === operation.path);
      assert.ok(reached, `no probe reaches ${operation.method} ${operation.path}`);
    }
    assert.ok(
      sample.some((probe) => probe.path.includes('%2e%2e') || probe.path.includes('..')),
      'path traversal',
    );
  });

  it('carry bodies that are huge, deeply nested, not UTF-8, and headers omitted, duplicated and malformed', () => {
    const defects = sample.flatMap((probe) => probe.defects).join('\n');
    for (const expected of [/MiB of letters/, /nested \d+ deep/, /not UTF-8/, /^no /m, / twice$/m, /a duplicated field/])
      assert.match(defects, expected);
  });

  it('judge: 4xx with the error body or a success holds; 5xx, no answer, another body or content type fails', () => {
    assert.equal(probeFailure({ status: 400, contentType: 'application/json', body: ERROR_BODY }), undefined);
    assert.equal(probeFailure({ status: 200, contentType: 'application/json', body: '{}' }), undefined);
    assert.equal(
      probeFailure({ status: 401, contentType: 'application/json', body: '{"_links":{"scaRedirect":{"href":"https://x"}}}' }),
      undefined,
    );
    assert.match(probeFailure({ status: 500, contentType: 'application/json', body: ERROR_BODY }) ?? '', /HTTP 500/);
    assert.match(probeFailure({ error: 'socket hang up' }) ?? '', /no answer/);
    assert.match(
      probeFailure({ status: 400, contentType: 'application/json', body: '{"error":"Bad Request","statusCode":400}' }) ?? '',
      /without the error body/,
    );
    assert.match(probeFailure({ status: 400, contentType: 'text/plain', body: 'bad' }) ?? '', /Content-Type/);
  });

  it('shrink a failure to a small request', async () => {
    // A bank that fails on any body: the counterexample keeps a body and little else.
    const run = await runProbes(
      (probe) =>
        Promise.resolve(
          probe.rawBody
            ? { status: 500, contentType: 'application/json', body: '{}' }
            : { status: 400, contentType: 'application/json', body: ERROR_BODY },
        ),
      { runs: 200, seed: 3 },
    );
    assert.ok(run.counterexample);
    assert.ok(run.counterexample.request.rawBody);
    assert.ok(run.counterexample.request.defects.length <= 2, run.counterexample.request.defects.join('; '));
  });

  it('--probes N is taken by the runner, not passed to Playwright', async () => {
    const { options } = await parseCommandLine(COMMANDS, ['run', '--probes', '5000', '--workers', '2']);
    assert.equal(options.probes, 5000);
    assert.deepEqual(playwrightArgs(options as unknown as RunOptions), ['--workers=2']);
    await assert.rejects(parseCommandLine(COMMANDS, ['run', '--probes', 'many']));
  });
});
