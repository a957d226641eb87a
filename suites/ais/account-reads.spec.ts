/**
 * Resources and their fields (accounts, balances, transactions; shapes from Berlin Group 1.3 with the
 * specification's facts) and the account endpoints, read with the worker's consented PSU.
 */
import { jsonBodyOf, PrerequisiteUnmet, scenario, test, type TppClient, type TppResponse } from '../../lib/fixtures/index.js';
import { SCHEMAS } from '../../lib/spec/schemas/index.js';

interface Listed {
  transactionId?: string;
  _links?: { transactionDetails?: { href?: string } };
}
interface Report {
  booked?: Listed[];
  pending?: unknown[];
}

const served = (response: TppResponse) => response.status >= 200 && response.status < 300;
const reportOf = (response: TppResponse) => (jsonBodyOf(response) as { transactions?: Report } | undefined)?.transactions;

/** A client of the worker's consented PSU, and the first account or card account it sees. */
async function consented(
  { newTpp, consentedPsu, paths }: { newTpp: (o: { sessionId: string }) => TppClient; consentedPsu: () => Promise<{ psuId: string; sessionId: string }>; paths: (n: 'accounts' | 'cardAccounts') => string },
  list: 'accounts' | 'cardAccounts',
): Promise<{ read: (path: string, malformed?: string) => Promise<TppResponse>; listing: TppResponse; accountId: string }> {
  const { psuId, sessionId } = await consentedPsu();
  const tpp = newTpp({ sessionId });
  const read = (path: string, malformed?: string) => tpp.get(path, { headers: { 'PSU-ID': psuId }, ...(malformed === undefined ? {} : { malformed }) });
  const listing = await read(paths(list));
  const entries = (jsonBodyOf(listing) as Record<string, { resourceId?: string }[] | undefined> | undefined)?.[list] ?? [];
  const accountId = entries[0]?.resourceId;
  if (accountId === undefined) throw new PrerequisiteUnmet(`the consented PSU has no ${list === 'accounts' ? 'account' : 'card account'} to read`);
  return { read, listing, accountId };
}

test(...scenario(
  'AIS-11.a',
  'the account list follows the Berlin Group account shape, with names of at most 70 and ISO 20022 cashAccountType codes',
  { checks: ['AIS-11', 'AIS-09', 'AIS-08'] },
  async ({ newTpp, consentedPsu, paths, check }) => {
    const { listing } = await consented({ newTpp, consentedPsu, paths }, 'accounts');
    check.schema(jsonBodyOf(listing), 'AccountList');
  },
));

test(...scenario('END-12.a', 'GET /v1/accounts/{id}/balances returns Berlin Group balances', { checks: ['END-12', 'AIS-12'] }, async ({ newTpp, consentedPsu, paths, check }) => {
  const { read, accountId } = await consented({ newTpp, consentedPsu, paths }, 'accounts');
  const response = await read(paths('balances', { accountId }));
  const ok = check.status('END-12', response);
  check.schema(jsonBodyOf(response), 'Balances', { after: ok });
}));

test(...scenario(
  'END-26.a',
  'card accounts, their balances (interimBooked among them) and transactions are readable with consent',
  { checks: ['END-26', 'AIS-10', 'AIS-14', 'AIS-07'] },
  async ({ newTpp, consentedPsu, paths, check }) => {
    const { psuId, sessionId } = await consentedPsu();
    const tpp = newTpp({ sessionId });
    const listing = await tpp.get(paths('cardAccounts'), { headers: { 'PSU-ID': psuId } });
    const listed = check.that('END-26', served(listing), { expected: 'the card accounts (HTTP 2xx)', response: listing });
    check.schema(jsonBodyOf(listing), 'CardAccountList', { after: listed });
    const accountId = ((jsonBodyOf(listing) as { cardAccounts?: { resourceId?: string }[] } | undefined)?.cardAccounts ?? [])[0]?.resourceId;
    if (accountId === undefined) throw new PrerequisiteUnmet('the consented PSU has no card account');
    const balances = await tpp.get(paths('cardAccountBalances', { accountId }), { headers: { 'PSU-ID': psuId } });
    const transactions = await tpp.get(paths('cardAccountTransactions', { accountId }), { headers: { 'PSU-ID': psuId } });
    check.that('END-26', served(balances) && served(transactions), { expected: 'the card balances and transactions (HTTP 2xx)', actual: `HTTP ${balances.status}, ${transactions.status}` });
    const types = ((jsonBodyOf(balances) as { balances?: { balanceType?: string }[] } | undefined)?.balances ?? []).map((b) => b.balanceType);
    check.that('AIS-07', types.includes('interimBooked'), { expected: 'an interimBooked balance', actual: types.join(', '), response: balances }, { after: listed });
  },
));

