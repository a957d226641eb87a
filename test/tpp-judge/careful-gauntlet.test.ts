/**
 * The TPP latitude gauntlet (careful-client.ts), in the three modes the sloppy TPP is judged in: against the
 * judging sandbox, through the judging proxy (in front of the embedded bank, its SCA pages reached through it),
 * and in the audit of the HAR the proxy wrote. Every variant takes a latitude the specification gives the
 * TPP, and none is caught on any rule but the SHOULD it declares; no report fails a MUST.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ProxySession } from '../../lib/cli/proxy-session.js';
import type { RunResults } from '../../lib/report/results-types.js';
import { SandboxJudging } from '../../lib/traffic/sandbox-judging.js';
import { BROKEN_RULES_HEADER } from '../../reference/plugins/tpp-judging.js';
import { startTestBank } from '../reference/helpers.js';
import { scratchDir } from '../support/scratch.js';
import { CAREFUL_VARIANTS } from './careful-client.js';
import { caughtInHar, caughtOn, failedIn, judgingProxy, mustFailedIn, record, type Caught } from './judged-modes.js';
import { tppPki, TestTpp, type TppTarget } from './sloppy-client.js';

/** The careful TPP signs with a certificate of its own. */
const pki = { ...tppPki(), good: tppPki().careful };

/** Runs every variant against a target, telling `onVariant` which one runs. */
async function runVariants(
  target: TppTarget,
  onVariant: (name: string) => void,
  onBrokenHeader?: (value: string | string[] | undefined) => void,
): Promise<void> {
  const tpp = new TestTpp(
    target,
    pki,
    (headers) => onBrokenHeader?.(headers[BROKEN_RULES_HEADER]),
    (response) => onBrokenHeader?.(response.headers[BROKEN_RULES_HEADER]),
  );
  try {
    for (const variant of CAREFUL_VARIANTS) {
      tpp.case = variant.name;
      onVariant(variant.name);
      await variant.run(tpp);
    }
  } finally {
    await tpp.close();
  }
}

/** Each variant caught on the SHOULDs it declares and nothing else. */
function assertCaughtOnlyOnWhatIsDeclared(caught: Caught, mode: string): void {
  const wrong = CAREFUL_VARIANTS.filter(
    (v) =>
      caughtOn(caught, v.name).join() !==
      Object.keys(v.reported ?? {})
        .sort()
        .join(),
  ).map((v) => `${v.name}: caught ${caughtOn(caught, v.name).join(', ') || 'nothing'}`);
  assert.deepEqual(wrong, [], `${mode}: a careful variant was caught`);
}

/** No MUST failed; the SHOULDs reported are those the variants declare. */
function assertReportPasses(results: RunResults): void {
  assert.deepEqual(mustFailedIn(results), []);
  assert.deepEqual(failedIn(results), [...new Set(CAREFUL_VARIANTS.flatMap((v) => Object.keys(v.reported ?? {})))].sort());
}

describe('the TPP latitude gauntlet', () => {
  const dir = scratchDir('xs2a-careful-');
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('every variant names the sentence that allows it, and a declared SHOULD says why', () => {
    for (const variant of CAREFUL_VARIANTS) {
      assert.ok(variant.allowedBy.length > 20, variant.name);
      for (const [rule, why] of Object.entries(variant.reported ?? {})) assert.ok(why.length > 20, `${variant.name}: ${rule}`);
    }
  });

  describe('against the judging sandbox', () => {
    const caught: Caught = new Map();
    let all: RunResults;

    before(async () => {
      let baseUrl = '';
      let current = 'before';
      const judge = new SandboxJudging({
        tool: { name: 'xs2a-conformance', version: 'test' },
        baseUrl: () => baseUrl,
        maskPersonalData: true,
        trustedCaPems: [pki.trustedCa.certificatePem],
      });
      const bank = await startTestBank({ trustedTppCaPems: [pki.trustedCa.certificatePem], judge });
      baseUrl = bank.baseUrl;
      try {
        await runVariants(
          { baseUrl: bank.baseUrl, caPem: bank.caPem },
          (name) => (current = name),
          (value) =>
            record(
              caught,
              current,
              (Array.isArray(value) ? value.join(',') : (value ?? ''))
                .split(',')
                .map((rule) => rule.trim())
                .filter(Boolean),
            ),
        );
      } finally {
        await bank.close();
      }
      all = judge.writeReports(join(dir, 'sandbox')).all;
    });

    test('no variant is named in X-TPP-Rules-Broken but for the SHOULD it declares', () =>
      assertCaughtOnlyOnWhatIsDeclared(caught, 'sandbox'));
    test('the report of every TPP fails no MUST', () => assertReportPasses(all));
  });

  describe('through the judging proxy, and in its HAR', () => {
    const live: Caught = new Map();
    let session: ProxySession;
    let stopped: Awaited<ReturnType<ProxySession['stop']>>;

    before(async () => {
      let current = 'before';
      session = await judgingProxy(dir, pki.trustedCa.certificatePem, live, () => current);
      try {
        await runVariants({ baseUrl: session.baseUrl, caPem: session.caPem }, (name) => (current = name));
      } finally {
        stopped = await session.stop();
      }
    });

    test('live, no variant is caught but on the SHOULD it declares', () => assertCaughtOnlyOnWhatIsDeclared(live, 'proxy'));
    test("the proxy's TPP report fails no MUST", () => assertReportPasses(stopped.tpp));
    test('in the HAR, no variant is caught but on the SHOULD it declares', async () =>
      assertCaughtOnlyOnWhatIsDeclared((await caughtInHar(session.harFile, pki.trustedCa.certificatePem)).caught, 'HAR'));
  });
});
