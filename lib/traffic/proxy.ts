/**
 * The judging proxy: stands between a TPP's client and a bank, passes every request and answer through
 * byte for byte (the TPP's own certificate and signature go to the bank untouched: the proxy never signs),
 * judges both sides as they pass, and appends each exchange to a HAR file as it completes, so a day of
 * traffic never sits in memory.
 *
 * Paths are kept: a TPP points its client at https://<proxy><bank's base path> instead of the bank, and
 * whatever it signs over (request-target) stays true. The Host header becomes the bank's, as at any reverse
 * proxy; a TPP that signs `host` signs the proxy's and will be refused by the bank.
 */
import { createServer, type Server } from 'node:https';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { Agent } from 'undici';
import type { ObservedExchange } from '../tpp-judge/index.js';
import type { HarWriter } from '../har/index.js';
import { entryOfExchange } from '../har/index.js';
import type { Observation, TrafficJudging } from './judging.js';

/** Hop-by-hop headers (RFC 9110 7.6.1) and what the proxy sets itself: never forwarded. */
const NOT_FORWARDED = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'host', 'content-length']);

export interface Upstream {
  /** The bank's base URL (its origin is where requests go; paths pass unchanged). */
  baseUrl: string;
  /** The CA the bank's TLS certificate chains to; the system's when not given. */
  caPem?: string;
}

export interface ProxyOptions {
  host: string;
  port: number;
  /** The proxy's own TLS key and certificate (from a CA the TPP's client trusts). */
  tls: { key: string; cert: string };
  judging: TrafficJudging;
  /** Where to append each exchange (HAR 1.2); none when not given. */
  har?: HarWriter;
  /** Called with what each exchange broke, as it passes (the command prints it). */
  onObservation?: (observation: Observation, exchange: ObservedExchange) => void;
  /** Whole-request limit towards the bank (default 30 s). */
  timeoutMs?: number;
}

export interface JudgingProxy {
  /** https://<host>:<port>: the origin a TPP's client talks to instead of the bank's. */
  origin: string;
  /** Where requests go; set before the first request (the bank may need the proxy's origin to start). */
  upstream: Upstream | undefined;
  /** Exchanges passed through so far. */
  readonly exchanges: number;
  close(): Promise<void>;
}

export async function startJudgingProxy(options: ProxyOptions): Promise<JudgingProxy> {
  let agent: Agent | undefined;
  let agentCa: string | undefined;
  let sequence = 0;
  const state: { upstream: Upstream | undefined } = { upstream: undefined };
  const agentFor = (upstream: Upstream): Agent => {
    if (agent === undefined || agentCa !== upstream.caPem) {
      void agent?.close();
      agent = new Agent({ connect: upstream.caPem === undefined ? {} : { ca: upstream.caPem } });
      agentCa = upstream.caPem;
    }
    return agent;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const upstream = state.upstream;
    const body = await readBody(req);
    const startedAt = new Date();
    const started = performance.now();
    const id = `proxy ${++sequence}`;
    const connection = `${req.socket.remoteAddress ?? ''}:${req.socket.remotePort ?? ''}`;
    const origin = upstream === undefined ? 'https://upstream.invalid' : new URL(upstream.baseUrl).origin;
    const exchange: ObservedExchange = {
      id,
      startedAt,
      durationMs: 0,
      request: { method: req.method ?? 'GET', url: `${origin}${req.url ?? '/'}`, headers: flatten(req.headers), body },
      connection,
    };
    try {
      if (upstream === undefined) throw new Error('the proxy has no bank to forward to yet');
      const answer = await agentFor(upstream).request({
        origin,
        path: req.url ?? '/',
        method: (req.method ?? 'GET'),
        headers: forwarded(req.headers),
        body: body.length === 0 ? null : body,
        signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
      });
      const raw = Buffer.from(await answer.body.arrayBuffer());
      const headers = flatten(answer.headers);
      exchange.durationMs = Math.round((performance.now() - started) * 10) / 10;
      exchange.response = { status: answer.statusCode, headers, body: decoded(raw, headers['content-encoding']) };
      res.writeHead(answer.statusCode, passedBack(answer.headers));
      res.end(raw);
    } catch (error) {
      exchange.durationMs = Math.round((performance.now() - started) * 10) / 10;
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ proxy: 'xs2a-conformance', message: `the bank did not answer: ${(error as Error).message}` }));
    }
    const observation = options.judging.observe(exchange);
    options.har?.add(entryOfExchange(exchange));
    options.onObservation?.(observation, exchange);
  };

  const server: Server = createServer({ key: options.tls.key, cert: options.tls.cert, minVersion: 'TLSv1.2' }, (req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ proxy: 'xs2a-conformance', message: `internal error: ${(error as Error).message}` }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host === '0.0.0.0' || options.host === '::' ? 'localhost' : options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    origin: `https://${host}:${port}`,
    get upstream() {
      return state.upstream;
    },
    set upstream(value) {
      state.upstream = value;
    },
    get exchanges() {
      return sequence;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await agent?.close();
    },
  };
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function flatten(headers: IncomingHttpHeaders | Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

/** The TPP's headers as it sent them, less hop-by-hop ones; the Host becomes the bank's. */
function forwarded(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !NOT_FORWARDED.has(name)) out[name] = value;
  return out;
}

function passedBack(headers: Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !NOT_FORWARDED.has(name.toLowerCase())) out[name] = value;
  return out;
}

/** The body as the judges read it: decompressed when the bank compressed it (the client still gets the bytes as sent). */
function decoded(raw: Buffer, encoding: string | undefined): Uint8Array {
  try {
    switch (encoding?.trim().toLowerCase()) {
      case 'gzip':
        return gunzipSync(raw);
      case 'br':
        return brotliDecompressSync(raw);
      case 'deflate':
        return inflateSync(raw);
      default:
        return raw;
    }
  } catch {
    return raw;
  }
}
