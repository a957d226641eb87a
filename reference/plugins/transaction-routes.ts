// Transactions of consented accounts and card accounts: booked and pending lists,
// date filters and limit/offset pagination with links (default page size 200,
// written into every generated link), and the transaction details endpoint.
// In the sandbox the date filters apply to pending transactions too (the known
// issue of the specification does not affect the sandbox).
import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { BankError } from '../bank-errors.js';
import { defineFault, defineVariant, type BodyChange, type JsonBody, type TppSwitches } from '../switches.js';
import { amount, DAY_MS, day, reportedAmount, reportedAmountsUnbound, resourceLink, type Amount } from '../serialisation.js';
import { UNATTENDED_HISTORY_DAYS } from '../state/unattended-reads.js';
import type { AnyAccount } from '../state/sandbox-data.js';
import { transactionsOf, type StoredTransaction } from '../state/transaction-history.js';
import { psuPresent } from '../http/request-context.js';
import { isAccount, isCard, pick, psuAccess } from '../services/account-access.js';
import { countUnattendedRead } from '../services/unattended-quota.js';

export const DEFAULT_PAGE_SIZE = 200;

// The answers' shapes, for the faults declared as changes of them (`alters`, applied by plugins/body-changes.ts).
const LISTING = 'GET /v1/accounts/:accountId/transactions';
const CARD_LISTING = 'GET /v1/card-accounts/:accountId/transactions';
const DETAILS = 'GET /v1/accounts/:accountId/transactions/:transactionId';
const GROUPS: readonly string[] = ['booked', 'pending', 'all'];
type Entry = JsonBody;

/** The report of a listing (an account's or a card account's), or undefined for the details. */
function reportKey(body: JsonBody): 'transactions' | 'cardTransactions' | undefined {
  return 'transactions' in body ? 'transactions' : 'cardTransactions' in body ? 'cardTransactions' : undefined;
}

/** The transaction entries of an answer: a listing's groups, or the details (nested or not). */
function entriesOf(body: JsonBody): Entry[] {
  const key = reportKey(body);
  if (key !== undefined)
    return Object.entries(body[key] as JsonBody).flatMap(([group, list]) =>
      GROUPS.includes(group) && Array.isArray(list) ? (list as Entry[]) : [],
    );
  const details = body.transactionsDetails as Entry | undefined;
  if (details === undefined) return [];
  return [
    typeof details.transactionDetails === 'object' && details.transactionDetails !== null ? (details.transactionDetails as Entry) : details,
  ];
}

/** The answer with each of its transaction entries changed. */
function withEntries(body: JsonBody, change: (entry: Entry) => Entry): JsonBody {
  const key = reportKey(body);
  if (key !== undefined) {
    const report = Object.entries(body[key] as JsonBody).map(([group, list]): [string, unknown] => [
      group,
      GROUPS.includes(group) && Array.isArray(list) ? (list as Entry[]).map(change) : list,
    ]);
    return { ...body, [key]: Object.fromEntries(report) };
  }
  const details = body.transactionsDetails as Entry;
  const nested = typeof details.transactionDetails === 'object' && details.transactionDetails !== null;
  return {
    ...body,
    transactionsDetails: nested ? { ...details, transactionDetails: change(details.transactionDetails as Entry) } : change(details),
  };
}

/** A change of the account transaction entries (listed, and in details) that `picks`: asked where there is one. */
function accountEntries(change: (entry: Entry) => Entry, picks: (entry: Entry) => boolean = () => true): BodyChange {
  return {
    route: [LISTING, DETAILS],
    when: (body, { status }) => status === 200 && entriesOf(body).some(picks),
    apply: (body) => withEntries(body, (e) => (picks(e) ? change(e) : e)),
  };
}

/** A booked transaction (a pending one has no transactionId). */
const booked = (entry: Entry) => entry.transactionId !== undefined;

