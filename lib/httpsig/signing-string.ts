// The signing string (spec Authentication item 6, draft-cavage 2.3): one
// `name: value` line per signed header, in the order the `headers` part lists them.
import { ConformanceError } from '../errors.js';

export class SigningStringError extends ConformanceError {
  readonly code = 'XC_ERR_SIGNING_STRING';
  override name = 'SigningStringError';
  constructor(
    message: string,
    readonly headerName: string,
  ) {
    super(message);
  }
}

export function buildSigningString(
  names: readonly string[],
  header: (lowerCaseName: string) => string | undefined,
  requestTarget?: { method: string; path: string },
): string {
  return names
    .map((rawName) => {
      const name = rawName.toLowerCase();
      if (name === '(request-target)') {
        if (!requestTarget) throw new SigningStringError('(request-target) is named but no request target was given', name);
        return `${name}: ${requestTarget.method.toLowerCase()} ${requestTarget.path}`;
      }
      const value = header(name);
      if (value === undefined) throw new SigningStringError(`the ${name} header is named but absent from the request`, name);
      // draft-cavage 2.3: leading and trailing whitespace of the value is not signed.
      return `${name}: ${value.trim()}`;
    })
    .join('\n');
}
