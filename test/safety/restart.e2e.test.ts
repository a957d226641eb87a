/**
 * A target that restarts during a scenario cannot be judged by it: INTERRUPTED, never FAIL. The reference
 * bank is reached through a TCP proxy that, in the middle of the robustness probes (ERR-44.d), drops every
 * connection and refuses new ones for a while, as a restarting bank does. Before, the probe that met the
 * restart was shrunk against a bank that was away and reported as ERR-44 FAIL ("GET /v1/accounts with no
 * defect"); now the run says it could not judge.
 */
import assert from 'node:assert/strict';
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { startRemoteBank, type RemoteBank } from './remote-bank.js';

/** Forwards TCP to the bank; after `restartAfter` chunks from clients it resets every connection and stays away `downMs`. */
class RestartingProxy {
  private server: Server | undefined;
  private comeBack: NodeJS.Timeout | undefined;
  private readonly sockets = new Set<Socket>();
  private chunks = 0;
  port = 0;
  restarts = 0;

  constructor(
    private readonly upstreamPort: number,
    private readonly restartAfter: number,
    private readonly downMs: number,
  ) {}

  async listen(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.upstreamPort, '127.0.0.1');
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      upstream.pipe(client);
      client.on('data', (chunk: Buffer) => {
        if (++this.chunks === this.restartAfter) this.restart();
        else upstream.write(chunk);
      });
      client.on('end', () => upstream.end());
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
  }

  private restart(): void {
    this.restarts += 1;
    for (const socket of this.sockets) socket.resetAndDestroy();
    this.server?.close();
    this.comeBack = setTimeout(() => void this.listen(), this.downMs);
  }

  close(): Promise<void> {
    clearTimeout(this.comeBack);
    for (const socket of this.sockets) socket.destroy();
    const server = this.server;
    return new Promise((resolve) => (server?.listening ? server.close(() => resolve()) : resolve()));
  }
}

describe('a bank that restarts during the robustness probes', () => {
  let remote: RemoteBank;
  let proxy: RestartingProxy;
  before(async () => {
    remote = await startRemoteBank();
    proxy = new RestartingProxy(remote.bank.port, 60, 3000);
    await proxy.listen();
  });
  after(async () => {
    await proxy.close();
    await remote.close();
  });

  test('is INTERRUPTED naming the probe it went away after, never FAIL', async () => {
    const run = await remote.run(['--grep', 'ERR-44\\.d', '--probes', '80'], { baseUrl: `https://127.0.0.1:${proxy.port}` });
    assert.equal(proxy.restarts, 1, 'the bank restarted during the run');
    const record = run.results?.tests.find((t) => t.scenario === 'ERR-44.d');
    assert.ok(record, `no ERR-44.d in the results; exit ${run.exitCode}\n${run.stderr}\n${run.stdout.slice(-2000)}`);
    assert.equal(record.status, 'INTERRUPTED', `${record.status}: ${record.reason ?? record.error ?? ''}`);
    assert.match(record.reason ?? '', /stopped answering during the robustness probes, after (GET|POST|PUT|DELETE|PATCH|OPTIONS) /);
    assert.notEqual(run.results?.requirements.find((r) => r.id === 'ERR-44')?.status, 'FAIL');
    assert.notEqual(run.results?.verdict, 'NON_CONFORMANT');
  });
});
