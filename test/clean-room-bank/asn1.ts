// Minimal DER reader: enough to take an X.509 certificate apart (serial, issuer,
// subject, extensions, the ETSI PSD2 QCStatement). Throws Error on malformed input.

export interface DerNode {
  /** first identifier octet */
  tag: number;
  constructed: boolean;
  /** the content octets */
  content: Buffer;
  /** the whole encoding (identifier, length, content) */
  raw: Buffer;
}

export function readDer(buf: Buffer, offset = 0): DerNode {
  if (offset + 2 > buf.length) throw new Error('DER: truncated header');
  const tag = buf[offset] ?? 0;
  if ((tag & 0x1f) === 0x1f) throw new Error('DER: high tag numbers are not supported');
  let pos = offset + 1;
  const first = buf[pos] ?? 0;
  pos += 1;
  let len: number;
  if (first < 0x80) {
    len = first;
  } else {
    const count = first & 0x7f;
    if (count === 0 || count > 4) throw new Error('DER: unsupported length');
    if (pos + count > buf.length) throw new Error('DER: truncated length');
    len = 0;
    for (let i = 0; i < count; i++) len = len * 256 + (buf[pos + i] ?? 0);
    pos += count;
  }
  if (pos + len > buf.length) throw new Error('DER: truncated content');
  return {
    tag,
    constructed: (tag & 0x20) !== 0,
    content: buf.subarray(pos, pos + len),
    raw: buf.subarray(offset, pos + len),
  };
}

export function derChildren(node: DerNode): DerNode[] {
  if (!node.constructed) throw new Error('DER: not a constructed value');
  const out: DerNode[] = [];
  let pos = 0;
  while (pos < node.content.length) {
    const child = readDer(node.content, pos);
    out.push(child);
    pos += child.raw.length;
  }
  return out;
}

export function derOid(node: DerNode): string {
  if (node.tag !== 0x06) throw new Error('DER: not an OBJECT IDENTIFIER');
  const bytes = node.content;
  if (bytes.length === 0) throw new Error('DER: empty OID');
  const parts: string[] = [];
  let value = 0n;
  let first = true;
  for (const b of bytes) {
    value = (value << 7n) | BigInt(b & 0x7f);
    if ((b & 0x80) === 0) {
      if (first) {
        const x = value < 80n ? value / 40n : 2n;
        parts.push(String(x), String(value - x * 40n));
        first = false;
      } else {
        parts.push(String(value));
      }
      value = 0n;
    }
  }
  return parts.join('.');
}

export function derInteger(node: DerNode): bigint {
  if (node.tag !== 0x02) throw new Error('DER: not an INTEGER');
  if (node.content.length === 0) throw new Error('DER: empty INTEGER');
  let v = 0n;
  for (const b of node.content) v = (v << 8n) | BigInt(b);
  if ((node.content[0] ?? 0) & 0x80) v -= 1n << BigInt(node.content.length * 8);
  return v;
}

/** Decodes the ASN.1 string types used in distinguished names. */
export function derString(node: DerNode): string {
  switch (node.tag) {
    case 0x0c: // UTF8String
      return node.content.toString('utf8');
    case 0x13: // PrintableString
    case 0x16: // IA5String
    case 0x12: // NumericString
    case 0x1a: // VisibleString
      return node.content.toString('latin1');
    case 0x14: // TeletexString (approximation)
      return node.content.toString('latin1');
    case 0x1e: {
      // BMPString, UCS-2 big endian
      const b = Buffer.from(node.content);
      b.swap16();
      return b.toString('utf16le');
    }
    case 0x1c: {
      // UniversalString, UCS-4 big endian
      let s = '';
      for (let i = 0; i + 3 < node.content.length; i += 4) s += String.fromCodePoint(node.content.readUInt32BE(i));
      return s;
    }
    default:
      return '#' + node.raw.toString('hex');
  }
}
