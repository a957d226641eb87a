// Errors raised below the routes (by Node's HTTP parser, before fastify sees a
// request) take the specification's error body too, not the framework's
// `{error, statusCode, message}`. Sent over a raw TLS socket, since no HTTP client
// will send a garbage method or Content-Length together with Transfer-Encoding.
// A body over the size limit is answered before it arrives, and the connection is not reset under the client
// still sending it (which then lost the answer: ERR-44.c INTERRUPTED).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { connect } from 'node:tls';
import { withBank } from './helpers.js';

type Bank = Awaited<ReturnType<typeof withBank>>;

/** Sends raw bytes and reads everything until the server closes the connection. */
function rawExchange(bank: Bank, request: string): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: bank.bank.port, ca: bank.bank.caPem, servername: 'localhost' }, () =>
      socket.write(request),
    );
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n', 2);
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), headers: head, body });
    });
  });
}

function assertSpecErrorBody(answer: { status: number; headers: string; body: string }, status: number): void {
  assert.equal(answer.status, status, answer.headers);
  assert.match(answer.headers, /content-type: application\/json/i);
  const body = JSON.parse(answer.body) as Record<string, unknown>;
  assert.deepEqual(Object.keys(body).sort(), ['code', 'id', 'message', 'status', 'system']);
  assert.equal(body['status'], status);
  assert.equal(body['code'], 'FORMAT_ERROR');
}

describe('reference bank: errors below the routes', () => {
  let bank: Bank;
  before(async () => {
    bank = await withBank();
  });
  after(() => bank.close());

  test('a 20 KiB header gets 431 with the error body', async () => {
    const answer = await rawExchange(bank, `GET /v1/accounts HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20 * 1024)}\r\n\r\n`);
    assertSpecErrorBody(answer, 431);
  });

  test('a garbage method gets 400 with the error body', async () => {
    assertSpecErrorBody(await rawExchange(bank, 'G@RBAGE /v1/accounts HTTP/1.1\r\nHost: localhost\r\n\r\n'), 400);
  });

  test('Content-Length together with Transfer-Encoding gets 400 with the error body', async () => {
    const request =
      'POST /v1/sandbox/customers HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n';
    assertSpecErrorBody(await rawExchange(bank, request), 400);
  });

  test('a body over the limit is answered 413 before it is sent, and the connection lives on: the rest is read and dropped, the next request answered', async () => {
    const size = 2 * 1024 * 1024;
    const socket = connect({ host: '127.0.0.1', port: bank.bank.port, ca: bank.bank.caPem, servername: 'localhost' });
    const received: Buffer[] = [];
    const answers = (count: number) =>
      new Promise<string[]>((resolve, reject) => {
        const check = () => {
          const found =
            Buffer.concat(received)
              .toString('latin1')
              .match(/HTTP\/1\.1 \d{3}[^]*?\r\n\r\n/g) ?? [];
          if (found.length >= count) resolve(found);
        };
        socket.on('data', (chunk: Buffer) => {
          received.push(chunk);
          check();
        });
        socket.once('error', reject);
        socket.once('close', () => reject(new Error(`the bank closed the connection after ${received.length} chunk(s)`)));
      });
    try {
      const first = answers(1);
      socket.write(
        `POST /v1/sandbox/customers HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\n\r\n`,
      );
      const [head = ''] = await first;
      assert.match(head, /^HTTP\/1\.1 413 /);
      // Closing here, with the body still coming, is what reset connections under clients that were sending it.
      assert.doesNotMatch(head, /^connection: close/im);
      socket.removeAllListeners('data').removeAllListeners('close').removeAllListeners('error');
      const second = answers(2);
      socket.write(Buffer.alloc(size, 'x'));
      socket.write('GET /v1/sandbox/customers HTTP/1.1\r\nHost: localhost\r\n\r\n');
      const [, next = ''] = await second;
      assert.match(next, /^HTTP\/1\.1 \d{3} /);
    } finally {
      socket.destroy();
    }
  });

  test('the bank keeps serving after each of them', async () => {
    assert.equal((await bank.client.request({ path: '/v1/sandbox/customers' })).status, 200);
  });
});
