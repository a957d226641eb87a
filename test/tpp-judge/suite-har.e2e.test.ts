/**
 * The suite's own traffic, audited: a HAR recorded from a run against the reference bank (`run --har`) is
 * clean on both sides, and the same HAR with one thing changed is not, the report naming the rule: a
 * request body edited (TPP-04), a request header dropped (TPP-29), an answer's header dropped (HDR-03), an
 * answer's body edited (PAY-37).
 *
 * `npm run check` hands over the HAR of its full suite run (XS2A_SUITE_HAR); run alone, this file records
 * one from a part of the suite (SCA, sessions, payments, headers and signatures).
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { entryOfExchange, exchangeOfEntry, readHarEntries, type HarEntry } from '../../lib/har/index.js';
import { Masker } from '../../lib/report/mask.js';
import type { RunResults } from '../../lib/report/results-types.js';
import { auditHar } from '../../lib/traffic/audit.js';
import type { ReportContext } from '../../lib/traffic/report.js';
import { runCli } from '../support/run-cli.js';
import { scratchDir } from '../support/scratch.js';

/** Enough of the suite to hold SCA flows, sessions, payments and the header and signature rules. */
const PART_OF_THE_SUITE = 'SCA-1[234]|SES-0[25]|PSU-0[1-5]|PAY-36|PAY-08|END-0[56]|HDR-0[1-9]|SIG-1[46]|LIM-03|SCA-14';

interface Har {
  log: { entries: HarEntry[] };
}

const CONTEXT: ReportContext = {
  runId: 'audit-test',
  startedAt: new Date(),
  finishedAt: new Date(),
  tool: { name: 'xs2a-conformance', version: 'test' },
  target: { name: 'the suite', environment: 'sandbox', baseUrl: '', embedded: true, faults: [] },
  source: 'suite.har',
  maskPersonalData: true,
};

async function audit(file: string): Promise<{ tpp: RunResults; bank: RunResults }> {
  const { judging } = await auditHar(file, { environment: 'sandbox' });
  return { tpp: judging.tppResults(CONTEXT), bank: judging.bankResults(CONTEXT) };
}

function failed(results: RunResults): string[] {
  return results.requirements.filter((r) => r.status === 'FAIL' || r.status === 'WARNING').map((r) => r.id);
}

/** The failure messages of a rule in a report (they name the exchange). */
function failuresOf(results: RunResults, rule: string): string[] {
  return results.tests.flatMap((t) => t.checks.filter((c) => c.requirement === rule && c.verdict === 'FAIL').map((c) => c.message ?? ''));
}

const isInterface = (entry: HarEntry) => new URL(entry.request.url).pathname.startsWith('/v1/');
const unmarked = (entry: HarEntry) => entry._malformed === undefined && entry._deliberate === undefined;
const header = (headers: { name: string; value: string }[], name: string) => headers.find((h) => h.name.toLowerCase() === name);

