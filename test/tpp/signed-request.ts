// Signing a request without a network, and handing it to the verifier the way
// a server would see it (lower-case header names).
import { formatHttpDate } from '../../lib/httpsig/index.js';
import type { IncomingRequest } from '../../lib/httpsig/index.js';
import { HeaderFields, signRequest } from '../../lib/tpp/index.js';
import type { SigningDefect, SignedRequest, TppIdentity } from '../../lib/tpp/index.js';
import type { DigestAlgorithm } from '../../lib/httpsig/index.js';

// The current second: the test certificates are valid from a few minutes ago.
export const NOW = new Date(Math.floor(Date.now() / 1000) * 1000);
export const NOW_HTTP_DATE = formatHttpDate(NOW);

export interface TestRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  signingDefects?: SigningDefect[];
  now?: Date;
  digestAlgorithm?: DigestAlgorithm;
}

export interface SignedTestRequest {
  signed: SignedRequest;
  incoming: IncomingRequest;
}

export function signTestRequest(identity: TppIdentity, request: TestRequest = {}): SignedTestRequest {
  const method = request.method ?? 'POST';
  const path = request.path ?? '/v1/payments/sepa-credit-transfers';
  const body = request.body ?? (method === 'GET' ? undefined : '{"instructedAmount":{"currency":"EUR","amount":"12.50"}}');
  const signed = signRequest({
    headers: new HeaderFields(
      request.headers ?? { 'TPP-Redirect-URI': 'https://tpp.example/callback', 'PSU-ID': 'a1b2c3d4-0000-4000-8000-000000000001' },
    ),
    body: body === undefined ? undefined : Buffer.from(body, 'utf8'),
    identity,
    now: request.now ?? NOW,
    digestAlgorithm: request.digestAlgorithm ?? 'SHA-256',
    defects: request.signingDefects ?? [],
  });
  return { signed, incoming: asIncoming(method, path, signed.headers.toRecord(), signed.body) };
}

export function asIncoming(method: string, path: string, headers: Record<string, string>, body: Uint8Array | undefined): IncomingRequest {
  return {
    method,
    path,
    headers: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value])),
    body: body ?? new Uint8Array(),
  };
}

/** A copy of the request with some headers replaced (undefined removes). */
export function withHeaders(request: IncomingRequest, changes: Record<string, string | undefined>): IncomingRequest {
  return { ...request, headers: { ...request.headers, ...changes } };
}
