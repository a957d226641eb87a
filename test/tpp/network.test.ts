// The TPP client on an unreliable network: a connection reset before any byte of the answer is retried once
// for a safe request (GET, HEAD, OPTIONS), never for one that may have changed something, never once bytes of
// the answer arrived; links the bank gives are followed only to its own origin, only over https.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { sharedServerCertificate } from '../../lib/pki/index.js';
import { TargetUnreachableError, TppClient } from '../../lib/tpp/index.js';
import { testPki } from '../pki/test-pki.js';

const { ca, identity } = testPki();
const tls = sharedServerCertificate(ca, { hostnames: ['localhost'], ipAddresses: ['127.0.0.1'] });
const seen = new Map<string, number>();
let server: Server;
let baseUrl = '';
let client: TppClient;
/** The TCP connections under the TLS ones, to reset one (an RST, as a restarting bank's kernel sends). */
const connections: Socket[] = [];
const reset = (socket: Socket) => connections.find((raw) => raw.remotePort === socket.remotePort)?.resetAndDestroy();

before(async () => {
  server = createServer({ key: tls.privateKeyPem, cert: tls.certificatePem }, (request, response) => {
    const path = request.url ?? '';
    const count = (seen.get(`${request.method} ${path}`) ?? 0) + 1;
    seen.set(`${request.method} ${path}`, count);
    request.resume();
    // The first time: the connection is reset before any byte of the answer (a bank restarting, an idle connection closed).
    if ((path.startsWith('/reset-once') && count === 1) || path === '/reset-always') {
      reset(request.socket);
      return;
    }
    if (path.startsWith('/close-once') && count === 1) {
      request.socket.destroy();
      return;
    }
    if (path === '/reset-after-headers') {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      response.write('{"partial":');
      setTimeout(() => reset(request.socket), 20);
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ path, count }));
  });
  server.on('connection', (raw: Socket) => connections.push(raw));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  client = new TppClient({ baseUrl, ca: ca.certificatePem, identity, safety: { environment: 'sandbox' } });
});
after(async () => {
  await client.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('a connection reset', () => {
  it("before any byte of the answer to a GET: retried once, and the answer is the retry's", async () => {
    const response = await client.get('/reset-once/get');
    assert.equal(response.status, 200);
    assert.deepEqual(response.json(), { path: '/reset-once/get', count: 2 });
    const closed = await client.get('/close-once/get');
    assert.deepEqual(closed.json(), { path: '/close-once/get', count: 2 }, 'a connection closed without an answer too');
  });

  it('twice in a row: the target is unreachable (INTERRUPTED), after exactly two attempts', async () => {
    await assert.rejects(client.get('/reset-always'), TargetUnreachableError);
    assert.equal(seen.get('GET /reset-always'), 2);
  });

  it('to a POST, PUT or DELETE: not retried (the bank may have acted on it), the target unreachable', async () => {
    for (const method of ['POST', 'PUT', 'DELETE']) {
      await assert.rejects(client.request({ method, path: `/reset-once/${method}`, json: {} }), TargetUnreachableError);
      assert.equal(seen.get(`${method} /reset-once/${method}`), 1, method);
    }
  });

  it('after bytes of the answer arrived: not retried', async () => {
    await assert.rejects(client.get('/reset-after-headers'), TargetUnreachableError);
    assert.equal(seen.get('GET /reset-after-headers'), 1);
  });
});

describe('links from the bank', () => {
  it('to its own origin over https are followed', async () => {
    const response = await client.get(`${baseUrl}/v1/accounts?page=2`);
    assert.equal(response.status, 200);
  });

  it('to another origin, or over plain http, are refused before anything is sent', async () => {
    const before = [...seen.values()].reduce((a, b) => a + b, 0);
    for (const link of [
      'https://evil.example/v1/accounts',
      baseUrl.replace('https:', 'http:') + '/v1/accounts',
      `https://localhost:${new URL(baseUrl).port}/v1/accounts`,
    ]) {
      await assert.rejects(client.get(link), (error: unknown) => {
        assert.match((error as Error).message, /follows links only to the bank's own origin over https/, link);
        return true;
      });
    }
    assert.equal(
      [...seen.values()].reduce((a, b) => a + b, 0),
      before,
      'nothing reached any server',
    );
  });
});
