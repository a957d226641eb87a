// Request pipeline: body, signature, X-Request-ID uniqueness, header formats, x-accept-fix,
// content negotiation, routing, PSD2 role, required headers, handler, JSON answer.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Bank } from './bank.js';
import type { PsdRole } from './certs.js';
import { catchUp } from './batch.js';
import { activeFixes, header, requireHeader, validateHeaderFormats, type ApiResult, type Ctx } from './context.js';
import { ApiError, SYSTEM_SANDBOX } from './errors.js';
import { LIMITS, boundedSet } from './model.js';
import { matchRoute, type RouteGroup } from './router.js';
import { handleScaPage } from './sca-pages.js';
import { verifyRequest } from './signature.js';

const MAX_BODY_BYTES = 1024 * 1024;
const REQUEST_ID_WINDOW_MS = 10 * 60_000;

class BodyTooLarge extends Error {}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const b = chunk as Buffer;
    size += b.length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLarge();
    chunks.push(b);
  }
  return Buffer.concat(chunks);
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string>, fixes?: Set<string>): void {
  const h: Record<string, string> = { 'Cache-Control': 'no-store', 'Content-Language': 'en', ...headers };
  if (status === 204 || body === undefined) {
    res.writeHead(status, h);
    res.end();
    return;
  }
  const stringAmounts = fixes === undefined || fixes.has('amount-as-string');
  const text = stringAmounts
    ? JSON.stringify(body)
    : JSON.stringify(body, (key: string, value: unknown) => (key === 'amount' && typeof value === 'string' ? Number(value) : value));
  const buf = Buffer.from(text, 'utf8');
  res.writeHead(status, { ...h, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(buf.length) });
  res.end(buf);
}

function sendError(res: ServerResponse, e: ApiError, requestId: string | undefined): void {
  const headers: Record<string, string> = { ...(e.headers ?? {}) };
  if (requestId !== undefined) headers['X-Request-ID'] = requestId;
  send(res, e.status, e.body(), headers);
}

