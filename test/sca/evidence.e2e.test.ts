/**
 * What a failed SCA flow leaves behind, through the real command: a step that cannot be done keeps a
 * screenshot, the page URL, the page's HTML and the Playwright trace of the steps (masked) in the report, and the scenario is not PASS;
 * a browser that does not start and an SCA site that does not answer are INTERRUPTED, never a FAIL.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { generateCertificateAuthority, generateServerCertificate } from '../../lib/pki/index.js';
import type { TestRecord } from '../../lib/report/results-types.js';
import { readZip } from '../../lib/sca/zip-rewrite.js';
import { loadTargetsFile } from '../../lib/targets/load.js';
import type { TargetConfig } from '../../lib/targets/target-types.js';
import { runCli } from '../support/run-cli.js';

const PRIVATE_PSU = '13039319955'; // targets.yaml: psus.private, typed at login before the broken step
const SCENARIO = 'SCA-13.a'; // takes the worker's consented PSU: one SCA flow, no variant

/** A targets file (YAML is a superset of JSON) with one target, written into the run's folder. */
function targetsFile(name: string, target: TargetConfig): (reportDir: string) => void {
  return (reportDir) => writeFileSync(join(reportDir, 'targets.yaml'), JSON.stringify({ targets: { [name]: target } }));
}

const scenarioOf = (tests: readonly TestRecord[] | undefined) => tests?.find((t) => t.scenario === SCENARIO);

