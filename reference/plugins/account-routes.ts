// Account information (AIS) routes: the account and card account lists, details and balances, as a TPP
// may see them under the consent (services/account-access.ts decides which accounts; the quota on reads
// without the PSU is services/unattended-quota.ts). What is here: the shape of each answer and its faults.
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { BankError } from '../bank-errors.js';
import { isAccount, isCard, pick, psuAccess } from '../services/account-access.js';
import { countUnattendedRead } from '../services/unattended-quota.js';
import { amount, DAY_MS, dateTime, day, reportedAmount, reportedAmountsUnbound, resourceLink } from '../serialisation.js';
import type { StoredAccount, StoredBalance, StoredCardAccount } from '../state/sandbox-data.js';
import { defineFault, type BodyChange, type JsonBody, type TppSwitches } from '../switches.js';

// The answers' shapes, for the faults declared as changes of them (`alters`, applied by plugins/body-changes.ts).
const ACCOUNTS = ['GET /v1/accounts', 'GET /v1/accounts/:accountId'];
const CARD_ACCOUNTS = ['GET /v1/card-accounts', 'GET /v1/card-accounts/:accountId'];
const BALANCES = ['GET /v1/accounts/:accountId/balances', 'GET /v1/card-accounts/:accountId/balances'];
const ENTRY_KEYS = ['accounts', 'account', 'cardAccounts', 'cardAccount'];
type Entry = JsonBody;

/** The account (or card account) entries of a list or of details. */
function entriesOf(body: JsonBody): Entry[] {
  const found = ENTRY_KEYS.map((key) => body[key]).find((value) => value !== undefined);
  return Array.isArray(found) ? (found as Entry[]) : found === undefined ? [] : [found as Entry];
}

/** A change of every entry of an account (or card account) list or details: asked where there is one. */
function entries(routes: readonly string[], change: (entry: Entry) => Entry): BodyChange {
  return {
    route: routes,
    when: (body, { status }) => status === 200 && entriesOf(body).length > 0,
    apply: (body) => {
      const key = ENTRY_KEYS.find((k) => k in body) as string;
      const value = body[key];
      return { ...body, [key]: Array.isArray(value) ? (value as Entry[]).map(change) : change(value as Entry) };
    },
  };
}

/** A change of the balances of an account or card account, where `when` holds of them. */
function balanceList(change: (balances: Entry[]) => Entry[], when: (balances: Entry[]) => boolean = () => true): BodyChange {
  return {
    route: BALANCES,
    when: (body, { status }) => status === 200 && when(body.balances as Entry[]),
    apply: (body) => ({ ...body, balances: change(body.balances as Entry[]) }),
  };
}

const TOO_LONG_NAME = 'N'.repeat(71);
/** A name one character past the 70 allowed: the card account's own, filled up, so that it is still its name. */
const tooLong = (name: string) => name.padEnd(71, 'N');
const INTERIM: readonly unknown[] = ['interimBooked', 'interimAvailable'];

