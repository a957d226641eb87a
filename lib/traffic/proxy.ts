/**
 * The judging proxy: stands between a TPP's client and a bank, passes every request and answer through
 * byte for byte (the TPP's own certificate and signature go to the bank untouched: the proxy never signs),
 * judges both sides as they pass, and appends each exchange to a HAR file as it completes, so a day of
 * traffic never sits in memory.
 *
 * Paths are kept: a TPP points its client at https://<proxy><bank's base path> instead of the bank, and
 * whatever it signs over (request-target) stays true. The Host header becomes the bank's, as at any reverse
 * proxy; a TPP that signs `host` signs the proxy's and will be refused by the bank.
 *
 * Bounded as the bank is (reference/connections.ts): deadlines and a cap per client address, and no body,
 * answer or inflated answer held past its limit. What the proxy refuses itself (a request target that is no
 * path, a body too large, a bank that does not answer or answers too much) gets the specification's error
 * body saying it is the proxy's, and is still recorded and judged as what it is; its own answer is never
 * taken for the bank's.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { Readable } from 'node:stream';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { Agent } from 'undici';
import type { ObservedExchange } from '../tpp-judge/index.js';
import type { HarWriter } from '../har/index.js';
import { entryOfExchange } from '../har/index.js';
import type { Masker } from '../report/mask.js';
import { visibleControls } from '../report/mask.js';
import type { Observation, TrafficJudging } from './judging.js';

/** Hop-by-hop headers (RFC 9110 7.6.1) and what the proxy sets itself: never forwarded. */
const NOT_FORWARDED = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'host',
  'content-length',
]);

/** The error body's `system`: the proxy's refusals say they are the proxy's, never the bank's. */
const SYSTEM = 'xs2a-conformance judging proxy';

const MiB = 1_048_576;

/** How much of a body the proxy holds: it must hold a body whole to judge it (Digest and signatures are over bytes). */
export interface BodyLimits {
  /** A request body past this is refused 413: at once when Content-Length says so, else as soon as it passes it. */
  requestBodyBytes: number;
  /** A bank's answer past this is not passed on: 502. */
  responseBodyBytes: number;
  /** A compressed answer is inflated for the judges up to this; past it, it is judged as sent (undecodable). */
  decodedBodyBytes: number;
}

/**
 * Eight times the reference bank's own 1 MiB (fastify's bodyLimit), so that a bank's own 413 to the suite's
 * 2 MiB body still comes from the bank; answers (a year of transactions) are given 32 MiB, compressed or not.
 */
const DEFAULT_BODY_LIMITS: BodyLimits = { requestBodyBytes: 8 * MiB, responseBodyBytes: 32 * MiB, decodedBodyBytes: 32 * MiB };

/**
 * How the proxy bounds its clients: the reference bank's deadlines and cap (reference/connections.ts), which
 * lib/cli hands in (lib/traffic may not import the bank; see proxy-session.ts).
 */
export interface ClientBounds {
  limits: { handshakeMs: number; headersMs: number; requestMs: number; idleMs: number; perClient: number };
  /** Closes, as they arrive, connections beyond `perClient` from one address. */
  capPerClient: (server: Server, perClient: number) => unknown;
}

/** How often Node checks the header and request deadlines (as the bank does): they are met within this much. */
const DEADLINE_CHECK_MS = 1_000;

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
  /** How the HAR keeps personal data: replaced by lookalikes (the default), or as sent (a masker not enabled: --unmasked). */
  harMasker?: Masker;
  /** Called with what each exchange broke, as it passes (the command prints it). */
  onObservation?: (observation: Observation, exchange: ObservedExchange) => void;
  /** Whole-request limit towards the bank (default 30 s). */
  timeoutMs?: number;
  /** Body limits; each defaults to DEFAULT_BODY_LIMITS's. */
  bodyLimits?: Partial<BodyLimits>;
  /** Deadlines and the cap per client address; Node's defaults and no cap when not given. */
  clients?: ClientBounds;
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