/** The entry with `key` (its value, or `value` where it has none) right after the counterparty's name. */
function afterName(entry: Entry, key: string, value: unknown): Entry {
  const pairs = Object.entries(entry).filter(([k]) => k !== key);
  const at = pairs.findIndex(([k]) => k === 'creditorName' || k === 'debtorName') + 1;
  return Object.fromEntries([...pairs.slice(0, at), [key, key in entry ? entry[key] : value], ...pairs.slice(at)]);
}

/** The entry with one key renamed, in its place. */
const renamed = (entry: Entry, from: string, to: string): Entry =>
  Object.fromEntries(Object.entries(entry).map(([k, v]) => [k === from ? to : k, v]));

/** A UUID written without its hyphens, with them again. */
const hyphenated = (id: string) => id.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');

const PAGE_LINKS: readonly string[] = ['first', 'previous', 'next', 'last'];

const NOK_PER_EUR = 11.5;
const NOK_PER_BYN = 3.3;

/**
 * A card transaction's originalAmount: the purchase's amount in the purchase's currency, where
 * transactionAmount is in the card account's (the mapping cardaccount-switch-originalamount-and-transactionamount
 * made default). Airline tickets (merchant category 4511) are bought in euros, everything else at home.
 */
function originalAmountOf(t: StoredTransaction, cardCurrency: string, switches: TppSwitches): Amount {
  if (t.merchantCategoryCode !== '4511') return amount(t.amountMinor, cardCurrency);
  // Under reportedAmountsUnbound, the airline is paid in Belarusian rubles (BYN, not in the specification's list).
  return switches.reads(reportedAmountsUnbound)
    ? reportedAmount(switches, Math.round(t.amountMinor / NOK_PER_BYN), 'BYN')
    : amount(Math.round(t.amountMinor / NOK_PER_EUR), 'EUR');
}

const pageSizeTooLarge = defineFault('page-size-250', {
  description: 'a listing without limit holds up to 250 booked transactions, and its links carry limit=250',
  breaks: ['PAG-01', 'PAG-02', 'LIM-08'],
});
const linksWithoutSize = defineVariant('pagination-links-without-size', {
  description: 'the pagination links name no page size (no limit parameter): the page they lead to keeps the default of 200',
  allowedBy:
    'Limits: "Default transaction page size | 200 (also in generated pagination links)": the links page by 200 as well, which a link that names no size and leads to a page of the default size does',
  source: 'Specification, Limits (Default transaction page size)',
});
const nextLinkSkips = defineFault('next-link-skips-one', {
  description: 'the next link starts one transaction too far, so following it skips a transaction per page',
  breaks: ['END-17'],
});
const lastPageLinksNext = defineFault('last-page-links-next', {
  description: 'the last page still links next (to an empty page)',
  breaks: ['PAG-05'],
});
defineFault('pagination-links-post-only', {
  description: 'the pagination links list POST as their only verb (a page is read with GET)',
  breaks: ['PAG-04'],
  alters: {
    route: [LISTING, CARD_LISTING],
    when: (body, { status }) =>
      status === 200 && ((body[reportKey(body) ?? ''] as { _links?: JsonBody } | undefined)?._links?.first ?? undefined) !== undefined,
    apply: (body) => {
      const key = reportKey(body) as string;
      const report = body[key] as { _links: JsonBody };
      const links = Object.fromEntries(
        Object.entries(report._links).map(([name, link]) => [
          name,
          PAGE_LINKS.includes(name) ? { ...(link as JsonBody), verbs: ['POST'] } : link,
        ]),
      );
      return { ...body, [key]: { ...report, _links: links } };
    },
  },
});
const offsetIgnored = defineFault('offset-ignored', {
  description: 'the offset parameter is ignored: every page starts at the first transaction',
  breaks: ['PAG-03', 'END-17'],
});
const offsetCountsPages = defineVariant('offset-counts-pages', {
  description:
    'offset counts pages of limit transactions, not transactions: limit=5&offset=1 starts at the 6th; the pagination links write it so',
  allowedBy:
    'GET /v1/accounts/{id}/transactions: "parameters bookingStatus (…), dateFrom, dateTo, limit, offset": offset is named without saying what it counts, and the Berlin Group, which pages by links, has no such parameter',
  source: 'Specification, Endpoints > Other endpoints named',
});
const listingNeedsBookingStatus = defineFault('listing-needs-booking-status', {
  description: 'a transaction listing without bookingStatus is refused with 400',
  breaks: ['END-15'],
});

