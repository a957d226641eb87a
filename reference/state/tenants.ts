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
// Identity first, state after: a world is made (or refreshed as recently used) only for a request whose
// signature verified. Before that a request meets the world of no one; a certificate alone, which anyone can
// copy, can read a world's clock to check a Date (`peek`) and nothing else.
//
// A world is made on first use; its psu-ids are keyed with a secret of the bank and of the world, so the same
// PSU has another psu-id in every world and at every TPP, and nobody can work one out offline.
import { createHmac, randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { BankError } from '../bank-errors.js';
import { World, type BankSite, type WorldOptions } from './world.js';
import { SandboxData } from './sandbox-data.js';
import { DEFAULT_STORE_BOUNDS, type StoreBoundsConfig } from './store-bounds.js';

/**
 * Whose PSUs a key holder's world holds: its own copy of the known state (`world-per-key`: the suite's embedded
 * bank, whose world lanes reset and move their clocks side by side), or one sandbox of PSUs every TPP sees
 * (`shared-psus`: `serve`, a bank's sandbox as TPP developers meet it), each TPP still with its own consents,
 * payments, sessions, quotas, clock, register entry and psu-ids.
 */
export type Tenancy = 'world-per-key' | 'shared-psus';

export interface TenantLimits {
  /**
   * Worlds kept at most. Each world's records are bounded by the store bounds (store-bounds.ts), so this and
   * they bound the bank's memory.
   */
  maxWorlds: number;
  /**
   * A world used within this long is never pushed out to make room for a new one: the new key holder is
   * refused instead (429), so that certificates made by the thousand cannot evict the TPPs at work.
   */
  protectedForMs: number;
  /** New worlds one client address may have made within `windowMs`; more are refused (429). */
  newWorldsPerClient: number;
  windowMs: number;
}

export const DEFAULT_TENANT_LIMITS: TenantLimits = {
  maxWorlds: 200,
  protectedForMs: 10 * 60_000,
  newWorldsPerClient: 32,
  windowMs: 60 * 60_000,
};

/** The tenant of requests that name no readable certificate, or whose signature did not verify: they change nothing. */
export const UNIDENTIFIED = 'unidentified';
/** The tenant of requests a fault serves without a verified signature (signature-check-off and its kind). */
export const UNVERIFIED = 'unverified';

interface KeptWorld {
  world: World;
  lastUsed: number;
}

export class Tenants implements BankSite {
  /** Known once the server listens; every world's links point there. */
  baseUrl = '';
  /**
   * The world of no one: what a request meets before its signature is verified, and what a refusal is answered
   * from (its clock is the real one: no verified request ever acts in it).
   */
  readonly unidentified: World;
  /**
   * The world of requests a fault serves without a verified signature: shared by all of them, never a key
   * holder's, so a fault that relaxes the signature check does not open anyone's world to a copied certificate.
   */
  readonly unverified: World;
  private readonly secret = randomBytes(32);
  private readonly worlds = new Map<string, KeptWorld>();
  /** New worlds made per client address in the current window (bounded itself: one entry per address, LRU). */
  private readonly madeBy = new LRUCache<string, { since: number; count: number }>({ max: 10_000 });

  /** The PSUs every key holder's world shares, under `shared-psus`. */
  private readonly shared: SandboxData | undefined;

  constructor(
    private readonly options: Pick<WorldOptions, 'batchTakes' | 'batchHours'> = {},
    private readonly bounds: StoreBoundsConfig = DEFAULT_STORE_BOUNDS,
    private readonly limits: TenantLimits = DEFAULT_TENANT_LIMITS,
    tenancy: Tenancy = 'world-per-key',
    private readonly now: () => number = Date.now,
  ) {
    this.shared = tenancy === 'shared-psus' ? new SandboxData() : undefined;
    // The worlds of no key holder keep PSUs of their own: what a fault lets an unverified request do stays there.
    this.unidentified = this.made(UNIDENTIFIED, false);
    this.unverified = this.made(UNVERIFIED, false);
  }

  /**
   * The world of this key holder, for a request whose signature verified (made on first use). Throws a 429
   * BankError when the bank cannot take another world: the client made too many of late, or every world is in
   * use.
   */
  worldOf(keyHolder: string, client: string): World {
    const now = this.now();
    const kept = this.worlds.get(keyHolder);
    if (kept !== undefined) {
      // Most recently used last: a Map keeps insertion order, so the first entry is the least recently used.
      this.worlds.delete(keyHolder);
      this.worlds.set(keyHolder, { world: kept.world, lastUsed: now });
      return kept.world;
    }
    const budget = this.madeBy.get(client);
    const spent = budget !== undefined && now - budget.since < this.limits.windowMs ? budget.count : 0;
    if (spent >= this.limits.newWorldsPerClient) {
      throw new BankError(
        429,
        'ACCESS_EXCEEDED',
        `this client made ${spent} sandbox worlds (one per TPP key) within ${this.limits.windowMs / 60_000} minutes; try again later with a key it used before`,
      );
    }
    if (this.worlds.size >= this.limits.maxWorlds) {
      const [oldestKey, oldest] = this.worlds.entries().next().value as [string, KeptWorld];
      if (now - oldest.lastUsed < this.limits.protectedForMs) {
        throw new BankError(
          429,
          'ACCESS_EXCEEDED',
          `the sandbox holds ${this.worlds.size} TPP worlds, all in use within ${this.limits.protectedForMs / 60_000} minutes; try again later`,
        );
      }
      this.worlds.delete(oldestKey);
    }
    this.madeBy.set(client, { since: spent === 0 ? now : (budget?.since ?? now), count: spent + 1 });
    const world = this.made(keyHolder);
    this.worlds.set(keyHolder, { world, lastUsed: now });
    return world;
  }

  /** The world of this key holder if it has one, neither made nor counted as used: to read its clock before a signature is verified. */
  peek(keyHolder: string): World | undefined {
    return this.worlds.get(keyHolder)?.world;
  }

  /**
   * The world an authorisation was started in (the SCA pages know only its id, which is random and given to
   * that world's TPP alone), or undefined when no world knows it.
   */
  worldOfAuthorisation(id: string): World | undefined {
    for (const { world } of this.worlds.values()) if (world.sca.find(id) !== undefined) return world;
    return this.unverified.sca.find(id) !== undefined ? this.unverified : undefined;
  }

  /** How many key holders' worlds there are. */
  get size(): number {
    return this.worlds.size;
  }

  private made(keyHolder: string, sharing = true): World {
    const psuIdSecret = createHmac('sha256', this.secret).update(keyHolder).digest();
    const shared = sharing && this.shared !== undefined ? { sharedData: this.shared } : {};
    return new World({ ...this.options, psuIdSecret, site: this, tenant: keyHolder, ...shared }, this.bounds);
  }
}
