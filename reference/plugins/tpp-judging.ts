// The judging sandbox (`serve --judge`): every request the bank answers, its SCA pages' included, is handed
// to a judge of the TPP rules (lib/tpp-judge, through lib/traffic) as it is answered; an answer to a request
// that broke rules names them in a header, so a developer sees them in their own client's logs. The bank
// answers exactly as it would without the judge: the header is the only difference.
//
// Two plugins: the hook on every answer (registered at the root, before the routes), and the caller's own
// report as a sandbox operation under /v1 (signed, so only the TPP whose certificate it is can read it).
import type { X509Certificate } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { HttpExchange } from '../../lib/har/index.js';
import type { TppRuleCard } from '../../lib/tpp-judge/index.js';
import { BankError } from '../bank-errors.js';
import { header, SANDBOX_OPERATION } from '../http/request-context.js';
import { UNVERIFIED } from '../state/tenants.js';

/** The response header that names the TPP rules a request broke, comma-separated. */
export const BROKEN_RULES_HEADER = 'x-tpp-rules-broken';

/** The path of a TPP's own report (JSON; `?format=html` for the page). */
export const TPP_REPORT_PATH = '/sandbox/tpp-report';

/**
 * An exchange as the bank saw it, with what only the bank knows: whose key signed the request (the certificate
 * its signature verified with; null when it did not verify, so a copied certificate is attributed to no one).
 * Absent for the SCA pages, which a PSU's browser asks for.
 */
export interface JudgedExchange extends HttpExchange {
  signer?: X509Certificate | null;
}

/** What the bank needs of a judge; lib/traffic's SandboxJudging is one (the bank does not import it). */
export interface SandboxJudge {
  /** Judges one answered exchange; the TPP rules its request broke. */
  observe(exchange: JudgedExchange): readonly string[];
  /** One TPP's report, by the request that asks for it (the key that signed it says whose). */
  report(exchange: JudgedExchange, format: 'json' | 'html'): { contentType: string; body: string };
  /** A TPP rule as a person reads it (its statement, level, section, and the call that exercises it), or undefined. */
  rule(id: string): TppRuleCard | undefined;
}

/**
 * Where a TPP rule's text is: `/rules/TPP-39` (JSON; `?format=html` for the page). Outside /v1, as the SCA pages
 * are: a rule's text is the specification's, public, and a browser opens the Link without a certificate.
 */
export const RULE_PAGE_PATH = '/rules';

declare module 'fastify' {
  interface FastifyRequest {
    /** When the request came, by the bank's clock and by the wall clock (for the judge). */
    judgeStart: { bankTime: Date; startedAt: Date; started: number } | null;
  }
}

/** The request as it came, and the answer as it goes. */
function exchangeOf(
  request: FastifyRequest,
  baseUrl: string,
  status?: number,
  headers?: Record<string, string | number | string[] | undefined>,
  payload?: unknown,
): JudgedExchange {
  const start = request.judgeStart;
  const requestHeaders: Record<string, string> = {};
  for (const name of Object.keys(request.headers)) {
    const value = header(request, name);
    if (value !== undefined) requestHeaders[name] = value;
  }
  const body = request.rawBody ?? (Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0));
  const responseHeaders: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {}))
    if (value !== undefined) responseHeaders[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  const sent = typeof payload === 'string' ? Buffer.from(payload) : Buffer.isBuffer(payload) ? payload : Buffer.alloc(0);
  // A body the bank refused before reading it (too large, say) is not known: the request is not judged.
  const unread = body.length === 0 && Number(request.headers['content-length'] ?? 0) > 0;
  return {
    id: `sandbox ${request.id}`,
    startedAt: start?.startedAt ?? new Date(),
    durationMs: start === null ? 0 : Math.round(performance.now() - start.started),
    // An asterisk or absolute-form target (`OPTIONS *`, `GET http://…`) is recorded under the bank's address as it came.
    request: {
      method: request.method,
      url: `${baseUrl}${request.url.startsWith('/') ? '' : '/'}${request.url}`,
      headers: requestHeaders,
      body,
    },
    ...(status === undefined ? {} : { response: { status, headers: responseHeaders, body: sent } }),
    ...(start === null ? {} : { bankTime: start.bankTime }),
    connection: `${request.socket.remoteAddress ?? ''}:${request.socket.remotePort ?? ''}`,
    ...(unread ? { malformed: 'the bank refused it before reading its body' } : {}),
    ...signerOf(request),
  };
}

