// The error body of the specification ("Errors"): { id, system, status, code, message },
// produced for every failure so that no malformed request ever ends in a crash or
// in a framework-specific body.
import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { VerificationFailureCode } from '../lib/httpsig/index.js';
import type { MessageCode } from '../lib/spec/schemas/index.js';
import { applyBodyChanges, defineFault, defineVariant, type TppSwitches } from './switches.js';

export const SYSTEM_NAME = 'reference-aspsp';

/**
 * Codes this bank answers with: the specification's list, and, under the variant berlin-group-error-codes,
 * the Berlin Group codes of signature and certificate failures (reference/plugins/signature.ts).
 */
export type ErrorCode = MessageCode | VerificationFailureCode;

/** The error body of every answer that carries one: what its faults change (errorBody applies them). */
export const ERROR_BODY = 'the error body';

defineFault<ErrorBody>('error-body-missing-fields', {
  description: 'error bodies omit id and system',
  breaks: ['ERR-01', 'ERR-02'],
  alters: { route: ERROR_BODY, when: () => true, apply: ({ id: _, system: __, ...body }) => body },
});
defineFault<ErrorBody>('error-status-as-text', {
  description: 'the status of an error body is written as a string ("400")',
  breaks: ['ERR-03'],
  alters: { route: ERROR_BODY, when: () => true, apply: (body) => ({ ...body, status: String(body.status) }) },
});
defineFault<ErrorBody>('error-body-without-code', {
  description: 'error bodies carry no code',
  breaks: ['ERR-04'],
  alters: { route: ERROR_BODY, when: () => true, apply: ({ code: _, ...body }) => body },
});
defineFault<ErrorBody>('error-message-not-text', {
  description: 'the message of an error body is an object instead of a string',
  breaks: ['ERR-05'],
  alters: {
    route: ERROR_BODY,
    when: (body) => typeof body.message === 'string',
    apply: (body) => ({ ...body, message: { text: body.message } }),
  },
});
const errorsAsPlainText = defineFault('errors-as-plain-text', {
  description: 'error answers declare Content-Type text/plain although their body is JSON',
  breaks: ['FMT-01'],
});

// [protocol] Codes of refusals of malformed requests.
defineFault<ErrorBody>('misleading-error-codes', {
  description:
    'refusals of malformed requests (missing header, format error, KID error, failed signature) carry RESOURCE_UNKNOWN, a code of the list that names another problem',
  // A missing Signature is a missing header (SIG-05) and a Date out of the window a format error (SIG-13): their refusals carry it too.
  breaks: ['SIG-07', 'ERR-16', 'ERR-21', 'ERR-30', 'ERR-31', 'SIG-05', 'SIG-13'],
  alters: {
    route: ERROR_BODY,
    when: (body) => (MALFORMED_REQUEST_CODES as readonly unknown[]).includes(body.code),
    apply: (body) => ({ ...body, code: 'RESOURCE_UNKNOWN' }),
  },
});
const notFoundAsServerError = defineFault('not-found-as-server-error', {
  description: 'an unknown path or a method a path does not have answers 500 SYSTEM_ERROR instead of 404 or 405',
  breaks: ['ERR-14', 'ERR-44'],
});
const oversizedBodyServerError = defineFault('oversized-body-server-error', {
  description: 'a body over the size limit answers 500 SYSTEM_ERROR instead of 413',
  breaks: ['ERR-44'],
});
const gatewayErrorPages = defineVariant('gateway-error-pages', {
  description:
    'a request for a path the interface does not have, with a method a path does not take, or with a body over the size limit is refused by the gateway in front of the interface: 404, 405 or 413 with its own HTML page, not the error body',
  allowedBy:
    'The error body is the interface\'s ("Errors"); a request that names none of its operations, or that a gateway refuses before it reaches one, is answered by what stands in front of it, in whatever representation: HTTP gives such an answer its status, not its content',
  source: 'Specification, Errors (error body); RFC 9110, sections 15.5.5, 15.5.6 and 15.5.14',
});
const GATEWAY_REASONS = { 404: 'Not Found', 405: 'Method Not Allowed', 413: 'Content Too Large' } as const;

/** The gateway's own page (the variant): HTML, no error body. */
function sendGatewayPage(reply: FastifyReply, status: keyof typeof GATEWAY_REASONS): void {
  const title = `${status} ${GATEWAY_REASONS[status]}`;
  void reply
    .code(status)
    .type('text/html; charset=utf-8')
    .send(`<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1><hr><p>gateway</p></body></html>`);
}

