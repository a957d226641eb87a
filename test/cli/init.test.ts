/**
 * Adding a target without trial and error (issue 37, item 3): `init` writes a commented entry that the targets
 * file's own loader accepts, into a new ./targets.yaml or added to one without changing what is there (its
 * comments included), from flags or from questions; what is not given becomes a ${VAR}. `serve` prints an entry
 * for itself made the same way.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runInit, type InitOptions } from '../../lib/cli/commands/init-command.js';
import { UsageError } from '../../lib/cli/command.js';
import { targetEntryYaml } from '../../lib/cli/target-entry.js';
import { interpolateTarget, loadTargetsFile, parseTargetsFile, selectTarget } from '../../lib/targets/load.js';
import { scratchDir } from '../support/scratch.js';

const defaults = (targets: string, more: Partial<InitOptions> = {}): InitOptions => ({
  target: 'sandbox',
  targets,
  psu: [],
  capability: [],
  yes: true,
  ...more,
});

/** runInit with its console output kept, not printed. */
async function init(options: InitOptions, ask?: Parameters<typeof runInit>[1]): Promise<{ code: number; printed: string }> {
  const printed: string[] = [];
  const log = console.log;
  console.log = (...args: unknown[]) => void printed.push(args.join(' '));
  try {
    return { code: await runInit(options, ask), printed: printed.join('\n') };
  } finally {
    console.log = log;
  }
}

