/**
 * The reference bank is bounded against slow and greedy clients (slowloris): a connection that never starts
 * its TLS handshake, one that sends nothing after it, headers or a body trickled a byte at a time, a
 * connection left idle, and more connections from one client than it may hold. Each case measures how long
 * the bank keeps the connection open (or how many it accepts) against the bank's limits, here made short.
 */
import assert from 'node:assert/strict';
import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls, type TLSSocket } from 'node:tls';
import { after, before, describe, test } from 'node:test';
import { startReferenceBank, type ReferenceBank } from '../../reference/server.js';

const LIMITS = { handshakeMs: 1_000, headersMs: 1_500, requestMs: 2_500, idleMs: 2_000, perClient: 8 };
/** Node checks header and request deadlines once a second; the rest is the machine's noise. */
const SLACK_MS = 1_500;

let bank: ReferenceBank;
let port = 0;
before(async () => {
  bank = await startReferenceBank({ connectionLimits: LIMITS });
  port = Number(new URL(bank.baseUrl).port);
});
after(() => bank.close());

/** Milliseconds until the bank closes the socket (the client never closes it). */
function closedAfter(socket: Socket, started = Date.now()): Promise<number> {
  socket.on('error', () => undefined);
  socket.resume(); // what the bank answers is read, so that its closing is seen
  return new Promise((resolve) => socket.once('close', () => resolve(Date.now() - started)));
}

function tls(): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    const socket = connectTls({ host: '127.0.0.1', port, ca: bank.caPem });
    socket.once('secureConnect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Writes `text` one character every `everyMs`, until the socket closes. */
function trickle(socket: Socket, text: string, everyMs: number): void {
  let at = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || at >= text.length) return clearInterval(timer);
    socket.write(text[at++] ?? '');
  }, everyMs);
  socket.once('close', () => clearInterval(timer));
}

const within = (measured: number, limit: number, what: string) =>
  assert.ok(measured <= limit + SLACK_MS, `${what}: open ${measured} ms, limit ${limit} ms`);

describe('a slow client', () => {
  // Each case ends by its limit and slack, or fails (a bank without the limit would keep the connection for ever).
  const bound = (limit: number) => ({ timeout: limit + SLACK_MS + 2_000 });

  test('that connects and never starts the TLS handshake is closed after handshakeMs', bound(LIMITS.handshakeMs), async () => {
    within(await closedAfter(connectTcp(port, '127.0.0.1')), LIMITS.handshakeMs, 'no handshake');
  });

  test('that sends nothing after the handshake is closed after headersMs', bound(LIMITS.headersMs), async () => {
    within(await closedAfter(await tls()), LIMITS.headersMs, 'nothing sent');
  });

  test('that trickles its headers is closed after headersMs', bound(LIMITS.headersMs), async () => {
    const socket = await tls();
    const started = Date.now();
    trickle(socket, `GET /v1/accounts HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ${'a'.repeat(200)}`, 100);
    within(await closedAfter(socket, started), LIMITS.headersMs, 'headers trickled');
  });

  test('that trickles its body is closed after requestMs', bound(LIMITS.requestMs), async () => {
    const socket = await tls();
    const started = Date.now();
    socket.write(
      'POST /v1/payments/sepa-credit-transfers HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n',
    );
    trickle(socket, `{"a":"${'b'.repeat(490)}"}`, 100);
    within(await closedAfter(socket, started), LIMITS.requestMs, 'body trickled');
  });

  test('that leaves a connection idle after an answer is closed after idleMs', bound(LIMITS.idleMs), async () => {
    const socket = await tls();
    socket.write('GET /v1/accounts HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await new Promise((resolve) => socket.once('data', resolve));
    within(await closedAfter(socket), LIMITS.idleMs, 'idle after an answer');
  });
});

describe('a greedy client', () => {
  test(`holds at most perClient connections (${LIMITS.perClient}): the others are closed as they arrive`, async () => {
    for (let waited = 0; bank.connections.open() > 0 && waited < 3_000; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(bank.connections.open(), 0, 'the slow clients are gone');
    const refusedBefore = bank.connections.refused();
    const sockets = Array.from({ length: 3 * LIMITS.perClient }, () => connectTcp(port, '127.0.0.1'));
    const closedEarly = await Promise.all(
      sockets.map((socket) =>
        Promise.race([closedAfter(socket).then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 500))]),
      ),
    );
    const held = closedEarly.filter((closed) => !closed).length;
    for (const socket of sockets) socket.destroy();
    assert.equal(held, LIMITS.perClient, `${held} connections held`);
    assert.equal(bank.connections.refused() - refusedBefore, 2 * LIMITS.perClient);
    assert.ok(bank.connections.peakPerClient() <= LIMITS.perClient);
  });
});