/** What the proxy says when it refuses a request itself. */
interface Refusal {
  status: number;
  code: 'FORMAT_ERROR' | 'SYSTEM_ERROR';
  message: string;
}

export async function startJudgingProxy(options: ProxyOptions): Promise<JudgingProxy> {
  const limits: BodyLimits = { ...DEFAULT_BODY_LIMITS, ...options.bodyLimits };
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
  const upstreamOrigin = () => (state.upstream === undefined ? 'https://upstream.invalid' : new URL(state.upstream.baseUrl).origin);

  /** A request as it came, before anything is read of its body. */
  const exchangeOf = (req: IncomingMessage): ObservedExchange => ({
    id: `proxy ${++sequence}`,
    startedAt: new Date(),
    durationMs: 0,
    request: {
      method: req.method ?? 'GET',
      url: recordedUrl(req.url ?? '', upstreamOrigin()),
      headers: flatten(req.headers),
      body: new Uint8Array(0),
    },
    connection: `${req.socket.remoteAddress ?? ''}:${req.socket.remotePort ?? ''}`,
  });

  /** Judged, recorded and shown; a judge's failure is said, never the proxy's end. */
  const record = (exchange: ObservedExchange, started: number): void => {
    exchange.durationMs = Math.round((performance.now() - started) * 10) / 10;
    try {
      const observation = options.judging.observe(exchange);
      options.onObservation?.(observation, exchange);
    } catch (error) {
      console.error(visibleControls(`judging proxy: ${exchange.id} could not be judged: ${(error as Error).message}`));
    }
    options.har?.add(entryOfExchange(options.harMasker?.exchange(exchange) ?? exchange));
  };

  /** Passes one request to the bank and its answer back, or refuses it; fills in the exchange as it goes. */
  const pass = async (req: IncomingMessage, res: ServerResponse, exchange: ObservedExchange): Promise<Refusal | undefined> => {
    const target = req.url ?? '';
    // Only origin-form goes to the bank: `*`, another host's absolute URL or an authority is nothing of it.
    if (!target.startsWith('/'))
      return {
        status: 400,
        code: 'FORMAT_ERROR',
        message: `the request target ${JSON.stringify(target)} is not a path (origin-form): the judging proxy passes requests to its bank only`,
      };
    const body = await readBody(req, limits.requestBodyBytes);
    if (body === 'too large') {
      exchange.malformed = `the judging proxy refused it before reading its body (over ${limits.requestBodyBytes} bytes)`;
      return {
        status: 413,
        code: 'FORMAT_ERROR',
        message: `the request body is over ${limits.requestBodyBytes} bytes, the judging proxy's limit`,
      };
    }
    if (body === 'cut short') {
      // The client went, or ran out of time (the clientError handler answered it): there is no one to answer.
      exchange.malformed = 'the judging proxy never received it whole (the client went or ran out of time)';
      return undefined;
    }
    exchange.request.body = body;
    const upstream = state.upstream;
    if (upstream === undefined)
      return { status: 502, code: 'SYSTEM_ERROR', message: 'the bank did not answer: the proxy has no bank to forward to yet' };
    // The bank may take up to timeoutMs: the client's idle deadline waits for it, not for the client.
    const waitForBank = () => undefined;
    res.on('timeout', waitForBank);
    try {
      const answer = await agentFor(upstream).request({
        origin: upstreamOrigin(),
        path: target,
        method: exchange.request.method,
        headers: forwarded(req.headers),
        body: body.length === 0 ? null : body,
        signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
      });
      const raw = await readAnswer(answer.body, limits.responseBodyBytes);
      if (raw === undefined)
        return {
          status: 502,
          code: 'SYSTEM_ERROR',
          message: `the bank's answer (HTTP ${answer.statusCode}) is over ${limits.responseBodyBytes} bytes, the judging proxy's limit: not passed on`,
        };
      const headers = flatten(answer.headers);
      const { body: decodedBody, problem } = decoded(raw, headers['content-encoding'], limits.decodedBodyBytes);
      exchange.response = { status: answer.statusCode, headers, body: decodedBody };
      if (problem !== undefined) exchange.comment = `the answer's body is judged as sent: ${problem}`;
      res.writeHead(answer.statusCode, passedBack(answer.headers));
      res.end(raw);
      return undefined;
    } catch (error) {
      return { status: 502, code: 'SYSTEM_ERROR', message: `the bank did not answer: ${(error as Error).message}` };
    } finally {
      res.off('timeout', waitForBank);
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const started = performance.now();
    const exchange = exchangeOf(req);
    try {
      const refusal = await pass(req, res, exchange);
      if (refusal !== undefined) refuse(res, exchange, refusal, req.headers['x-request-id']);
    } catch (error) {
      refuse(res, exchange, {
        status: 500,
        code: 'SYSTEM_ERROR',
        message: `internal error of the judging proxy: ${(error as Error).message}`,
      });
    }
    record(exchange, started);
  };

  const bounds = options.clients?.limits;
  const server: Server = createServer(
    {
      key: options.tls.key,
      cert: options.tls.cert,
      minVersion: 'TLSv1.2',
      ...(bounds === undefined
        ? {}
        : {
            handshakeTimeout: bounds.handshakeMs,
            headersTimeout: Math.min(bounds.headersMs, bounds.requestMs),
            requestTimeout: bounds.requestMs,
            keepAliveTimeout: bounds.idleMs,
            connectionsCheckingInterval: Math.min(DEADLINE_CHECK_MS, bounds.headersMs),
          }),
    },
    (req, res) => void handle(req, res),
  );
  if (bounds !== undefined) {
    server.timeout = bounds.idleMs;
    options.clients?.capPerClient(server, bounds.perClient);
  }
  server.on('clientError', answerClientError);
  // CONNECT asks the proxy to open a tunnel elsewhere: refused like any target that is no path.
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    const started = performance.now();
    const exchange = exchangeOf(req);
    const refusal: Refusal = {
      status: 400,
      code: 'FORMAT_ERROR',
      message: `the request target ${JSON.stringify(req.url ?? '')} is not a path (origin-form): the judging proxy opens no tunnel`,
    };
    exchange.comment = refusalComment(refusal);
    socket.on('error', () => undefined);
    endWith(socket, refusal);
    record(exchange, started);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host =
    options.host === '0.0.0.0' || options.host === '::' ? 'localhost' : options.host.includes(':') ? `[${options.host}]` : options.host;
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

/**
 * Where a request went, for the record: the bank's origin and the target as it came. A target that is no
 * path (`*`, another host's URL, an authority) is kept as it came under the bank's address, as the judging
 * sandbox records it (reference/plugins/tpp-judging.ts); one that makes no URL at all, as the origin (the
 * refusal quotes it).
 */
function recordedUrl(target: string, origin: string): string {
  const url = `${origin}${target.startsWith('/') ? '' : '/'}${target}`;
  return URL.canParse(url) ? url : origin;
}

function refusalComment(refusal: Refusal): string {
  return `refused by the judging proxy: ${refusal.status} ${refusal.code}: ${refusal.message}`;
}

function errorBody({ status, code, message }: Refusal): string {
  return JSON.stringify({ id: randomUUID(), system: SYSTEM, status, code, message });
}

/** Answers a refusal with the error body and notes it on the exchange (its answer is the proxy's, not the bank's: none is recorded). */
function refuse(res: ServerResponse, exchange: ObservedExchange, refusal: Refusal, requestId?: string | string[]): void {
  exchange.comment = refusalComment(refusal);
  // An answer already begun cannot be taken back: the client sees it cut short.
  if (res.headersSent) return void res.destroy();
  const body = errorBody(refusal);
  res.writeHead(refusal.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    ...(typeof requestId === 'string' ? { 'x-request-id': requestId } : {}),
  });
  res.end(body);
}

/** How long a connection refused with an answer may take to receive it before it is closed regardless. */
const CLOSE_GRACE_MS = 1_000;

/** An answer written on the socket itself (no request object to answer through), and the connection closed. */
function endWith(socket: Socket, refusal: Refusal): void {
  const body = errorBody(refusal);
  const reason = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' }[refusal.status] ?? 'Error';
  socket.end(
    `HTTP/1.1 ${refusal.status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  setTimeout(() => socket.destroy(), CLOSE_GRACE_MS).unref();
}

/**
 * What Node's HTTP parser refuses before there is a request (not HTTP, a target that is no URL, headers too
 * large) and a client out of time: the error body, as the bank answers them (reference/bank-errors.ts). Nothing
 * of such a request was parsed, so nothing is recorded.
 */
function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  const code = error.code ?? '';
  // Nothing can be said to a broken connection, over TLS not set up, or after an answer was begun.
  if (!socket.writable || socket.bytesWritten > 0 || code === 'ECONNRESET' || code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL'))
    return void socket.destroy();
  const refusal: Refusal =
    code === 'HPE_HEADER_OVERFLOW'
      ? { status: 431, code: 'FORMAT_ERROR', message: 'the request header section is too large for the judging proxy' }
      : code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? { status: 408, code: 'FORMAT_ERROR', message: 'the request did not reach the judging proxy in time' }
        : code === 'HPE_INVALID_URL'
          ? {
              status: 400,
              code: 'FORMAT_ERROR',
              message: 'the request target is not a path (origin-form) nor any URL: the judging proxy passes requests to its bank only',
            }
          : { status: 400, code: 'FORMAT_ERROR', message: `the request is not valid HTTP/1.1 (${code || 'parse error'})` };
  endWith(socket, refusal);
}

/**
 * The request's body, or why there is none: past `limit` (what follows is read and dropped, so that the
 * connection can carry the next request), or cut short (the client went, or ran out of time).
 */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too large' | 'cut short'> {
  return new Promise((resolve) => {
    // Node's parser has checked Content-Length: a body declared too large is refused before a byte of it is read.
    if (Number(req.headers['content-length'] ?? 0) > limit) {
      req.resume();
      return resolve('too large');
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      if (size > limit) return;
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      chunks.length = 0;
      resolve('too large');
    });
    // Whichever comes first settles it: 'close' follows 'end' for a whole body.
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', () => resolve('cut short'));
    req.once('close', () => resolve('cut short'));
  });
}

/** The bank's answer, or undefined when it is over `limit` (then it is not read further). */
async function readAnswer(body: Readable, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      body.destroy();
      return undefined;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
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

const DECODERS: Record<string, (raw: Buffer, options: { maxOutputLength: number }) => Buffer> = {
  gzip: gunzipSync,
  br: brotliDecompressSync,
  deflate: inflateSync,
};

/**
 * The body as the judges read it: inflated when the bank compressed it, never past `limit` (the client still
 * gets the bytes as sent). An answer that does not inflate, or inflates past the limit, is judged as sent,
 * and `problem` says why.
 */
function decoded(raw: Buffer, encoding: string | undefined, limit: number): { body: Uint8Array; problem?: string } {
  const name = encoding?.trim().toLowerCase();
  if (name === undefined || name === '' || name === 'identity') return { body: raw };
  const decoder = DECODERS[name];
  if (decoder === undefined) return { body: raw, problem: `undecodable, Content-Encoding ${name} is not one the judging proxy inflates` };
  try {
    return { body: decoder(raw, { maxOutputLength: limit }) };
  } catch (error) {
    const tooLarge = (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE';
    return {
      body: raw,
      problem: tooLarge
        ? `undecodable, its ${name} body inflates past ${limit} bytes, the judging proxy's limit`
        : `undecodable, its ${name} body does not inflate (${(error as Error).message})`,
    };
  }
}
