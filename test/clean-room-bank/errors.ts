// The specification's error body: { id, system, status, code, message }, plus `_links` with
// `scaRedirect` on a 401 that asks for SCA.

import { randomUUID } from 'node:crypto';

export interface Link {
  href: string;
  verbs: string[];
}

type Links = Record<string, Link>;

const SYSTEM_API = 'xs2a-api';
export const SYSTEM_SCA = 'xs2a-sca';
export const SYSTEM_SANDBOX = 'xs2a-sandbox';

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly links: Links | undefined;
  readonly headers: Record<string, string> | undefined;
  readonly system: string;

  constructor(
    status: number,
    code: string,
    message: string,
    opts: { links?: Links; headers?: Record<string, string>; system?: string } = {},
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.links = opts.links;
    this.headers = opts.headers;
    this.system = opts.system ?? SYSTEM_API;
  }

  body(): Record<string, unknown> {
    const b: Record<string, unknown> = {
      id: randomUUID(),
      system: this.system,
      status: this.status,
      code: this.code,
    };
    if (this.code !== 'SYSTEM_ERROR' && this.message) b.message = this.message;
    if (this.links) b._links = this.links;
    return b;
  }
}

export const formatError = (message: string): ApiError => new ApiError(400, 'FORMAT_ERROR', message);
export const headerRequired = (name: string): ApiError => new ApiError(400, 'HTTP_HEADER_REQUIRED', `Header ${name} is required`);
export const notFound = (message: string): ApiError => new ApiError(404, 'RESOURCE_UNKNOWN', message);
