/**
 * Limits: reads without PSU-IP-Address (the TPP acting without the PSU) stay within 4 per account "per 24
 * hours", balances and transactions counted apart. The text allows more than one way of counting, and a TPP
 * may count in any of them:
 * - the 24 hours as any 24 hours (a sliding window), or as a calendar day, the bank's (Oslo) or UTC's;
 * - transaction details as reads of the account's transactions, or apart from the listings.
 * A finding is made only where the reads break the limit under every one of those readings; reads that
 * break it under some only are not judged, and the reason names the reading that allows them. Counted by
 * the bank's clock, and only where the clock's uncertainty cannot change the count.
 */
import type { PathName } from '../../spec/paths.js';
import type { BankClockReading } from '../observed-exchange.js';
import { CLOCK_UNKNOWN, fail, PASS, unjudged, type Learner, type Rule, type RuleContext } from '../rule.js';
import type { UnattendedReads } from '../state.js';

const WINDOW_MS = 24 * 3600 * 1000;
const QUOTA = 4;

/** The calendar days a TPP may count by: the bank's own (a Norwegian bank), and UTC, the zone of its Date headers. */
const CALENDAR_ZONES = ['Europe/Oslo', 'UTC'] as const;

/** Which quota a read counts against: the rule, the account's kind (card accounts have their own paths), and whether it reads details. */
const QUOTAS: Partial<Record<PathName, { rule: 'TPP-43' | 'TPP-44'; account: 'account' | 'card-account'; details?: true }>> = {
  balances: { rule: 'TPP-43', account: 'account' },
  cardAccountBalances: { rule: 'TPP-43', account: 'card-account' },
  transactions: { rule: 'TPP-44', account: 'account' },
  transactionDetails: { rule: 'TPP-44', account: 'account', details: true },
  cardAccountTransactions: { rule: 'TPP-44', account: 'card-account' },
};

/**
 * The quota an unattended read of this request counts against (a key per TPP), and whether it reads details; undefined for any other
 * request.
 */
function quotaOf(c: RuleContext, rule: string): { key: string; details: boolean } | undefined {
  if (c.call.method !== 'GET' || c.call.path === undefined || c.header('psu-ip-address') !== undefined) return undefined;
  const quota = QUOTAS[c.call.path.name];
  if (quota?.rule !== rule) return undefined;
  return { key: `${rule}\n${quota.account}\n${c.call.path.parameters.accountId ?? ''}`, details: quota.details === true };
}

const dayFormats = new Map(
  CALENDAR_ZONES.map((zone) => [
    zone,
    new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }),
  ]),
);

/** The calendar day of an instant in a zone, as YYYY-MM-DD. */
function dayOf(ms: number, zone: (typeof CALENDAR_ZONES)[number]): string {
  return dayFormats.get(zone)?.format(ms) ?? '';
}

/** How a read counts under one way of counting: certainly (the clock's uncertainty cannot change it), possibly, or not. */
type Counts = 'certainly' | 'possibly' | 'no';

/** Whether an earlier read counts with `now` in any 24 hours. */
function inSlidingWindow(earlier: BankClockReading, now: BankClockReading): Counts {
  if (now.latest - earlier.earliest < WINDOW_MS) return 'certainly';
  return now.earliest - earlier.latest < WINDOW_MS ? 'possibly' : 'no';
}

/** Whether an earlier read counts with `now` on its calendar day in a zone. */
function onSameDay(zone: (typeof CALENDAR_ZONES)[number]) {
  return (earlier: BankClockReading, now: BankClockReading): Counts => {
    const days = new Set([dayOf(earlier.earliest, zone), dayOf(earlier.latest, zone), dayOf(now.earliest, zone), dayOf(now.latest, zone)]);
    if (days.size === 1) return 'certainly';
    return dayOf(earlier.latest, zone) >= dayOf(now.earliest, zone) ? 'possibly' : 'no';
  };
}

interface Reading {
  name: string;
  counts: (earlier: BankClockReading, now: BankClockReading) => Counts;
}

const TIME_READINGS: readonly Reading[] = [
  { name: 'in any 24 hours', counts: inSlidingWindow },
  ...CALENDAR_ZONES.map((zone) => ({ name: `on a calendar day (${zone})`, counts: onSameDay(zone) })),
];

/** Whether `now` is one read past the quota under a reading: the QUOTA-th read before it counts with it. */
function pastQuota(earlier: readonly BankClockReading[], now: BankClockReading, reading: Reading): Counts {
  const oldest = earlier.length >= QUOTA ? earlier[earlier.length - QUOTA] : undefined;
  return oldest === undefined ? 'no' : reading.counts(oldest, now);
}

function quotaRule(rule: 'TPP-43' | 'TPP-44', what: string, hint: string): Rule & Learner {
  return {
    id: rule,
    hint,
    judge: (c) => {
      const quota = quotaOf(c, rule);
      if (quota === undefined) return undefined;
      if (c.clock === undefined) return unjudged(CLOCK_UNKNOWN);
      const reads: UnattendedReads = c.tpp.unattendedReads.get(quota.key) ?? { listings: [], all: [] };
      // Every way of counting: each time reading, with transaction details counted, and (for a listing) apart.
      const ways = TIME_READINGS.flatMap((reading) => [
        {
          name: `${reading.name}${rule === 'TPP-44' ? ', details counted with listings' : ''}`,
          past: pastQuota(reads.all, c.clock as BankClockReading, reading),
        },
        ...(rule === 'TPP-44'
          ? [
              {
                name: `${reading.name}, listings alone`,
                past: quota.details ? ('no' as const) : pastQuota(reads.listings, c.clock as BankClockReading, reading),
              },
            ]
          : []),
      ]);
      const account = c.call.path?.parameters.accountId ?? '';
      if (ways.every((way) => way.past === 'certainly')) {
        return fail(
          `at most ${QUOTA} ${what} reads without PSU-IP-Address per account per 24 hours, however counted`,
          `read ${QUOTA + 1} of account ${account} in 24 hours and on one calendar day`,
        );
      }
      const breaking = ways.find((way) => way.past !== 'no');
      if (breaking === undefined) return PASS;
      const within = ways.find((way) => way.past === 'no');
      return unjudged(
        within === undefined
          ? `a ${what} read of account ${account} may be past the quota: the bank clock's uncertainty leaves it open`
          : `a ${what} read of account ${account} is past the quota counted ${breaking.name}, but within it counted ${within.name}, which the text allows`,
      );
    },
    learn: (c) => {
      const quota = quotaOf(c, rule);
      if (quota === undefined || c.clock === undefined) return;
      const reads = c.tpp.unattendedReads.get(quota.key) ?? { listings: [], all: [] };
      const keep = (list: readonly BankClockReading[], now: BankClockReading) => [...list, now].slice(-QUOTA);
      c.tpp.unattendedReads.set(quota.key, {
        listings: quota.details ? reads.listings : keep(reads.listings, c.clock),
        all: keep(reads.all, c.clock),
      });
    },
  };
}

export const LIMIT_RULES: readonly Rule[] = [
  quotaRule('TPP-43', 'balance', "GET /v1/accounts/{id}/balances (or a card account's) without PSU-IP-Address, answered with a Date"),
  quotaRule(
    'TPP-44',
    'transaction',
    "GET /v1/accounts/{id}/transactions (or a card account's) without PSU-IP-Address, answered with a Date",
  ),
];
