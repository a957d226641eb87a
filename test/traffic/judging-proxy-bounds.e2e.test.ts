/**
 * (An e2e file: it measures the heap of its own process, which a fast-tier process shared with hundreds of
 * other files makes slow to collect, and noisy.)
 *
 * The judging proxy is bounded and does not fall over (security review M2, L2): any request target (`*`,
 * absolute-form, authority-form, CONNECT) is refused 400 FORMAT_ERROR with the specification's error body and
 * never reaches the bank; a body too large is refused 413 before it is held; an answer too large is refused
 * 502; a compressed answer is never inflated past a bound; one client holds a bounded number of connections
 * and meets the deadlines. Every refused request is still in the HAR, which stays whole. The bank here is a
 * stand-in that notes every request target it is sent. Then a whole session (`proxy --target reference`):
 * after such requests it still writes both reports and a whole HAR, and what it prints of a certificate's
 * claims has its control characters shown, not obeyed (L5).
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { connect as connectTls, type TLSSocket } from 'node:tls';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { gzipSync } from 'node:zlib';
import { startProxySession } from '../../lib/cli/proxy-session.js';
import { PACKAGE_ROOT } from '../../lib/cli/package-root.js';
import { generateCertificateAuthority, generateServerCertificate, generateTppCertificate } from '../../lib/pki/index.js';
import { exchangeOfEntry, HarWriter, readHarEntries, type HttpExchange } from '../../lib/har/index.js';
import { TrafficJudging } from '../../lib/traffic/judging.js';
import { startJudgingProxy, type JudgingProxy } from '../../lib/traffic/proxy.js';
import { capConnectionsPerClient } from '../../reference/connections.js';
import { scratchDir } from '../support/scratch.js';

const MiB = 1_048_576;
const ca = generateCertificateAuthority({ commonName: 'proxy bounds test CA', organizationName: 'x', countryName: 'NO' });
const serverCert = generateServerCertificate(ca, { hostnames: ['localhost'], ipAddresses: ['127.0.0.1'] });
/** Short deadlines and a small cap, so that the tests meet them in a second or two. */
// A whole request may take the bank's own 30 s: a 64 MiB upload on a loaded machine took over 5 s, and a shorter
// deadline reset it before the 413 could be read (ECONNRESET instead of the refusal the test judges).
const CLIENT_LIMITS = { handshakeMs: 1_000, headersMs: 600, requestMs: 30_000, idleMs: 5_000, perClient: 6 };
const BODY_LIMITS = { requestBodyBytes: 4 * MiB, responseBodyBytes: 4 * MiB, decodedBodyBytes: 4 * MiB };

/** The stand-in bank: notes each target it is sent; a few paths answer in ways a proxy must survive. */
const seenByBank: string[] = [];
/** 256 MiB of zeros as 256 gzip members of 1 MiB each (a gunzip reads them all): about 260 KB on the wire. */
const BOMB = Buffer.concat(Array<Buffer>(256).fill(gzipSync(Buffer.alloc(MiB))));
const CHUNK = Buffer.alloc(64 * 1024, 0x61);

/** Writes 64 MiB of `CHUNK`, as fast as the proxy reads them, and ends the answer. */
function send64MiB(res: ServerResponse): void {
  let sent = 0;
  const more = (): void => {
    while (sent < 64 * MiB && !res.destroyed) {
      sent += CHUNK.length;
      if (!res.write(CHUNK)) return void res.once('drain', more);
    }
    res.end();
  };
  more();
}

