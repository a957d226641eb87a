// The error body of the specification ("Errors"): { id, system, status, code, message },
// produced for every failure so that no malformed request ever ends in a crash or
// in a framework-specific body.
import { randomUUID } from 'node:crypto';
import type { VerificationFailureCode } from '../lib/httpsig/index.js';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Faults } from './faults.js';

export const SYSTEM_NAME = 'reference-aspsp';

/** Codes this bank uses; all from the specification's list or the Berlin Group one. */
export type ErrorCode =
  | VerificationFailureCode
  | 'RESOURCE_UNKNOWN'
  | 'SERVICE_INVALID'
  | 'SYSTEM_ERROR'
  | 'PSU_CREDENTIALS_INVALID'
  | 'SCA_INVALID'
  | 'SCA_EXPIRED';

export interface ErrorBody {
  id?: string;
  system?: string;
  status: number;
  code: ErrorCode;
  message?: string;
}

/** A failure a handler raises; the error handler turns it into the error body. */
export class BankError extends Error {
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
export class ScaRequired extends Error {
  constructor(readonly body: object) {
    super('SCA required');
    this.name = 'ScaRequired';
  }
}

export function errorBody(faults: Faults, status: number, code: ErrorCode, message?: string): ErrorBody {
  if (faults.has('error-body-missing-fields')) return { status, code, ...(message === undefined ? {} : { message }) };
  return { id: randomUUID(), system: SYSTEM_NAME, status, code, ...(message === undefined ? {} : { message }) };
}

/** Sends the error body. Handlers using it return nothing: fastify would otherwise send twice. */
function sendError(faults: Faults, reply: FastifyReply, status: number, code: ErrorCode, message?: string): void {
  void reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send(errorBody(faults, status, code, message));
}

/** Maps anything thrown (ours, fastify's, or a bug) to a status and code. */
function classify(error: FastifyError | Error): { status: number; code: ErrorCode; message?: string } {
  if (error instanceof BankError) return { status: error.status, code: error.code, message: error.message };
  const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
  if (status === 404) return { status, code: 'RESOURCE_UNKNOWN', message: error.message };
  if (status === 405) return { status, code: 'SERVICE_INVALID', message: error.message };
  // Everything else fastify rejects before a handler runs is a malformed request:
  // bad content length, body too large, unsupported media type, invalid URL, schema.
  if (status >= 400 && status < 500) return { status, code: 'FORMAT_ERROR', message: error.message };
  return { status: 500, code: 'SYSTEM_ERROR' };
}

/** fastify's `frameworkErrors` option: errors raised before routing (e.g. a malformed URL). */
export function frameworkErrorHandler(faults: Faults) {
  return (error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void => {
    const { status, code, message } = classify(error);
    sendError(faults, reply, status, code, message);
  };
}

/**
 * Error handler and not-found handler for the whole bank. A path that exists with
 * another method answers 405 SERVICE_INVALID, an unknown path 404 RESOURCE_UNKNOWN.
 */
export function installErrorHandling(app: FastifyInstance, faults: Faults): void {
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
    const { status, code, message } = classify(error);
    if (status >= 500) request.log.error({ err: error }, 'unexpected error');
    sendError(faults, reply, status, code, message);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = [...new Set(routes.filter((r) => r.pattern.test(path)).flatMap((r) => r.methods))];
    if (allowed.length > 0) {
      void reply.header('allow', allowed.join(', '));
      sendError(faults, reply, 405, 'SERVICE_INVALID', `Method ${request.method} is not supported on ${path}`);
      return;
    }
    sendError(faults, reply, 404, 'RESOURCE_UNKNOWN', `No resource at ${request.method} ${path}`);
  });
}
