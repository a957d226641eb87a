/**
 * Base85 for bytes carried inside the page (the compressed catalogue): 4 bytes in 5 characters, a quarter
 * more than the bytes where base64 takes a third. The alphabet is Ascii85's (`!` to `u`) with `<` replaced
 * by `v`, so the text can never close the script element it sits in. The page's script decodes it
 * (lib/report/html/browser.js, `base85`).
 */
const ALPHABET = Array.from({ length: 85 }, (_, i) => String.fromCharCode(0x21 + i))
  .join('')
  .replace('<', 'v');

export function encodeBase85(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 4) {
    const chunk = bytes.subarray(i, i + 4);
    let value = 0;
    for (let j = 0; j < 4; j++) value = value * 256 + (chunk[j] ?? 0);
    const digits: string[] = [];
    for (let j = 0; j < 5; j++) {
      digits.unshift(ALPHABET[value % 85] ?? '');
      value = Math.floor(value / 85);
    }
    // A last group of n bytes needs only n + 1 characters.
    out += digits.slice(0, chunk.length + 1).join('');
  }
  return out;
}

export function decodeBase85(text: string): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < text.length; i += 5) {
    const group = text.slice(i, i + 5);
    let value = 0;
    for (let j = 0; j < 5; j++) value = value * 85 + (j < group.length ? ALPHABET.indexOf(group[j] ?? '') : 84);
    const bytes = [(value >>> 24) & 255, (value >>> 16) & 255, (value >>> 8) & 255, value & 255];
    out.push(...bytes.slice(0, group.length - 1));
  }
  return Uint8Array.from(out);
}
