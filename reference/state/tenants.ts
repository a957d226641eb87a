// The bank's tenants: a sandbox that many TPPs share keeps each of them in a world of its own (customers,
// accounts, consents, payments, SCA sessions, clock, quotas, register entry), so that no TPP can see or change
// what another does, reset another's sandbox or move another's clock.
//
// A tenant is the holder of a private key: a world is keyed by its certificate's public key (a SHA-256 of the
// SubjectPublicKeyInfo, reference/plugins/signature.ts keyHolderOf), never by the organisation identifier a
// certificate claims, which anyone can write into a self-made one. Only the key's holder can sign a request
// the bank accepts, so only they reach the world. Certificates of one key (a renewed one, a variant with other
// roles, two TPP identities of one tester) share its world: separating them would protect nothing, as their
// holder can sign as either.
//
// A world is made on first use; its psu-ids are keyed with a secret of the bank and of the world, so the same
// PSU has another psu-id in every world and at every TPP, and nobody can work one out offline.
import { createHmac, randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { BankState, type BankSite, type WorldOptions } from './bank-state.js';
import { DEFAULT_STORE_BOUNDS, type StoreBoundsConfig } from './store-bounds.js';

/**
 * Worlds kept at most: the least recently used one goes first (its TPP starts again from the known state, as
 * after a reset), so that certificates made by the thousand cannot grow the bank without bound. Each world's
 * records are bounded by the store bounds (store-bounds.ts).
 */
export const MAX_WORLDS = 200;

/** The tenant of requests that name no readable certificate: refused by the signature check, they change nothing. */
export const UNIDENTIFIED = 'unidentified';

export class Tenants implements BankSite {
  /** Known once the server listens; every world's links point there. */
  baseUrl = '';
  private readonly secret = randomBytes(32);
  private readonly worlds: LRUCache<string, BankState>;

  constructor(
    private readonly options: Pick<WorldOptions, 'batchTakes' | 'batchHours'> = {},
    private readonly bounds: StoreBoundsConfig = DEFAULT_STORE_BOUNDS,
    maxWorlds = MAX_WORLDS,
  ) {
    this.worlds = new LRUCache({ max: maxWorlds });
  }

  /** The world of this key holder (made on first use). */
  worldOf(keyHolder: string): BankState {
    let world = this.worlds.get(keyHolder);
    if (world === undefined) {
      const psuIdSecret = createHmac('sha256', this.secret).update(keyHolder).digest();
      world = new BankState({ ...this.options, psuIdSecret, site: this }, this.bounds);
      this.worlds.set(keyHolder, world);
    }
    return world;
  }

  /** The world of requests with no readable certificate. */
  get unidentified(): BankState {
    return this.worldOf(UNIDENTIFIED);
  }

  /**
   * The world an authorisation was started in (the SCA pages know only its id, which is random and given to
   * that world's TPP alone), or undefined when no world knows it.
   */
  worldOfAuthorisation(id: string): BankState | undefined {
    for (const world of this.worlds.values()) if (world.sca.find(id) !== undefined) return world;
    return undefined;
  }

  /** How many worlds there are (one per key holder seen so far). */
  get size(): number {
    return this.worlds.size;
  }
}