const unknownAccountAsBadRequest = defineFault('unknown-account-as-bad-request', {
  description: 'an unknown account id in the path answers 400 BAD_REQUEST instead of 404 RESOURCE_UNKNOWN',
  breaks: ['ERR-22'],
});
const MALFORMED_REQUEST_CODES: readonly ErrorCode[] = ['HTTP_HEADER_REQUIRED', 'FORMAT_ERROR', 'BAD_REQUEST', 'KID_MISSING', 'KID_INVALID'];

export type ErrorBody = {
  id?: string;
  system?: string;
  status: number | string;
  code?: ErrorCode;
  message?: string | { text: string };
};

/**
 * An answer a handler throws, not a bug: no stack trace is captured (capturing it cost as much as the rest
 * of a 401, and a refusal is the commonest answer of a bank under probes).
 */
class Answer extends Error {
  constructor(message: string) {
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = stackTraceLimit;
  }
}

/** A failure a handler raises; the error handler turns it into the error body. */
export class BankError extends Answer {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'BankError';
  }
}

/** A 401 that asks for SCA by redirect; the SCA module builds its body. */
export class ScaRequired extends Answer {
  /**
   * `authorisationId`: the authorisation the redirect leads to, for resources that expose it (baskets).
   * `links`: the scaRedirect link, for answers that carry it otherwise than in the 401 (a payment's 201).
   */
  constructor(
    readonly body: object,
    readonly authorisationId?: string,
    readonly links: { scaRedirect?: object } = {},
  ) {
    super('SCA required');
    this.name = 'ScaRequired';
  }
}

/** The error body as the bank builds it, before the faults of its TPP change it. */
export function plainErrorBody(status: number, code: ErrorCode, message?: string): ErrorBody {
  return { id: randomUUID(), system: SYSTEM_NAME, status, code, ...(message === undefined ? {} : { message }) };
}

/** The error body as the TPP the answer goes to sees it (`switches` are that TPP's). */
export function errorBody(switches: TppSwitches, status: number, code: ErrorCode, message?: string): ErrorBody {
  return applyBodyChanges(switches, ERROR_BODY, plainErrorBody(status, code, message), status) as ErrorBody;
}

/**
 * Echoes the X-Request-ID where no /v1 hook will (the /v1 signature plugin echoes it, or not under its
 * fault): for a request outside /v1, or raised before routing.
 */
function echoRequestId(request: FastifyRequest, reply: FastifyReply, onlyOutsideV1: boolean): void {
  if (onlyOutsideV1 && /^\/v1(?:[/?]|$)/.test(request.url)) return;
  const requestId = request.headers['x-request-id'];
  if (typeof requestId === 'string') void reply.header('x-request-id', requestId);
}

/** Whether the path names an account or card account the bank has none of (not merely one outside the consent). */
function unknownAccountIn(request: FastifyRequest): boolean {
  const accountId = /^\/v1\/(?:card-)?accounts\/([^/?]+)/.exec(request.url)?.[1];
  return accountId !== undefined && !request.world.data.accounts.has(accountId);
}