// Faults in the shape of what is returned (each breaks one rule of the account resources).
defineFault('account-name-71', {
  description: 'account names are 71 characters long',
  breaks: ['AIS-09'],
  alters: entries(ACCOUNTS, (a) => ({ ...a, name: TOO_LONG_NAME })),
});
defineFault('cash-account-type-proprietary', {
  description: 'cashAccountType is a proprietary word (CURRENT) instead of an ISO 20022 code',
  breaks: ['AIS-08', 'VER-15'],
  alters: entries(ACCOUNTS, (a) => ({ ...a, cashAccountType: 'CURRENT' })),
});
defineFault('account-without-currency', {
  description: 'account entries carry no currency',
  breaks: ['AIS-11'],
  alters: entries(ACCOUNTS, ({ currency: _, ...a }) => a),
});
defineFault('balance-type-unknown', {
  description: 'account balances carry a balanceType outside the Berlin Group list (available)',
  breaks: ['AIS-12'],
  alters: balanceList(
    (balances) => balances.map((b) => (INTERIM.includes(b.balanceType) ? b : { ...b, balanceType: 'available' })),
    (balances) => balances.some((b) => !INTERIM.includes(b.balanceType)),
  ),
});
defineFault('card-balances-without-interim-booked', {
  description: 'card account balances leave out interimBooked (only interimAvailable)',
  breaks: ['AIS-07'],
  alters: balanceList((balances) => balances.filter((b) => b.balanceType !== 'interimBooked')),
});
defineFault('card-account-name-71', {
  description: 'card account names are 71 characters long (the name, filled up)',
  breaks: ['AIS-10'],
  alters: entries(CARD_ACCOUNTS, (a) => ({ ...a, name: tooLong(String(a.name)) })),
});
defineFault('card-account-without-currency', {
  description: 'card account entries carry no currency',
  breaks: ['AIS-14'],
  alters: entries(CARD_ACCOUNTS, ({ currency: _, ...a }) => a),
});
const balancesRefused = defineFault('balances-refused', {
  description: 'account balances answer 404',
  breaks: ['END-12'],
});
const cardBalancesRefused = defineFault('card-balances-refused', {
  description: 'card account balances answer 404',
  breaks: ['END-26'],
});

// [sandbox] the known state as a TPP sees it (SBX-03, SBX-04).
const knownPrivateCardHidden = defineFault('known-private-card-account-hidden', {
  description: 'the card accounts of the known private customers are not listed (as if the known state had none)',
  breaks: ['SBX-03'],
});
const knownCorporateAccountHidden = defineFault('known-corporate-account-hidden', {
  description: "only the first account of a known corporate customer's agreement is listed (as if the known state had one)",
  breaks: ['SBX-04'],
});

// [sandbox] what the service does (GEN-03, GEN-08, GEN-09, GEN-14).
const aispRoleNotServed = defineFault('aisp-role-not-served', {
  description: 'account lists answer 403 FORBIDDEN to a consented PSU: the interface serves this TPP as a PISP only',
  breaks: ['GEN-03'],
});
const privateContextFirstOnly = defineFault('private-context-first-account-only', {
  // Not for the customers of the known state: how many accounts they have is SBX-03's (known-private-card-account-hidden).
  description: "in PRIVATE context only the first of the PSU's consented accounts is listed, for PSUs made with mock data",
  breaks: ['GEN-09'],
});

function balances(request: FastifyRequest, stored: StoredBalance[], currency: string): object[] {
  const now = request.world.clock.now();
  const yesterday = new Date(now.getTime() - DAY_MS);
  const unbound = request.switches.reads(reportedAmountsUnbound)
    ? [{ balanceAmount: { amount: '1500.00', currency: 'JPY' }, balanceType: 'interimAvailable', lastChangeDateTime: dateTime(now) }]
    : [];
  return [
    ...stored.map((b) => ({
      balanceAmount: reportedAmount(request.switches, b.amountMinor, currency),
      balanceType: b.balanceType,
      // A closing balance is as of the end of the previous business day; the others are live.
      ...(b.balanceType === 'closingBooked' ? { referenceDate: day(yesterday) } : { lastChangeDateTime: dateTime(now) }),
    })),
    ...unbound,
  ];
}

