/**
 * One exchange as a judge sees it, whatever recorded it: the judging sandbox (the bank itself), the judging
 * proxy, or an entry of a HAR file. Bytes are kept as sent, since Digest and signatures are over bytes. A
 * request the recorder marks `malformed` or `deliberate` (off the rules on purpose) is not held against its TPP.
 */
import type { X509Certificate } from 'node:crypto';
import type { HttpExchange } from '../har/index.js';
import { parseHttpDate } from '../httpsig/index.js';

/** The exchanges a judge reads are recorded HTTP exchanges (lib/har): bytes as sent, from any recorder. */
export interface ObservedExchange extends HttpExchange {
  /**
   * Who signed the request, where the recorder verified it (the judging sandbox: the bank itself): the
   * certificate whose key the signature verified with, or null when it did not verify (judged as unidentified,
   * never as the TPP whose certificate it copied). Absent where the recorder cannot know (a proxy, a HAR): the
   * request is then attributed by the certificate it carries (tpp-attribution.ts).
   */
  signer?: X509Certificate | null;
}
/**
 * Where the bank's clock stood when it received the request, as an interval of whole seconds (ms values):
 * exact in the sandbox; from the Date of the answer otherwise, widened by the exchange's duration (the Date
 * is written after the request arrived) and by the header's one-second resolution.
 */
export interface BankClockReading {
  earliest: number;
  latest: number;
}

export function bankClockOf(exchange: ObservedExchange): BankClockReading | undefined {
  if (exchange.bankTime !== undefined) {
    const second = Math.floor(exchange.bankTime.getTime() / 1000) * 1000;
    return { earliest: second, latest: second };
  }
  const dateHeader = exchange.response?.headers.date;
  const date = dateHeader === undefined ? undefined : parseHttpDate(dateHeader);
  if (date === undefined) return undefined;
  const latest = date.getTime();
  return { earliest: latest - Math.ceil(exchange.durationMs / 1000) * 1000, latest };
}

/** A header of the request, blank treated as absent (as the bank's verifier treats it). */
export function requestHeader(exchange: ObservedExchange, name: string): string | undefined {
  const value = exchange.request.headers[name];
  return value === undefined || value.trim() === '' ? undefined : value;
}

/** The body as text, for evidence and JSON (invalid UTF-8 shown with replacement characters). */
export function bodyText(body: Uint8Array): string {
  return Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
}