/** Sends the error body. Handlers using it return nothing: fastify would otherwise send twice. */
function sendError(request: FastifyRequest, reply: FastifyReply, status: number, code: ErrorCode, message?: string): void {
  if (code === 'RESOURCE_UNKNOWN' && unknownAccountIn(request) && request.switches.breaks(unknownAccountAsBadRequest)) {
    [status, code] = [400, 'BAD_REQUEST'];
  }
  void reply
    .code(status)
    .type(request.switches.breaks(errorsAsPlainText) ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8')
    .send(JSON.stringify(errorBody(request.switches, status, code, message)));
}

/** Maps anything thrown (ours, fastify's, or a bug) to a status and code. */
function classify(error: FastifyError | Error, switches?: TppSwitches): { status: number; code: ErrorCode; message?: string } {
  if (error instanceof BankError) return { status: error.status, code: error.code, message: error.message };
  const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
  if (status === 413 && switches?.breaks(oversizedBodyServerError)) return { status: 500, code: 'SYSTEM_ERROR' };
  if (status === 404) return { status, code: 'NOT_FOUND', message: error.message };
  if (status === 405) return { status, code: 'BAD_REQUEST', message: error.message };
  // Everything else fastify rejects before a handler runs is a malformed request:
  // bad content length, body too large, unsupported media type, invalid URL, schema.
  if (status >= 400 && status < 500) return { status, code: 'FORMAT_ERROR', message: error.message };
  return { status: 500, code: 'SYSTEM_ERROR' };
}

/**
 * fastify's `clientErrorHandler` option: what Node's HTTP parser refuses before fastify sees a request (a
 * header section over the limit, a garbage method, Content-Length with Transfer-Encoding), and a client that
 * ran out of time (its TLS handshake, its headers or its body: connections.ts). The answer is the
 * specification's error body, not the framework's `{error, statusCode, message}`; no request was parsed, so
 * there is no X-Request-ID to echo and no TPP to switch faults for. The connection is then closed for sure: a
 * slow client that never reads the answer must not hold the socket open by not acknowledging its end.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  const code = error.code ?? '';
  // Nothing can be said to a broken connection, or over TLS that never finished its handshake.
  if (!socket.writable || code === 'ECONNRESET' || code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL')) {
    socket.destroy();
    return;
  }
  const status = code === 'HPE_HEADER_OVERFLOW' ? 431 : code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const reason = { 431: 'Request Header Fields Too Large', 408: 'Request Timeout', 400: 'Bad Request' }[status];
  const message = {
    431: 'The request header section is too large',
    408: 'The request did not arrive in time',
    400: `The request is not valid HTTP/1.1 (${code || 'parse error'})`,
  }[status];
  const body = JSON.stringify({ id: randomUUID(), system: SYSTEM_NAME, status, code: 'FORMAT_ERROR' satisfies ErrorCode, message });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  setTimeout(() => socket.destroy(), CLOSE_GRACE_MS).unref();
}

/** How long a connection refused with an answer may take to receive it before it is closed regardless. */
const CLOSE_GRACE_MS = 1_000;

const closesOnBodyTooLarge = defineVariant('closes-on-body-too-large', {
  description:
    'a body over the size limit is answered 413 with Connection: close, and the connection closed with the rest of the body unread',
  allowedBy:
    'RFC 9110, 413 Content Too Large: "the server MAY terminate the request, if the protocol version in use allows it; otherwise, the server MAY close the connection". The specification says nothing of how a refused body ends',
  source: 'RFC 9110, section 15.5.14',
});

/** fastify's `frameworkErrors` option: errors raised before routing (e.g. a malformed URL), when no TPP is known yet. */
export function frameworkErrorHandler(wholeBank: TppSwitches) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    // fastify hands these a request without the application's decorators.
    (request as { switches?: TppSwitches }).switches ??= wholeBank;
    echoRequestId(request, reply, false); // raised before routing, so before any hook
    const { status, code, message } = classify(error);
    sendError(request, reply, status, code, message);
  };
}

/**
 * Error handler and not-found handler for the whole bank. A path that exists with
 * another method answers 405 SERVICE_INVALID, an unknown path 404 RESOURCE_UNKNOWN.
 */
export function installErrorHandling(app: FastifyInstance): (request: FastifyRequest, reply: FastifyReply) => void {
  const routes: { pattern: RegExp; methods: string[] }[] = [];
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const source = route.url
      .split('/')
      .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    routes.push({ pattern: new RegExp(`^${source}$`), methods });
  });

  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    if (error instanceof ScaRequired) {
      void reply.code(401).type('application/json; charset=utf-8').send(error.body);
      return;
    }
    echoRequestId(request, reply, true);
    // fastify answers a body over the limit before reading it, with Connection: close. Closed with the rest of
    // the body unread, the socket is reset, and a client still sending may lose the answer (its write fails
    // first: ERR-44.c was INTERRUPTED in one run of five). Without the header, Node reads and drops the rest
    // (within the request timeout, connections.ts) and keeps the connection: the lingering RFC 9112 §9.6 asks of
    // a server that answers before the request has arrived. The variant keeps fastify's way.
    if ((error as FastifyError).code === 'FST_ERR_CTP_BODY_TOO_LARGE' && !request.switches.reads(closesOnBodyTooLarge))
      reply.removeHeader('connection');
    const { status, code, message } = classify(error, request.switches);
    if (status >= 500) request.log.error({ err: error }, 'unexpected error');
    if (status === 413 && request.switches.reads(gatewayErrorPages)) return sendGatewayPage(reply, status);
    sendError(request, reply, status, code, message);
  });

  const notFound = (request: FastifyRequest, reply: FastifyReply): void => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = [...new Set(routes.filter((r) => r.pattern.test(path)).flatMap((r) => r.methods))];
    if (request.switches.breaks(notFoundAsServerError)) {
      sendError(request, reply, 500, 'SYSTEM_ERROR');
      return;
    }
    if (allowed.length > 0) void reply.header('allow', allowed.join(', '));
    const status = allowed.length > 0 ? 405 : 404;
    if (request.switches.reads(gatewayErrorPages)) return sendGatewayPage(reply, status);
    if (status === 405) sendError(request, reply, 405, 'BAD_REQUEST', `Method ${request.method} is not supported on ${path}`);
    else sendError(request, reply, 404, 'NOT_FOUND', `No resource at ${request.method} ${path}`);
  };
  app.setNotFoundHandler((request, reply) => {
    echoRequestId(request, reply, true);
    notFound(request, reply);
  });
  return notFound;
}