function bank(): Server {
  return createServer({ key: serverCert.privateKeyPem, cert: serverCert.certificatePem }, (req, res) => {
    seenByBank.push(`${req.method ?? ''} ${req.url ?? ''}`);
    req.resume();
    req.on('end', () => {
      const requestId = req.headers['x-request-id'] ?? '';
      if (req.url === '/v1/huge') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(64 * MiB) });
        send64MiB(res);
      } else if (req.url === '/v1/huge-chunked') {
        res.writeHead(200, { 'content-type': 'application/json' });
        send64MiB(res);
      } else if (req.url === '/v1/bomb') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'x-request-id': requestId });
        res.end(BOMB);
      } else {
        res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': requestId });
        res.end('{"accounts":[]}');
      }
    });
  });
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * One request written as raw bytes over TLS (whatever its target), and the answer read; `send` writes the
 * request, and the answer is given once it is read and the request is all sent (a proxy may answer early).
 */
function raw(origin: string, send: string | ((socket: TLSSocket) => Promise<void>), caPem = ca.certificatePem): Promise<Answer> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connectTls({ host: hostname, port: Number(port), ca: caPem });
    let received = Buffer.alloc(0);
    let answer: Answer | undefined;
    let sent = false;
    const settle = () => {
      if (answer === undefined || !sent) return;
      socket.destroy();
      resolve(answer);
    };
    const parse = (): Answer | undefined => {
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return undefined;
      const [statusLine = '', ...lines] = received.subarray(0, end).toString('latin1').split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      const length = Number(headers['content-length'] ?? -1);
      const body = received.subarray(end + 4);
      if (length >= 0 && body.length < length) return undefined;
      return { status: Number(statusLine.split(' ')[1]), headers, body: body.toString('utf8') };
    };
    socket.on('data', (chunk: Buffer) => {
      if (answer !== undefined) return;
      received = Buffer.concat([received, chunk]);
      answer = parse();
      settle();
    });
    socket.once('secureConnect', () => {
      const sending = typeof send === 'string' ? new Promise<void>((done) => socket.write(send, () => done())) : send(socket);
      sending.then(() => {
        sent = true;
        settle();
      }, reject);
    });
    socket.once('error', reject);
    socket.once('close', () => reject(new Error(`closed with no whole answer: ${received.toString('latin1').slice(0, 200)}`)));
  });
}

/** A POST whose body is `bytes` long, written whole whatever the proxy answers meanwhile (chunked when not declared). */
function upload(origin: string, bytes: number, declared: boolean): Promise<Answer> {
  return raw(origin, async (socket) => {
    const framing = declared ? `Content-Length: ${bytes}` : 'Transfer-Encoding: chunked';
    socket.write(
      `POST /v1/payments/sepa-credit-transfers HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${framing}\r\n\r\n`,
    );
    const head = Buffer.from(`${CHUNK.length.toString(16)}\r\n`);
    for (let sent = 0; sent < bytes && !socket.destroyed; sent += CHUNK.length) {
      const more = declared ? socket.write(CHUNK) : socket.write(Buffer.concat([head, CHUNK, Buffer.from('\r\n')]));
      if (!more) await new Promise((done) => socket.once('drain', done));
    }
    if (!declared) socket.write('0\r\n\r\n');
  });
}

/**
 * The collector, for live memory: garbage of the TLS traffic (both ends are in this process) is not what the
 * proxy holds. Dead Buffers are freed by the collection itself, not by a sweeper after it, so that what is
 * measured right after one is what is live (with concurrent sweeping, samples of the same run wandered by
 * 30 MiB).
 */
setFlagsFromString('--expose-gc');
setFlagsFromString('--no-concurrent-array-buffer-sweeping');
const collect = runInNewContext('gc') as () => void;

/**
 * The largest growth of the process's live heap and Buffer memory (after a collection) while `work` runs and
 * just after, in MiB, sampled every 100 ms (every 25 ms, the collections took most of the time on a busy
 * machine): a body held whole shows, garbage does not.
 */
async function growthWhile<T>(work: () => Promise<T>): Promise<{ result: T; mib: number }> {
  const live = () => {
    collect();
    const { heapUsed, arrayBuffers } = process.memoryUsage();
    return heapUsed + arrayBuffers;
  };
  const baseline = live();
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, live())), 100);
  try {
    const result = await work();
    peak = Math.max(peak, live());
    return { result, mib: (peak - baseline) / MiB };
  } finally {
    clearInterval(sampler);
  }
}

