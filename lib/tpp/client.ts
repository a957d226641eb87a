// The TPP client every suite request goes through: signs (see sign-request.ts),
// sends over undici with the target's CA, and records each exchange.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout } from 'node:timers/promises';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { Dispatcher } from 'undici';
import { newConnectionPool } from './connection-pool.js';
import type { DigestAlgorithm } from '../httpsig/index.js';
import { systemClock } from './tpp-clock.js';
import type { Clock } from './tpp-clock.js';
import { TargetUnreachableError, isResetBeforeAnswer } from './target-unreachable.js';
import type { RecordedExchange } from './recorded-exchange.js';
import type { SigningDefect } from './signing-defects.js';
import { HeaderFields } from './header-fields.js';
import type { TppIdentity } from './tpp-identity.js';
import { ProductionRefusal, productionRefusal, type SafetyPolicy } from './production-guard.js';
import { createResponse } from './response.js';
import type { TppResponse } from './response.js';
import { signRequest } from './sign-request.js';
import { ConformanceError } from '../errors.js';

export interface TppClientOptions {
  /** e.g. https://bank.example or https://bank.example/psd2; request paths are appended. */
  baseUrl: string;
  /** PEM of the CA the target's TLS certificate chains to; when given, only it is trusted. */
  ca?: string;
  identity: TppIdentity;
  clock?: Clock;
  /** Added to the clock for Date: simulates a TPP whose clock is off. */
  clockSkewSeconds?: number;
  digestAlgorithm?: DigestAlgorithm;
  /** Sent on every request unless the request sets the same header. */
  defaultHeaders?: Record<string, string>;
  onExchange?: (exchange: RecordedExchange) => void;
  /** Whole-request limit, response body included. Default 30 s. */
  timeoutMs?: number;
  /** A connection pool shared with other clients (the suite's per-worker Agent); its owner closes it. */
  dispatcher?: Dispatcher;
  /**
   * The target's environment, and who sends: a production target gets nothing but reads (production-guard.ts).
   * Required, so that no client is made without saying where it sends.
   */
  safety: SafetyPolicy;
  /** Told of a request the safety policy refuses, before the client throws ProductionRefusal (the suite skips the scenario). */
  onRefused?: (reason: string) => void;
}

export interface TppRequest {
  /** Set on the request made again after a bank's short Retry-After: it is not made a third time. */
  rateLimitRetried?: boolean;
  method: string;
  /** Relative to baseUrl, query included (an absolute https URL is used as is). */
  path: string;
  headers?: Record<string, string>;
  /** Serialised with JSON.stringify and sent as UTF-8. */
  json?: unknown;
  /** Sent byte for byte instead of `json`. */
  rawBody?: string | Uint8Array;
  signingDefects?: SigningDefect[];
  digestAlgorithm?: DigestAlgorithm;
  /**
   * What is wrong with this request, when the scenario malforms it on purpose: the invariants then expect
   * a 4xx refusal (a 5xx fails ERR-44) instead of treating it as a well-formed request.
   */
  malformed?: string;
  /**
   * Why the bank is to fail this request inside (the scenario asked the target for an internal failure,
   * capability fault-injection): a 5xx answer is then what the scenario expects, not a breach of ERR-45.
   */
  failureProvoked?: string;
  /**
   * Which TPP rule this request leaves on purpose though it is not malformed for the bank (a keyId variant
   * the bank may accept, a deprecated endpoint, an unattended read past the quota…): recorded, so that an
   * audit of the run's traffic (`run --har`) does not hold it against the suite's own client.
   */
  deliberate?: string;
  /** Headers to leave out, even those the client adds itself (default headers, X-Request-ID…). */
  omitHeaders?: string[];
}

export type RequestOptions = Omit<TppRequest, 'method' | 'path' | 'json'>;

const DEFAULT_TIMEOUT_MS = 30_000;

/** Methods without side effects (RFC 9110 9.2.1): sending one twice changes nothing at the bank. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A link from the bank to another origin, or over plain http: never followed. */
export class ForeignLinkError extends ConformanceError {
  readonly code = 'XC_ERR_FOREIGN_LINK';
  override name = 'ForeignLinkError';
}

export class TppClient {
  readonly #options: TppClientOptions;
  readonly #agent: Dispatcher;
  readonly #ownsAgent: boolean;

