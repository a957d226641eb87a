/**
 * Recorded HTTP exchanges, and HAR 1.2 (HTTP Archive) files of them read and written as a stream: an audit
 * of a day of traffic holds one entry at a time, never the file, and the proxy and a suite run append each
 * exchange as it completes. Bodies keep their exact bytes (Digest and signatures are over bytes): text when
 * they are UTF-8, else base64 (`content.encoding`, and `postData._encoding`, a custom field since HAR 1.2
 * gives request bodies no encoding).
 *
 * The parser is @streamparser/json (streams `$.log.entries.*` one by one and drops each once emitted).
 *
 * The marks this project puts on an entry (`_malformed`, `_deliberate`, `_failureProvoked`: broken on purpose,
 * not to be held against the TPP or the bank) are obeyed only when this installation wrote them: each marked
 * entry is sealed (`_markSeal`, an HMAC over the marks and the request they are on, keyed with a secret of
 * this installation's tool cache). A mark written by hand, moved to another entry, or written anywhere else
 * (another installation, another tool, this one before seals) is read as no mark.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  chmodSync,
  createReadStream,
  createWriteStream,
  linkSync,
  mkdirSync,
  readFileSync,
  unlinkSync,
  writeFileSync,
  type WriteStream,
} from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { JSONParser } from '@streamparser/json';
import { TOOL_CACHE_DIR } from '../support/install-paths.js';
import { ConformanceError } from '../errors.js';

export interface HttpHeaders {
  /** Lower-case header names; repeated headers joined with ", " as HTTP allows. */
  readonly [name: string]: string | undefined;
}

/** One request and its answer as they went over the wire, whoever recorded them (a bank, a proxy, a client, a HAR). */
export interface HttpExchange {
  /** Unique within its source (a HAR entry's index, the proxy's sequence number, the sandbox's request id). */
  id: string;
  /** When the request was sent or received, by the recorder's clock (not necessarily the bank's). */
  startedAt: Date;
  /** How long the exchange took, in milliseconds (0 when not known). */
  durationMs: number;
  request: { method: string; url: string; headers: HttpHeaders; body: Uint8Array };
  response?: { status: number; headers: HttpHeaders; body: Uint8Array };
  /** The bank's own clock when it received the request: known exactly only to the bank (the sandbox). */
  bankTime?: Date;
  /** The connection the request came on, where the recorder knows it. */
  connection?: string;
  /**
   * The recorder says the request is broken on purpose (a conformance suite testing the bank). Only a
   * recorder that knows can say so (the suite's own recording, the proxy of a body it did not read); traffic
   * never says it, and a HAR says it only under this installation's seal (see markStandingOf).
   */
  malformed?: string;
  /** The recorder asked the bank to fail this request inside (a fault-injection sandbox operation): its 5xx is expected. */
  failureProvoked?: string;
  /**
   * The recorder leaves a TPP rule on purpose in a request the bank may well accept (a conformance suite
   * trying how the bank treats a variant): like `malformed`, not held against the TPP.
   */
  deliberate?: string;
  /**
   * The recorder masked personal data in it (a PSU's identifiers by lookalikes of their shape, credentials):
   * what was signed and digested is no longer there, so a judge does not hold the bytes against the TPP.
   */
  masked?: string;
  /** A note for people (HAR `comment`): the suite writes the scenario that made the exchange. */
  comment?: string;
}

interface HarHeader {
  name: string;
  value: string;
}

/** The fields of a HAR entry this project reads and writes. */
export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    headers: HarHeader[];
    queryString: { name: string; value: string }[];
    cookies: unknown[];
    headersSize: number;
    bodySize: number;
    postData?: { mimeType: string; text: string; _encoding?: 'base64' };
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    headers: HarHeader[];
    cookies: unknown[];
    content: { size: number; mimeType: string; text?: string; encoding?: string };
    redirectURL: string;
    headersSize: number;
    bodySize: number;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  connection?: string;
  /** This project's marks: the recorder broke the request on purpose, or asked the bank to fail it (see HttpExchange). */
  _malformed?: string;
  _failureProvoked?: string;
  _deliberate?: string;
  _masked?: string;
  /** The marks' seal: `hmac-sha256:<hex>` over them and the request, by this installation's key (markStandingOf). */
  _markSeal?: string;
  comment?: string;
}

