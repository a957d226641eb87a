// A tiny HTTPS server for the client tests: it records each request exactly as
// received and answers by path (/text: HTML, /hang: never, anything else: JSON).
import { createServer } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sharedServerCertificate } from '../../lib/pki/index.js';
import type { KeyAndCertificate } from '../../lib/pki/index.js';
import type { IncomingRequest } from '../../lib/httpsig/index.js';

export interface CapturedRequest {
  method: string;
  url: string;
  httpVersion: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  remotePort: number | undefined;
}

export interface TestServer {
  baseUrl: string;
  port: number;
  requests: CapturedRequest[];
  close(): Promise<void>;
}

export async function startTestServer(ca: KeyAndCertificate): Promise<TestServer> {
  const tls = sharedServerCertificate(ca, { hostnames: ['localhost'], ipAddresses: ['127.0.0.1'] });
  const requests: CapturedRequest[] = [];
  const server = createServer({ key: tls.privateKeyPem, cert: tls.certificatePem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const captured = {
        method: req.method ?? '',
        url: req.url ?? '',
        httpVersion: req.httpVersion,
        headers: req.headers,
        body: Buffer.concat(chunks),
        remotePort: req.socket.remotePort,
      };
      requests.push(captured);
      if (captured.url === '/hang') return;
      // A rate limit: the first request of each /limited?after=N is answered 429 with Retry-After N, the next served.
      const limited = /^\/limited\?after=(\d+)$/.exec(captured.url ?? '');
      if (limited && requests.filter((r) => r.url === captured.url).length === 1) {
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': limited[1] }).end('{"code":"ACCESS_EXCEEDED"}');
        return;
      }
      if (captured.url === '/text') {
        res.writeHead(502, { 'content-type': 'text/html' }).end('<html>Bad gateway</html>');
        return;
      }
      res.writeHead(201, { 'content-type': 'application/json', 'x-answer': ['a', 'b'] });
      res.end(JSON.stringify({ received: captured.url, bytes: captured.body.length }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `https://127.0.0.1:${port}`,
    port,
    requests,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** What the server saw, in the verifier's terms. */
export function toIncomingRequest(captured: CapturedRequest): IncomingRequest {
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(captured.headers)) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  return { method: captured.method, path: captured.url, headers, body: captured.body };
}
