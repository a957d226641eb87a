/**
 * A suite run's traffic as HAR (`run --har FILE`): every exchange of the TPP client and the PSU's SCA flows
 * (the pages opened, the redirect to the TPP), in the order they happened, each request the
 * scenario broke on purpose marked `_malformed` (or `_deliberate`, `_failureProvoked`), so that an audit of
 * the file holds the suite's client to the TPP rules only where it meant to keep them. The marks are sealed
 * with this installation's key (lib/har): an audit here obeys them, an audit elsewhere or of an edited mark
 * does not. Personal data is replaced by lookalikes of the same shape unless the run is --unmasked (the bytes
 * as sent: what an audit needs to judge signatures and digests), and the entries that changed say so.
 */
import { chmodSync, closeSync, openSync, writeSync } from 'node:fs';
import { entryOfExchange, harOpening, HAR_CLOSING, type HttpExchange } from '../har/index.js';
import type { TrafficPayload } from './attachments.js';
import type { Masker } from './mask.js';

/** The exchanges of one scenario run, and its SCA flows as browser requests just before each redirect. */
export function trafficExchanges(payload: TrafficPayload): HttpExchange[] {
  const bytes = (text: string | undefined) => Buffer.from(text ?? '', 'utf8');
  const lower = (headers: Record<string, string>) =>
    Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  const exchanges: HttpExchange[] = payload.exchanges.map((recorded) => ({
    id: recorded.id,
    startedAt: new Date(recorded.startedAt),
    durationMs: recorded.durationMs,
    // undici adds Host itself; the wire had it, and a signature may cover it.
    request: {
      method: recorded.request.method,
      url: recorded.request.url,
      headers: { host: new URL(recorded.request.url).host, ...lower(recorded.request.headers) },
      body: bytes(recorded.request.body),
    },
    ...(recorded.response
      ? { response: { status: recorded.response.status, headers: lower(recorded.response.headers), body: bytes(recorded.response.body) } }
      : {}),
    ...(recorded.malformed === undefined ? {} : { malformed: recorded.malformed }),
    ...(recorded.failureProvoked === undefined ? {} : { failureProvoked: recorded.failureProvoked }),
    ...(recorded.deliberate === undefined ? {} : { deliberate: recorded.deliberate }),
    comment: payload.scenario,
  }));
  for (const redirect of payload.redirects) {
    const at = Date.parse(redirect.at);
    // The pages came before the redirect, in order; their exact times were not recorded.
    [...redirect.pages, redirect.url].forEach((url, index, all) => {
      exchanges.push({
        id: `browser ${url}`,
        startedAt: new Date(at - (all.length - 1 - index)),
        durationMs: 0,
        request: { method: 'GET', url, headers: {}, body: new Uint8Array(0) },
        comment: payload.scenario,
      });
    });
  }
  return exchanges;
}

/** Collects the run's traffic and writes it, in time order, when the run ends. */
export class SuiteTrafficRecorder {
  private readonly exchanges: HttpExchange[] = [];

  /** `masker`: the run's, in its lookalike form (personal data replaced by identifiers of the same shape); off with --unmasked. */
  constructor(
    private readonly path: string,
    private readonly masker: Masker,
  ) {}

  add(payload: TrafficPayload): void {
    this.exchanges.push(...trafficExchanges(payload));
  }

  /** Written at once, entry by entry (the reporter's end is synchronous); returns the number of entries. */
  write(creator: { name: string; version: string }): number {
    const file = openSync(this.path, 'w', 0o600);
    chmodSync(this.path, 0o600); // a file that was there keeps its mode through openSync
    try {
      writeSync(file, harOpening(creator));
      this.exchanges.sort((a, b) => a.startedAt.getTime() - b.startedAt.getTime());
      this.exchanges.forEach((exchange, i) =>
        writeSync(file, `${i === 0 ? '' : ',\n'}${JSON.stringify(entryOfExchange(this.masker.exchange(exchange)))}`),
      );
      writeSync(file, HAR_CLOSING);
    } finally {
      closeSync(file);
    }
    return this.exchanges.length;
  }
}
