/**
 * A recorded request as a curl command, so a bank developer can send it again without the suite. The
 * headers a TPP makes fresh for every request cannot be copied (the Date is checked against the bank's
 * clock, the signature covers it): they are written as placeholders to regenerate, which
 * `xs2a-conformance replay` does.
 */
import type { RecordedHttpMessage } from './results-types.js';

/** Headers the sender makes anew for each request (lower case). */
export const REGENERATED_HEADERS: Readonly<Record<string, string>> = {
  date: 'the current time, as an RFC 7231 date',
  'tpp-signature-certificate': "the TPP's certificate, DER in base64",
  signature: "a signature of this request's headers with the TPP's key",
};

export function curlCommand(request: RecordedHttpMessage): string {
  const lines = [`curl --cacert bank-ca.pem -X ${request.method ?? 'GET'} ${quote(request.url ?? '')}`];
  for (const [name, value] of Object.entries(request.headers)) {
    const regenerate = REGENERATED_HEADERS[name.toLowerCase()];
    lines.push(`-H ${quote(`${name}: ${regenerate ? `<regenerate: ${regenerate}>` : value}`)}`);
  }
  // A body cut in the report is sent whole from its file (run from the report folder).
  if (request.bodyFile !== undefined) lines.push(`--data-binary ${quote(`@${request.bodyFile}`)}`);
  else if (request.body !== undefined && request.body !== '') lines.push(`--data-raw ${quote(request.body)}`);
  return lines.join(' \\\n  ');
}

/** POSIX shell single quotes: nothing inside is interpreted; a quote closes, is escaped, and reopens. */
function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