describe('evidence of a failed SCA flow', () => {
  test('a step naming a selector the page lacks: not PASS; screenshot, URL and masked trace in the report', async () => {
    const alternative = loadTargetsFile('targets.yaml').targets['reference-alt'];
    assert.ok(alternative?.sca);
    // The one-time-code page of reference-alt, with a field id that page does not have.
    const sca = alternative.sca.map((rule) =>
      rule.match.endsWith('/code')
        ? { ...rule, steps: rule.steps.map((step) => ('fill' in step ? { fill: { ...step.fill, selector: '#no-such-field' } } : step)) }
        : rule,
    );
    const run = await runCli(
      ['run', '--targets', '{reportDir}/targets.yaml', '--target', 'broken-steps', '--report-dir', '{reportDir}', '--grep', SCENARIO],
      {},
      targetsFile('broken-steps', { ...alternative, sca, timeouts: { scaMs: 3000 } }),
    );
    const record = scenarioOf(run.results?.tests);
    assert.ok(record, `no ${SCENARIO} in the results; exit ${run.exitCode}\n${run.stderr}\n${run.stdout.slice(-2000)}`);
    assert.notEqual(record.status, 'PASS');
    assert.notEqual(record.status, 'INTERRUPTED', 'a step that does not fit the page is not infrastructure trouble');
    assert.match(record.error ?? '', /SCA step fill of the page rule "\*\*\/sca\/\*\/code" could not be done/);
    assert.ok(
      record.warnings.some((w) => /^SCA stopped at https:\/\/[^ ]+\/sca\/[^/]+\/code$/.test(w)),
      `warnings: ${record.warnings.join(' | ')}`,
    );

    const file = (suffix: string) => record.evidence.files.find((f) => f.name.endsWith(suffix));
    const screenshot = file('-page');
    const trace = file('-trace');
    assert.equal(screenshot?.contentType, 'image/png');
    assert.equal(trace?.contentType, 'application/zip');
    const entries = readZip(join(run.reportDir, 'latest', trace.path));
    assert.ok(entries.has('trace.trace'), `trace entries: ${[...entries.keys()].join(', ')}`);
    const text = [...entries.values()].map((content) => content.toString('latin1')).join('\n');
    assert.ok(/"value":"\[masked:[0-9a-f]{6}\]"/.test(text), 'the login is in the trace, masked');
    assert.ok(!text.includes(PRIVATE_PSU), 'the national identity number typed at login is masked in the trace');
    const html = file('-html');
    assert.equal(html?.contentType, 'text/plain');
    const markup = readFileSync(join(run.reportDir, 'latest', html.path), 'utf8');
    assert.match(markup, /id="otp-entry"/, 'the page at the failure, with the fields the steps could have used');
    assert.ok(!markup.includes(PRIVATE_PSU), 'no national identity number in the page kept');
  });

  test('a browser that does not start: INTERRUPTED, not FAIL', async () => {
    // The runner finds a file at CHROMIUM_PATH; only the worker learns that it is no browser.
    const run = await runCli(['run', '--target', 'reference-alt', '--report-dir', '{reportDir}', '--grep', SCENARIO], {
      CHROMIUM_PATH: '/bin/false',
    });
    const record = scenarioOf(run.results?.tests);
    assert.ok(record, `no ${SCENARIO} in the results; exit ${run.exitCode}\n${run.stderr}\n${run.stdout.slice(-2000)}`);
    assert.equal(record.status, 'INTERRUPTED', `${record.status}: ${record.reason ?? record.error ?? ''}`);
    assert.match(record.reason ?? '', /SCA browser failure: the browser \/bin\/false did not start/);
    assert.equal(run.exitCode, 3);
  });

  describe('an SCA site that does not answer', () => {
    // A bank that asks for SCA on every request, with the scaRedirect the test sets: a port nothing listens
    // on, or a login page of its own whose form posts there (the site goes away in the middle of the flow).
    const ca = generateCertificateAuthority({ commonName: 'evidence test CA' });
    const certificate = generateServerCertificate(ca, { hostnames: ['localhost'], ipAddresses: ['127.0.0.1'] });
    let bank: Server;
    let bankUrl: string;
    let deadSite: string;
    let scaHref: string;
    before(async () => {
      const closed = createServer({ key: certificate.privateKeyPem, cert: certificate.certificatePem });
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      deadSite = `https://127.0.0.1:${(closed.address() as AddressInfo).port}/sca/abc`;
      await new Promise((resolve) => closed.close(resolve));
      bank = createServer({ key: certificate.privateKeyPem, cert: certificate.certificatePem }, (request, response) => {
        if (request.url === '/sca/login') {
          response.writeHead(200, { 'content-type': 'text/html' });
          response.end(`<form method="post" action="${deadSite}"><button id="login">Log in</button></form>`);
          return;
        }
        const requestId = request.headers['x-request-id'];
        response.writeHead(401, {
          'content-type': 'application/json',
          ...(typeof requestId === 'string' ? { 'x-request-id': requestId } : {}),
        });
        response.end(JSON.stringify({ _links: { scaRedirect: { href: scaHref, verbs: ['GET'] } } }));
      });
      await new Promise<void>((resolve) => bank.listen(0, '127.0.0.1', resolve));
      bankUrl = `https://127.0.0.1:${(bank.address() as AddressInfo).port}`;
    });
    after(async () => {
      await new Promise((resolve) => bank.close(resolve));
    });

    const runAgainstBank = async () => {
      const target: TargetConfig = {
        baseUrl: bankUrl,
        environment: 'sandbox',
        tls: { ca: ca.certificatePem },
        tpp: { generate: true, redirectUri: 'https://tpp.example/callback' },
        psus: { private: { nationalId: PRIVATE_PSU, context: 'PRIVATE' } },
        sca: [{ match: '**/sca/*', steps: [{ click: { selector: '#login' } }] }],
        timeouts: { scaMs: 3000 },
      };
      const run = await runCli(
        ['run', '--targets', '{reportDir}/targets.yaml', '--target', 'dead-sca-site', '--report-dir', '{reportDir}', '--grep', SCENARIO],
        {},
        targetsFile('dead-sca-site', target),
      );
      const record = scenarioOf(run.results?.tests);
      assert.ok(record, `no ${SCENARIO} in the results; exit ${run.exitCode}\n${run.stderr}\n${run.stdout.slice(-2000)}`);
      assert.equal(record.status, 'INTERRUPTED', `${record.status}: ${record.reason ?? record.error ?? ''}`);
      assert.match(record.reason ?? '', /SCA site unreachable/);
      assert.equal(run.exitCode, 3);
    };

    test('at the scaRedirect: INTERRUPTED, not FAIL, and the run says it could not judge (exit 3)', async () => {
      scaHref = deadSite;
      await runAgainstBank();
    });

    test('in the middle of the flow: INTERRUPTED too', async () => {
      scaHref = `${bankUrl}/sca/login`;
      await runAgainstBank();
    });
  });
});