/** The specification's error body, as the proxy says it: id, system (the proxy), status, code, message. */
function assertErrorBody(answer: Answer, status: number, code: string): Record<string, unknown> {
  assert.equal(answer.status, status, `status ${answer.status}: ${answer.body}`);
  assert.match(answer.headers['content-type'] ?? '', /^application\/json/);
  const body = JSON.parse(answer.body) as Record<string, unknown>;
  assert.deepEqual(Object.keys(body).sort(), ['code', 'id', 'message', 'status', 'system']);
  assert.equal(body.status, status);
  assert.equal(body.code, code);
  assert.match(String(body.system), /proxy/);
  assert.ok(typeof body.id === 'string' && body.id.length > 0 && typeof body.message === 'string' && body.message.length > 0);
  return body;
}

describe('the judging proxy, bounded and robust', () => {
  const dir = scratchDir('xs2a-proxy-bounds-');
  const harFile = join(dir, 'traffic.har');
  const observed: HttpExchange[] = [];
  let upstream: Server;
  let proxy: JudgingProxy;
  let har: HarWriter;
  let closed = false;
  const closeProxy = async () => {
    if (closed) return;
    closed = true;
    await proxy.close();
    await har.close();
  };

  before(async () => {
    upstream = bank();
    await new Promise<void>((done) => upstream.listen(0, '127.0.0.1', done));
    har = new HarWriter(harFile, { name: 'test', version: '1' });
    proxy = await startJudgingProxy({
      host: '127.0.0.1',
      port: 0,
      tls: { key: serverCert.privateKeyPem, cert: serverCert.certificatePem },
      judging: new TrafficJudging({ judgeBank: true, basePath: '', environment: 'sandbox' }),
      har,
      onObservation: (_observation, exchange) => observed.push(exchange),
      bodyLimits: BODY_LIMITS,
      clients: { limits: CLIENT_LIMITS, capPerClient: capConnectionsPerClient },
    });
    proxy.upstream = { baseUrl: `https://127.0.0.1:${(upstream.address() as AddressInfo).port}`, caPem: ca.certificatePem };
  });

  after(async () => {
    await closeProxy();
    upstream.closeAllConnections();
    await new Promise((done) => upstream.close(done));
  });

  test('asterisk, absolute and authority forms are refused 400 FORMAT_ERROR, never reach the bank, and the proxy goes on', async () => {
    const refused = [
      'OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
      'GET http://elsewhere.example/v1/accounts HTTP/1.1\r\nHost: elsewhere.example\r\n\r\n',
      'GET https://127.0.0.1/v1/accounts HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
      'CONNECT elsewhere.example:443 HTTP/1.1\r\nHost: elsewhere.example:443\r\n\r\n',
    ];
    // Authority-form with another method is refused by Node's parser before there is a request to record.
    const unparsed = 'GET elsewhere.example:443 HTTP/1.1\r\nHost: elsewhere.example\r\n\r\n';
    for (const text of [...refused, unparsed]) {
      const body = assertErrorBody(await raw(proxy.origin, text), 400, 'FORMAT_ERROR');
      assert.match(String(body.message), /target/, text);
    }
    assert.deepEqual(
      seenByBank.filter((line) => !line.includes(' /')),
      [],
      'no target but origin-form reached the bank',
    );
    assert.equal(
      (await raw(proxy.origin, 'GET /v1/accounts HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Request-ID: after\r\n\r\n')).status,
      200,
      'the proxy still answers',
    );
    const refusals = observed.filter((exchange) => exchange.comment?.includes('refused by the judging proxy') === true);
    assert.equal(refusals.length, refused.length, 'each refused request was judged (and handed on for the HAR)');
    assert.ok(
      refusals.every((exchange) => exchange.response === undefined),
      "the proxy's own refusal is not taken for the bank's answer",
    );
  });

  test('the bank not answering is 502 SYSTEM_ERROR, said by the proxy', async () => {
    const saved = proxy.upstream;
    proxy.upstream = { baseUrl: 'https://127.0.0.1:1', caPem: ca.certificatePem };
    try {
      const body = assertErrorBody(await raw(proxy.origin, 'GET /v1/accounts HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'), 502, 'SYSTEM_ERROR');
      assert.match(String(body.message), /bank did not answer/);
    } finally {
      proxy.upstream = saved;
    }
  });

  test('a 64 MiB body declared in Content-Length is refused 413 before it is held', { timeout: 40_000 }, async () => {
    const { result, mib } = await growthWhile(() => upload(proxy.origin, 64 * MiB, true));
    assert.ok(mib < 16, `heap and buffers grew ${mib.toFixed(1)} MiB for a 64 MiB body`);
    assertErrorBody(result, 413, 'FORMAT_ERROR');
  });

  test('a 64 MiB chunked body is refused 413 once past the limit, and what follows is not held', { timeout: 40_000 }, async () => {
    const { result, mib } = await growthWhile(() => upload(proxy.origin, 64 * MiB, false));
    assert.ok(mib < 16, `heap and buffers grew ${mib.toFixed(1)} MiB for a 64 MiB body`);
    assertErrorBody(result, 413, 'FORMAT_ERROR');
    const refused = observed.filter((exchange) => exchange.request.method === 'POST').at(-1);
    assert.ok(
      refused?.malformed?.includes('before reading its body'),
      'the request is marked as not read: its rules are not judged on a body cut short',
    );
  });

  test('an answer over the limit is refused 502, declared or chunked, and not held', { timeout: 15_000 }, async () => {
    for (const path of ['/v1/huge', '/v1/huge-chunked']) {
      const { result, mib } = await growthWhile(() => raw(proxy.origin, `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`));
      assert.ok(mib < 16, `${path}: heap and buffers grew ${mib.toFixed(1)} MiB for a 64 MiB answer`);
      const body = assertErrorBody(result, 502, 'SYSTEM_ERROR');
      assert.match(String(body.message), /over/, path);
    }
  });

  test('a gzip answer inflating to 256 MiB is passed on as sent and judged undecodable, not inflated', { timeout: 15_000 }, async () => {
    const { result, mib } = await growthWhile(() =>
      raw(proxy.origin, 'GET /v1/bomb HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Request-ID: bomb\r\n\r\n'),
    );
    assert.ok(mib < 16, `heap and buffers grew ${mib.toFixed(1)} MiB for an answer of 256 MiB inflated`);
    assert.equal(result.status, 200);
    assert.equal(result.headers['content-encoding'], 'gzip', 'the client gets the answer as the bank sent it');
    const judged = observed.find((exchange) => exchange.request.headers['x-request-id'] === 'bomb');
    assert.equal(judged?.response?.body.length, BOMB.length, 'the judges got the body as sent, not inflated');
    assert.match(judged.comment ?? '', /undecodable, its gzip body inflates past/);
  });

  test(
    'a client that sends nothing after the handshake gets 408 FORMAT_ERROR from the proxy at the headers deadline',
    { timeout: 10_000 },
    async () => {
      const started = Date.now();
      const answer = await raw(proxy.origin, '');
      assertErrorBody(answer, 408, 'FORMAT_ERROR');
      assert.ok(Date.now() - started < CLIENT_LIMITS.headersMs + 2_000, `closed after ${Date.now() - started} ms`);
    },
  );

  test('one client holds at most perClient connections; more are closed as they arrive', async () => {
    // The proxy counts a connection out when it sees it close: those of the tests before are given the time to.
    await new Promise((done) => setTimeout(done, 300));
    const { hostname, port } = new URL(proxy.origin);
    const sockets: TLSSocket[] = [];
    const outcomes = await Promise.all(
      Array.from(
        { length: CLIENT_LIMITS.perClient + 3 },
        () =>
          new Promise<'held' | 'closed'>((resolve) => {
            const socket = connectTls({ host: hostname, port: Number(port), ca: ca.certificatePem });
            sockets.push(socket);
            socket.once('secureConnect', () => resolve('held'));
            socket.once('error', () => resolve('closed'));
            socket.once('close', () => resolve('closed'));
          }),
      ),
    );
    for (const socket of sockets) socket.destroy();
    assert.equal(outcomes.filter((o) => o === 'held').length, CLIENT_LIMITS.perClient, outcomes.join());
  });

  test('the HAR holds every exchange, the refused ones too, and is whole', async () => {
    await closeProxy();
    const entries = [];
    for await (const entry of readHarEntries(harFile)) entries.push(exchangeOfEntry(entry, entries.length));
    assert.equal(entries.length, observed.length);
    assert.ok(
      entries.some((exchange) => exchange.request.method === 'OPTIONS' && exchange.comment?.includes('refused by the judging proxy')),
    );
    assert.ok(entries.some((exchange) => exchange.request.method === 'CONNECT'));
    assert.ok(
      entries.some((exchange) => exchange.malformed?.includes('before reading its body')),
      'the mark of the proxy that wrote the HAR is honoured',
    );
  });
});

