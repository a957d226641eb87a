/**
 * Endpoints > GET /v1/accounts/{id}/transactions: dateFrom and dateTo restrict the booked transactions to the
 * period, both days included (END-16); and the known issue's exception: in the sandbox, and for card
 * accounts, dateFrom, dateTo and limit filter the pending transactions too (END-25).
 */
import { accountsOf, isSuccess, jsonBodyOf, PrerequisiteUnmet, scenario, test, type TppResponse } from '../../lib/fixtures/index.js';
import { consentOf, created, daysAgo } from '../sandbox/mock-data.js';
import { IDS_CHANGE, idsKept } from './booked-identity.js';
import { notIsoDates } from './iso-dates.js';

interface Entry {
  transactionId?: string;
  bookingDate?: string;
  valueDate?: string;
  transactionDate?: string;
}
interface Report {
  booked?: Entry[];
  pending?: Entry[];
}

const reportOf = (response: TppResponse): Report => {
  const body = jsonBodyOf(response) as { transactions?: Report; cardTransactions?: Report } | undefined;
  return body?.transactions ?? body?.cardTransactions ?? {};
};
const keyOf = (t: Entry) => t.transactionId ?? JSON.stringify(t);

test(
  ...scenario(
    'END-16.a',
    'dateFrom and dateTo restrict the booked transactions to the period, both edge days included',
    { checks: ['END-16'] },
    async ({ newTpp, consentedPsu, paths, check }) => {
      const { psuId, sessionId } = await consentedPsu();
      const tpp = newTpp({ sessionId });
      const read = (path: string) => tpp.get(path, { headers: { 'PSU-ID': psuId } });
      const accountId = accountsOf(await read(paths('accounts')))[0]?.resourceId;
      if (accountId === undefined) throw new PrerequisiteUnmet('the consented PSU has no account');
      const listing = paths('transactions', { accountId });
      const all = reportOf(await read(`${listing}?bookingStatus=booked`)).booked ?? [];
      if (!idsKept(all, reportOf(await read(`${listing}?bookingStatus=booked`)).booked ?? [])) throw new PrerequisiteUnmet(IDS_CHANGE);
      // Three booking days of the account's own history, the newest but one to the newest but three: the period
      // sits inside the first page, with booked days on both sides of it.
      const days = [...new Set(all.map((t) => t.bookingDate ?? ''))].filter(Boolean).sort().reverse();
      const unreadable = notIsoDates(days);
      if (unreadable.length > 0)
        throw new PrerequisiteUnmet(
          `the booked transactions are dated otherwise than YYYY-MM-DD (${unreadable[0] ?? ''}): no period to name`,
        );
      if (days.length < 5) throw new PrerequisiteUnmet(`the account has booked transactions on ${days.length} day(s); the check needs 5`);
      const [dateTo, , dateFrom] = [days[1] ?? '', days[2], days[3] ?? ''];
      const expected = all.filter((t) => (t.bookingDate ?? '') >= dateFrom && (t.bookingDate ?? '') <= dateTo).map(keyOf);

      const response = await read(`${listing}?bookingStatus=booked&dateFrom=${dateFrom}&dateTo=${dateTo}`);
      const returned = reportOf(response).booked ?? [];
      const outside = returned.filter((t) => (t.bookingDate ?? '') < dateFrom || (t.bookingDate ?? '') > dateTo);
      const missing = expected.filter((key) => !returned.some((t) => keyOf(t) === key));
      check.that('END-16', isSuccess(response) && outside.length === 0 && missing.length === 0, {
        expected: `the ${expected.length} booked transactions from ${dateFrom} to ${dateTo} (both days included), and no other`,
        actual: `HTTP ${response.status}; ${returned.length} returned, ${outside.length} outside the period (${outside.map((t) => t.bookingDate).join(', ')}), ${missing.length} of the period missing`,
        response,
      });
    },
  ),
);

/** The date of a pending entry: valueDate (accounts) or transactionDate (card accounts). */
const pendingDate = (t: Entry) => t.valueDate ?? t.transactionDate ?? t.bookingDate ?? '';

test(
  ...scenario(
    'END-25.a',
    'in the sandbox, and for card accounts, dateFrom, dateTo and limit filter the pending transactions too',
    {
      checks: ['END-25'],
      needs: ['sandbox-mock-data'],
      ownPsu: true,
      writes: 'creates a customer, an account and a card account with pending transactions',
    },
    async ({ target, tpp, paths, sca, ownPsu, sandbox, check }) => {
      const psu = await ownPsu();
      const customerNumber = psu.nationalId ?? '';
      // Pending transactions well before and just before the period's end, on an account and on a card account.
      const [early, recent, boundary] = [daysAgo(30), daysAgo(3), daysAgo(10)];
      // Every listing names a start, which the Berlin Group makes mandatory for card accounts; it holds both.
      const since = daysAgo(40);
      const accountId = await sandbox.create('createAccount', { customerNumber, accountName: 'Ventende', currency: 'NOK' });
      const pending = [early, recent].map((valueDate) => ({ amount: '-12.50', currency: 'NOK', valueDate, creditorName: 'Butikk AS' }));
      created('pending transactions', await sandbox.perform('addAccountTransactions', { accountId, transactions: pending }));
      const cardId = await sandbox.create('createCardAccount', { customerNumber, currency: 'NOK' });
      const pendingOnCard = [early, recent].map((transactionDate) => ({
        transactionDate,
        transactionAmount: { amount: '-7.00', currency: 'NOK' },
      }));
      created(
        'pending card transactions',
        await sandbox.perform('addCardTransactions', { accountId: cardId, transactions: pendingOnCard }),
      );
      const { psuId } = await consentOf({ tpp, paths, sca }, psu);
      const read = (path: string) => tpp.get(path, { headers: { 'PSU-ID': psuId } });

      // Only the sandbox is exempt for accounts; card accounts are exempt everywhere.
      const listings = [
        ...(target.environment === 'sandbox' ? [['account', paths('transactions', { accountId })]] : []),
        ['card account', paths('cardAccountTransactions', { accountId: cardId })],
      ];
      for (const [kind, listing] of listings) {
        for (const [filter, inside] of [
          [`dateFrom=${boundary}`, (date: string) => date >= boundary],
          [`dateFrom=${since}&dateTo=${boundary}`, (date: string) => date <= boundary],
        ] as const) {
          const response = await read(`${listing}?bookingStatus=pending&${filter}`);
          const dates = (reportOf(response).pending ?? []).map(pendingDate);
          const unreadable = notIsoDates(dates);
          if (unreadable.length > 0) {
            check.notEvaluated(
              ['END-25'],
              `not evaluated: pending ${kind} transactions dated otherwise than YYYY-MM-DD (${unreadable[0] ?? ''}) cannot be placed in the period`,
            );
            continue;
          }
          check.that('END-25', isSuccess(response) && dates.every(inside), {
            expected: `only pending ${kind} transactions with ${filter}`,
            actual: `HTTP ${response.status}; pending dated ${dates.join(', ') || '(none)'}`,
            response,
          });
        }
        const limited = await read(`${listing}?bookingStatus=pending&dateFrom=${since}&limit=1`);
        const count = (reportOf(limited).pending ?? []).length;
        check.that('END-25', isSuccess(limited) && count <= 1, {
          expected: `at most 1 pending ${kind} transaction with limit=1`,
          actual: `HTTP ${limited.status}; ${count} pending`,
          response: limited,
        });
      }
    },
  ),
);