/** Accept / Accept-Charset: the service answers JSON in UTF-8 only (XML is not supported). */
function checkNegotiation(ctx: Ctx): void {
  const accept = header(ctx, 'accept');
  if (accept !== undefined) {
    const ok = accept.split(',').some((part) => {
      const [type = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
      const q = params.find((p) => p.startsWith('q='));
      if (q !== undefined && Number(q.slice(2)) === 0) return false;
      return type === '*/*' || type === 'application/*' || type === 'application/json' || /^application\/[a-z0-9.+-]*\+json$/.test(type);
    });
    if (!ok) throw new ApiError(406, 'FORMAT_ERROR', 'Only application/json can be answered (XML is not supported)');
  }
  const charset = header(ctx, 'accept-charset');
  if (charset !== undefined) {
    const ok = charset.split(',').some((part) => {
      const [cs = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
      const q = params.find((p) => p.startsWith('q='));
      if (q !== undefined && Number(q.slice(2)) === 0) return false;
      return cs === '*' || cs === 'utf-8' || cs === 'utf8';
    });
    if (!ok) throw new ApiError(406, 'FORMAT_ERROR', 'Responses are UTF-8 only');
  }
}

const ROLE_OF: Record<RouteGroup, PsdRole[] | undefined> = {
  ais: ['PSP_AI'],
  pis: ['PSP_PI'],
  psu: ['PSP_AI', 'PSP_PI'],
  tpp: undefined,
  sandbox: undefined,
};

function baseUrl(req: IncomingMessage, fallback: string): string {
  const host = req.headers.host;
  if (host && /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(host)) return `https://${host}`;
  return fallback;
}

async function handleApi(bank: Bank, req: IncomingMessage, res: ServerResponse, url: URL, selfUrl: string): Promise<void> {
  const requestId = typeof req.headers['x-request-id'] === 'string' ? req.headers['x-request-id'] : undefined;
  let fixes: Set<string> | undefined;
  try {
    let body: Buffer;
    try {
      body = await readBody(req);
    } catch (e) {
      if (e instanceof BodyTooLarge) {
        res.setHeader('Connection', 'close');
        throw new ApiError(413, 'FORMAT_ERROR', `The body exceeds ${MAX_BODY_BYTES} bytes`);
      }
      throw e;
    }
    const method = req.method ?? 'GET';
    const verified = verifyRequest(bank.certs, req.headers, method, req.url ?? '/', body, Date.now());
    const world = bank.worldFor(verified.cert.tppKey);
    catchUp(world);

    const rid = requestId ?? '';
    const seenAt = world.requestIds.get(rid);
    if (seenAt !== undefined && Date.now() - seenAt < REQUEST_ID_WINDOW_MS) {
      throw new ApiError(400, 'FORMAT_ERROR', 'X-Request-ID must be unique per call; this one has been used before');
    }
    boundedSet(world.requestIds, rid, Date.now(), LIMITS.requestIds);

    let segments: string[];
    try {
      segments = url.pathname
        .split('/')
        .filter((s) => s !== '')
        .map((s) => decodeURIComponent(s));
    } catch {
      throw new ApiError(400, 'FORMAT_ERROR', 'The path is not correctly percent-encoded');
    }
    const ctx: Ctx = {
      bank,
      world,
      cert: verified.cert,
      method,
      path: url.pathname,
      segments,
      query: url.searchParams,
      headers: req.headers,
      body,
      requestId: rid,
      baseUrl: baseUrl(req, selfUrl),
      fixes: new Set(),
    };
    validateHeaderFormats(ctx);
    fixes = activeFixes(header(ctx, 'x-accept-fix'), world.today());
    ctx.fixes = fixes;
    checkNegotiation(ctx);

    const match = matchRoute(method, segments);
    if (match.kind === 'none') throw new ApiError(404, 'NOT_FOUND', `No endpoint ${url.pathname}`);
    if (match.kind === 'method') {
      throw new ApiError(405, 'SERVICE_INVALID', `Method ${method} is not offered on ${url.pathname}`, {
        headers: { Allow: match.allow.join(', ') },
      });
    }
    const roles = ROLE_OF[match.route.group];
    const certRoles = verified.cert.roles;
    if (roles && certRoles && !roles.some((r) => certRoles.has(r))) {
      throw new ApiError(401, 'ROLE_INVALID', `The certificate does not carry the PSD2 role ${roles.join(' or ')} needed for this service`);
    }
    requireHeader(ctx, 'TPP-Redirect-URI');
    if (match.route.group === 'ais' || match.route.group === 'pis' || match.route.group === 'psu') requireHeader(ctx, 'TPP-Session-ID');

    let result: ApiResult;
    try {
      result = match.route.handler(ctx, match.params);
    } catch (e) {
      // errors of sandbox operations name the sandbox as their system
      if (match.route.group === 'sandbox' && e instanceof ApiError && e.system !== SYSTEM_SANDBOX) {
        throw new ApiError(e.status, e.code, e.message, {
          system: SYSTEM_SANDBOX,
          ...(e.links ? { links: e.links } : {}),
          ...(e.headers ? { headers: e.headers } : {}),
        });
      }
      throw e;
    }
    send(
      res,
      result.status,
      result.body,
      { ...(result.headers ?? {}), ...(requestId !== undefined ? { 'X-Request-ID': requestId } : {}) },
      fixes,
    );
  } catch (e) {
    if (e instanceof ApiError) {
      sendError(res, e, requestId);
      return;
    }
    process.stderr.write(`clean-room-bank: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    sendError(res, new ApiError(500, 'SYSTEM_ERROR', ''), requestId);
  }
}

export function requestListener(bank: Bank, selfUrl: () => string): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'https://bank.invalid');
    } catch {
      req.resume();
      sendError(res, new ApiError(400, 'FORMAT_ERROR', 'Malformed request target'), undefined);
      return;
    }
    const done = (p: Promise<void>): void => {
      p.catch((e: unknown) => {
        process.stderr.write(`clean-room-bank: ${e instanceof Error ? e.message : String(e)}\n`);
        if (!res.headersSent) sendError(res, new ApiError(500, 'SYSTEM_ERROR', ''), undefined);
        else res.destroy();
      });
    };
    if (url.pathname.startsWith('/sca/')) {
      done(handleScaPage(bank, req, res, url.pathname));
      return;
    }
    if (url.pathname === '/v1' || url.pathname.startsWith('/v1/')) {
      done(handleApi(bank, req, res, url, selfUrl()));
      return;
    }
    req.resume();
    sendError(res, new ApiError(404, 'NOT_FOUND', `No endpoint ${url.pathname}`), undefined);
  };
}
