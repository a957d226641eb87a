/**
 * A bank in another data centre, for the tests and measurements of a run over a network: a TCP proxy that
 * passes every byte through as it is (TLS included: the bank's own certificate reaches the client), and holds
 * each chunk of the bank's answer `delayMs` before passing it on. Every answer, and every TLS handshake's flight
 * from the bank, is that much late, as with a round trip to a distant bank.
 */
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

export interface DelayProxy {
  /** https://127.0.0.1:PORT: where a client reaches the bank through the proxy. */
  baseUrl: string;
  port: number;
  /** Where the proxy passes connections to; set before the first client connects. */
  upstream: { host: string; port: number } | undefined;
  close(): Promise<void>;
}

export async function startDelayProxy(delayMs: number, upstream?: { host: string; port: number }): Promise<DelayProxy> {
  const sockets = new Set<Socket>();
  const proxy: DelayProxy = { baseUrl: '', port: 0, upstream, close: () => Promise.resolve() };
  const server = createServer((client) => {
    const to = proxy.upstream;
    if (!to) {
      client.destroy();
      return;
    }
    const bank = connect(to.port, to.host);
    for (const socket of [client, bank]) {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        bank.destroy();
      });
    }
    client.pipe(bank);
    // Timers of one duration fire in the order they were set: the answer's bytes keep their order.
    bank.on('data', (chunk: Buffer) => setTimeout(() => client.destroyed || client.write(chunk), delayMs));
    bank.once('end', () => setTimeout(() => client.end(), delayMs));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.port = (server.address() as AddressInfo).port;
  proxy.baseUrl = `https://127.0.0.1:${proxy.port}`;
  proxy.close = () =>
    new Promise((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return proxy;
}
