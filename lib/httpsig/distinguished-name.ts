// Distinguished names as strings: writing them in RFC 2253 form (the keyId's
// CA= part, spec Authentication item 5) and comparing two of them by meaning.
//
// Writing follows what OpenSSL prints with `-nameopt RFC2253` (minus its
// escaping of non-ASCII bytes), so that a keyId we produce is the one a bank's
// tooling expects. Reading is lenient on purpose: TPP tooling in the wild
// writes issuer attributes in other orders, with other type names (S= for
// ST=, OID.2.5.4.97=), with RFC 1779 spacing and quoting, with `#hex` values,
// and even percent-encoded (the Berlin Group's own keyId example).
import { decodeString, readElement } from '../pki/der.js';
import type { AttributeTypeAndValue, Name } from '../pki/x509-fields.js';
import { memoised } from '../support/memo.js';
import { ConformanceError } from '../errors.js';

interface AttributeType {
  oid: string;
  /** The name written out: OpenSSL's short name. */
  name: string;
  /** Other spellings accepted when reading (case-insensitive). */
  aliases?: string[];
}

const ATTRIBUTE_TYPES: readonly AttributeType[] = [
  { oid: '2.5.4.3', name: 'CN', aliases: ['commonName'] },
  { oid: '2.5.4.4', name: 'SN', aliases: ['surname'] },
  { oid: '2.5.4.5', name: 'serialNumber' },
  { oid: '2.5.4.6', name: 'C', aliases: ['countryName'] },
  { oid: '2.5.4.7', name: 'L', aliases: ['localityName'] },
  { oid: '2.5.4.8', name: 'ST', aliases: ['S', 'stateOrProvinceName'] },
  { oid: '2.5.4.9', name: 'street', aliases: ['streetAddress'] },
  { oid: '2.5.4.10', name: 'O', aliases: ['organizationName'] },
  { oid: '2.5.4.11', name: 'OU', aliases: ['organizationalUnitName'] },
  { oid: '2.5.4.12', name: 'title', aliases: ['T'] },
  { oid: '2.5.4.13', name: 'description' },
  { oid: '2.5.4.15', name: 'businessCategory' },
  { oid: '2.5.4.17', name: 'postalCode' },
  { oid: '2.5.4.41', name: 'name' },
  { oid: '2.5.4.42', name: 'GN', aliases: ['givenName', 'G'] },
  { oid: '2.5.4.43', name: 'initials' },
  { oid: '2.5.4.44', name: 'generationQualifier' },
  { oid: '2.5.4.46', name: 'dnQualifier' },
  { oid: '2.5.4.65', name: 'pseudonym' },
  { oid: '2.5.4.97', name: 'organizationIdentifier' },
  { oid: '1.2.840.113549.1.9.1', name: 'emailAddress', aliases: ['E', 'EMAIL'] },
  { oid: '0.9.2342.19200300.100.1.1', name: 'UID', aliases: ['userId'] },
  { oid: '0.9.2342.19200300.100.1.25', name: 'DC', aliases: ['domainComponent'] },
  { oid: '1.3.6.1.4.1.311.60.2.1.3', name: 'jurisdictionC', aliases: ['jurisdictionCountryName'] },
];

const NAME_BY_OID = new Map(ATTRIBUTE_TYPES.map((type) => [type.oid, type.name]));
const OID_BY_UPPER_NAME = new Map(
  ATTRIBUTE_TYPES.flatMap((type) => [type.name, ...(type.aliases ?? [])].map((name) => [name.toUpperCase(), type.oid])),
);

export class DistinguishedNameError extends ConformanceError {
  readonly code = 'XC_ERR_DISTINGUISHED_NAME';
  override name = 'DistinguishedNameError';
}

export interface FormatOptions {
  /**
   * Write `"` as the hex escape `\22` instead of `\"`. Both are RFC 2253; the hex
   * form keeps the name usable inside a draft-cavage quoted parameter value,
   * which has no escape mechanism of its own.
   */
  quoteAsHex?: boolean;
}

/** A certificate Name in RFC 2253 string form: most significant RDN last, so the reverse of certificate order. */
export function formatRfc2253(name: Name, options: FormatOptions = {}): string {
  // OpenSSL reverses attribute by attribute, so the members of a multi-valued
  // RDN come out reversed too; RFC 2253 leaves their order open.
  return [...name]
    .reverse()
    .map((rdn) =>
      [...rdn]
        .reverse()
        .map((attribute) => formatAttribute(attribute, options))
        .join('+'),
    )
    .join(',');
}

function formatAttribute(attribute: AttributeTypeAndValue, options: FormatOptions): string {
  const name = NAME_BY_OID.get(attribute.oid);
  const text = decodeString(attribute.value);
  // RFC 2253 2.4: a type written as an OID, or a value with no string form, is written as #hex of its BER.
  if (name === undefined || text === undefined) {
    return `${name ?? attribute.oid}=#${Buffer.from(attribute.value.encoded).toString('hex')}`;
  }
  return `${name}=${escapeValue(text, options)}`;
}

function escapeValue(value: string, options: FormatOptions): string {
  const characters = [...value];
  return characters
    .map((character, index) => {
      if (character === '"' && options.quoteAsHex) return '\\22';
      if (',+"\\<>;'.includes(character)) return `\\${character}`;
      if (index === 0 && (character === '#' || character === ' ')) return `\\${character}`;
      if (index === characters.length - 1 && character === ' ') return '\\ ';
      const code = character.codePointAt(0) ?? 0;
      if (code < 0x20 || code === 0x7f) return `\\${code.toString(16).toUpperCase().padStart(2, '0')}`;
      return character;
    })
    .join('');
}