describe('init', () => {
  test('makes targets.yaml with a commented entry from the flags; what is not given becomes a ${VAR}', async () => {
    const file = join(scratchDir('xs2a-init-'), 'targets.yaml');
    const { code, printed } = await init(
      defaults(file, {
        baseUrl: 'https://api.sandbox.bank.example',
        ca: 'bank-ca.pem',
        psu: ['13039319955', '18129215603:CORPORATE'],
        capability: ['sandbox-reset'],
      }),
    );
    assert.equal(code, 0);
    const text = readFileSync(file, 'utf8');
    assert.match(text, /# Written by `xs2a-conformance init`\. Check it, all of it at once: npx xs2a-conformance doctor --target sandbox/);
    assert.match(text, /baseUrl: "https:\/\/api\.sandbox\.bank\.example" +# the interface's root/);
    assert.match(text, /# isolated: \{ nationalId: "…", context: PRIVATE \}/, 'psus.isolated is offered');
    const target = selectTarget(loadTargetsFile(file), 'sandbox');
    assert.deepEqual(target.psus, {
      private: { nationalId: '13039319955', context: 'PRIVATE' },
      corporate: { nationalId: '18129215603', context: 'CORPORATE' },
    });
    assert.deepEqual(target.tpp, {
      certificate: '${TPP_CERT_FILE}',
      privateKey: '${TPP_KEY_FILE}',
      redirectUri: 'https://tpp.example/callback',
    });
    assert.deepEqual(target.capabilities, ['sandbox-reset']);
    assert.equal(target.sca?.[0]?.match, '**/sca/*', "the reference bank's SCA steps as a starting point");
    assert.ok(target.scaVariants?.['reject-payment']);
    assert.match(printed, /Set before a run: TPP_CERT_FILE, TPP_KEY_FILE\./);
    assert.match(printed, /Not found \(relative to .*\): bank-ca\.pem\./);
    assert.match(printed, /Next: npx xs2a-conformance doctor --target sandbox/);
    // Filled from the environment, it is a target the loader takes whole.
    assert.equal(
      interpolateTarget('sandbox', target, { TPP_CERT_FILE: 'c.pem', TPP_KEY_FILE: 'k.pem' }).baseUrl,
      'https://api.sandbox.bank.example',
    );
  });

  test('adds a target to a file without changing what is there, its comments kept', async () => {
    const file = join(scratchDir('xs2a-init-'), 'targets.yaml');
    const before =
      '# our banks\ntargets:\n  # the old one\n  staging:\n    baseUrl: ${STAGING_URL}\n    environment: staging\n    tpp: { generate: true, redirectUri: https://tpp.example/cb }   # keep\n';
    writeFileSync(file, before);
    await init(defaults(file, { target: 'next' }));
    const text = readFileSync(file, 'utf8');
    assert.ok(text.startsWith(before), text);
    const targets = loadTargetsFile(file).targets;
    assert.deepEqual(Object.keys(targets), ['staging', 'next']);
    assert.equal(targets.next?.baseUrl, '${NEXT_BASE_URL}');
    assert.deepEqual(targets.next?.tls, { ca: '${NEXT_CA_FILE}' });
    assert.deepEqual(targets.next?.psus, { private: { nationalId: '${NEXT_PSU_ID}', context: 'PRIVATE' } });
  });

  test('adds to a file whose targets are a flow map, through the YAML document', async () => {
    const file = join(scratchDir('xs2a-init-'), 'targets.yaml');
    writeFileSync(file, 'targets: { mine: { embedded: true, environment: sandbox } }   # one line\n');
    await init(defaults(file, { target: 'bank', sca: 'none', generateCertificate: true }));
    const targets = loadTargetsFile(file).targets;
    assert.deepEqual(targets.mine, { embedded: true, environment: 'sandbox' });
    assert.deepEqual(targets.bank?.tpp, { generate: true, redirectUri: 'https://tpp.example/callback' });
    assert.equal(targets.bank?.sca?.[0]?.match, '**/login**');
  });

  test('a name already there, or a file it cannot read, is a usage error; nothing is written', async () => {
    const file = join(scratchDir('xs2a-init-'), 'targets.yaml');
    writeFileSync(file, 'targets:\n  sandbox: { embedded: true, environment: sandbox }\n');
    await assert.rejects(
      init(defaults(file)),
      (error: unknown) =>
        error instanceof UsageError && /already has a target "sandbox" \(it has: sandbox\); give another --target/.test(error.message),
    );
    assert.equal(readFileSync(file, 'utf8'), 'targets:\n  sandbox: { embedded: true, environment: sandbox }\n');
  });

  test('asks, in a terminal, for what no flag gives; an empty answer takes the default', async () => {
    const file = join(scratchDir('xs2a-init-'), 'targets.yaml');
    const asked: string[] = [];
    const answers = new Map([
      ["The bank's interface root", 'https://psd2.bank.example'],
      ['Environment', 'staging'],
      ["A PSU's national identity number", '12085592767'],
    ]);
    await init({ ...defaults(file), yes: false, certificate: 'tpp.pem' }, (question, fallback) => {
      asked.push(question);
      return Promise.resolve([...answers].find(([start]) => question.startsWith(start))?.[1] ?? fallback);
    });
    assert.ok(!asked.some((q) => q.startsWith("The TPP's certificate")), 'what a flag gives is not asked');
    const target = selectTarget(loadTargetsFile(file), 'sandbox');
    assert.equal(target.baseUrl, 'https://psd2.bank.example');
    assert.equal(target.environment, 'staging');
    assert.equal(target.tpp?.certificate, 'tpp.pem');
    assert.equal(target.tpp?.privateKey, '${TPP_KEY_FILE}');
    assert.deepEqual(target.psus?.private, { nationalId: '12085592767', context: 'PRIVATE' });
    assert.ok(!existsSync(`${file}.tmp`));
  });
});

describe("serve's entry for itself", () => {
  test("is a target the loader takes: the embedded bank's PSUs, SCA steps (alternative pages too) and sandbox operations", () => {
    for (const sca of ['reference', 'alternative'] as const) {
      const text = `targets:\n${targetEntryYaml({ name: 'local-sandbox', baseUrl: 'https://127.0.0.1:8443', environment: 'sandbox', ca: '/tmp/reference-ca.pem', tpp: { generate: true }, redirectUri: 'https://tpp.example/callback', psus: { private: { nationalId: '13039319955', context: 'PRIVATE' } }, sca, sandboxOfStartingPoint: true, capabilities: ['clock-control'] })}`;
      const target = selectTarget(parseTargetsFile(text), 'local-sandbox');
      assert.ok(target.sandbox?.operations?.freezeClock, 'the clock operations come along');
      assert.equal(target.scaDriver, sca === 'reference' ? 'http' : undefined);
      assert.doesNotMatch(text, /[&*]embedded-/, 'no anchor or alias of the shipped file');
    }
  });
});