describe("the suite's own traffic, audited", () => {
  const dir = scratchDir('xs2a-suite-har-');
  let harFile = process.env.XS2A_SUITE_HAR ?? '';
  let har: Har;

  before(async () => {
    if (harFile === '') {
      harFile = join(dir, 'suite.har');
      const run = await runCli(['run', '--report-dir', '{reportDir}', '--har', harFile, '--unmasked', '--grep', PART_OF_THE_SUITE]);
      assert.equal(run.exitCode, 0, `the part of the suite passes: ${run.stderr}${run.stdout.slice(-2000)}`);
    }
    har = JSON.parse(readFileSync(harFile, 'utf8')) as Har;
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  /** The HAR with one entry changed, written to a file of its own. */
  function edited(name: string, pick: (entry: HarEntry) => boolean, change: (entry: HarEntry) => void): { file: string; index: number } {
    const copy = JSON.parse(JSON.stringify(har)) as Har;
    const index = copy.log.entries.findIndex(pick);
    assert.ok(index >= 0, `${name}: the HAR has an entry to change`);
    change(copy.log.entries[index] as HarEntry);
    const file = join(dir, `${name}.har`);
    writeFileSync(file, JSON.stringify(copy));
    return { file, index };
  }

  test('as recorded, it audits clean on both sides', async () => {
    const { tpp, bank } = await audit(harFile);
    assert.deepEqual(failed(tpp), [], 'no TPP rule fails');
    assert.deepEqual(failed(bank), [], 'no bank rule fails');
    const judged = tpp.requirements.filter((r) => r.status === 'PASS').length;
    assert.ok(judged >= 25, `most TPP rules were judged, and held (${judged} PASS)`);
    assert.ok(tpp.verdictReasons[0]?.includes("of the PSU's browser"), 'the SCA flows are in it');
  });

  test('masked as a HAR is by default (personal data replaced by lookalikes), it still audits clean: the bytes signed are left unjudged, not failed', async () => {
    const masker = new Masker(true, [], undefined, 'lookalike');
    const file = join(dir, 'masked.har');
    const entries: HarEntry[] = [];
    for await (const entry of readHarEntries(harFile))
      entries.push(entryOfExchange(masker.exchange(exchangeOfEntry(entry, entries.length))));
    writeFileSync(file, JSON.stringify({ log: { version: '1.2', creator: { name: 'test', version: '0' }, entries } }));
    const maskedEntries = entries.filter((entry) => entry._masked !== undefined).length;
    assert.ok(maskedEntries > 20, `PSU identifiers were masked in ${maskedEntries} entries`);
    assert.ok(!readFileSync(file, 'utf8').includes('13039319955'), "the PSU's national identity number is gone");
    const { tpp, bank } = await audit(file);
    assert.deepEqual(failed(tpp), [], 'no TPP rule fails');
    assert.deepEqual(failed(bank), [], 'no bank rule fails');
    assert.ok(
      tpp.requirements.some((r) => r.id === 'TPP-32' && r.status === 'PASS'),
      'PSU-ID is still judged a UUID',
    );
  });

  test('with one request body edited, TPP-04 fails, naming the entry', async () => {
    const { file, index } = edited(
      'body-edited',
      (e) =>
        isInterface(e) && unmarked(e) && e.request.method === 'POST' && (e.request.postData?.text ?? '').includes('"instructedAmount"'),
      (e) => {
        const postData = e.request.postData;
        if (postData) postData.text = postData.text.replace(/"amount":"[^"]+"/, '"amount":"99999.00"');
      },
    );
    const { tpp } = await audit(file);
    assert.deepEqual(failed(tpp), ['TPP-04']);
    assert.ok(
      failuresOf(tpp, 'TPP-04').some((m) => m.includes(`entry ${index}`)),
      `the failure names entry ${index}`,
    );
  });

  test('with one request header dropped, TPP-29 fails, naming the entry', async () => {
    const { file, index } = edited(
      'header-dropped',
      (e) =>
        isInterface(e) &&
        unmarked(e) &&
        e.request.method === 'POST' &&
        /\/v1\/payments\/[^/]+$/.test(new URL(e.request.url).pathname) &&
        header(e.request.headers, 'psu-ip-address') !== undefined,
      (e) => {
        e.request.headers = e.request.headers.filter((h) => h.name.toLowerCase() !== 'psu-ip-address');
      },
    );
    const { tpp } = await audit(file);
    assert.deepEqual(failed(tpp), ['TPP-29']);
    assert.ok(failuresOf(tpp, 'TPP-29').some((m) => m.includes(`entry ${index}`)));
  });

  test("with one answer's X-Request-ID dropped, HDR-03 fails on the bank's side", async () => {
    const { file } = edited(
      'answer-header-dropped',
      (e) => isInterface(e) && header(e.response.headers, 'x-request-id') !== undefined,
      (e) => {
        e.response.headers = e.response.headers.filter((h) => h.name.toLowerCase() !== 'x-request-id');
      },
    );
    const { tpp, bank } = await audit(file);
    assert.deepEqual(failed(bank), ['HDR-03']);
    assert.deepEqual(failed(tpp), []);
  });

  test("with one answer's body edited, the rule of its field fails on the bank's side (PAY-37)", async () => {
    const { file } = edited(
      'answer-body-edited',
      (e) => isInterface(e) && e.response.status === 201 && (e.response.content.text ?? '').includes('"transactionStatus"'),
      (e) => {
        e.response.content.text = (e.response.content.text ?? '').replace(/"transactionStatus":"[A-Z]+"/, '"transactionStatus":"DONE"');
      },
    );
    const { bank } = await audit(file);
    assert.ok(failed(bank).includes('PAY-37'), `PAY-37 fails: ${failed(bank).join(', ')}`);
  });
});