export class HarFormatError extends ConformanceError {
  readonly code = 'XC_ERR_HAR_FORMAT';
  override name = 'HarFormatError';
}

// ---- reading ----

/** The entries of a HAR file, one at a time, in file order. Throws HarFormatError on what is no HAR. */
export async function* readHarEntries(path: string): AsyncGenerator<HarEntry> {
  // Buffered strings and numbers: bodies are long strings, and appending them a character at a time is slow.
  const parser = new JSONParser({ paths: ['$.log.entries.*'], keepStack: false, stringBufferSize: 64 * 1024, numberBufferSize: 64 });
  const ready: HarEntry[] = [];
  parser.onValue = ({ value }) => {
    ready.push(value as unknown as HarEntry);
  };
  let failure: Error | undefined;
  parser.onError = (error) => {
    failure = error;
  };
  let read = 0;
  for await (const chunk of createReadStream(path)) {
    parser.write(chunk as Buffer);
    if (failure) throw new HarFormatError(`${path} is not a HAR file: ${failure.message} (after ${read} entries)`);
    while (ready.length > 0) {
      read += 1;
      yield ready.shift() as HarEntry;
    }
  }
  if (!parser.isEnded) throw new HarFormatError(`${path} ends before its end (a HAR file cut short? ${read} entries read)`);
}

/** A HAR entry as an exchange to judge; `index` numbers it within its file. */
export function exchangeOfEntry(entry: HarEntry, index: number): HttpExchange {
  const field = (name: string) => `entries[${index}].${name}`;
  if (typeof entry !== 'object' || entry === null) throw new HarFormatError(`${field('')} is not an object`);
  const { request, response } = entry;
  if (typeof request?.url !== 'string' || typeof request.method !== 'string')
    throw new HarFormatError(`${field('request')} needs method and url`);
  if (!URL.canParse(request.url)) throw new HarFormatError(`${field('request.url')} is not an absolute URL: ${request.url}`);
  const startedAt = new Date(entry.startedDateTime);
  if (Number.isNaN(startedAt.getTime()))
    throw new HarFormatError(`${field('startedDateTime')} is not a date: ${String(entry.startedDateTime)}`);
  const requestBody = request.postData === undefined ? new Uint8Array(0) : bytesOf(request.postData.text, request.postData._encoding);
  const answered = typeof response?.status === 'number' && response.status > 0;
  // Marks this installation did not seal are no marks: a HAR cannot excuse its own traffic.
  const marked = markStandingOf(entry) === 'verified';
  return {
    id: `entry ${index}`,
    startedAt,
    durationMs: typeof entry.time === 'number' && entry.time > 0 ? entry.time : 0,
    request: { method: request.method, url: request.url, headers: headersOf(request.headers), body: requestBody },
    ...(answered
      ? {
          response: {
            status: response.status,
            headers: headersOf(response.headers),
            body: bytesOf(response.content?.text, response.content?.encoding),
          },
        }
      : {}),
    ...(typeof entry.connection === 'string' ? { connection: entry.connection } : {}),
    ...(marked && typeof entry._malformed === 'string' ? { malformed: entry._malformed } : {}),
    ...(marked && typeof entry._failureProvoked === 'string' ? { failureProvoked: entry._failureProvoked } : {}),
    ...(marked && typeof entry._deliberate === 'string' ? { deliberate: entry._deliberate } : {}),
    ...(marked && typeof entry._masked === 'string' ? { masked: entry._masked } : {}),
    ...(typeof entry.comment === 'string' ? { comment: entry.comment } : {}),
  };
}

function headersOf(list: readonly HarHeader[] | undefined): HttpHeaders {
  const headers: Record<string, string> = {};
  for (const { name, value } of list ?? []) {
    if (typeof name !== 'string' || typeof value !== 'string' || name.startsWith(':')) continue; // HTTP/2 pseudo-headers
    const key = name.toLowerCase();
    headers[key] = headers[key] === undefined ? value : `${headers[key]}, ${value}`;
  }
  return headers;
}

