import type { RecordedExchange } from './recorded-exchange.js';
import { ConformanceError } from '../errors.js';

export interface TppResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  bodyText: string;
  /** The body parsed as JSON; throws an error naming the request when it is not JSON. */
  json<T = unknown>(): T;
  exchange: RecordedExchange;
}

export class ResponseNotJsonError extends ConformanceError {
  readonly code = 'XC_ERR_RESPONSE_NOT_JSON';
  override name = 'ResponseNotJsonError';
}

export function createResponse(exchange: RecordedExchange & { response: NonNullable<RecordedExchange['response']> }): TppResponse {
  const { status, headers, body } = exchange.response;
  return {
    status,
    headers,
    bodyText: body,
    exchange,
    json<T>(): T {
      try {
        return JSON.parse(body) as T;
      } catch (error) {
        const snippet = body.length > 200 ? `${body.slice(0, 200)}…` : body;
        throw new ResponseNotJsonError(
          `${exchange.request.method} ${exchange.request.url} answered HTTP ${status} ` +
            `(Content-Type ${headers['content-type'] ?? 'absent'}) with a body that is not JSON ` +
            `(${(error as Error).message}): ${snippet === '' ? '(empty)' : JSON.stringify(snippet)}`,
        );
      }
    },
  };
}
