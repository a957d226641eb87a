/**
 * A target declared `environment: production` never receives a request that writes, an SCA login or a
 * sandbox operation, whatever the scenarios do: the whole suite runs against a logging bank declared
 * production, with every capability of the reference bank, and the bank's log shows only reads.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CliRun } from '../support/run-cli.js';
import { startRemoteBank, type RemoteBank } from './remote-bank.js';

describe('a production target', () => {
  let remote: RemoteBank;
  let run: CliRun;
  before(async () => {
    remote = await startRemoteBank();
    run = await remote.run([], { environment: 'production' });
  });
  after(() => remote.close());

  test('receives no write, no SCA login and no sandbox call from a whole run', () => {
    assert.ok(run.results, `no results: exit ${run.exitCode}\n${run.stderr}\n${run.stdout.slice(-3000)}`);
    const writes = remote.log.filter((r) => r.method !== 'GET' && r.method !== 'HEAD');
    const scaPages = remote.log.filter((r) => r.url.startsWith('/sca/') && r.method !== 'GET');
    const sandbox = remote.log.filter((r) => r.url.startsWith('/v1/sandbox'));
    const show = (requests: typeof remote.log) =>
      requests
        .map((r) => `${r.method} ${r.url}`)
        .slice(0, 20)
        .join('\n');
    assert.equal(writes.length, 0, `writes reached the production bank:\n${show(writes)}`);
    assert.equal(scaPages.length, 0, `SCA logins reached the production bank:\n${show(scaPages)}`);
    assert.equal(sandbox.length, 0, `sandbox operations reached the production bank:\n${show(sandbox)}`);
    assert.ok(remote.log.length > 0, 'the run read from the bank');
  });

  test('what the safety policy stops is SKIPPED with the scenario and the request named, never FAIL or ERROR', () => {
    const tests = run.results?.tests ?? [];
    const notRun = tests.filter((t) => t.status === 'FAIL' || t.status === 'ERROR');
    assert.deepEqual(
      notRun.map((t) => `${t.scenario} ${t.status}: ${(t.error ?? '').split('\n')[0]}`),
      [],
    );
    const skipped = tests.filter((t) => t.status === 'SKIPPED');
    assert.ok(skipped.length > 0);
    for (const t of skipped) assert.match(t.reason ?? '', /not run against production/, `${t.scenario}: ${t.reason ?? ''}`);
    // A scenario that declares nothing and sends a write is stopped by the TPP client itself, naming itself and the request.
    const consents = tests.find((t) => t.scenario === 'END-20.a');
    assert.match(consents?.reason ?? '', /END-20\.a would send POST \/v1\/consents/);
  });
});