defineFault('account-links-outside-v1', {
  description: 'the balances and transactions links of an account lead to paths without the /v1 prefix',
  breaks: ['VER-01'],
  alters: entries([...ACCOUNTS, ...CARD_ACCOUNTS], (a) => ({
    ...a,
    _links: Object.fromEntries(
      Object.entries(a._links as Record<string, JsonBody>).map(([name, link]) => [
        name,
        { ...link, href: String(link.href).replace(/^\/v1\//, '/') },
      ]),
    ),
  })),
});

function links(switches: TppSwitches, base: string): object {
  return { balances: resourceLink(switches, `${base}/balances`), transactions: resourceLink(switches, `${base}/transactions`) };
}

/** PRIV for a person's own account, ORGA for one held under a corporate agreement. */
function usageOf(a: StoredAccount | StoredCardAccount): 'PRIV' | 'ORGA' {
  return 'customerNumber' in a.holder ? 'PRIV' : 'ORGA';
}

function accountDetails(a: StoredAccount, switches: TppSwitches): object {
  return {
    resourceId: a.resourceId,
    iban: a.iban,
    bban: a.bban,
    currency: a.currency,
    name: a.name,
    ownerName: a.ownerName,
    product: a.product,
    cashAccountType: a.cashAccountType,
    status: a.status,
    usage: usageOf(a),
    _links: links(switches, `/v1/accounts/${a.resourceId}`),
  };
}

function cardAccountDetails(a: StoredCardAccount, switches: TppSwitches): object {
  return {
    resourceId: a.resourceId,
    maskedPan: a.maskedPan,
    currency: a.currency,
    name: a.name,
    ownerName: a.ownerName,
    product: a.product,
    status: a.status,
    usage: usageOf(a),
    creditLimit: amount(a.creditLimitMinor, a.currency),
    _links: links(switches, `/v1/card-accounts/${a.resourceId}`),
  };
}

interface AccountParams {
  Params: { accountId: string };
}

export const accountsPlugin = fp(
  (api, _options, done) => {
    api.get('/accounts', (request) => {
      const access = psuAccess(request);
      const listed = access.accounts.filter(isAccount);
      if (request.switches.breaks(aispRoleNotServed))
        throw new BankError(403, 'FORBIDDEN', 'This interface serves payment initiation only');
      const hidden =
        listed.length > 1 &&
        (access.context.kind === 'CORPORATE'
          ? request.world.data.isKnown(access.customerNumber) && request.switches.breaks(knownCorporateAccountHidden)
          : !request.world.data.isKnown(access.customerNumber) && request.switches.breaks(privateContextFirstOnly));
      return { accounts: (hidden ? listed.slice(0, 1) : listed).map((a) => accountDetails(a, request.switches)) };
    });

    api.get<AccountParams>('/accounts/:accountId', (request) => ({
      account: accountDetails(pick(psuAccess(request), request.params.accountId, isAccount), request.switches),
    }));

    api.get<AccountParams>('/accounts/:accountId/balances', (request) => {
      const a = pick(psuAccess(request), request.params.accountId, isAccount);
      if (request.switches.breaks(balancesRefused)) throw new BankError(404, 'RESOURCE_UNKNOWN', 'No balances');
      countUnattendedRead(request, a.resourceId, 'balances');
      return { account: { iban: a.iban, currency: a.currency }, balances: balances(request, a.balances, a.currency) };
    });

    api.get('/card-accounts', (request) => {
      const access = psuAccess(request);
      const cards = access.accounts.filter(isCard);
      const hidden =
        cards.length > 0 && request.world.data.isKnown(access.customerNumber) && request.switches.breaks(knownPrivateCardHidden);
      return { cardAccounts: hidden ? [] : cards.map((a) => cardAccountDetails(a, request.switches)) };
    });

    api.get<AccountParams>('/card-accounts/:accountId', (request) => ({
      cardAccount: cardAccountDetails(pick(psuAccess(request), request.params.accountId, isCard), request.switches),
    }));

    api.get<AccountParams>('/card-accounts/:accountId/balances', (request) => {
      const a = pick(psuAccess(request), request.params.accountId, isCard);
      if (request.switches.breaks(cardBalancesRefused)) throw new BankError(404, 'RESOURCE_UNKNOWN', 'No balances');
      countUnattendedRead(request, a.resourceId, 'balances');
      return { cardAccount: { maskedPan: a.maskedPan, currency: a.currency }, balances: balances(request, a.balances, a.currency) };
    });
    done();
  },
  { name: 'accounts', encapsulate: true, decorators: { request: ['world'] }, dependencies: ['signature', 'json-body'] },
);
