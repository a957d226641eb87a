/**
 * The one masker every report the tool writes goes through (a run's, the audit's, the proxy's, the judging
 * sandbox's, a merge's): errors, reasons, warnings, check messages, recorded exchanges, redirects, the page
 * HTML and the trace of a failed SCA flow, and the console. PSU identifiers, national identity numbers, IBANs,
 * credentials and whatever a PSU types at SCA are personal data or secrets: a masked report (the default)
 * shows none of them.
 *
 * - Values are masked whole, as `[masked:1a2b3c]`: a keyed hash (HMAC-SHA256 with the run's key, which never
 *   leaves the run's private folder) lets a reader tell two PSUs apart within a run without revealing a digit.
 *   Keeping the last digits of a national identity number would give away both its check digits.
 * - A configured or learnt value is found raw, URL-encoded, form-encoded, HTML-escaped and JSON-escaped, in
 *   any letter case, and a number written with separators ("130393 19955", "130393-19955").
 * - Headers are masked by name whatever the value: every PSU-* header, X-PSU-IDENTITY, Authorization,
 *   Proxy-Authorization, Cookie and Set-Cookie, as header objects, header lines (to the end of the line, spaces
 *   included) and JSON members (JSON inside a JSON string too).
 * - psu-id and psu-corporate-id are masked by their name in query strings however they are escaped
 *   (`?psu-id=`, `&amp;psu-id=`, `psu-id&#61;`, `\u0026psu-id=`, `%26psu-id%3D`).
 * - Norwegian national identity numbers (both mod-11 check digits right) and IBANs (mod-97 right) are masked
 *   wherever they appear, configured or not (a bank's sandbox customer list, an account in an answer).
 * - Every field of a form a PSU posts (an SCA page) is masked: what a PSU types is a secret.
 * - It never throws, whatever the input (a malformed `%` escape is taken as it stands).
 */
import { createHmac, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import type { HttpExchange, HttpHeaders } from '../har/index.js';
import { isIban, isNorwegianNationalId, lookalikeIban, lookalikeNationalId, lookalikeUuid } from '../identifiers/index.js';

/** Headers whose value is always a secret or personal data. */
export function isMaskedHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return (lower.startsWith('psu-') && !ENUMERATED_PSU_HEADERS.has(lower)) || SECRET_HEADER_NAMES.has(lower);
}
/**
 * PSU headers whose value is one of a list the specification gives (PRIVATE or CORPORATE; an HTTP method): nothing personal, shown as sent.
 */
const ENUMERATED_PSU_HEADERS = new Set(['psu-context', 'psu-http-method']);
const SECRET_HEADER_NAMES = new Set(['x-psu-identity', 'authorization', 'proxy-authorization', 'cookie', 'set-cookie']);
const HEADER_NAME = '(?:psu-(?!context\\b|http-method\\b)[a-z0-9-]+|x-psu-identity|authorization|proxy-authorization|cookie|set-cookie)';

/**
 * psu-id, psu-corporate-id or x-psu-identity, then how its value is introduced: `=` (raw, as an HTML entity, or
 * URL-encoded as %3D or \u003d), then the value up to the next delimiter of a query string.
 */
