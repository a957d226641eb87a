import { ConformanceError } from '../errors.js';

// A failure to talk to the target at all (DNS, TCP, TLS, timeout), as opposed
// to an HTTP answer of any status. The runner maps it to "target unreachable"
// (exit 3, INTERRUPTED), never to non-conformance.
export class TargetUnreachableError extends ConformanceError {
  readonly code = 'XC_ERR_TARGET_UNREACHABLE';
  override name = 'TargetUnreachableError';
  constructor(
    readonly url: string,
    cause: unknown,
  ) {
    super(`${url}: ${describeCause(cause)}`, { cause });
  }
}

function describeCause(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  const code = (cause as { code?: unknown }).code;
  // undici wraps some errors (e.g. TLS) around a more telling cause.
  const nested = cause.cause instanceof Error && cause.cause.message !== cause.message ? ` (${cause.cause.message})` : '';
  return `${typeof code === 'string' ? `${code}: ` : ''}${cause.message}${nested}`;
}

/**
 * The connection was reset or closed before the response headers arrived (undici rejects the request itself),
 * the error as thrown by undici or as TargetUnreachableError around it: a bank that closed a connection it had
 * kept idle, or one that closed it while a body it refuses was still being sent.
 */
export function isResetBeforeAnswer(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    const code = (cause as { code?: unknown }).code;
    if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET') return true;
  }
  return false;
}
