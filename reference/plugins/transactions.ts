// Transactions of consented accounts and card accounts: booked and pending lists,
// date filters and limit/offset pagination with links (default page size 200,
// written into every generated link), and the transaction details endpoint.
// In the sandbox the date filters apply to pending transactions too (the known
// issue of the specification does not affect the sandbox).
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { BankError } from '../errors.js';
import { amount } from '../format.js';
import type { AnyAccount } from '../state/customers.js';
import { transactionsOf, type StoredTransaction } from '../state/transactions.js';
import { isAccount, isCard, pick, psuAccess } from './accounts.js';

export const DEFAULT_PAGE_SIZE = 200;
const BOOKING_STATUSES = ['booked', 'pending', 'both', 'all'] as const;
type BookingStatus = (typeof BOOKING_STATUSES)[number];

interface Query {
  bookingStatus?: string;
  dateFrom?: string;
  dateTo?: string;
  limit?: string;
  offset?: string;
}

interface Listing {
  Params: { accountId: string };
  Querystring: Query;
}

interface Details {
  Params: { accountId: string; transactionId: string };
}

interface Selection {
  bookingStatus: BookingStatus;
  dateFrom?: string;
  dateTo?: string;
  limit: number;
  offset: number;
}

function isoDate(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value)) || new Date(value).toISOString().slice(0, 10) !== value) {
    throw new BankError(400, 'FORMAT_ERROR', `Query parameter ${name} must be an ISO 8601 date (YYYY-MM-DD)`);
  }
  return value;
}

function count(name: string, value: string | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min) throw new BankError(400, 'FORMAT_ERROR', `Query parameter ${name} must be an integer of at least ${min}`);
  return Number(value);
}

function selection(query: Query): Selection {
  const bookingStatus = query.bookingStatus ?? 'booked';
  if (!(BOOKING_STATUSES as readonly string[]).includes(bookingStatus)) {
    throw new BankError(400, 'FORMAT_ERROR', `Query parameter bookingStatus must be one of ${BOOKING_STATUSES.join(', ')}`);
  }
  const dateFrom = isoDate('dateFrom', query.dateFrom);
  const dateTo = isoDate('dateTo', query.dateTo);
  if (dateFrom !== undefined && dateTo !== undefined && dateFrom > dateTo) {
    throw new BankError(400, 'FORMAT_ERROR', 'Query parameter dateFrom is after dateTo');
  }
  return {
    bookingStatus: bookingStatus as BookingStatus,
    ...(dateFrom === undefined ? {} : { dateFrom }),
    ...(dateTo === undefined ? {} : { dateTo }),
    limit: count('limit', query.limit, DEFAULT_PAGE_SIZE, 1),
    offset: count('offset', query.offset, 0, 0),
  };
}

function inPeriod(t: StoredTransaction, s: Selection): boolean {
  const date = t.bookingDate ?? t.valueDate;
  return (s.dateFrom === undefined || date >= s.dateFrom) && (s.dateTo === undefined || date <= s.dateTo);
}

const link = (href: string) => ({ href, verbs: ['GET'] });

/** The page of booked transactions and the links to the other pages (each with limit written out). */
function page(base: string, booked: StoredTransaction[], s: Selection): { items: StoredTransaction[]; links: Record<string, object> } {
  const items = booked.slice(s.offset, s.offset + s.limit);
  if (booked.length <= s.limit && s.offset === 0) return { items, links: {} };
  const href = (offset: number) => {
    const params = new URLSearchParams({ bookingStatus: s.bookingStatus, ...(s.dateFrom ? { dateFrom: s.dateFrom } : {}), ...(s.dateTo ? { dateTo: s.dateTo } : {}) });
    params.set('limit', String(s.limit));
    params.set('offset', String(offset));
    return link(`${base}?${params.toString()}`);
  };
  const lastOffset = Math.max(0, Math.floor((booked.length - 1) / s.limit) * s.limit);
  return {
    items,
    links: {
      first: href(0),
      ...(s.offset > 0 ? { previous: href(Math.max(0, s.offset - s.limit)) } : {}),
      ...(s.offset + s.limit < booked.length ? { next: href(s.offset + s.limit) } : {}),
      last: href(lastOffset),
    },
  };
}