/** For a request to the interface, whose key its signature verified with (null: it did not verify). */
function signerOf(request: FastifyRequest): Pick<JudgedExchange, 'signer'> {
  if (!request.url.startsWith('/v1/') && request.url !== '/v1') return {};
  // request.tpp is set once the signature verified (signature.ts), or as UNVERIFIED when a fault served it without.
  const tpp = request.tpp;
  return { signer: tpp === null || tpp.keyHolder === UNVERIFIED ? null : (tpp.certificate ?? null) };
}

/** Judges every answer of the bank: register at the root, before the routes. */
export const judgingPlugin = fp<{ judge: SandboxJudge }>(
  (app, { judge }, done) => {
    app.decorateRequest('judgeStart', null);
    app.addHook('onRequest', (request, _reply, next) => {
      request.judgeStart = { bankTime: new Date(), startedAt: new Date(), started: performance.now() };
      next();
    });
    // The bank's time, by the clock of the request's world: known once the signature verified (a preValidation
    // hook under /v1, before this one), read before the handler can move it. A refused request keeps the time
    // of its arrival: it was answered from the world of no one, whose clock is the real one.
    app.addHook('preHandler', (request, _reply, next) => {
      if (request.judgeStart) request.judgeStart.bankTime = request.world.clock.now();
      next();
    });
    app.addHook('onSend', (request, reply, payload, next) => {
      const broken = judge.observe(exchangeOf(request, app.tenants.baseUrl, reply.statusCode, reply.getHeaders(), payload));
      if (broken.length > 0) {
        void reply.header(BROKEN_RULES_HEADER, broken.join(', '));
        // RFC 8288: each rule's text, a link away from the client's own logs.
        void reply.header(
          'link',
          broken.map((id) => `<${app.tenants.baseUrl}${RULE_PAGE_PATH}/${id}>; rel="describedby"; title="${id}"`).join(', '),
        );
      }
      next(null, payload);
    });
    done();
  },
  { name: 'judging', decorators: { fastify: ['tenants'], request: ['world'] } },
);

/** GET /rules/:id: a TPP rule's text, for the Link of X-TPP-Rules-Broken (register at the root). */
export const rulePagesPlugin = fp<{ judge: SandboxJudge }>(
  (app, { judge }, done) => {
    app.get<{ Params: { id: string }; Querystring: { format?: string } }>(`${RULE_PAGE_PATH}/:id`, (request, reply) => {
      const card = judge.rule(request.params.id);
      if (card === undefined) throw new BankError(404, 'RESOURCE_UNKNOWN', `No TPP rule ${request.params.id}`);
      if (request.query.format !== 'html') return reply.send(card);
      const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(card.id)}</title></head><body><h1>${escape(card.id)} <small>${card.level}</small></h1><p>${escape(card.statement)}</p><p>Section: ${escape(card.section)}</p><p>${card.judged ? 'To exercise it' : 'Not judged on traffic'}: ${escape(card.hint)}</p></body></html>`;
      return reply.type('text/html; charset=utf-8').send(page);
    });
    done();
  },
  { name: 'rule-pages' },
);

/** GET /v1/sandbox/tpp-report: the calling TPP's report (register under /v1, after the signature plugin). */
export const judgeReportPlugin = fp<{ judge: SandboxJudge }>(
  (api, { judge }, done) => {
    api.get<{ Querystring: { format?: string } }>(TPP_REPORT_PATH, { config: SANDBOX_OPERATION }, (request, reply) => {
      const { contentType, body } = judge.report(
        exchangeOf(request, api.tenants.baseUrl),
        request.query.format === 'html' ? 'html' : 'json',
      );
      void reply.type(contentType).send(body);
    });
    done();
  },
  { name: 'judge-report', decorators: { fastify: ['tenants'] }, dependencies: ['signature'] },
);

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
