// How much of each kind of record the bank keeps (bounded-store.ts). A run of the whole suite, gauntlet
// included, stays far below every bound; a TPP that floods a long-running sandbox (`serve`) loses its own
// oldest records first. Memory, worst case, all stores full of the largest records a TPP can send: about
// 150 MiB per sandbox world, with its mock data (sandbox-data.ts MOCK_DATA_BOUNDS); a world exists only for a key
// whose signature verified, at most `maxWorlds` of them, and a client may make only so many an hour
// (state/tenants.ts). 20,000 payments of one TPP keep 1,000.
export interface Bounds {
  perTpp: number;
  total: number;
  maxBytes: number;
}

export interface StoreBoundsConfig {
  payments: Bounds;
  baskets: Bounds;
  /** Authorisations, and the ones nobody opened yet (a second index of the same records). */
  authorisations: Bounds;
  /** SCA sessions and the TPP-Session-IDs an SCA completed under. */
  sessions: Bounds;
  consents: Bounds;
}

const MiB = 1024 * 1024;

export const DEFAULT_STORE_BOUNDS: StoreBoundsConfig = {
  payments: { perTpp: 1_000, total: 10_000, maxBytes: 32 * MiB },
  baskets: { perTpp: 1_000, total: 10_000, maxBytes: 8 * MiB },
  authorisations: { perTpp: 5_000, total: 50_000, maxBytes: 32 * MiB },
  sessions: { perTpp: 5_000, total: 50_000, maxBytes: 16 * MiB },
  consents: { perTpp: 5_000, total: 50_000, maxBytes: 16 * MiB },
};
