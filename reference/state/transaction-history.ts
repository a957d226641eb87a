// Simulated transactions, derived rather than stored: each account has about one
// booked transaction every few days, computed from the account id and the date, so
// a booked transaction keeps its transactionId forever (specification: booked is
// final and stable) while new days bring new ones. Pending ones are of today and
// may change between reads.
import { createHash } from 'node:crypto';
import { DAY_MS, day } from '../serialisation.js';
import { bbanFrom, norwegianIban } from '../../lib/identifiers/index.js';
import { uuidV5 } from '../ids.js';
import type { AnyAccount, MockHistory } from './sandbox-data.js';

/** How far back the simulated history goes. */
export const HISTORY_DAYS = 400;

export interface StoredTransaction {
  /** Stable for booked transactions; pending ones have none. */
  transactionId?: string;
  status: 'booked' | 'pending';
  bookingDate?: string;
  valueDate: string;
  amountMinor: number;
  counterparty: { name: string; iban: string };
  remittance: string;
  endToEndId: string;
  merchantCategoryCode: string;
}

const PAYEES: [string, string][] = [
  ['REMA 1000 Grünerløkka', '5411'],
  ['Vy', '4112'],
  ['Ruter AS', '4111'],
  ['Telenor Norge AS', '4814'],
  ['Hafslund Strøm AS', '4900'],
  ['Vinmonopolet Majorstuen', '5921'],
  ['Apotek 1 Storo', '5912'],
  ['Norwegian Air Shuttle ASA', '4511'],
];
const PAYERS = ['Fjordlys Konsulent AS', 'Skatteetaten', 'Kari Nordmann'];

function hash(...parts: string[]): Buffer {
  return createHash('sha256').update(parts.join('\n')).digest();
}

const ibans = new Map<string, string>();

/** A fixed IBAN per counterparty name (memoised: a listing asks for hundreds). */
function counterpartyIban(name: string): string {
  let iban = ibans.get(name);
  if (iban === undefined) {
    iban = norwegianIban(bbanFrom('1503', 100_000 + (hash('iban', name).readUInt32BE(0) % 800_000)));
    ibans.set(name, iban);
  }
  return iban;
}

function simulated(account: AnyAccount, date: string, seq: number, status: StoredTransaction['status']): StoredTransaction {
  const h = hash(account.resourceId, date, String(seq), status);
  const credit = account.kind === 'account' && h[0]! % 6 === 0;
  const [payee, mcc] = PAYEES[h[1]! % PAYEES.length]!;
  const name = credit ? PAYERS[h[2]! % PAYERS.length]! : payee;
  const magnitude = credit ? 50_000 + (h.readUInt32BE(4) % 3_000_000) : 1_000 + (h.readUInt32BE(4) % 250_000);
  const id = uuidV5(`transaction:${account.resourceId}:${date}:${seq}`);
  return {
    ...(status === 'booked' ? { transactionId: id, bookingDate: date } : {}),
    status,
    valueDate: date,
    amountMinor: credit ? magnitude : -magnitude,
    counterparty: { name, iban: counterpartyIban(name) },
    remittance: credit ? `Overføring fra ${name}` : `Varekjøp ${name} ${date}`,
    endToEndId: `E2E${id.replaceAll('-', '').slice(0, 20).toUpperCase()}`,
    merchantCategoryCode: mcc,
  };
}

/**
 * Payments the sandbox batch runs booked on an account ([pis] state/payment-store.ts): real, stored transactions
 * beside the simulated history. Keyed by the account object, so each bank instance (and each reset) has its own.
 */
export const bookedPayments = new WeakMap<AnyAccount, StoredTransaction[]>();

/**
 * Transactions a mock-data operation added to an account or card account (sandbox): booked ones (with a
 * booking date) and pending ones (without), beside the simulated history. Keyed like `bookedPayments`.
 */
export const mockTransactions = new WeakMap<AnyAccount, StoredTransaction[]>();

/** Adds mock transactions to an account; a booked one gets a transactionId derived from the account and its position. */
export function addMockTransactions(
  account: AnyAccount,
  entries: readonly Omit<StoredTransaction, 'transactionId'>[],
): StoredTransaction[] {
  const stored = mockTransactions.get(account) ?? [];
  const added = entries.map((entry, i) => ({
    ...entry,
    ...(entry.status === 'booked' ? { transactionId: uuidV5(`mock-transaction:${account.resourceId}:${stored.length + i}`) } : {}),
  }));
  mockTransactions.set(account, [...stored, ...added]);
  return added;
}

const midnightOf = (date: Date) => Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());

/** The history a mock-data operation set: `count` booked transactions, newest first, over `days` days before `until`. */
function mockHistory(account: AnyAccount, history: MockHistory, today: Date): StoredTransaction[] {
  const until = Date.parse(history.until);
  const booked: StoredTransaction[] = [];
  for (let i = 0; i < history.count; i++) {
    const at = until - (1 + Math.floor((i * history.days) / history.count)) * DAY_MS;
    if (at < midnightOf(today)) booked.push(simulated(account, day(new Date(at)), i, 'booked'));
  }
  return booked;
}

/**
 * The derived booked history of an account on a day, kept per account: every listing and every details read
 * asks for it (about 130 transactions, two hashes and a UUID each), and it changes only with the day or with
 * a mock history, which a mock-data operation replaces whole. Frozen, since every caller shares it.
 */
const derivedHistories = new WeakMap<
  AnyAccount,
  { midnight: number; history: MockHistory | undefined; booked: readonly StoredTransaction[] }
>();

function derivedBooked(account: AnyAccount, today: Date): readonly StoredTransaction[] {
  const midnight = midnightOf(today);
  const kept = derivedHistories.get(account);
  if (kept !== undefined && kept.midnight === midnight && kept.history === account.history) return kept.booked;
  const booked: StoredTransaction[] = account.history ? mockHistory(account, account.history, today) : [];
  for (let back = 1; back <= HISTORY_DAYS && !account.history; back++) {
    const date = day(new Date(midnight - back * DAY_MS));
    // About one transaction in three days.
    if (hash(account.resourceId, date).readUInt8(0) % 3 === 0) booked.push(simulated(account, date, 0, 'booked'));
  }
  for (const t of booked) Object.freeze(Object.freeze(t).counterparty);
  derivedHistories.set(account, { midnight, history: account.history, booked });
  return booked;
}

/**
 * Booked transactions, newest first, from yesterday back HISTORY_DAYS (or the mock history), booked payments and mock ones; then the
 * pending ones (today's and mock ones).
 */
export function transactionsOf(account: AnyAccount, today: Date): StoredTransaction[] {
  const booked = [...derivedBooked(account, today)];
  const todayText = day(today);
  const mock = mockTransactions.get(account) ?? [];
  const stored = [...(bookedPayments.get(account) ?? []), ...mock.filter((t) => t.status === 'booked')].filter(
    (t) => (t.bookingDate ?? '') <= todayText,
  );
  if (stored.length > 0)
    booked.splice(0, booked.length, ...[...stored, ...booked].sort((a, b) => (b.bookingDate ?? '').localeCompare(a.bookingDate ?? '')));
  const pending = [...[0, 1].map((seq) => simulated(account, todayText, seq, 'pending')), ...mock.filter((t) => t.status === 'pending')];
  return [...booked, ...pending];
}
