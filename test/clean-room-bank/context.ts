// The context of one signed API request, header access and validation, x-accept-fix, JSON bodies.

import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';
import type { Bank } from './bank.js';
import type { TppCertificate } from './certs.js';
import { UUID_RE, isValidNationalId } from './codes.js';
import { ApiError, formatError, headerRequired, type Link } from './errors.js';
import type { World } from './model.js';

export interface Ctx {
  bank: Bank;
  world: World;
  cert: TppCertificate;
  method: string;
  path: string;
  segments: string[];
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
  requestId: string;
  baseUrl: string;
  fixes: Set<string>;
}

export interface ApiResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export function header(ctx: { headers: IncomingHttpHeaders }, name: string): string | undefined {
  const v = ctx.headers[name.toLowerCase()];
  const s = Array.isArray(v) ? v.join(', ') : v;
  if (s === undefined) return undefined;
  const t = s.trim();
  return t === '' ? undefined : t;
}

/** The name shown to the PSU on the SCA pages: TPP-Brand-Logging-Information, else the certificate's O or CN. */
export function thirdPartyName(ctx: Ctx): string {
  const brand = header(ctx, 'tpp-brand-logging-information');
  return (brand ?? ctx.cert.organizationName ?? ctx.cert.subjectCommonName).slice(0, 70);
}

export function requireHeader(ctx: Ctx, name: string): string {
  const v = header(ctx, name);
  if (v === undefined) throw headerRequired(name);
  return v;
}

/** x-accept-fix is required on payment initiation; an empty value (no early fix) counts as present. */
export function requireAcceptFix(ctx: Ctx): void {
  if (ctx.headers['x-accept-fix'] === undefined) throw headerRequired('x-accept-fix');
}

export function link(href: string, ...verbs: string[]): Link {
  return { href, verbs: verbs.length ? verbs : ['GET'] };
}

// ---------------------------------------------------------------- x-accept-fix

interface Fix {
  value: string;
  introduced: string;
  madeDefault: string;
}

/** The implemented breaking changes of the Versioning part. */
const ACCEPT_FIXES: readonly Fix[] = [
  { value: 'amount-as-string', introduced: '2019-11-01', madeDefault: '2020-08-01' },
  { value: 'cardaccount-switch-originalamount-and-transactionamount', introduced: '2020-05-01', madeDefault: '2024-11-13' },
  { value: 'longer-names', introduced: '2020-06-01', madeDefault: '2024-10-01' },
  { value: 'cash-account-type-iso', introduced: '2023-06-01', madeDefault: '2024-11-13' },
];

/**
 * The fixes in effect for a request: those made default by `today`, plus those the request
 * activates early. A value that names no published change is a FORMAT_ERROR.
 */
export function activeFixes(headerValue: string | undefined, today: string): Set<string> {
  const active = new Set<string>();
  for (const f of ACCEPT_FIXES) if (today >= f.madeDefault) active.add(f.value);
  if (headerValue === undefined) return active;
  for (const raw of headerValue.split(',')) {
    const v = raw.trim();
    if (v === '') continue;
    const fix = ACCEPT_FIXES.find((f) => f.value === v.toLowerCase());
    if (!fix || today < fix.introduced) {
      throw formatError(
        `x-accept-fix value "${v}" is not a published change; known values: ${ACCEPT_FIXES.map((f) => f.value).join(', ')}`,
      );
    }
    active.add(fix.value);
  }
  return active;
}

// ---------------------------------------------------------------- header formats

const PSU_HTTP_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

/** Validates the formats of the headers of the specification that are present. */
export function validateHeaderFormats(ctx: Ctx): void {
  const psuId = header(ctx, 'psu-id');
  if (psuId !== undefined && !UUID_RE.test(psuId)) throw formatError('Header PSU-ID must be a UUID');
  const corp = header(ctx, 'psu-corporate-id');
  if (corp !== undefined && corp.length > 140) throw formatError('Header PSU-Corporate-ID is too long');
  const psuContext = header(ctx, 'psu-context');
  if (psuContext !== undefined && psuContext !== 'PRIVATE' && psuContext !== 'CORPORATE') {
    throw formatError('Header PSU-Context must be PRIVATE or CORPORATE');
  }
  const ip = header(ctx, 'psu-ip-address');
  if (ip !== undefined && isIP(ip) === 0) throw formatError('Header PSU-IP-Address must be an IPv4 or IPv6 address');
  const port = header(ctx, 'psu-ip-port');
  if (port !== undefined && (!/^\d{1,5}$/.test(port) || Number(port) > 65535))
    throw formatError('Header PSU-IP-Port must be a port number');
  const device = header(ctx, 'psu-device-id');
  if (device !== undefined && !UUID_RE.test(device)) throw formatError('Header PSU-Device-ID must be a UUID');
  const httpMethod = header(ctx, 'psu-http-method');
  if (httpMethod !== undefined && !PSU_HTTP_METHODS.has(httpMethod)) {
    throw formatError('Header PSU-HTTP-Method must be one of GET, POST, PUT, PATCH, DELETE');
  }
  const pref = header(ctx, 'tpp-redirect-preferred');
  if (pref !== undefined && pref.toLowerCase() !== 'true' && pref.toLowerCase() !== 'false') {
    throw formatError('Header TPP-Redirect-Preferred must be true or false');
  }
  const identity = header(ctx, 'x-psu-identity');
  if (identity !== undefined && !isValidNationalId(identity)) {
    throw formatError('Header X-PSU-IDENTITY must be a Norwegian national identity number or D-number');
  }
  const session = header(ctx, 'tpp-session-id');
  if (session !== undefined && (session.length > 200 || /[^\x20-\x7e]/.test(session))) {
    throw formatError('Header TPP-Session-ID must be printable ASCII, at most 200 characters');
  }
  const redirect = header(ctx, 'tpp-redirect-uri');
  if (redirect !== undefined) checkRedirectUri(redirect);
}

function checkRedirectUri(value: string): void {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw formatError('Header TPP-Redirect-URI must be an absolute URI');
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw formatError('Header TPP-Redirect-URI must be an http or https URI');
}

// ---------------------------------------------------------------- bodies

/** Reads the body as JSON (UTF-8, no XML). */
export function jsonBody(ctx: Ctx, required = true): unknown {
  const ct = header(ctx, 'content-type');
  if (ct !== undefined) {
    const [type = '', ...params] = ct
      .toLowerCase()
      .split(';')
      .map((s) => s.trim());
    if (type !== 'application/json' && !/^application\/[a-z0-9.+-]*\+json$/.test(type)) {
      throw new ApiError(415, 'FORMAT_ERROR', 'Only application/json bodies are supported (XML is not supported)');
    }
    const charset = params.find((p) => p.startsWith('charset='));
    if (charset && !/^charset="?utf-8"?$/.test(charset)) throw new ApiError(415, 'FORMAT_ERROR', 'Request bodies must be UTF-8');
  }
  if (ctx.body.length === 0) {
    if (required) throw formatError('A JSON body is required');
    return undefined;
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(ctx.body);
  } catch {
    throw formatError('The body is not valid UTF-8');
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw formatError('The body is not valid JSON');
  }
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function objectBody(ctx: Ctx): Record<string, unknown> {
  const b = jsonBody(ctx);
  if (!isObject(b)) throw formatError('The body must be a JSON object');
  return b;
}