  constructor(options: TppClientOptions) {
    this.#options = options;
    // Keep-alive is undici's default; one Agent per client reuses connections across requests.
    this.#ownsAgent = !options.dispatcher;
    this.#agent = options.dispatcher ?? newConnectionPool(options.ca);
  }

  get identity(): TppIdentity {
    return this.#options.identity;
  }

  /** The safety policy this client sends under: a client made beside it (a transport probe) keeps it. */
  get safety(): SafetyPolicy {
    return this.#options.safety;
  }

  /** A header this client sends on every request (TPP-Redirect-URI, TPP-Session-ID…), as configured. */
  defaultHeader(name: string): string | undefined {
    return Object.entries(this.#options.defaultHeaders ?? {}).find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1];
  }

  /** Where this client talks to, and the CA it trusts there: for transport probes beside the requests. */
  get transport(): { baseUrl: string; ca?: string } {
    return { baseUrl: this.#options.baseUrl, ...(this.#options.ca === undefined ? {} : { ca: this.#options.ca }) };
  }

  get(path: string, options: RequestOptions = {}): Promise<TppResponse> {
    return this.request({ ...options, method: 'GET', path });
  }

  post(path: string, json?: unknown, options: RequestOptions = {}): Promise<TppResponse> {
    return this.request({ ...options, method: 'POST', path, json });
  }

  put(path: string, json?: unknown, options: RequestOptions = {}): Promise<TppResponse> {
    return this.request({ ...options, method: 'PUT', path, json });
  }

  delete(path: string, options: RequestOptions = {}): Promise<TppResponse> {
    return this.request({ ...options, method: 'DELETE', path });
  }

  async request(req: TppRequest): Promise<TppResponse> {
    const options = this.#options;
    const url = this.#urlFor(req.path);
    const body = bodyBytes(req);
    const headers = new HeaderFields({
      Accept: 'application/json',
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
    });
    for (const [name, value] of Object.entries({ ...options.defaultHeaders, ...req.headers })) headers.set(name, value);
    for (const name of req.omitHeaders ?? []) headers.delete(name);
    // Before anything is signed or sent: a production target never sees a write.
    const refusal = productionRefusal(options.safety, req.method, this.#relativePath(url), headers.toRecord());
    if (refusal !== undefined) {
      options.onRefused?.(refusal);
      throw new ProductionRefusal(refusal);
    }
    const clock = options.clock ?? systemClock;
    const signed = signRequest({
      headers,
      body,
      identity: options.identity,
      now: new Date(clock.now().getTime() + (options.clockSkewSeconds ?? 0) * 1000),
      digestAlgorithm: req.digestAlgorithm ?? options.digestAlgorithm ?? 'SHA-256',
      defects: req.signingDefects ?? [],
      omitHeaders: req.omitHeaders ?? [],
      requestTarget: { method: req.method, path: `${url.pathname}${url.search}`, host: url.host },
    });

    const sentHeaders = signed.headers.toRecord();
    const exchange: RecordedExchange = {
      id: randomUUID(),
      startedAt: new Date().toISOString(),
      durationMs: 0,
      request: {
        method: req.method,
        url: url.toString(),
        headers: sentHeaders,
        ...(signed.body !== undefined ? { body: Buffer.from(signed.body).toString('utf8') } : {}),
      },
      ...(req.malformed !== undefined ? { malformed: req.malformed } : {}),
      ...(req.failureProvoked !== undefined ? { failureProvoked: req.failureProvoked } : {}),
      ...(req.deliberate !== undefined ? { deliberate: req.deliberate } : {}),
      ...(req.signingDefects?.length ? { signingDefects: req.signingDefects } : {}),
    };
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const started = performance.now();
    let response: NonNullable<RecordedExchange['response']>;
    const signal = AbortSignal.timeout(timeoutMs);
    const send = () =>
      this.#agent.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: req.method,
        headers: sentHeaders,
        body: signed.body ?? null,
        signal,
      });
    try {
      // A connection reset before any byte of the answer (an idle connection the bank closed, a bank restarting)
      // is transport noise: a safe request is sent once more. Not one that may have changed something (its second
      // answer could differ from the first, which the bank may have acted on), nor once bytes of the answer came.
      const answer = await send().catch((error: unknown) => {
        if (SAFE_METHODS.has(req.method.toUpperCase()) && isResetBeforeAnswer(error) && !signal.aborted) return send();
        throw error;
      });
      const responseHeaders = flattenHeaders(answer.headers);
      response = {
        status: answer.statusCode,
        headers: responseHeaders,
        body: decoded(Buffer.from(await answer.body.arrayBuffer()), responseHeaders['content-encoding']),
      };
    } catch (cause) {
      const timedOut = cause instanceof Error && cause.name === 'TimeoutError';
      const reason = timedOut ? new Error(`no complete response within ${timeoutMs} ms`, { cause }) : cause;
      const error = new TargetUnreachableError(`${req.method} ${url.toString()}`, reason);
      options.onExchange?.({ ...exchange, durationMs: elapsedSince(started), error: error.message });
      throw error;
    }
    const recorded = { ...exchange, durationMs: elapsedSince(started), response };
    options.onExchange?.(recorded);
    // A bank's rate limit (429 with a short Retry-After): nothing was done, so the request is made again, once,
    // after the wait the bank asked for and freshly signed. A long wait (a daily quota) is the answer as it is.
    const wait = retryAfterMs(response.headers['retry-after']);
    if (response.status === 429 && wait !== undefined && wait <= MAX_RATE_LIMIT_WAIT_MS && !req.rateLimitRetried) {
      await setTimeout(wait);
      return this.request({ ...req, rateLimitRetried: true });
    }
    return createResponse(recorded);
  }

  /** Closes pooled connections; the client cannot be used afterwards. */
  async close(): Promise<void> {
    if (this.#ownsAgent) await this.#agent.close();
  }

  /** The request's path relative to the base URL (what path templates describe). */
  #relativePath(url: URL): string {
    const basePath = new URL(this.#options.baseUrl).pathname.replace(/\/+$/, '');
    return url.pathname.startsWith(`${basePath}/`) ? url.pathname.slice(basePath.length) : url.pathname;
  }

  #urlFor(path: string): URL {
    if (/^[a-z][a-z0-9+.-]*:/i.test(path)) {
      // A link the bank gave: the client signs and sends PSU-ID with every request, so it goes nowhere else.
      const link = new URL(path);
      const bank = new URL(this.#options.baseUrl);
      if (link.protocol !== 'https:' || link.origin !== bank.origin) {
        throw new ForeignLinkError(
          `the link ${path} leads outside ${bank.origin}: the TPP client follows links only to the bank's own origin over https`,
        );
      }
      return link;
    }
    if (!path.startsWith('/')) throw new Error(`request path "${path}" must start with "/"`);
    return new URL(`${this.#options.baseUrl.replace(/\/+$/, '')}${path}`);
  }
}

function bodyBytes(req: TppRequest): Uint8Array | undefined {
  if (req.rawBody !== undefined) return typeof req.rawBody === 'string' ? Buffer.from(req.rawBody, 'utf8') : req.rawBody;
  if (req.json !== undefined) return Buffer.from(JSON.stringify(req.json), 'utf8');
  return undefined;
}

/**
 * The body as text, its Content-Encoding undone (undici's request, unlike fetch, hands over the bytes as
 * sent): a bank may compress its answer when the TPP's Accept-Encoding allows it (header table, Accept-*).
 * An encoding this client cannot undo leaves the bytes as they are, for the checks to judge.
 */
function decoded(bytes: Buffer, contentEncoding: string | undefined): string {
  const encodings = (contentEncoding ?? '')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter((e) => e !== '' && e !== 'identity');
  try {
    const plain = encodings.reduceRight((body, encoding) => {
      if (encoding === 'gzip' || encoding === 'x-gzip') return gunzipSync(body);
      if (encoding === 'deflate') return inflateSync(body);
      if (encoding === 'br') return brotliDecompressSync(body);
      throw new Error(`unknown content coding ${encoding}`);
    }, bytes);
    return plain.toString('utf8');
  } catch {
    return bytes.toString('utf8');
  }
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function elapsedSince(start: number): number {
  return Math.round((performance.now() - start) * 10) / 10;
}

/** The longest Retry-After of a 429 the client waits for before making the request again. */
const MAX_RATE_LIMIT_WAIT_MS = 10_000;

/** A Retry-After (delta-seconds or an HTTP-date, RFC 9110 10.2.3) in milliseconds from now, or undefined. */
function retryAfterMs(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}