function bytesOf(text: string | undefined, encoding: string | undefined): Uint8Array {
  if (typeof text !== 'string') return new Uint8Array(0);
  return encoding === 'base64' ? Buffer.from(text, 'base64') : Buffer.from(text, 'utf8');
}

// ---- writing ----

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Bytes as HAR text: as they are when UTF-8, else base64 (with the encoding said). */
function textOf(body: Uint8Array): { text: string; base64: boolean } {
  try {
    return { text: utf8.decode(body), base64: false };
  } catch {
    return { text: Buffer.from(body).toString('base64'), base64: true };
  }
}

function harHeaders(headers: HttpHeaders): HarHeader[] {
  return Object.entries(headers).flatMap(([name, value]) => (value === undefined ? [] : [{ name, value }]));
}

/** An exchange as a HAR entry; its marks, if any, sealed with this installation's key. */
export function entryOfExchange(exchange: HttpExchange): HarEntry {
  const { request, response } = exchange;
  const url = new URL(request.url);
  const requestBody = textOf(request.body);
  const responseBody = response === undefined ? undefined : textOf(response.body);
  const entry: HarEntry = {
    startedDateTime: exchange.startedAt.toISOString(),
    time: exchange.durationMs,
    request: {
      method: request.method,
      url: request.url,
      httpVersion: 'HTTP/1.1',
      headers: harHeaders(request.headers),
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
      cookies: [],
      headersSize: -1,
      bodySize: request.body.length,
      ...(request.body.length === 0
        ? {}
        : {
            postData: {
              mimeType: request.headers['content-type'] ?? '',
              text: requestBody.text,
              ...(requestBody.base64 ? { _encoding: 'base64' as const } : {}),
            },
          }),
    },
    response: {
      status: response?.status ?? 0,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      headers: response === undefined ? [] : harHeaders(response.headers),
      cookies: [],
      content: {
        size: response?.body.length ?? 0,
        mimeType: response?.headers['content-type'] ?? '',
        ...(responseBody === undefined || response?.body.length === 0
          ? {}
          : { text: responseBody.text, ...(responseBody.base64 ? { encoding: 'base64' } : {}) }),
      },
      redirectURL: response?.headers.location ?? '',
      headersSize: -1,
      bodySize: response?.body.length ?? 0,
    },
    cache: {},
    timings: { send: 0, wait: exchange.durationMs, receive: 0 },
    ...(exchange.connection === undefined ? {} : { connection: exchange.connection }),
    ...(exchange.malformed === undefined ? {} : { _malformed: exchange.malformed }),
    ...(exchange.failureProvoked === undefined ? {} : { _failureProvoked: exchange.failureProvoked }),
    ...(exchange.deliberate === undefined ? {} : { _deliberate: exchange.deliberate }),
    ...(exchange.masked === undefined ? {} : { _masked: exchange.masked }),
    ...(exchange.comment === undefined ? {} : { comment: exchange.comment }),
  };
  const seal = hasMarks(entry) ? sealOf(entry) : undefined;
  return seal === undefined ? entry : { ...entry, _markSeal: seal };
}

// ---- marks ----

/** What an entry's marks are worth here: none; sealed by this installation (obeyed); or not (ignored). */
export type MarkStanding = 'none' | 'verified' | 'unverified';

export function markStandingOf(entry: HarEntry): MarkStanding {
  if (!hasMarks(entry)) return 'none';
  const expected = sealOf(entry);
  const given = entry._markSeal;
  if (expected === undefined || typeof given !== 'string' || given.length !== expected.length) return 'unverified';
  return timingSafeEqual(Buffer.from(given), Buffer.from(expected)) ? 'verified' : 'unverified';
}

function hasMarks(entry: HarEntry): boolean {
  return (
    entry._malformed !== undefined || entry._failureProvoked !== undefined || entry._deliberate !== undefined || entry._masked !== undefined
  );
}

/**
 * The seal of an entry's marks: an HMAC over the marks and what makes the entry the request it is (when, the
 * method, URL, headers and body, as written), so that a mark moved to another entry, or an entry's request
 * edited under its mark, no longer verifies. The answer is not covered: the marks speak of the request.
 * Undefined when this installation has no key to seal with.
 */