describe('a judging proxy session after requests it refuses', () => {
  test("writes both reports and a whole HAR, and prints a certificate's claims with their control characters shown", async () => {
    const dir = scratchDir('xs2a-proxy-session-');
    const lines: string[] = [];
    const log = console.log;
    console.log = (...parts: unknown[]) => void lines.push(parts.join(' '));
    try {
      const session = await startProxySession({
        target: 'reference',
        targetsFile: join(PACKAGE_ROOT, 'targets.yaml'),
        port: 0,
        host: '127.0.0.1',
        caOut: join(dir, 'proxy-ca.pem'),
        trustCaFiles: [],
        reportDir: join(dir, 'reports'),
        unmasked: false,
      });
      const claims = generateTppCertificate(ca, {
        organizationName: 'Escaping TPP',
        organizationIdentifier: 'PSDNO-FSA-\u001b]0;owned\u0007\u001b[2J',
        roles: ['PSP_AI'],
      });
      const certificate = claims.certificatePem.replace(/-----[^-]+-----|\s/g, '');
      try {
        for (const text of [
          'OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n',
          'GET http://elsewhere.example/v1/accounts HTTP/1.1\r\nHost: x\r\n\r\n',
        ]) {
          assert.equal((await raw(session.proxy.origin, text, session.caPem)).status, 400);
        }
        const unsigned = await raw(
          session.proxy.origin,
          `GET /v1/accounts HTTP/1.1\r\nHost: x\r\nX-Request-ID: 5b0b9a3c-6a43-4d47-9f3e-0f2d1c1e2a10\r\nTPP-Signature-Certificate: ${certificate}\r\n\r\n`,
          session.caPem,
        );
        assert.doesNotMatch(unsigned.body, /proxy/, 'the bank refused it, not the proxy');
      } finally {
        const stopped = await session.stop();
        assert.ok(
          existsSync(join(stopped.dir, 'tpp', 'results.json')) && existsSync(join(stopped.dir, 'bank', 'results.json')),
          'both reports written',
        );
        const methods = [];
        for await (const entry of readHarEntries(session.harFile)) methods.push(entry.request.method);
        assert.deepEqual(methods, ['OPTIONS', 'GET', 'GET'], 'the HAR is whole and holds the refused requests');
      }
    } finally {
      console.log = log;
    }
    const printed = lines.find((line) => line.includes('PSDNO-FSA-'));
    assert.ok(printed !== undefined, `the unsigned request was printed: ${lines.join('\n')}`);
    assert.ok(!printed.includes('\u001b') && !printed.includes('\u0007'), 'no escape or bell left raw');
    assert.match(printed, /PSDNO-FSA-\\u\{1b\}\]0;owned\\u\{7\}/);
  });
});
