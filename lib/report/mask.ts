/**
 * PSU identifiers and national identity numbers are personal data: reports mask them by default.
 * Values are masked wherever they appear (headers, URLs, bodies), keeping the last four characters so a
 * reader can still tell two PSUs apart.
 */

/** Headers and query parameters whose value always identifies a PSU. */
const PSU_HEADER_NAMES = new Set(['psu-id', 'psu-corporate-id', 'x-psu-identity']);
const PSU_QUERY_NAMES = ['psu-id', 'psu-corporate-id'];

export function maskValue(value: string): string {
  return value.length <= 4 ? '****' : '*'.repeat(value.length - 4) + value.slice(-4);
}

export class Masker {
  private readonly secrets = new Set<string>();

  constructor(
    readonly enabled: boolean,
    secrets: Iterable<string> = [],
  ) {
    for (const secret of secrets) this.add(secret);
  }

  /** Learn a value to mask from now on (a psu-id captured from a redirect, say). */
  add(secret: string | undefined): void {
    if (secret && secret.length >= 4) this.secrets.add(secret);
  }

  text(input: string): string {
    if (!this.enabled) return input;
    let output = input;
    for (const name of PSU_QUERY_NAMES) {
      output = output.replace(new RegExp(`([?&]${name}=)([^&#\\s"]+)`, 'gi'), (_m, key: string, value: string) => {
        return key + maskValue(decodeURIComponent(value));
      });
    }
    // Longest first, so a secret that contains another is masked whole.
    for (const secret of [...this.secrets].sort((a, b) => b.length - a.length)) {
      output = output.split(secret).join(maskValue(secret));
    }
    return output;
  }

  headers(headers: Record<string, string>): Record<string, string> {
    if (!this.enabled) return headers;
    return Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [
        name,
        PSU_HEADER_NAMES.has(name.toLowerCase()) ? maskValue(value) : this.text(value),
      ]),
    );
  }
}