function sealOf(entry: HarEntry): string | undefined {
  const key = markKey();
  if (key === undefined) return undefined;
  const request = (entry.request ?? {}) as Partial<HarEntry['request']>;
  const sealed = JSON.stringify([
    'xs2a-conformance HAR marks 1',
    entry.startedDateTime,
    request.method,
    request.url,
    request.headers ?? [],
    request.postData ?? null,
    entry._malformed ?? null,
    entry._failureProvoked ?? null,
    entry._deliberate ?? null,
    // Sealed from the fourth mark on only when there, so that HARs sealed before it still verify.
    ...(entry._masked === undefined ? [] : [entry._masked]),
  ]);
  return `hmac-sha256:${createHmac('sha256', key).update(sealed).digest('hex')}`;
}

/** The key of the seals: 32 random bytes, hex, made on first use, readable by its owner only. */
const MARK_KEY_FILE = join(TOOL_CACHE_DIR, 'har-mark-key');

/** The key once read (null: none can be had here, so marks are written unsealed and read as unverified). */
let markKeyRead: Buffer | null | undefined;

function markKey(): Buffer | undefined {
  if (markKeyRead === undefined) {
    markKeyRead = readOrMakeMarkKey();
    if (markKeyRead === null)
      console.warn(
        `xs2a-conformance: no key for HAR marks at ${MARK_KEY_FILE} (unreadable, or not 64 hex digits): marks are written unsealed and read as unverified`,
      );
  }
  return markKeyRead ?? undefined;
}

function readOrMakeMarkKey(): Buffer | null {
  const read = (): Buffer | null => {
    const text = readFileSync(MARK_KEY_FILE, 'utf8').trim();
    return /^[0-9a-f]{64}$/.test(text) ? Buffer.from(text, 'hex') : null;
  };
  try {
    return read();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return null;
  }
  // Written whole under a name of its own, then linked into place: processes making it at once agree on one key.
  const draft = `${MARK_KEY_FILE}.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    mkdirSync(TOOL_CACHE_DIR, { recursive: true });
    writeFileSync(draft, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    try {
      linkSync(draft, MARK_KEY_FILE);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    return read();
  } catch {
    return null;
  } finally {
    try {
      unlinkSync(draft);
    } catch {
      // never written
    }
  }
}

/** What a HAR file starts with, before its entries, and ends with after them. */
export function harOpening(creator: { name: string; version: string }): string {
  return `{"log":{"version":"1.2","creator":${JSON.stringify(creator)},"entries":[\n`;
}
export const HAR_CLOSING = '\n]}}\n';

/**
 * A HAR file written as exchanges complete: the opening is written at once, each entry when added, and the
 * closing on close(); a file cut short by a crash still holds every entry written before (the audit reads
 * them and then says the file is cut short).
 */
export class HarWriter {
  private readonly out: WriteStream;
  private entries = 0;
  private bytes = 0;

  constructor(
    readonly path: string,
    creator: { name: string; version: string },
  ) {
    // A recording holds what was sent, secrets included: its user's alone, as a report is (0600).
    writeFileSync(path, '', { mode: 0o600 });
    chmodSync(path, 0o600); // a file that was there keeps its mode through writeFileSync
    this.out = createWriteStream(path, { encoding: 'utf8' });
    this.out.write(harOpening(creator));
  }

  get count(): number {
    return this.entries;
  }

  /** Bytes handed to the file so far (some may still be on their way). */
  get size(): number {
    return this.bytes;
  }

  /** Appends an entry; false when the file's buffer is full (a writer in a loop then awaits drained()). */
  add(entry: HarEntry): boolean {
    const text = `${this.entries === 0 ? '' : ',\n'}${JSON.stringify(entry)}`;
    this.entries += 1;
    this.bytes += Buffer.byteLength(text);
    return this.out.write(text);
  }

  async drained(): Promise<void> {
    if (this.out.writableNeedDrain) await once(this.out, 'drain');
  }

  async close(): Promise<void> {
    this.out.end(HAR_CLOSING);
    await once(this.out, 'finish');
  }
}