const NAMED_VALUE =
  /(?<![A-Za-z_-])(psu-id|psu-corporate-id|x-psu-identity)(=|%3D|\\u003d|&#61;|&#x3d;|&equals;)(?!\[masked:)((?:(?!%26|\\u0026|&amp;)[^&#\s"'<>\\,;])+)/gi;

/** A header line `Name: value` (at a line's start, or after a quote, as in a curl `-H 'Name: value'`): the whole value, spaces included. */
const HEADER_LINE = new RegExp(`(?<=^|['"])(${HEADER_NAME})([ \\t]*:[ \\t]*)(?!\\[masked:)([^'"\\r\\n]+)`, 'gim');

/** A JSON member named after a masked header, its string value whole; escaped quotes too, for JSON inside a JSON string. */
const JSON_MEMBER = new RegExp(
  `((?:\\\\)*"${HEADER_NAME}(?:\\\\)*"\\s*:\\s*(?:\\\\)*")(?!\\[masked:)((?:[^"\\\\]|\\\\(?!(?:\\\\)*"))*)`,
  'gi',
);

/** Eleven digits, possibly written 6 + 5 with a separator: masked when both mod-11 check digits are right. */
const NATIONAL_ID_LIKE = /(?<![0-9])[0-9]{6}[ .\-\u00a0]?[0-9]{5}(?![0-9])/g;

/** Two letters, two digits and 11-30 letters or digits, compact or printed in groups of four: masked when mod-97 is right. */
const IBAN_LIKE =
  /(?<![A-Za-z0-9])[A-Za-z]{2}[0-9]{2}(?:[A-Za-z0-9]{11,30}|(?: [A-Za-z0-9]{4}){2,7}(?: [A-Za-z0-9]{1,3})?)(?![A-Za-z0-9])/g;

/** Separators a number may be written with. */
const DIGIT_SEPARATOR = '[ .\\-/\\u00a0]?';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function htmlEscaped(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** decodeURIComponent that never throws: a malformed escape is kept as it stands. */
export function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}

/** The forms a secret takes on its way through URLs, forms, HTML and JSON. */
function variantsOf(secret: string): string[] {
  const variants = new Set([
    secret,
    encodeURIComponent(secret),
    encodeURIComponent(secret).replace(/%20/g, '+'),
    htmlEscaped(secret),
    JSON.stringify(secret).slice(1, -1),
  ]);
  return [...variants].filter((variant) => variant.length > 0);
}

export class Masker {
  private readonly secrets = new Set<string>();
  private readonly key: Buffer;
  /** One pattern for every secret (all their forms, longest first), rebuilt when one is learnt. */
  private pattern: RegExp | undefined;
  /** Form of a secret (digits only, for numbers) -> the secret. */
  private readonly bySearchForm = new Map<string, string>();

  constructor(
    readonly enabled: boolean,
    secrets: Iterable<string | undefined> = [],
    /** The run's key for the hashes (run context `maskKey`); a fresh one when none is given. */
    key?: string,
    /**
     * `tag` (reports, for people): `[masked:1a2b3c]`. `lookalike` (a recording a judge reads again, HAR): an
     * identifier of the same shape instead (a UUID, a national identity number or an IBAN with their check
     * digits, an address of the documentation ranges), so every format rule still reads it well-formed.
     */
    private readonly form: 'tag' | 'lookalike' = 'tag',
  ) {
    this.key = key === undefined ? randomBytes(32) : Buffer.from(key);
    for (const secret of secrets) this.add(secret);
  }

  /** Learn a value to mask from now on (a psu-id captured from a redirect, a value typed at SCA…). */
  add(secret: string | undefined): void {
    // Shorter values would mask ordinary text; short typed values are masked where typed (the trace).
    if (!secret || secret.length < 4 || this.secrets.has(secret)) return;
    this.secrets.add(secret);
    this.pattern = undefined;
  }

  /** How a value is shown in a masked report. */
  tag(value: string): string {
    if (this.form === 'lookalike') return this.lookalike(value);
    return `[masked:${createHmac('sha256', this.key).update(value).digest('hex').slice(0, 6)}]`;
  }

  private lookalike(value: string): string {
    const seed = createHmac('sha256', this.key).update(value.toLowerCase()).digest();
    if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)) return lookalikeUuid(seed);
    if (/^\d{11}$/.test(value)) return lookalikeNationalId(seed);
    if (isIban(value.replace(/ /g, '').toUpperCase())) return lookalikeIban(value.replace(/ /g, '').toUpperCase(), seed);
    if (isIP(value) === 4) return `192.0.2.${seed[0] ?? 0}`;
    if (isIP(value) === 6) return `2001:db8::${seed.readUInt16BE(0).toString(16)}`;
    return `[masked:${seed.toString('hex').slice(0, 6)}]`;
  }

  text(input: string): string {
    if (!this.enabled || input === '') return input;
    const named = input
      .replace(
        NAMED_VALUE,
        (_whole, name: string, introducer: string, value: string) => `${name}${introducer}${this.tag(safeDecode(value))}`,
      )
      .replace(HEADER_LINE, (_whole, name: string, colon: string, value: string) => `${name}${colon}${this.tag(value.trim())}`)
      .replace(JSON_MEMBER, (_whole, opening: string, value: string) => `${opening}${this.tag(value)}`);
    const pattern = this.secretPattern();
    const secretsMasked = !pattern
      ? named
      : named.replace(pattern, (found) => {
          const secret =
            this.bySearchForm.get(found) ??
            this.bySearchForm.get(found.toLowerCase()) ??
            this.bySearchForm.get(found.replace(/\D/g, '')) ??
            safeDecode(found);
          return this.tag(secret);
        });
    return secretsMasked
      .replace(NATIONAL_ID_LIKE, (found) => {
        const digits = found.replace(/\D/g, '');
        return isNorwegianNationalId(digits) ? this.tag(digits) : found;
      })
      .replace(IBAN_LIKE, (found) => {
        const iban = found.replace(/ /g, '').toUpperCase();
        return isIban(iban) ? this.tag(iban) : found;
      });
  }

  /**
   * A request or answer body: a form (what a PSU posts at an SCA page) with every field's value masked, since
   * what a PSU types is a secret; anything else as text.
   */
  private body(input: string, contentType: string | undefined): string {
    if (!this.enabled || !/^application\/x-www-form-urlencoded/i.test(contentType ?? '')) return this.text(input);
    return input
      .split('&')
      .map((field) => {
        const at = field.indexOf('=');
        return at < 0 || field.slice(at + 1) === '' ? field : `${field.slice(0, at)}=${this.tag(safeDecode(field.slice(at + 1)))}`;
      })
      .join('&');
  }

  /** Text for a person to read (errors, warnings, the console): masked, and its control characters shown, not obeyed. */
  display(input: string): string {
    return visibleControls(this.text(input));
  }

  headers(headers: Record<string, string>): Record<string, string> {
    if (!this.enabled) return headers;
    return Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [name, isMaskedHeader(name) ? this.tag(value) : this.text(value)]),
    );
  }

  /** One side of an exchange as a report keeps it: headers masked by name, the body by its content type. */
  message(
    headers: Record<string, string>,
    body: string | undefined,
    contentType = Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1],
  ): { headers: Record<string, string>; body?: string } {
    return { headers: this.headers(headers), ...(body === undefined ? {} : { body: this.body(body, contentType) }) };
  }

  /**
   * An exchange as a recording keeps it (HAR): its URLs, headers masked by name, and bodies masked, marked
   * `masked` when anything changed (a judge then leaves the signature's value and the Digest alone). The
   * signature, the certificate and the Digest are kept byte for byte: no personal data, and judged as they are.
   */
  exchange(exchange: HttpExchange): HttpExchange {
    if (!this.enabled) return exchange;
    const utf8 = new TextDecoder('utf-8', { fatal: true });
    const body = (bytes: Uint8Array, headers: HttpHeaders): Uint8Array => {
      let text: string;
      try {
        text = utf8.decode(bytes);
      } catch {
        return bytes; // not text: nothing a masker can read
      }
      return Buffer.from(this.message({}, text, headers['content-type']).body ?? text, 'utf8');
    };
    const headers = (values: HttpHeaders): HttpHeaders =>
      Object.fromEntries(
        Object.entries(values).map(([name, value]) => [
          name,
          value === undefined || BYTES_JUDGED.has(name) ? value : isMaskedHeader(name) ? this.tag(value) : this.text(value),
        ]),
      );
    const { request, response } = exchange;
    const masked: HttpExchange = {
      ...exchange,
      request: { ...request, url: this.text(request.url), headers: headers(request.headers), body: body(request.body, request.headers) },
      ...(response === undefined
        ? {}
        : { response: { ...response, headers: headers(response.headers), body: body(response.body, response.headers) } }),
    };
    const changed = JSON.stringify(harView(masked)) !== JSON.stringify(harView(exchange));
    return changed
      ? { ...masked, masked: 'PSU identifiers, credentials and personal data replaced (record with --unmasked to keep the bytes as sent)' }
      : exchange;
  }

  /** Every value learnt or configured (the screenshot masks the page elements that show one). */
  values(): string[] {
    return [...this.secrets];
  }

  private secretPattern(): RegExp | undefined {
    if (this.pattern || this.secrets.size === 0) return this.pattern;
    this.bySearchForm.clear();
    const sources: string[] = [];
    for (const secret of this.secrets) {
      for (const variant of variantsOf(secret)) {
        this.bySearchForm.set(variant, secret);
        sources.push(escapeRegExp(variant));
      }
      // A number is also found written with separators (national identity numbers: "130393 19955").
      if (/^\d{6,}$/.test(secret)) {
        this.bySearchForm.set(secret, secret);
        sources.push([...secret].join(DIGIT_SEPARATOR));
      }
    }
    // Longest first, so that a secret containing another is masked whole; any case (a psu-id in capitals is the same id).
    sources.sort((a, b) => b.length - a.length);
    for (const [form, secret] of [...this.bySearchForm]) this.bySearchForm.set(form.toLowerCase(), secret);
    this.pattern = new RegExp(sources.join('|'), 'gi');
    return this.pattern;
  }
}

/**
 * Control characters a bank's text may carry (escape sequences, carriage returns, bidirectional overrides)
 * written out as `\u{1b}` instead of acting on a terminal or a reader's display; tabs and line ends stay.
 */
export function visibleControls(text: string): string {
  return text.replace(
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
    (char) => `\\u{${(char.codePointAt(0) ?? 0).toString(16)}}`,
  );
}

/** An error on its way out of a scenario: its message and stack masked and made safe to print (in place, keeping its type). */
export function maskError(error: unknown, masker: Masker): unknown {
  if (!(error instanceof Error)) return new Error(masker.display(String(error)));
  error.message = masker.display(error.message);
  if (error.stack !== undefined) error.stack = masker.display(error.stack);
  return error;
}

/** Headers a judge reads as bytes (base64 blobs a masker's patterns could cut into): never masked. */
const BYTES_JUDGED = new Set(['signature', 'tpp-signature-certificate', 'digest']);

/** What of an exchange a masker may change, to tell whether it did. */
function harView(exchange: HttpExchange): unknown {
  const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
  return [
    exchange.request.url,
    exchange.request.headers,
    text(exchange.request.body),
    exchange.response?.headers,
    exchange.response === undefined ? '' : text(exchange.response.body),
  ];
}