function report<T>(base: string, accountLink: object, all: StoredTransaction[], s: Selection, entry: (t: StoredTransaction) => T) {
  const chosen = all.filter((t) => inPeriod(t, s));
  const wantBooked = s.bookingStatus !== 'pending';
  const wantPending = s.bookingStatus !== 'booked';
  const { items, links } = page(base, chosen.filter((t) => t.status === 'booked'), s);
  return {
    ...(wantBooked ? { booked: items.map(entry) } : {}),
    ...(wantPending ? { pending: chosen.filter((t) => t.status === 'pending').map(entry) } : {}),
    _links: { ...accountLink, ...(wantBooked ? links : {}) },
  };
}

/** A transaction as listed; `accountBase` undefined leaves out the details link (in the details themselves). */
function accountEntry(accountBase: string | undefined, currency: string) {
  return (t: StoredTransaction): object => ({
    ...(t.transactionId === undefined ? {} : { transactionId: t.transactionId }),
    ...(t.bookingDate === undefined ? {} : { bookingDate: t.bookingDate }),
    valueDate: t.valueDate,
    transactionAmount: amount(t.amountMinor, currency),
    ...(t.amountMinor < 0 ? { creditorName: t.counterparty.name } : { debtorName: t.counterparty.name }),
    remittanceInformationUnstructured: [t.remittance],
    ...(t.transactionId === undefined || accountBase === undefined ? {} : { _links: { transactionDetails: link(`${accountBase}/transactions/${t.transactionId}`) } }),
  });
}

function cardEntry(maskedPan: string, currency: string) {
  return (t: StoredTransaction): object => ({
    ...(t.transactionId === undefined ? {} : { cardTransactionId: t.transactionId }),
    transactionDate: t.valueDate,
    ...(t.bookingDate === undefined ? {} : { bookingDate: t.bookingDate }),
    transactionAmount: amount(t.amountMinor, currency),
    originalAmount: amount(t.amountMinor, currency),
    merchantCategoryCode: t.merchantCategoryCode,
    maskedPan,
    transactionDetails: t.counterparty.name,
    invoiced: false,
  });
}

export const transactionsPlugin = fp(
  (api, _options, done) => {
    const { bank } = api;
    const today = () => bank.clock.now();
    const consented = <T extends AnyAccount>(request: FastifyRequest<{ Params: { accountId: string } }>, isKind: (a: AnyAccount) => a is T) =>
      pick(psuAccess(bank, request), request.params.accountId, isKind);

    api.get<Listing>('/accounts/:accountId/transactions', (request) => {
      const a = consented(request, isAccount);
      const base = `/v1/accounts/${a.resourceId}`;
      const s = selection(request.query);
      return {
        account: { iban: a.iban, currency: a.currency },
        transactions: report(`${base}/transactions`, { account: link(base) }, transactionsOf(a, today()), s, accountEntry(base, a.currency)),
      };
    });

    api.get<Details>('/accounts/:accountId/transactions/:transactionId', (request) => {
      const a = consented(request, isAccount);
      const t = transactionsOf(a, today()).find((x) => x.transactionId === request.params.transactionId);
      if (t === undefined) throw new BankError(404, 'RESOURCE_UNKNOWN', `No booked transaction ${request.params.transactionId} on this account`);
      const counterpartyAccount = { iban: t.counterparty.iban, currency: a.currency };
      return {
        transactionsDetails: {
          ...accountEntry(undefined, a.currency)(t),
          entryReference: t.transactionId,
          endToEndId: t.endToEndId,
          ...(t.amountMinor < 0 ? { creditorAccount: counterpartyAccount } : { debtorAccount: counterpartyAccount }),
          additionalInformationProprietary1: `MCC ${t.merchantCategoryCode}`,
        },
      };
    });

    api.get<Listing>('/card-accounts/:accountId/transactions', (request) => {
      const a = consented(request, isCard);
      const base = `/v1/card-accounts/${a.resourceId}`;
      const s = selection(request.query);
      return {
        cardAccount: { maskedPan: a.maskedPan },
        cardTransactions: report(`${base}/transactions`, { cardAccount: link(base) }, transactionsOf(a, today()), s, cardEntry(a.maskedPan, a.currency)),
      };
    });
    done();
  },
  { name: 'transactions', encapsulate: true, decorators: { fastify: ['bank'] }, dependencies: ['signature', 'json-body'] },
);
