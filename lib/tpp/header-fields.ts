// Request header fields: case-insensitive lookup, the caller's spelling of
// names kept for the wire and for the recorded exchange.
export class HeaderFields {
  readonly #fields = new Map<string, { name: string; value: string }>();

  constructor(initial: Record<string, string> = {}) {
    for (const [name, value] of Object.entries(initial)) this.set(name, value);
  }

  /** Later values replace earlier ones, whatever the case of the name. */
  set(name: string, value: string): void {
    this.#fields.set(name.toLowerCase(), { name, value });
  }

  setIfAbsent(name: string, value: () => string): void {
    if (!this.has(name)) this.set(name, value());
  }

  get(name: string): string | undefined {
    return this.#fields.get(name.toLowerCase())?.value;
  }

  has(name: string): boolean {
    return this.#fields.has(name.toLowerCase());
  }

  delete(name: string): void {
    this.#fields.delete(name.toLowerCase());
  }

  toRecord(): Record<string, string> {
    return Object.fromEntries([...this.#fields.values()].map(({ name, value }) => [name, value]));
  }
}
