/**
 * Resources and their fields (accounts, balances, transactions; shapes from Berlin Group 1.3 with the
 * specification's facts) and the account endpoints, read with the worker's consented PSU.
 */
import {
  type AccountList,
  accountsOf,
  consentServesReads,
  isSuccess,
  jsonBodyOf,
  linkUrl,
  PrerequisiteUnmet,
  scenario,
  type ScenarioFixtures,
  test,
  type TppResponse,
} from '../../lib/fixtures/index.js';
import { SCHEMAS } from '../../lib/spec/schemas/index.js';
import { cardListingQuery } from './card-listing.js';
import { groupedAsBookedAndPending } from './report-groups.js';

interface Listed {
  transactionId?: string;
  _links?: { transactionDetails?: { href?: string } };
}
interface Report {
  booked?: Listed[];
  pending?: unknown[];
}

const reportOf = (response: TppResponse) => (jsonBodyOf(response) as { transactions?: Report } | undefined)?.transactions;

/** A client of the worker's consented PSU, and the first account or card account it sees. */
async function consented(
  { newTpp, consentedPsu, paths }: Pick<ScenarioFixtures, 'newTpp' | 'consentedPsu' | 'paths'>,
  list: AccountList,
): Promise<{
  read: (path: string, malformed?: string) => Promise<TppResponse>;
  listing: TppResponse;
  accountId: string;
  detailsOf: (entry: Listed, transactionId: string) => string;
}> {
  const { psuId, sessionId } = await consentedPsu();
  const tpp = newTpp({ sessionId });
  const read = (path: string, malformed?: string) =>
    tpp.get(path, { headers: { 'PSU-ID': psuId }, ...(malformed === undefined ? {} : { malformed }) });
  const listing = await read(paths(list));
  const accountId = accountsOf(listing, list)[0]?.resourceId;
  if (accountId === undefined)
    throw new PrerequisiteUnmet(`the consented PSU has no ${list === 'accounts' ? 'account' : 'card account'} to read`);
  // Where a listed transaction links its details, the link; else the Berlin Group path.
  const detailsOf = (entry: Listed, transactionId: string) => {
    const href = entry._links?.transactionDetails?.href;
    return href === undefined ? paths('transactionDetails', { accountId, transactionId }) : linkUrl(tpp.transport.baseUrl, href);
  };
  return { read, listing, accountId, detailsOf };
}

test(
  ...scenario(
    'AIS-11.a',
    'the account list follows the Berlin Group account shape, with names of at most 70 and ISO 20022 cashAccountType codes',
    { checks: ['AIS-11', 'AIS-09', 'AIS-08'] },
    async ({ newTpp, consentedPsu, paths, check }) => {
      const { listing } = await consented({ newTpp, consentedPsu, paths }, 'accounts');
      check.schema(jsonBodyOf(listing), 'AccountList');
    },
  ),
);

test(
  ...scenario(
    'END-12.a',
    'GET /v1/accounts/{id}/balances returns Berlin Group balances',
    { checks: ['END-12', 'AIS-12'] },
    async ({ newTpp, consentedPsu, paths, check }) => {
      const { read, accountId } = await consented({ newTpp, consentedPsu, paths }, 'accounts');
      const response = await read(paths('balances', { accountId }));
      const ok = check.status('END-12', response);
      check.schema(jsonBodyOf(response), 'Balances', { after: ok });
    },
  ),
);