const unattendedHistoryUnlimited = defineFault('unattended-history-unlimited', {
  description: 'transaction reads without PSU-IP-Address return transactions older than 90 days',
  breaks: ['LIM-05'],
});

defineFault('remittance-as-string', {
  description: 'remittanceInformationUnstructured is a string in transaction lists, not an array',
  breaks: ['AIS-06'],
  alters: accountEntries((e) => ({
    ...e,
    remittanceInformationUnstructured: Array.isArray(e.remittanceInformationUnstructured)
      ? (e.remittanceInformationUnstructured[0] as unknown)
      : e.remittanceInformationUnstructured,
  })),
});
defineFault('booked-ids-change', {
  description: 'booked transactions get a new transactionId on every read',
  breaks: ['AIS-03', 'VER-22'],
  alters: accountEntries((e) => ({ ...e, transactionId: randomUUID() }), booked),
});
defineFault('booked-entries-change', {
  description: 'a booked transaction comes back with another remittance text on every read (same transactionId)',
  breaks: ['AIS-02'],
  alters: accountEntries((e) => {
    const changed = (text: unknown) => `${String(text)} ${randomUUID().slice(0, 8)}`;
    const text = e.remittanceInformationUnstructured;
    return { ...e, remittanceInformationUnstructured: Array.isArray(text) ? text.map(changed) : changed(text) };
  }, booked),
});
const bookedIncludesPending = defineFault('booked-includes-pending', {
  description: 'bookingStatus=booked also returns the pending transactions',
  breaks: ['END-27'],
});
const unknownBookingStatusAccepted = defineFault('unknown-booking-status-accepted', {
  description: 'an unknown bookingStatus value is read as booked instead of refused',
  breaks: ['END-28'],
});
const bookingStatusAllRefused = defineVariant('booking-status-all-refused', {
  description: 'bookingStatus=all is refused with 400 FORMAT_ERROR (booked, pending and both are served)',
  allowedBy:
    'bookingStatus: "values both, pending, all are mentioned", without saying what each returns or that each is served; Berlin Group\'s bookingStatus is one of information, booked, pending, both: "all" is none of them',
  source: 'Specification, Endpoints > Other endpoints named (GET /v1/accounts/{id}/transactions); Berlin Group 1.3.8, bookingStatusGeneric',
});
const bookingStatusBothRefused = defineFault('booking-status-both-refused', {
  description: 'bookingStatus=both is refused with 400',
  breaks: ['END-13', 'END-29'],
});
const bookingStatusAllServerError = defineFault('booking-status-all-server-error', {
  description: 'bookingStatus=all fails inside the bank (500): neither served nor refused as an unknown value',
  breaks: ['END-14', 'ERR-45'],
});
const ninetyDayDefaultWindow = defineVariant('ninety-day-default-window', {
  description: 'a transaction listing without dateFrom covers the last 90 days (dateFrom defaults to 90 days back)',
  allowedBy:
    'The parameters dateFrom and dateTo are named without a default, and nothing says which transactions a listing without parameters returns; Berlin Group makes dateFrom mandatory for a listing that is no delta, so a bank may fill it in',
  source: 'Specification, Endpoints > Other endpoints named and Limits; Berlin Group 1.3.8, query parameter dateFrom',
});
const DEFAULT_WINDOW_DAYS = 90;
defineFault('transaction-without-amount', {
  description: 'account transactions, listed and in details, carry no transactionAmount',
  breaks: ['AIS-13', 'END-23'],
  alters: accountEntries(({ transactionAmount: _, ...e }) => e),
});
defineFault('transactions-ungrouped', {
  description: 'booked and pending account transactions come in one list under transactions.all instead of booked and pending',
  breaks: ['AIS-01'],
  alters: {
    route: LISTING,
    when: (_body, { status }) => status === 200,
    apply: (body) => {
      const { booked = [], pending = [], _links } = body.transactions as { booked?: Entry[]; pending?: Entry[]; _links: JsonBody };
      return { ...body, transactions: { all: [...booked, ...pending], _links } };
    },
  },
});
const emptyGroupsOmitted = defineVariant('empty-transaction-groups-omitted', {
  description:
    'an account transaction report leaves out a group with no entry (an empty booked or pending list) instead of sending it empty',
  allowedBy:
    '"transactions are grouped as booked and pending" names the groups; Berlin Group 1.3.8 accountReport requires only _links (booked and pending are optional lists, "pending is not contained" for booked)',
  source: 'Specification, Resources (account information facts); Berlin Group 1.3.8, schema accountReport',
});
const transactionDetailsNested = defineVariant('transaction-details-nested', {
  description:
    'the transaction details answer nests the transaction as transactionsDetails.transactionDetails (the Berlin Group 1.3.8 schema), not flat',
  allowedBy:
    '"Path and payload of the transaction details endpoint … not shown"; Berlin Group 1.3.8 nests it in its schema (transactionDetailsBody) and writes it flat in its example',
  source: 'Specification, Endpoints > Other endpoints named; Berlin Group 1.3.8, transactionDetailsBody',
});
const cardListingNeedsParameters = defineVariant('card-listing-needs-parameters', {
  description: 'a card transaction listing without bookingStatus or dateFrom is refused (400 QUERY_PARAMETER_REQUIRED)',
  allowedBy:
    'The specification answers "a transaction listing without parameters" for account transactions; card accounts follow Berlin Group 1.3, whose bookingStatus is mandatory and whose dateFrom is "mandated if no delta access is required"',
  source: 'Berlin Group 1.3.8, GET /v1/card-accounts/{account-id}/transactions (bookingStatus, dateFrom); Specification, Limits',
});
const transactionDetailsMissing = defineFault('transaction-details-missing', {
  description: 'the transaction details endpoint answers 404',
  breaks: ['END-23', 'VER-23'],
});
// [sandbox] the date filters (END-16) and the sandbox's exception to the known issue (END-25).
const dateToExclusive = defineFault('date-to-exclusive', {
  description: 'dateTo leaves out the transactions booked on that day (read as an exclusive bound)',
  breaks: ['END-16'],
});
const pendingIgnoreDates = defineFault('pending-ignore-dates', {
  description: 'dateFrom and dateTo do not filter pending transactions (the production known issue, in the sandbox)',
  breaks: ['END-25'],
});
const pendingIgnoreLimit = defineFault('pending-ignore-limit', {
  description: 'limit does not restrict the pending transactions (the production known issue, in the sandbox)',
  breaks: ['END-25'],
});
defineFault('proprietary-reference-misnamed', {
  description:
    'transaction details carry their proprietary reference (the merchant category) as proprietaryReference1, not additionalInformationProprietary1',
  breaks: ['AIS-05'],
  alters: {
    route: DETAILS,
    when: (_body, { status }) => status === 200,
    apply: (body) => withEntries(body, (e) => renamed(e, 'additionalInformationProprietary1', 'proprietaryReference1')),
  },
});
// [sandbox] identifiers within their Berlin Group lengths (Max35Text).
defineFault('card-transaction-id-36', {
  description: 'card transactions carry their cardTransactionId as a 36-character UUID (Max35Text in the Berlin Group)',
  breaks: ['AIS-14'],
  alters: {
    route: CARD_LISTING,
    when: (body, { status }) => status === 200 && entriesOf(body).some((e) => typeof e.cardTransactionId === 'string'),
    apply: (body) =>
      withEntries(body, (e) =>
        typeof e.cardTransactionId === 'string' ? { ...e, cardTransactionId: hyphenated(e.cardTransactionId) } : e,
      ),
  },
});
defineFault('end-to-end-id-36', {
  description: 'listed account transactions carry an endToEndId of 36 characters (Max35Text in the Berlin Group)',
  breaks: ['AIS-13'],
  alters: accountEntries((e) => afterName(e, 'endToEndId', `E2E${'9'.repeat(33)}`)),
});
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
  if (!/^\d+$/.test(value) || Number(value) < min)
    throw new BankError(400, 'FORMAT_ERROR', `Query parameter ${name} must be an integer of at least ${min}`);
  return Number(value);
}

