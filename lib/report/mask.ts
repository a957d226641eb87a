/**
 * The one masker every output of a run goes through: errors, reasons, warnings, check messages, recorded
 * exchanges, redirects, the page HTML and the trace of a failed SCA flow, and the console. PSU identifiers,
 * national identity numbers and whatever a PSU types at SCA are personal data or secrets: a masked report
 * (the default) shows none of them.
 *
 * - Values are masked whole, as `[masked:1a2b3c]`: a keyed hash (HMAC-SHA256 with the run's key, which never
 *   leaves the run's private folder) lets a reader tell two PSUs apart within a run without revealing a digit.
 *   Keeping the last digits of a national identity number would give away both its check digits.
 * - A configured or learnt value is found raw, URL-encoded, form-encoded, HTML-escaped and JSON-escaped, and a
 *   number written with separators ("130393 19955", "130393-19955").
 * - psu-id and psu-corporate-id are masked by their name whatever the value, in query strings however they are
 *   escaped (`?psu-id=`, `&amp;psu-id=`, `\u0026psu-id=`, `%26psu-id%3D`), as JSON members and header lines.
 * - It never throws, whatever the input (a malformed `%` escape is taken as it stands).
 */
import { createHmac, randomBytes } from 'node:crypto';

/** Headers whose value always identifies a PSU. */
const PSU_HEADER_NAMES = new Set(['psu-id', 'psu-corporate-id', 'x-psu-identity']);

/**
 * psu-id, psu-corporate-id or x-psu-identity, then how its value is introduced: `=` (raw or URL-encoded as
 * %3D or \u003d), a JSON member (`": "`), or a header line (`: ` at the start of a line).
 */
const NAMED_VALUE = /(?<![A-Za-z_-])(psu-id|psu-corporate-id|x-psu-identity)(=|%3D|\\u003d|"\s*:\s*"|(?<=^(?:psu-id|psu-corporate-id|x-psu-identity)):[ \t]*)(?!\[masked:)((?:(?!%26|\\u0026)[^&#\s"'<>\\,;])+)/gim;

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
  const variants = new Set([secret, encodeURIComponent(secret), encodeURIComponent(secret).replace(/%20/g, '+'), htmlEscaped(secret), JSON.stringify(secret).slice(1, -1)]);
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
    return `[masked:${createHmac('sha256', this.key).update(value).digest('hex').slice(0, 6)}]`;
  }

  text(input: string): string {
    if (!this.enabled || input === '') return input;
    const named = input.replace(NAMED_VALUE, (_whole, name: string, introducer: string, value: string) => `${name}${introducer}${this.tag(safeDecode(value))}`);
    const pattern = this.secretPattern();
    if (!pattern) return named;
    return named.replace(pattern, (found) => {
      const secret = this.bySearchForm.get(found) ?? this.bySearchForm.get(found.replace(/\D/g, '')) ?? safeDecode(found);
      return this.tag(secret);
    });
  }

  /** Text for a person to read (errors, warnings, the console): masked, and its control characters shown, not obeyed. */
  display(input: string): string {
    return visibleControls(this.text(input));
  }

  headers(headers: Record<string, string>): Record<string, string> {
    if (!this.enabled) return headers;
    return Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [name, PSU_HEADER_NAMES.has(name.toLowerCase()) ? this.tag(value) : this.text(value)]),
    );
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
    // Longest first, so that a secret containing another is masked whole.
    sources.sort((a, b) => b.length - a.length);
    this.pattern = new RegExp(sources.join('|'), 'g');
    return this.pattern;
  }
}

/**
 * Control characters a bank's text may carry (escape sequences, carriage returns, bidirectional overrides)
 * written out as `\u{1b}` instead of acting on a terminal or a reader's display; tabs and line ends stay.
 */
export function visibleControls(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (char) => `\\u{${(char.codePointAt(0) ?? 0).toString(16)}}`);
}

/** An error on its way out of a scenario: its message and stack masked and made safe to print (in place, keeping its type). */
export function maskError(error: unknown, masker: Masker): unknown {
  if (!(error instanceof Error)) return new Error(masker.display(String(error)));
  error.message = masker.display(error.message);
  if (error.stack !== undefined) error.stack = masker.display(error.stack);
  return error;
}