test(
  ...scenario(
    'END-26.a',
    'card accounts, their balances (interimBooked among them) and transactions are readable with consent',
    { checks: ['END-26', 'AIS-10', 'AIS-14', 'AIS-07'] },
    async ({ newTpp, consentedPsu, paths, check }) => {
      const { psuId, sessionId } = await consentedPsu();
      const tpp = newTpp({ sessionId });
      // Card accounts are read under the consent that serves the PSU's accounts.
      consentServesReads(await tpp.get(paths('accounts'), { headers: { 'PSU-ID': psuId } }));
      const listing = await tpp.get(paths('cardAccounts'), { headers: { 'PSU-ID': psuId } });
      const listed = check.that('END-26', isSuccess(listing), { expected: 'the card accounts (HTTP 2xx)', response: listing });
      check.schema(jsonBodyOf(listing), 'CardAccountList', { after: listed });
      const accountId = accountsOf(listing, 'cardAccounts')[0]?.resourceId;
      if (accountId === undefined) throw new PrerequisiteUnmet('the consented PSU has no card account');
      const balances = await tpp.get(paths('cardAccountBalances', { accountId }), { headers: { 'PSU-ID': psuId } });
      const transactions = await tpp.get(`${paths('cardAccountTransactions', { accountId })}${cardListingQuery()}`, {
        headers: { 'PSU-ID': psuId },
      });
      const balancesRead = check.that('END-26', isSuccess(balances), { expected: 'the card balances (HTTP 2xx)', response: balances });
      check.that('END-26', isSuccess(transactions), { expected: 'the card transactions (HTTP 2xx)', response: transactions });
      const types = ((jsonBodyOf(balances) as { balances?: { balanceType?: string }[] } | undefined)?.balances ?? []).map(
        (b) => b.balanceType,
      );
      check.that(
        'AIS-07',
        types.includes('interimBooked'),
        { expected: 'an interimBooked balance', actual: types.join(', '), response: balances },
        { after: [listed, balancesRead] },
      );
    },
  ),
);

/** A booked transaction as data: its fields in any order, its links left out (they address it, they are not it). */
function canonical(value: unknown): string {
  return JSON.stringify(value, (key, field: unknown) => {
    if (key === '_links') return undefined;
    if (field === null || typeof field !== 'object' || Array.isArray(field)) return field;
    return Object.fromEntries(Object.entries(field).sort(([a], [b]) => a.localeCompare(b)));
  });
}

test(
  ...scenario(
    'END-13.a',
    'transactions come grouped as booked and pending for every bookingStatus the spec names, booked ones unchanged across reads',
    { checks: ['END-13', 'AIS-01', 'AIS-06', 'AIS-13', 'END-29', 'END-14', 'END-27', 'END-28', 'AIS-02', 'AIS-03', 'VER-22'] },
    async ({ newTpp, consentedPsu, paths, check }) => {
      const { read, accountId } = await consented({ newTpp, consentedPsu, paths }, 'accounts');
      const listing = paths('transactions', { accountId });
      const both = await read(`${listing}?bookingStatus=both`);
      const ok = check.status('END-13', both);
      const report = reportOf(both);
      const { passed, ...grouping } = groupedAsBookedAndPending(report);
      const grouped = check.that('AIS-01', passed, { ...grouping, response: both }, { after: ok });
      check.schema(jsonBodyOf(both), 'TransactionsResponse', { after: ok });

      check.status('END-29', both);
      check.status('END-29', await read(`${listing}?bookingStatus=pending`));
      // Only mentioned, and no Berlin Group value: served or refused as unknown, both readings pass.
      check.status('END-14', await read(`${listing}?bookingStatus=all`));
      const booked = await read(`${listing}?bookingStatus=booked`);
      const bookedOk = check.status('END-27', booked);
      check.that(
        'END-27',
        reportOf(booked)?.pending === undefined || reportOf(booked)?.pending?.length === 0,
        { expected: 'booked transactions only (no pending)', response: booked },
        { after: bookedOk },
      );
      check.status('END-28', await read(`${listing}?bookingStatus=everything`, 'a bookingStatus value nobody defines'));

      // Booked is final: read again, every booked transaction comes back unchanged, under the same id. A
      // transaction booked in between adds to the list and proves nothing either way.
      const first = report?.booked ?? [];
      if (first.length === 0)
        return check.notEvaluated(['AIS-02', 'AIS-03', 'VER-22'], 'not evaluated: the account has no booked transaction to read twice');
      const again = new Map(
        (reportOf(await read(`${listing}?bookingStatus=both`))?.booked ?? []).map((t) => [t.transactionId ?? '(none)', t]),
      );
      const idless = first.filter((t) => t.transactionId === undefined).length;
      const lost = first.filter((t) => t.transactionId !== undefined && !again.has(t.transactionId)).map((t) => t.transactionId);
      const changed = first
        .filter(
          (t) => t.transactionId !== undefined && again.has(t.transactionId) && canonical(again.get(t.transactionId)) !== canonical(t),
        )
        .map((t) => t.transactionId);
      const shown = {
        expected: `the ${first.length} booked transactionIds again on a second read`,
        actual: `${idless} without transactionId; missing on the second read: ${lost.slice(0, 3).join(', ') || 'none'}`,
      };
      const stable = idless === 0 && lost.length === 0;
      check.that('AIS-03', stable, shown, { after: grouped });
      check.that('VER-22', stable, shown, { after: grouped });
      check.that(
        'AIS-02',
        changed.length === 0,
        { expected: 'every booked transaction unchanged on a second read', actual: `changed: ${changed.slice(0, 3).join(', ')}` },
        { after: grouped },
      );
    },
  ),
);

