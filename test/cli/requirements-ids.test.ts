/**
 * `xs2a-conformance requirements ID…`: the entries named, in full, a TPP rule with the call that exercises
 * it; an id the catalogue lacks is a usage error (exit 2) naming it and the nearest one.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { tppRuleCard } from '../../lib/tpp-judge/index.js';
import { runInProcess } from '../support/in-process-cli.js';

const requirements = (args: string[]) => runInProcess(['requirements', ...args]);

describe('requirements ID…', () => {
  test('shows each entry named in full, in the order named; a TPP rule with the call that exercises it', async () => {
    const run = await requirements(['TPP-11', 'tpp-39', 'SIG-11']);
    assert.equal(run.exitCode, 0, run.stderr);
    const blocks = run.stdout.split('\n\n');
    assert.deepEqual(
      blocks.map((block) => block.split('  ')[0]),
      ['TPP-11', 'TPP-39', 'SIG-11'],
    );
    assert.match(blocks[0] ?? '', /^TPP-11 {2}MUST {2}TPP\n {2}keyId is written SN=/);
    assert.match(blocks[0] ?? '', /\n {2}Section: Authentication 5 > keyId\n/);
    assert.ok(blocks[1]?.includes(`  Exercised by: ${tppRuleCard('TPP-39')?.hint ?? ''}`));
    assert.doesNotMatch(blocks[2] ?? '', /Exercised by/);
  });

  test('as JSON, the entries with their hints', async () => {
    const run = await requirements(['--json', 'TPP-43']);
    const [entry] = JSON.parse(run.stdout) as { id: string; level: string; hint?: string; review?: unknown[] }[];
    assert.equal(entry?.id, 'TPP-43');
    assert.equal(entry?.hint, tppRuleCard('TPP-43')?.hint);
    assert.ok((entry?.review?.length ?? 0) > 0, "the catalogue's review comes with it");
  });

  test('an unknown id is a usage error naming it and the nearest id', async () => {
    const run = await requirements(['TPP-11', 'TPP-990']);
    assert.equal(run.exitCode, 2);
    assert.match(run.stderr, /unknown requirement id "TPP-990" \(the nearest is TPP-09\)/);
    assert.equal(run.stdout, '', 'nothing is shown when an id is unknown');
  });
});
