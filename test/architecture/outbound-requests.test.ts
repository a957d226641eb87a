/**
 * One guarded gate (issue 35, I1): every request the suite sends to a target passes the safety policy of
 * lib/tpp/production-guard.ts, so that a target declared `environment: production` never receives a write, an
 * SCA login or a quota-burning read, whichever code would send it. This test finds every place in lib/ and
 * suites/ that can send a request (an HTTP client, a raw connection, a browser navigation) and holds each to
 * the list below: a sender to a target calls the gate; anything else says why it sends nothing to one.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { PACKAGE_ROOT } from '../../lib/cli/package-root.js';

/** Places that send to a target, and the gate each calls. */
const SENDERS: Record<string, string> = {
  'lib/tpp/client.ts': 'productionRefusal(',
  'lib/sca/http-flow.ts': 'scaSiteRefusal(',
  'lib/fixtures/sca-fixtures.ts': 'guardBrowserContext(',
};

/** Places that can send, and why what they send is no request of the suite to a target. */
const NOT_TO_A_TARGET: Record<string, string> = {
  'lib/tpp/connection-pool.ts': 'makes connection pools; the client and the HTTP SCA driver send over them',
  'lib/sca/flow.ts': 'drives a page in a browser context its caller opened through the gate (sca-fixtures.ts)',
  'lib/traffic/proxy.ts': "forwards a TPP's own requests, as they came; the proxy itself writes nothing",
  'lib/report/pdf.ts': 'opens the report file (file:) to print it',
  'lib/targets/preflight.ts': 'a TLS handshake, no request',
  'lib/tpp/tls-probe.ts': 'TLS handshakes with given versions, no request',
};

/** What can send: an HTTP client or a raw connection loaded, a global fetch, a dispatcher's request, a browser navigation or context. */
const CAN_SEND: readonly RegExp[] = [
  /^import\s+(?!type\b)[^;]*from\s+'undici'/m,
  /\('undici'\)/,
  /^import\s+(?!type\b)\{[^}]*\b(?:request|get|connect|createConnection)\b[^}]*\}\s+from\s+'node:(?:https?|http2|net|tls)'/m,
  /(?<![.\w])fetch\(/,
  /(?:agent|dispatcher)\.request\(/i,
  /\.goto\(/,
  /\bnewContext\(/,
];

function sources(dir: string): string[] {
  return readdirSync(join(PACKAGE_ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(ts|js)$/.test(file))
    .map((file) => join(dir, file));
}

test('every place that can send a request is a sender through the gate, or says why it sends nothing to a target', () => {
  const found = [...sources('lib'), ...sources('suites')].filter((file) => {
    // A method of its own named fetch (the HTTP SCA driver's) is not the global one.
    const text = readFileSync(join(PACKAGE_ROOT, file), 'utf8').replace(/\b(?:async|private)\s+fetch\(/g, '');
    return CAN_SEND.some((pattern) => pattern.test(text));
  });
  assert.ok(
    found.includes('lib/tpp/client.ts') && found.includes('lib/sca/flow.ts'),
    `the search finds the known senders: ${found.join(', ')}`,
  );
  const unlisted = found.filter((file) => SENDERS[file] === undefined && NOT_TO_A_TARGET[file] === undefined);
  assert.deepEqual(unlisted, [], 'a place that can send a request is neither a gated sender nor explained');
  const ungated = Object.entries(SENDERS)
    .filter(([file, gate]) => !readFileSync(join(PACKAGE_ROOT, file), 'utf8').includes(gate))
    .map(([file, gate]) => `${file} does not call ${gate}`);
  assert.deepEqual(ungated, []);
  const stale = [...Object.keys(SENDERS), ...Object.keys(NOT_TO_A_TARGET)].filter((file) => !found.includes(file));
  assert.deepEqual(stale, [], 'listed places that no longer send: remove them from the list');
});

test('the browser contexts of SCA are gated where they are made', () => {
  const text = readFileSync(join(PACKAGE_ROOT, 'lib/fixtures/sca-fixtures.ts'), 'utf8');
  const contexts = text.match(/\bnewContext\(/g)?.length ?? 0;
  const gated = text.match(/\bguardBrowserContext\(/g)?.length ?? 0;
  assert.ok(contexts > 0);
  assert.equal(gated, contexts, 'a browser context made for SCA without its gate');
});
