// Distinguished names: the issuer read from a certificate (DER) and the issuer
// written in a keyId (RFC 2253 text), compared by meaning: the same multiset of
// (attribute type, value) pairs, whatever their order or the alias used for a type.

import { derChildren, derOid, derString, type DerNode } from './asn1.js';

export interface DnAttribute {
  oid: string;
  value: string;
}

const TYPE_ALIASES: Record<string, string> = {
  CN: '2.5.4.3',
  COMMONNAME: '2.5.4.3',
  SURNAME: '2.5.4.4',
  SN: '2.5.4.4',
  SERIALNUMBER: '2.5.4.5',
  C: '2.5.4.6',
  COUNTRYNAME: '2.5.4.6',
  L: '2.5.4.7',
  LOCALITYNAME: '2.5.4.7',
  ST: '2.5.4.8',
  S: '2.5.4.8',
  SP: '2.5.4.8',
  STATEORPROVINCENAME: '2.5.4.8',
  STREET: '2.5.4.9',
  STREETADDRESS: '2.5.4.9',
  O: '2.5.4.10',
  ORGANIZATIONNAME: '2.5.4.10',
  OU: '2.5.4.11',
  ORGANIZATIONALUNITNAME: '2.5.4.11',
  T: '2.5.4.12',
  TITLE: '2.5.4.12',
  BUSINESSCATEGORY: '2.5.4.15',
  POSTALCODE: '2.5.4.17',
  GN: '2.5.4.42',
  GIVENNAME: '2.5.4.42',
  INITIALS: '2.5.4.43',
  DNQUALIFIER: '2.5.4.46',
  PSEUDONYM: '2.5.4.65',
  ORGANIZATIONIDENTIFIER: '2.5.4.97',
  DC: '0.9.2342.19200300.100.1.25',
  DOMAINCOMPONENT: '0.9.2342.19200300.100.1.25',
  UID: '0.9.2342.19200300.100.1.1',
  USERID: '0.9.2342.19200300.100.1.1',
  E: '1.2.840.113549.1.9.1',
  EMAIL: '1.2.840.113549.1.9.1',
  EMAILADDRESS: '1.2.840.113549.1.9.1',
};

function typeToOid(type: string): string | undefined {
  let t = type.trim();
  if (/^oid\./i.test(t)) t = t.slice(4);
  if (/^\d+(\.\d+)+$/.test(t)) return t;
  return TYPE_ALIASES[t.toUpperCase()];
}

/** Reads a Name (SEQUENCE OF RDN) into its attributes, in encoding order. */
export function dnFromDer(name: DerNode): DnAttribute[] {
  const out: DnAttribute[] = [];
  for (const rdn of derChildren(name)) {
    for (const atv of derChildren(rdn)) {
      const [type, value] = derChildren(atv);
      if (!type || !value) throw new Error('DER: malformed AttributeTypeAndValue');
      out.push({ oid: derOid(type), value: derString(value) });
    }
  }
  return out;
}

function decodeUtf8Bytes(bytes: number[]): string {
  return Buffer.from(bytes).toString('utf8');
}

/**
 * Parses an RFC 2253 distinguished name. Accepts the RFC 2253 escapes (\, \+ \" \\ \< \> \; \= \# and
 * \XX hex pairs), multi-valued RDNs joined by '+', ';' as separator, and percent-encoded values
 * (as in the Berlin Group keyId example). Returns undefined when the text is not a DN.
 */
export function parseRfc2253(text: string): DnAttribute[] | undefined {
  const out: DnAttribute[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    // attribute type
    let type = '';
    while (i < n && text[i] !== '=') {
      type += text[i];
      i++;
    }
    if (i >= n) return undefined;
    i++; // '='
    const oid = typeToOid(type);
    if (!oid) return undefined;
    // attribute value
    const bytes: number[] = [];
    let value = '';
    const flush = (): void => {
      if (bytes.length) {
        value += decodeUtf8Bytes(bytes);
        bytes.length = 0;
      }
    };
    while (i < n && text[i] === ' ') i++;
    if (text[i] === '"') {
      i++;
      while (i < n && text[i] !== '"') {
        if (text[i] === '\\' && i + 1 < n) i++;
        value += text[i];
        i++;
      }
      if (i >= n) return undefined;
      i++;
    } else {
      while (i < n && text[i] !== ',' && text[i] !== '+' && text[i] !== ';') {
        const ch = text[i] ?? '';
        if (ch === '\\') {
          const h = text.slice(i + 1, i + 3);
          if (/^[0-9a-fA-F]{2}$/.test(h)) {
            bytes.push(parseInt(h, 16));
            i += 3;
            continue;
          }
          if (i + 1 >= n) return undefined;
          flush();
          value += text[i + 1];
          i += 2;
          continue;
        }
        flush();
        value += ch;
        i++;
      }
      flush();
    }
    out.push({ oid, value });
    if (i < n) i++; // separator
  }
  return out.length ? out : undefined;
}

function normaliseValue(v: string): string {
  let s = v;
  if (/%[0-9a-fA-F]{2}/.test(s)) {
    try {
      s = decodeURIComponent(s);
    } catch {
      /* keep as is */
    }
  }
  return s.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();
}

/** True when both names carry the same attributes (order and type aliases ignored). */
export function sameDn(a: DnAttribute[], b: DnAttribute[]): boolean {
  if (a.length !== b.length) return false;
  const key = (x: DnAttribute): string => `${x.oid}=${normaliseValue(x.value)}`;
  const left = a.map(key).sort();
  const right = b.map(key).sort();
  return left.every((v, idx) => v === right[idx]);
}

const SHORT_NAMES: Record<string, string> = {
  '2.5.4.3': 'CN',
  '2.5.4.6': 'C',
  '2.5.4.7': 'L',
  '2.5.4.8': 'ST',
  '2.5.4.9': 'STREET',
  '2.5.4.10': 'O',
  '2.5.4.11': 'OU',
  '0.9.2342.19200300.100.1.25': 'DC',
  '0.9.2342.19200300.100.1.1': 'UID',
};

function escape2253(v: string): string {
  let s = v.replace(/[\\,+"<>;=]/g, (c) => '\\' + c);
  if (s.startsWith(' ') || s.startsWith('#')) s = '\\' + s;
  if (s.endsWith(' ')) s = s.slice(0, -1) + '\\ ';
  return s;
}

/** RFC 2253 text of a name read from a certificate (RDNs in reverse encoding order). */
export function dnToRfc2253(attrs: DnAttribute[]): string {
  return [...attrs]
    .reverse()
    .map((a) => {
      const t = SHORT_NAMES[a.oid] ?? a.oid;
      return `${t}=${escape2253(a.value)}`;
    })
    .join(',');
}
