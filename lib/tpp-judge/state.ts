/**
 * What the judge remembers of each TPP between its requests, for the rules that judge a sequence: the
 * X-Request-IDs it used, its SCA sessions and their redirects, the identifiers the bank gave it, the
 * scaRedirect links it was given, its unattended reads and where its sandbox clock stands. Everything is
 * bounded, so a day of traffic streams through in constant memory; the bounds are stated where a rule
 * depends on them (TPP-23).
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

/** psu-ids remembered per TPP-Session-ID: a session shared by more PSUs than this forgets the first. */
const PSUS_PER_SESSION = 1_000;

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
  /** The psu-ids SCAs of this session gave (lower case), with the exchange that showed each. */
  psuIds: BoundedMap<string, string>;
}

/** An scaRedirect link the TPP was given in a 401, and whether the PSU has opened it since. */
export interface ScaLink {
  href: string;
  /** The TPP-Session-ID of the request it answered: the session the SCA behind it is for. */
  session: string;
  /** The exchange that gave it. */
  givenIn: string;
  opened: boolean;
  /** Whether the request it answered named its PSU (PSU-ID, or X-PSU-IDENTITY). */
  namedPsu: boolean;
}

/** The unattended reads of one quota (TPP-43, TPP-44) of one account: the last few, as many as the quota needs. */
export interface UnattendedReads {
  /** Account and card-account reads, transaction details left out. */
  listings: BankClockReading[];
  /** Every read, transaction details included. */
  all: BankClockReading[];
}

/**
 * Where a TPP's sandbox clock stands against the recorder's, in milliseconds (bank clock minus recorder
 * clock), as a range: learnt from the Dates of the answers given in the TPP's own world.
 */
export interface ClockOffset {
  min: number;
  max: number;
}

export class TppState {
  readonly requestIds = new BoundedSet<string>(REQUEST_ID_MEMORY);
  readonly sessions = new BoundedMap<string, SessionState>(100_000);
  /** By session and request (`<session>\n<METHOD> <path>`): the link of the last answer asking for SCA. */
  readonly scaLinks = new BoundedMap<string, ScaLink>(100_000);
  /** Unattended reads by quota and account. */
  readonly unattendedReads = new BoundedMap<string, UnattendedReads>(100_000);
  /** The psu-ids the bank gave this TPP in redirects (lower case), with the exchange that showed each. */
  readonly psuIds = new BoundedMap<string, string>(100_000);
  /** The psu-corporate-ids the bank gave this TPP (a redirect, or GET /v1/agreements; lower case), with the exchange. */
  readonly corporateIds = new BoundedMap<string, string>(100_000);
  /** Its sandbox clock, once an answer in its world showed it. */
  clockOffset: ClockOffset | undefined;

  constructor(readonly ref: TppRef) {}

  session(id: string): SessionState {
    const existing = this.sessions.get(id);
    if (existing) return existing;
    const created: SessionState = { psuIds: new BoundedMap(PSUS_PER_SESSION) };
    this.sessions.set(id, created);
    return created;
  }
}
