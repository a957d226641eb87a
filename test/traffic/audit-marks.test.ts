/**
 * The audit obeys only the marks this installation sealed (security review M6): a mark the tool wrote excuses
 * its entry; a mark written by hand, one moved to another entry, and one left on a request edited after it
 * excuse nothing, so a TPP cannot excuse its own failing requests nor a bank its own 5xx answers. The console
 * and both reports say how many marks were honoured and how many ignored. And what the audit prints of the
 * file has its control characters shown, not obeyed (L5).
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runAudit } from '../../lib/cli/commands/audit-command.js';
import { entryOfExchange, type HarEntry, type HttpExchange } from '../../lib/har/index.js';
import type { RunResults } from '../../lib/report/results-types.js';
import { auditHar } from '../../lib/traffic/audit.js';
import type { RuleTally } from '../../lib/tpp-judge/index.js';
import { scratchDir } from '../support/scratch.js';

const dir = scratchDir('xs2a-audit-marks-');
const started = Date.parse('2026-11-02T10:00:00Z');

/** An unsigned read of the accounts (it breaks TPP rules), answered 200, or 500 when `failed`. */
function exchange(
  requestId: string,
  index: number,
  failed = false,
  marks: Pick<HttpExchange, 'malformed' | 'deliberate' | 'failureProvoked'> = {},
): HttpExchange {
  const body = failed ? { id: 'e1', system: 'bank', status: 500, code: 'SYSTEM_ERROR', message: 'asked to fail' } : { accounts: [] };
  return {
    id: requestId,
    startedAt: new Date(started + index * 1000),
    durationMs: 5,
    request: {
      method: 'GET',
      url: 'https://bank.example/v1/accounts',
      headers: { host: 'bank.example', 'x-request-id': requestId },
      body: new Uint8Array(0),
    },
    response: {
      status: failed ? 500 : 200,
      headers: { 'content-type': 'application/json', 'x-request-id': requestId },
      body: Buffer.from(JSON.stringify(body)),
    },
    ...marks,
  };
}

function writeHar(name: string, entries: readonly HarEntry[]): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify({ log: { version: '1.2', creator: { name: 'test', version: '1' }, entries } }));
  return file;
}

/** The entries of the file, by what their marks are. */
function markedHar(): string {
  const sealed = entryOfExchange(exchange('sealed', 0, false, { malformed: 'broken on purpose by the suite' }));
  const byHand = { ...entryOfExchange(exchange('by-hand', 1)), _malformed: 'the TPP says it meant it' };
  const moved = { ...entryOfExchange(exchange('moved', 2)), _malformed: sealed._malformed, _markSeal: sealed._markSeal };
  const editedUnder = entryOfExchange(exchange('edited', 3, false, { deliberate: 'a variant the bank may accept' }));
  editedUnder.request.headers = editedUnder.request.headers.filter((header) => header.name !== 'host');
  const provoked = entryOfExchange(exchange('provoked', 4, true, { failureProvoked: 'the sandbox was asked to fail it' }));
  const provokedByHand = { ...entryOfExchange(exchange('provoked-by-hand', 5, true)), _failureProvoked: 'the bank says it was asked' };
  return writeHar('marked.har', [sealed, byHand, moved, editedUnder, provoked, provokedByHand]);
}

/** The exchanges a rule failed on, by the tally. */
function failedOn(tally: RuleTally, rule: string): string[] {
  return tally.summaries().flatMap((summary) => summary.rules.get(rule)?.failures.map((failure) => failure.exchange) ?? []);
}

/** Exchanges any rule failed on. */
function anyFailedOn(tally: RuleTally): Set<string> {
  return new Set(
    tally.summaries().flatMap((summary) => [...summary.rules.values()].flatMap((rule) => rule.failures.map((failure) => failure.exchange))),
  );
}

describe('the audit obeys only the marks this installation sealed', () => {
  test('a sealed mark excuses its entry; one by hand, moved, or on an edited request does not', async () => {
    const { judging, marks } = await auditHar(markedHar(), { environment: 'sandbox' });
    assert.deepEqual(marks, { verified: 2, unverified: 4 });
    const tppFailed = anyFailedOn(judging.tppTally);
    assert.ok(!tppFailed.has('entry 0'), 'the sealed _malformed excuses its request');
    for (const entry of ['entry 1', 'entry 2', 'entry 3']) assert.ok(tppFailed.has(entry), `${entry}: its unverified mark excuses nothing`);
    assert.equal(judging.tppTally.totals.skipped, 1, 'one request not held against the TPP');
    assert.deepEqual(failedOn(judging.bankTally, 'ERR-45'), ['entry 5'], "only the bank's 5xx under a mark by hand is held against it");
  });

  test('the console and both reports say how many marks were honoured and ignored', async () => {
    const reportDir = join(dir, 'reports');
    const lines: string[] = [];
    const log = console.log;
    console.log = (...parts: unknown[]) => void lines.push(parts.join(' '));
    let exitCode: number;
    try {
      exitCode = await runAudit({ harFile: markedHar(), trustCaFiles: [], reportDir, unmasked: false, environment: 'sandbox' });
    } finally {
      console.log = log;
    }
    assert.equal(exitCode, 1);
    const said = lines.find((line) => line.startsWith('Marks:'));
    assert.match(
      said ?? '',
      /^Marks: 2 entries excused by marks this installation sealed; 4 entries carried marks this installation did not seal, ignored as unverified/,
    );
    const reportOf = (side: string) => {
      const file =
        lines
          .find((line) => line.startsWith(side))
          ?.split('  ')
          .at(-1)
          ?.replace(/index\.html$/, 'results.json') ?? '';
      return JSON.parse(readFileSync(file, 'utf8')) as RunResults;
    };
    for (const side of ['TPP side', 'Bank side'])
      assert.ok(reportOf(side).verdictReasons.includes(said ?? ''), `${side}: the report says it too`);
  });

  test('a HAR written before seals is still audited: its marks are counted as ignored', async () => {
    const old = { ...entryOfExchange(exchange('old', 0)), _malformed: 'written before marks were sealed' };
    const { entries, marks } = await auditHar(writeHar('old.har', [old]), {});
    assert.equal(entries, 1);
    assert.deepEqual(marks, { verified: 0, unverified: 1 });
  });
});

describe('what the audit prints of a file', () => {
  test("shows a HAR error's control characters instead of obeying them", async () => {
    const entry = { ...entryOfExchange(exchange('escape', 0)) };
    entry.request = { ...entry.request, url: '\u001b]0;owned\u0007\u001b[2J/v1/accounts' };
    await assert.rejects(
      runAudit({ harFile: writeHar('escape.har', [entry]), trustCaFiles: [], reportDir: join(dir, 'reports'), unmasked: false }),
      (error: Error) => {
        assert.ok(!error.message.includes('\u001b') && !error.message.includes('\u0007'), 'no escape or bell left raw');
        assert.match(error.message, /\\u\{1b\}\]0;owned\\u\{7\}/);
        return true;
      },
    );
  });
});