function selection(query: Query, switches: TppSwitches, today: Date): Selection {
  if (query.bookingStatus === undefined && switches.breaks(listingNeedsBookingStatus)) {
    throw new BankError(400, 'QUERY_PARAMETER_REQUIRED', 'Query parameter bookingStatus is required');
  }
  if (query.bookingStatus === 'both' && switches.breaks(bookingStatusBothRefused))
    throw new BankError(400, 'FORMAT_ERROR', 'Query parameter bookingStatus=both is not supported');
  if (query.bookingStatus === 'all' && switches.reads(bookingStatusAllRefused))
    throw new BankError(400, 'FORMAT_ERROR', 'Query parameter bookingStatus=all is not supported');
  if (query.bookingStatus === 'all' && switches.breaks(bookingStatusAllServerError))
    throw new Error('bookingStatus=all: the listing failed');
  const known = query.bookingStatus === undefined || (BOOKING_STATUSES as readonly string[]).includes(query.bookingStatus);
  const bookingStatus = known || !switches.breaks(unknownBookingStatusAccepted) ? (query.bookingStatus ?? 'booked') : 'booked';
  if (!(BOOKING_STATUSES as readonly string[]).includes(bookingStatus)) {
    throw new BankError(400, 'FORMAT_ERROR', `Query parameter bookingStatus must be one of ${BOOKING_STATUSES.join(', ')}`);
  }
  const dateFrom =
    isoDate('dateFrom', query.dateFrom) ??
    (switches.reads(ninetyDayDefaultWindow) ? day(new Date(today.getTime() - DEFAULT_WINDOW_DAYS * DAY_MS)) : undefined);
  const dateTo = isoDate('dateTo', query.dateTo);
  if (dateFrom !== undefined && dateTo !== undefined && dateFrom > dateTo) {
    throw new BankError(400, 'FORMAT_ERROR', 'Query parameter dateFrom is after dateTo');
  }
  const limit = count('limit', query.limit, query.limit === undefined && switches.breaks(pageSizeTooLarge) ? 250 : DEFAULT_PAGE_SIZE, 1);
  const offset = query.offset !== undefined && switches.breaks(offsetIgnored) ? 0 : count('offset', query.offset, 0, 0);
  return {
    bookingStatus: bookingStatus as BookingStatus,
    ...(dateFrom === undefined ? {} : { dateFrom }),
    ...(dateTo === undefined ? {} : { dateTo }),
    limit,
    offset: query.offset !== undefined && switches.reads(offsetCountsPages) ? offset * limit : offset,
  };
}

