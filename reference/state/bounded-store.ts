// A store of the bank's records (payments, baskets, authorisations, sessions, consents) that cannot grow
// without bound, whatever TPPs send: at most `perTpp` records of one TPP (its oldest go first), at most
// `total` records and `maxBytes` bytes overall (the least recently used go first). A TPP that floods the
// bank pushes out its own records long before anyone else's. Map-like, so the stores read as they did.
//
// lru-cache does the overall bound (entries and bytes, least recently used first); the per-TPP bound is a
// list per TPP in creation order.
import { LRUCache } from 'lru-cache';

export interface StoreBounds<V> {
  /** Records of one TPP. */
  perTpp: number;
  /** Records of all TPPs together. */
  total: number;
  /** The TPP a record belongs to. */
  tppOf: (value: V, key: string) => string;
  /** Bytes of all records together, with `sizeOf` estimating one record (a payment body a TPP chose). */
  maxBytes?: number;
  sizeOf?: (value: V) => number;
  /** Called when a record leaves the store, whatever the reason (a bound, delete, clear): indexes of it follow. */
  removed?: (value: V, key: string) => void;
}

/** Per-record overhead in a size estimate: ids, dates, the map's own entry. */
export const RECORD_OVERHEAD_BYTES = 512;

/** The TPP of a record keyed `${tppId}\n…`. */
export const tppOfKey = (_value: unknown, key: string): string => key.slice(0, key.indexOf('\n'));

/** Characters as bytes in a size estimate (UTF-16 in memory). */
export const textBytes = (...texts: (string | undefined)[]): number =>
  texts.reduce((sum, text) => sum + 2 * (text?.length ?? 0), RECORD_OVERHEAD_BYTES);

export class BoundedStore<K extends string, V extends NonNullable<unknown>> implements Iterable<[K, V]> {
  private readonly cache: LRUCache<K, V>;
  /** Keys of each TPP's records, oldest first. */
  private readonly byTpp = new Map<string, Set<K>>();

  constructor(private readonly bounds: StoreBounds<V>) {
    const { sizeOf, maxBytes } = bounds;
    // No `max`: with one, lru-cache allocates its arrays for that many entries up front (a sandbox world's stores
    // came to 7.8 MB and 59 ms, before a single record; a gauntlet makes a world per TPP, thousands). Without it
    // they grow with use, and set() keeps the count bound. With no byte bound, each record weighs 1 against `total`.
    this.cache = new LRUCache<K, V>({
      ...(maxBytes !== undefined && sizeOf !== undefined
        ? { maxSize: maxBytes, sizeCalculation: (value: V) => Math.max(1, Math.ceil(sizeOf(value))) }
        : { maxSize: bounds.total, sizeCalculation: () => 1 }),
      dispose: (value, key) => this.untrack(key, value),
    });
  }

  get(key: K): V | undefined {
    return this.cache.get(key);
  }

  has(key: K): boolean {
    return this.cache.has(key);
  }

  set(key: K, value: V): this {
    this.cache.set(key, value);
    if (!this.cache.has(key)) return this; // larger than the whole byte bound: not kept
    while (this.cache.size > this.bounds.total) this.cache.pop(); // the least recently used go first
    const tpp = this.bounds.tppOf(value, key);
    let keys = this.byTpp.get(tpp);
    if (!keys) this.byTpp.set(tpp, (keys = new Set()));
    keys.add(key);
    for (const oldest of keys) {
      if (keys.size <= this.bounds.perTpp) break;
      this.cache.delete(oldest);
    }
    return this;
  }

  delete(key: K): boolean {
    return this.cache.delete(key);
  }

  clear(): void {
    this.cache.clear();
    this.byTpp.clear();
  }

  get size(): number {
    return this.cache.size;
  }

  /** Records of one TPP, at most `perTpp`. */
  countOf(tppId: string): number {
    return this.byTpp.get(tppId)?.size ?? 0;
  }

  values(): IterableIterator<V> {
    return this.cache.values();
  }

  keys(): IterableIterator<K> {
    return this.cache.keys();
  }

  [Symbol.iterator](): IterableIterator<[K, V]> {
    return this.cache.entries();
  }

  private untrack(key: K, value: V): void {
    const tpp = this.bounds.tppOf(value, key);
    const keys = this.byTpp.get(tpp);
    keys?.delete(key);
    if (keys?.size === 0) this.byTpp.delete(tpp);
    this.bounds.removed?.(value, key);
  }
}