/** One attribute read from a DN string: a canonical type (an OID when known) and the value as text. */
export interface ParsedAttribute {
  type: string;
  value: string;
}

/**
 * Reads an RFC 2253 / RFC 4514 string (RFC 1779 spacing, quoting and `;`
 * separators tolerated) into its attributes, flattened, in string order.
 */
export function parseDistinguishedName(text: string): ParsedAttribute[] {
  const reader = new NameReader(text);
  const attributes: ParsedAttribute[] = [];
  reader.skipSpaces();
  if (reader.atEnd()) throw new DistinguishedNameError('the distinguished name is empty');
  for (;;) {
    attributes.push(reader.readAttribute());
    reader.skipSpaces();
    if (reader.atEnd()) return attributes;
    const separator = reader.next();
    if (separator !== ',' && separator !== ';' && separator !== '+') {
      throw new DistinguishedNameError(`unexpected "${separator}" at position ${reader.position - 1}`);
    }
  }
}

/**
 * True when both strings name the same entity: the same multiset of
 * (attribute type, value) pairs, in any order, with type names and OIDs
 * interchangeable and values compared the way X.520 caseIgnoreMatch does
 * (case and insignificant spaces ignored). Malformed input is never equal.
 */
export function sameDistinguishedName(a: string, b: string): boolean {
  try {
    const left = comparableForm(a);
    const right = comparableForm(b);
    return left.length === right.length && left.every((attribute, index) => attribute === right[index]);
  } catch (error) {
    if (error instanceof DistinguishedNameError) return false;
    throw error;
  }
}

/** Comparable forms by text: a verifier sees the same few issuer names on every request. */
const COMPARABLE = new Map<string, string[]>();

function comparableForm(text: string): string[] {
  return memoised(COMPARABLE, text, () => uncachedComparableForm(text));
}

function uncachedComparableForm(text: string): string[] {
  return parseDistinguishedName(text)
    .map(({ type, value }) => `${type}=${comparableValue(value)}`)
    .sort();
}

function comparableValue(value: string): string {
  return decodePercentEncoding(value).normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
}

function decodePercentEncoding(value: string): string {
  if (!/%[0-9A-Fa-f]{2}/.test(value)) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value; // a literal "%" that merely looks like an escape
  }
}

function canonicalType(raw: string): string {
  const type = raw.trim().replace(/^oid\./i, '');
  if (/^\d+(\.\d+)+$/.test(type)) return type;
  if (!/^[A-Za-z][A-Za-z0-9-]*$/.test(type)) throw new DistinguishedNameError(`"${raw}" is not an attribute type`);
  return OID_BY_UPPER_NAME.get(type.toUpperCase()) ?? type.toUpperCase();
}

class NameReader {
  position = 0;
  constructor(private readonly text: string) {}

  atEnd(): boolean {
    return this.position >= this.text.length;
  }

  peek(): string | undefined {
    return this.text[this.position];
  }

  next(): string {
    const character = this.text[this.position++];
    if (character === undefined) throw new DistinguishedNameError('unexpected end of the distinguished name');
    return character;
  }

  skipSpaces(): void {
    while (this.peek() === ' ') this.position++;
  }

  readAttribute(): ParsedAttribute {
    const equals = this.text.indexOf('=', this.position);
    if (equals < 0) throw new DistinguishedNameError(`no "=" after position ${this.position}`);
    const type = canonicalType(this.text.slice(this.position, equals));
    this.position = equals + 1;
    this.skipSpaces();
    const first = this.peek();
    const value = first === '#' ? this.readHexValue() : first === '"' ? this.readQuotedValue() : this.readPlainValue();
    return { type, value };
  }

  private readHexValue(): string {
    this.position++;
    const start = this.position;
    while (/[0-9A-Fa-f]/.test(this.peek() ?? '')) this.position++;
    const hex = this.text.slice(start, this.position);
    if (hex.length === 0 || hex.length % 2 !== 0) throw new DistinguishedNameError(`malformed #hex value "#${hex}"`);
    const bytes = new Uint8Array(Buffer.from(hex, 'hex'));
    try {
      const element = readElement(bytes);
      // A string type compares as its text; anything else by its encoding.
      return (element.encoded.length === bytes.length ? decodeString(element) : undefined) ?? `#${hex.toLowerCase()}`;
    } catch {
      throw new DistinguishedNameError(`"#${hex}" is not a BER-encoded value`);
    }
  }

  private readQuotedValue(): string {
    this.position++;
    const bytes: number[] = [];
    for (;;) {
      const character = this.next();
      if (character === '"') return Buffer.from(bytes).toString('utf8');
      if (character === '\\') this.readEscape(bytes);
      else bytes.push(...Buffer.from(character, 'utf8'));
    }
  }

  private readPlainValue(): string {
    const bytes: number[] = [];
    // Spaces before a separator are insignificant unless escaped.
    let significantLength = 0;
    while (!this.atEnd() && !',;+'.includes(this.peek() ?? '')) {
      const character = this.next();
      if (character === '\\') {
        this.readEscape(bytes);
        significantLength = bytes.length;
      } else {
        bytes.push(...Buffer.from(character, 'utf8'));
        if (character !== ' ') significantLength = bytes.length;
      }
    }
    return Buffer.from(bytes.slice(0, significantLength)).toString('utf8');
  }

  /** `\` followed by a special character, or by two hex digits standing for one byte (UTF-8 sequences span several). */
  private readEscape(bytes: number[]): void {
    const pair = this.text.slice(this.position, this.position + 2);
    if (/^[0-9A-Fa-f]{2}$/.test(pair)) {
      bytes.push(parseInt(pair, 16));
      this.position += 2;
      return;
    }
    bytes.push(...Buffer.from(this.next(), 'utf8'));
  }
}
