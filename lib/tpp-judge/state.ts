/**
 * What the judge remembers of each TPP between its requests, for the rules that judge a sequence: the
 * X-Request-IDs it used, its SCA sessions and their redirects, the scaRedirect links it was given, and its
 * unattended reads. Everything is bounded, so a day of traffic streams through in constant memory; the
 * bounds are stated where a rule depends on them (TPP-23).
 */
import type { BankClockReading } from './observed-exchange.js';
import type { TppRef } from './tpp-attribution.js';

/** A set that forgets its oldest entries beyond `limit`. */
export class BoundedSet<T> {
  private readonly entries = new Set<T>();
  constructor(private readonly limit: number) {}

  has(value: T): boolean {
    return this.entries.has(value);
  }

  add(value: T): void {
    this.entries.delete(value);
    this.entries.add(value);
    if (this.entries.size > this.limit) this.entries.delete(this.entries.values().next().value as T);
  }
}

/** A map that forgets its least recently set entries beyond `limit`. */
export class BoundedMap<K, V> {
  private readonly entries = new Map<K, V>();
  constructor(private readonly limit: number) {}

  get(key: K): V | undefined {
    return this.entries.get(key);
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value as K);
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  values(): IterableIterator<V> {
    return this.entries.values();
  }
}

/** X-Request-IDs remembered per TPP (TPP-23 states it). */
export const REQUEST_ID_MEMORY = 100_000;

/** The outcome of an SCA the PSU completed, as its redirect to the TPP carried it (Events). */
export interface ScaSuccess {
  psuId: string;
  psuCorporateId?: string;
  context?: string;
  /** The exchange that showed it. */
  seenIn: string;
}

export interface SessionState {
  /** The TPP-Redirect-URI the TPP sent under this session (where its redirects arrive). */
  redirectUri?: string;
  /** The last successful SCA of the session. */
  success?: ScaSuccess;
}

/** An scaRedirect link the TPP was given in a 401, and whether the PSU has opened it since. */
export interface ScaLink {
  href: string;
  /** The TPP-Session-ID of the request it answered: the session the SCA behind it is for. */
  session: string;
  /** The exchange that gave it. */
  givenIn: string;
  opened: boolean;
}

export class TppState {
  readonly requestIds = new BoundedSet<string>(REQUEST_ID_MEMORY);
  readonly sessions = new BoundedMap<string, SessionState>(100_000);
  /** By session and request (`<session>\n<METHOD> <path>`): the link of the last answer asking for SCA. */
  readonly scaLinks = new BoundedMap<string, ScaLink>(100_000);
  /** Unattended reads by kind and account: when the bank received each (its clock). */
  readonly unattendedReads = new BoundedMap<string, BankClockReading[]>(100_000);

  constructor(readonly ref: TppRef) {}

  session(id: string): SessionState {
    const existing = this.sessions.get(id);
    if (existing) return existing;
    const created: SessionState = {};
    this.sessions.set(id, created);
    return created;
  }
}