test(...scenario(
  'END-13.a',
  'transactions come grouped as booked and pending for every bookingStatus the spec names, booked ones unchanged across reads',
  { checks: ['END-13', 'AIS-01', 'AIS-06', 'AIS-13', 'END-14', 'END-27', 'END-28', 'AIS-02', 'AIS-03', 'VER-22'] },
  async ({ newTpp, consentedPsu, paths, check }) => {
    const { read, accountId } = await consented({ newTpp, consentedPsu, paths }, 'accounts');
    const listing = paths('transactions', { accountId });
    const both = await read(`${listing}?bookingStatus=both`);
    const ok = check.status('END-13', both);
    const report = reportOf(both);
    const grouped = check.that('AIS-01', Array.isArray(report?.booked) && Array.isArray(report.pending), { expected: 'transactions.booked and transactions.pending, both arrays', response: both }, { after: ok });
    check.schema(jsonBodyOf(both), 'TransactionsResponse', { after: ok });

    for (const status of ['both', 'pending', 'all']) check.status('END-14', await read(`${listing}?bookingStatus=${status}`));
    const booked = await read(`${listing}?bookingStatus=booked`);
    const bookedOk = check.status('END-27', booked);
    check.that('END-27', reportOf(booked)?.pending === undefined || reportOf(booked)?.pending?.length === 0, { expected: 'booked transactions only (no pending)', response: booked }, { after: bookedOk });
    check.status('END-28', await read(`${listing}?bookingStatus=everything`, 'a bookingStatus value nobody defines'));

    // Booked is final: read again, every booked transaction comes back unchanged, under the same id.
    const again = reportOf(await read(`${listing}?bookingStatus=both`));
    const ids = (r: Report | undefined) => (r?.booked ?? []).map((t) => t.transactionId ?? '(none)');
    const first = ids(report);
    const second = ids(again);
    const sameIds = first.length > 0 && first.join() === second.join();
    const shown = { expected: 'the same booked transactionIds on a second read', actual: `${first.slice(0, 3).join(', ')}… then ${second.slice(0, 3).join(', ')}…` };
    check.that('AIS-03', sameIds, shown, { after: grouped });
    check.that('VER-22', sameIds, shown, { after: grouped });
    check.that('AIS-02', JSON.stringify(report?.booked) === JSON.stringify(again?.booked), { expected: 'the booked transactions unchanged on a second read', actual: sameIds ? 'some booked entry changed' : 'other ids' }, { after: grouped });
  },
));

test(...scenario(
  'END-23.a',
  'the transaction details endpoint returns a booked transaction (nested transactionDetails or flat: both Berlin Group readings)',
  { checks: ['END-23', 'VER-23'] },
  async ({ newTpp, consentedPsu, paths, check }) => {
    const { read, accountId } = await consented({ newTpp, consentedPsu, paths }, 'accounts');
    const entry = reportOf(await read(`${paths('transactions', { accountId })}?bookingStatus=booked`))?.booked?.find((t) => t.transactionId !== undefined);
    if (entry?.transactionId === undefined) throw new PrerequisiteUnmet('the account has no booked transaction with a transactionId');
    const response = await read(entry._links?.transactionDetails?.href ?? paths('transactionDetails', { accountId, transactionId: entry.transactionId }));
    const body = jsonBodyOf(response) as { transactionsDetails?: { transactionDetails?: object } } | undefined;
    const details = body?.transactionsDetails?.transactionDetails ?? body?.transactionsDetails;
    const found = served(response) && details !== undefined;
    for (const id of ['END-23', 'VER-23'] as const) check.that(id, found, { expected: 'HTTP 2xx with transactionsDetails (nested or flat)', response });
  },
));

/** The fields a Berlin Group 1.3 transaction has (lib/spec's transaction schemas): anything else is an extra reference. */
const BERLIN_GROUP_TRANSACTION_FIELDS = new Set(
  [SCHEMAS.TransactionBase, SCHEMAS.Transaction].flatMap((schema) => Object.keys((schema as { properties?: object }).properties ?? {})),
);
const PROPRIETARY = /^additionalInformationProprietary/;

test(...scenario(
  'AIS-05.a',
  'extra proprietary references of a transaction, listed or in its details, appear only as additionalInformationProprietaryX fields',
  { checks: ['AIS-05'] },
  async ({ newTpp, consentedPsu, paths, check }) => {
    const { read, accountId } = await consented({ newTpp, consentedPsu, paths }, 'accounts');
    const listing = await read(`${paths('transactions', { accountId })}?bookingStatus=booked`);
    const entry = reportOf(listing)?.booked?.find((t) => t.transactionId !== undefined);
    if (entry?.transactionId === undefined) throw new PrerequisiteUnmet('the account has no booked transaction with a transactionId');
    const response = await read(entry._links?.transactionDetails?.href ?? paths('transactionDetails', { accountId, transactionId: entry.transactionId }));
    const body = jsonBodyOf(response) as { transactionsDetails?: { transactionDetails?: object } } | undefined;
    const details = body?.transactionsDetails?.transactionDetails ?? body?.transactionsDetails ?? {};
    // Where a bank has more to say than the Berlin Group fields, the spec names the fields it goes in.
    const extra = [...Object.keys(entry), ...Object.keys(details)].filter((name) => !BERLIN_GROUP_TRANSACTION_FIELDS.has(name) && !PROPRIETARY.test(name) && name !== 'transactionDetails');
    check.that('AIS-05', extra.length === 0, { expected: 'no field outside the Berlin Group transaction but additionalInformationProprietaryX', actual: extra.length === 0 ? 'none' : [...new Set(extra)].join(', '), response });
  },
));