/** Booked ones by booking date, pending ones by value date; both bounds included. */
function inPeriod(t: StoredTransaction, s: Selection, switches: TppSwitches): boolean {
  if (t.status === 'pending' && (s.dateFrom !== undefined || s.dateTo !== undefined) && switches.breaks(pendingIgnoreDates)) return true;
  const date = t.bookingDate ?? t.valueDate;
  const beforeEnd = s.dateTo === undefined || date < s.dateTo || (date === s.dateTo && !switches.breaks(dateToExclusive));
  return (s.dateFrom === undefined || date >= s.dateFrom) && beforeEnd;
}

/**
 * The page of booked (or, for bookingStatus=pending, pending) transactions and the links to the other pages (each with limit written out).
 */
function page(
  base: string,
  booked: StoredTransaction[],
  s: Selection,
  switches: TppSwitches,
): { items: StoredTransaction[]; links: Record<string, object> } {
  const items = booked.slice(s.offset, s.offset + s.limit);
  if (booked.length <= s.limit && s.offset === 0) return { items, links: {} };
  const href = (offset: number) => {
    const params = new URLSearchParams({
      bookingStatus: s.bookingStatus,
      ...(s.dateFrom ? { dateFrom: s.dateFrom } : {}),
      ...(s.dateTo ? { dateTo: s.dateTo } : {}),
    });
    if (!switches.reads(linksWithoutSize)) params.set('limit', String(s.limit));
    params.set('offset', String(switches.reads(offsetCountsPages) ? Math.floor(offset / s.limit) : offset));
    const pageLink = resourceLink(switches, `${base}?${params.toString()}`);
    return pageLink;
  };
  const lastOffset = Math.max(0, Math.floor((booked.length - 1) / s.limit) * s.limit);
  const more = s.offset + s.limit < booked.length || (items.length > 0 && switches.breaks(lastPageLinksNext));
  const nextOffset = () => s.offset + s.limit + (switches.breaks(nextLinkSkips) ? 1 : 0);
  return {
    items,
    links: {
      first: href(0),
      ...(s.offset > 0 ? { previous: href(Math.max(0, s.offset - s.limit)) } : {}),
      ...(more ? { next: href(nextOffset()) } : {}),
      last: href(lastOffset),
    },
  };
}