test(
  ...scenario(
    'END-23.a',
    'the transaction details endpoint returns a booked transaction (nested transactionDetails or flat: both Berlin Group readings)',
    { checks: ['END-23', 'VER-23'] },
    async ({ newTpp, consentedPsu, paths, check }) => {
      const { read, accountId, detailsOf } = await consented({ newTpp, consentedPsu, paths }, 'accounts');
      const entry = reportOf(await read(`${paths('transactions', { accountId })}?bookingStatus=booked`))?.booked?.find(
        (t) => t.transactionId !== undefined,
      );
      if (entry?.transactionId === undefined) throw new PrerequisiteUnmet('the account has no booked transaction with a transactionId');
      const response = await read(detailsOf(entry, entry.transactionId));
      const body = jsonBodyOf(response) as { transactionsDetails?: { transactionDetails?: object } } | undefined;
      const details = body?.transactionsDetails?.transactionDetails ?? body?.transactionsDetails;
      const found = isSuccess(response) && details !== undefined;
      for (const id of ['END-23', 'VER-23'] as const)
        check.that(id, found, { expected: 'HTTP 2xx with transactionsDetails (nested or flat)', response });
    },
  ),
);

/** The fields a Berlin Group 1.3 transaction has (lib/spec's transaction schemas): anything else is an extra reference. */
const BERLIN_GROUP_TRANSACTION_FIELDS = new Set(
  [SCHEMAS.TransactionBase, SCHEMAS.Transaction].flatMap((schema) => Object.keys((schema as { properties?: object }).properties ?? {})),
);
const PROPRIETARY = /^additionalInformationProprietary/;

test(
  ...scenario(
    'AIS-05.a',
    'extra proprietary references of a transaction, listed or in its details, appear only as additionalInformationProprietaryX fields',
    { checks: ['AIS-05'] },
    async ({ newTpp, consentedPsu, paths, check }) => {
      const { read, accountId, detailsOf } = await consented({ newTpp, consentedPsu, paths }, 'accounts');
      const listing = await read(`${paths('transactions', { accountId })}?bookingStatus=booked`);
      const entry = reportOf(listing)?.booked?.find((t) => t.transactionId !== undefined);
      if (entry?.transactionId === undefined) throw new PrerequisiteUnmet('the account has no booked transaction with a transactionId');
      const response = await read(detailsOf(entry, entry.transactionId));
      const body = jsonBodyOf(response) as { transactionsDetails?: { transactionDetails?: object } } | undefined;
      const details = body?.transactionsDetails?.transactionDetails ?? body?.transactionsDetails ?? {};
      // Where a bank has more to say than the Berlin Group fields, the spec names the fields it goes in.
      const extra = [...Object.keys(entry), ...Object.keys(details)].filter(
        (name) => !BERLIN_GROUP_TRANSACTION_FIELDS.has(name) && !PROPRIETARY.test(name) && name !== 'transactionDetails',
      );
      check.that('AIS-05', extra.length === 0, {
        expected: 'no field outside the Berlin Group transaction but additionalInformationProprietaryX',
        actual: extra.length === 0 ? 'none' : [...new Set(extra)].join(', '),
        response,
      });
    },
  ),
);
