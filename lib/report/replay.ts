/**
 * Replaying a scenario's exchanges (`xs2a-conformance replay`): each recorded request made again, as the
 * TPP client would make it now. The headers a TPP makes fresh for every request (X-Request-ID, Date,
 * TPP-Signature-Certificate, Signature) are left for the client to regenerate, with the replaying TPP's
 * certificate and key, and the deliberate signing defects the scenario applied are applied again; everything else is
 * sent as recorded. A report keeps PSU identifiers masked unless the run was `--unmasked`: such values are
 * sent masked, and said so; a masked header about the PSU's device or connection goes as a stand-in of its form.
 */
import type { EvidenceExchange, RecordedHttpMessage } from './results-types.js';

/** Made anew for each request by the TPP client (lower case). */
export const FRESH_HEADERS = ['x-request-id', 'date', 'tpp-signature-certificate', 'signature'] as const;

/** A value the report's masker replaced (lib/report/mask.ts, Masker.tag). */
const MASKED_VALUE = /\[masked:[0-9a-f]{6}\]/;

export interface ReplayRequest {
  method: string;
  /** The recorded URL moved onto the target's base URL of this replay. */
  url: string;
  headers: Record<string, string>;
  /** Fresh headers the original went without (left out on purpose): not generated again. */
  omitHeaders: string[];
  rawBody?: string;
  signingDefects: unknown[];
  malformed?: string;
  /** Masked values the request carries (it is sent with them masked). */
  masked: boolean;
}

/**
 * What a masked header about the PSU's device and connection is sent as: a value of its form from the
 * documentation ranges. It identifies no one, and a bank judges only its form (PSU-IP-Address present: the PSU
 * takes part), so the replayed request means what the recorded one meant. PSU identifiers stay masked.
 */
const STAND_INS: Readonly<Record<string, string>> = {
  'psu-ip-address': '192.0.2.10',
  'psu-ip-port': '443',
  'psu-device-id': '99391c7e-ad88-49ec-a2ad-99ddcb1f7721',
  'psu-geo-location': 'GEO:0.0;0.0',
  'psu-user-agent': 'xs2a-conformance replay',
};

export function replayRequest(exchange: EvidenceExchange, recordedBaseUrl: string, baseUrl: string): ReplayRequest | undefined {
  const request = exchange.request;
  if (!request?.method || !request.url) return undefined;
  const present = new Set(Object.keys(request.headers).map((name) => name.toLowerCase()));
  const headers = Object.fromEntries(
    Object.entries(request.headers)
      .filter(([name]) => !(FRESH_HEADERS as readonly string[]).includes(name.toLowerCase()))
      .map(([name, value]) => [name, MASKED_VALUE.test(value) ? (STAND_INS[name.toLowerCase()] ?? value) : value]),
  );
  const url = request.url.startsWith(recordedBaseUrl) ? `${baseUrl}${request.url.slice(recordedBaseUrl.length)}` : request.url;
  return {
    method: request.method,
    url,
    headers,
    omitHeaders: FRESH_HEADERS.filter((name) => !present.has(name)),
    ...(request.body !== undefined ? { rawBody: request.body } : {}),
    signingDefects: exchange.faults ?? [],
    ...(exchange.malformed ? { malformed: exchange.malformed } : {}),
    masked: MASKED_VALUE.test(JSON.stringify({ ...request, headers })),
  };
}

/** One answer, short: status, and the body cut to a line or two. */
export function describeAnswer(response: Pick<RecordedHttpMessage, 'status' | 'body'> | undefined, error?: string, width = 300): string {
  if (!response) return `no answer: ${error ?? 'unknown error'}`;
  const body = (response.body ?? '').replace(/\s+/g, ' ').trim();
  return `HTTP ${response.status ?? '?'}${body ? ` ${body.length > width ? `${body.slice(0, width)}…` : body}` : ''}`;
}