/**
 * The report: booked transactions paged (with links); pending ones filtered by the period and, in this sandbox,
 * by limit too (the specification's known issue does not affect the sandbox): paged like booked ones when only
 * pending ones are asked for, else at most `limit` of them.
 */
function report<T>(
  base: string,
  accountLink: object,
  all: StoredTransaction[],
  s: Selection,
  switches: TppSwitches,
  entry: (t: StoredTransaction) => T,
  card = false,
) {
  const chosen = all.filter((t) => inPeriod(t, s, switches));
  const wantBooked = s.bookingStatus !== 'pending';
  const wantPending = s.bookingStatus !== 'booked' || switches.breaks(bookedIncludesPending);
  const pendingAll = chosen.filter((t) => t.status === 'pending');
  const { items, links } = page(base, wantBooked ? chosen.filter((t) => t.status === 'booked') : pendingAll, s, switches);
  const booked = wantBooked ? items.map(entry) : [];
  const pendingShown = switches.breaks(pendingIgnoreLimit) ? pendingAll : wantBooked ? pendingAll.slice(0, s.limit) : items;
  const pending = wantPending ? pendingShown.map(entry) : [];
  // A card report keeps its booked list: the Berlin Group cardAccountReport requires it.
  const kept = (group: unknown[]) => group.length > 0 || card || !switches.reads(emptyGroupsOmitted);
  const grouped = { ...(wantBooked && kept(booked) ? { booked } : {}), ...(wantPending && kept(pending) ? { pending } : {}) };
  return { ...grouped, _links: { ...accountLink, ...(switches.breaks(pendingIgnoreLimit) && !wantBooked ? {} : links) } };
}

/** A transaction as listed; `accountBase` undefined leaves out the details link (in the details themselves). */
function accountEntry(accountBase: string | undefined, currency: string, switches: TppSwitches) {
  return (t: StoredTransaction): object => ({
    ...(t.transactionId === undefined ? {} : { transactionId: t.transactionId }),
    ...(t.bookingDate === undefined ? {} : { bookingDate: t.bookingDate }),
    valueDate: t.valueDate,
    transactionAmount: amount(t.amountMinor, currency),
    ...(t.amountMinor < 0 ? { creditorName: t.counterparty.name } : { debtorName: t.counterparty.name }),
    remittanceInformationUnstructured: [t.remittance],
    ...(t.transactionId === undefined || accountBase === undefined
      ? {}
      : { _links: { transactionDetails: resourceLink(switches, `${accountBase}/transactions/${t.transactionId}`) } }),
  });
}

function cardEntry(maskedPan: string, currency: string, switches: TppSwitches) {
  return (t: StoredTransaction): object => ({
    // cardTransactionId is Max35Text in the Berlin Group: the UUID without its hyphens (32 characters).
    ...(t.transactionId === undefined ? {} : { cardTransactionId: t.transactionId.replaceAll('-', '') }),
    transactionDate: t.valueDate,
    ...(t.bookingDate === undefined ? {} : { bookingDate: t.bookingDate }),
    transactionAmount: amount(t.amountMinor, currency),
    originalAmount: originalAmountOf(t, currency, switches),
    merchantCategoryCode: t.merchantCategoryCode,
    maskedPan,
    transactionDetails: t.counterparty.name,
    invoiced: false,
  });
}

export const transactionsPlugin = fp(
  (api, _options, done) => {
    /** The account's transactions this request may see: without the PSU, a quota and only the last 90 days (Limits). */
    const visible = (request: FastifyRequest, a: AnyAccount): StoredTransaction[] => {
      const now = request.world.clock.now();
      const all = transactionsOf(a, now);
      countUnattendedRead(request, a.resourceId, 'transactions');
      if (psuPresent(request) || request.switches.breaks(unattendedHistoryUnlimited)) return all;
      const oldest = day(new Date(now.getTime() - UNATTENDED_HISTORY_DAYS * DAY_MS));
      return all.filter((t) => (t.bookingDate ?? t.valueDate) >= oldest);
    };
    const consented = <T extends AnyAccount>(
      request: FastifyRequest<{ Params: { accountId: string } }>,
      isKind: (a: AnyAccount) => a is T,
    ) => pick(psuAccess(request), request.params.accountId, isKind);

    api.get<Listing>('/accounts/:accountId/transactions', (request) => {
      const a = consented(request, isAccount);
      const base = `/v1/accounts/${a.resourceId}`;
      const s = selection(request.query, request.switches, request.world.clock.now());
      return {
        account: { iban: a.iban, currency: a.currency },
        transactions: report(
          `${base}/transactions`,
          { account: resourceLink(request.switches, base) },
          visible(request, a),
          s,
          request.switches,
          accountEntry(base, a.currency, request.switches),
        ),
      };
    });

    api.get<Details>('/accounts/:accountId/transactions/:transactionId', (request) => {
      const a = consented(request, isAccount);
      if (request.switches.breaks(transactionDetailsMissing)) throw new BankError(404, 'NOT_FOUND', 'No such endpoint');
      const t = transactionsOf(a, request.world.clock.now()).find((x) => x.transactionId === request.params.transactionId);
      if (t === undefined)
        throw new BankError(404, 'RESOURCE_UNKNOWN', `No booked transaction ${request.params.transactionId} on this account`);
      const counterpartyAccount = { iban: t.counterparty.iban, currency: a.currency };
      const details = {
        ...accountEntry(undefined, a.currency, request.switches)(t),
        // Max35Text in the Berlin Group: the UUID without its hyphens.
        entryReference: t.transactionId?.replaceAll('-', ''),
        endToEndId: t.endToEndId,
        ...(t.amountMinor < 0 ? { creditorAccount: counterpartyAccount } : { debtorAccount: counterpartyAccount }),
        additionalInformationProprietary1: `MCC ${t.merchantCategoryCode}`,
      };
      return { transactionsDetails: request.switches.reads(transactionDetailsNested) ? { transactionDetails: details } : details };
    });

    api.get<Listing>('/card-accounts/:accountId/transactions', (request) => {
      const a = consented(request, isCard);
      // Asked of every card listing: a scenario that sends the parameters still meets this bank.
      if (
        request.switches.reads(cardListingNeedsParameters) &&
        (request.query.bookingStatus === undefined || request.query.dateFrom === undefined)
      ) {
        throw new BankError(400, 'QUERY_PARAMETER_REQUIRED', 'A card transaction listing takes bookingStatus and dateFrom');
      }
      const base = `/v1/card-accounts/${a.resourceId}`;
      const s = selection(request.query, request.switches, request.world.clock.now());
      return {
        cardAccount: { maskedPan: a.maskedPan },
        // The Berlin Group card account report requires booked: an empty list when only pending ones are asked for.
        cardTransactions: {
          booked: [],
          ...report(
            `${base}/transactions`,
            { cardAccount: resourceLink(request.switches, base) },
            visible(request, a),
            s,
            request.switches,
            cardEntry(a.maskedPan, a.currency, request.switches),
            true,
          ),
        },
      };
    });
    done();
  },
  { name: 'transactions', encapsulate: true, decorators: { request: ['world'] }, dependencies: ['signature', 'json-body'] },
);
