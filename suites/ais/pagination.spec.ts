/**
 * Limits > Default transaction page size and the transaction endpoint's limit/offset: a listing without
 * parameters holds at most 200 booked transactions and its links carry that size; following `next` from the
 * first page of the whole history (named by dateFrom) to the last reaches every booked transaction exactly
 * once, on an account with more than 450 booked transactions over more than 90 days, and no pending one (whose
 * empty group a report may leave out, AIS-01).
 */
import { accountsOf, isSuccess, jsonBodyOf, linkUrl, scenario, test, type TppResponse } from '../../lib/fixtures/index.js';
import { daysAgo } from '../sandbox/mock-data.js';
import { IDS_CHANGE, idsKept } from './booked-identity.js';
import { ADDED_REMITTANCE, busyAccount } from './busy-account.js';
import { groupedAsBookedAndPending } from './report-groups.js';

const PAGE_SIZE = 200;
const HISTORY = { count: 460, days: 120 };
/** More pages than the history can fill at any page size a bank might pick: a link loop ends here. */
const MAX_PAGES = 20;
const LINK_NAMES = ['first', 'next', 'previous', 'last'] as const;

interface Link {
  href?: unknown;
  verbs?: unknown;
}

interface Page {
  response: TppResponse;
  /** Whether the page lists its booked transactions apart (AIS-01): only then can they be counted. */
  grouped: boolean;
  booked: { transactionId?: string; entryReference?: string; remittanceInformationUnstructured?: unknown }[];
  links: Partial<Record<(typeof LINK_NAMES)[number], Link>>;
}

function pageOf(response: TppResponse): Page {
  const transactions = (jsonBodyOf(response) as { transactions?: { booked?: Page['booked']; _links?: Page['links'] } } | undefined)
    ?.transactions;
  return { response, grouped: Array.isArray(transactions?.booked), booked: transactions?.booked ?? [], links: transactions?._links ?? {} };
}

const idOf = (t: Page['booked'][number]) => t.transactionId ?? t.entryReference ?? JSON.stringify(t);
/** Which of the transactions the scenario added this one is (its remittance text), if it is one. */
const addedOf = (t: Page['booked'][number]) =>
  [t.remittanceInformationUnstructured].flat().find((r): r is string => typeof r === 'string' && r.startsWith(ADDED_REMITTANCE));
const limitOf = (link: Link | undefined) =>
  typeof link?.href === 'string' ? new URL(link.href, 'https://bank.invalid').searchParams.get('limit') : null;

test(
  ...scenario(
    'END-17.a',
    'a listing without parameters pages by 200; following next from the first page to the last reaches every booked transaction exactly once',
    {
      checks: ['END-15', 'PAG-01', 'PAG-02', 'LIM-08', 'PAG-04', 'PAG-05', 'END-17', 'AIS-01'],
      needs: ['sandbox-mock-data'],
      ownPsu: true,
      writes: 'creates a customer and an account with 460 transactions',
    },
    async ({ tpp, paths, sca, ownPsu, sandbox, check }) => {
      const { accountId, psuId, count } = await busyAccount({ tpp, paths, sca, ownPsu, sandbox }, HISTORY.count, HISTORY.days);
      const read = (path: string) => tpp.get(path, { headers: { 'PSU-ID': psuId } });

      const first = pageOf(await read(paths('transactions', { accountId })));
      const listed = check.status('END-15', first.response);
      const size = first.booked.length;
      const sized = { expected: `at most ${PAGE_SIZE} booked transactions on a page`, actual: `${size}`, response: first.response };
      // Without a booked list (AIS-01's to judge) the page size cannot be counted: a page of nothing proves no limit.
      const counted = first.grouped || !listed.passed;
      if (counted) check.that('PAG-01', size <= PAGE_SIZE, sized, { after: listed });
      else
        check.notEvaluated(
          ['PAG-01', 'LIM-08'],
          'not evaluated: the listing holds no booked list (AIS-01) whose transactions a page size could be counted by',
        );
      const firstLinks = LINK_NAMES.map((name) => [name, first.links[name]] as const).filter(([, link]) => link !== undefined);
      const limits = firstLinks.map(([name, link]) => `${name}: limit=${limitOf(link) ?? '(none)'}`).join(', ');
      // "200 (also in generated pagination links)": a link names limit=200, or names no size and its page keeps
      // the default (seen on the page next leads to).
      const nextHref = first.links.next?.href;
      const sizeless = firstLinks.some(([, link]) => limitOf(link) === null);
      const nextPage = sizeless && typeof nextHref === 'string' ? pageOf(await read(linkUrl(tpp.transport.baseUrl, nextHref))) : undefined;
      const defaultKept = nextPage !== undefined && nextPage.booked.length > 0 && nextPage.booked.length <= PAGE_SIZE;
      const carried =
        firstLinks.length > 0 &&
        firstLinks.every(([, link]) => limitOf(link) === String(PAGE_SIZE) || (limitOf(link) === null && defaultKept));
      const carriedShown = `${limits || 'no pagination links'}${nextPage === undefined ? '' : `; the page next leads to holds ${nextPage.booked.length}`}`;
      check.that(
        'PAG-02',
        carried,
        {
          expected: `pagination links with limit=${PAGE_SIZE}, or without a size and leading to pages of at most ${PAGE_SIZE}`,
          actual: carriedShown,
          response: first.response,
        },
        { after: listed },
      );
      if (counted)
        check.that(
          'LIM-08',
          size <= PAGE_SIZE && carried,
          { expected: `at most ${PAGE_SIZE} booked per page, links that keep that size`, actual: `${size} booked; ${carriedShown}` },
          { after: listed },
        );

      // The whole history, by a period the suite names: which period a listing without parameters covers is
      // the bank's choice (END-15; the Berlin Group makes dateFrom mandatory, so a 90-day default is fair).
      const start = pageOf(
        await read(`${paths('transactions', { accountId })}?bookingStatus=booked&dateFrom=${daysAgo(HISTORY.days + 1)}`),
      );
      const pages: Page[] = [start];
      for (let current = start; current.links.next !== undefined && pages.length < MAX_PAGES;) {
        const href = current.links.next.href;
        if (typeof href !== 'string') break;
        current = pageOf(await read(linkUrl(tpp.transport.baseUrl, href)));
        pages.push(current);
        if (current.booked.length === 0) break;
      }

      const badLinks = [first, ...pages].flatMap((p, i) =>
        LINK_NAMES.filter((name) => {
          const link = p.links[name];
          return link !== undefined && (typeof link.href !== 'string' || (Array.isArray(link.verbs) && !link.verbs.includes('GET')));
        }).map((name) => `${i === 0 ? 'the listing without parameters' : `page ${i} from dateFrom`}: ${name}`),
      );
      check.that(
        'PAG-04',
        badLinks.length === 0,
        {
          expected: 'pagination links with an href, and GET among their verbs where they list verbs',
          actual: badLinks.join(', ') || 'all well-formed',
        },
        { after: listed },
      );

      // Booked transactions only, asked for with both, before today: a period whose pending group has no entry (which may be left out).
      const both = await read(`${paths('transactions', { accountId })}?bookingStatus=both&dateFrom=${daysAgo(10)}&dateTo=${daysAgo(1)}`);
      if (isSuccess(both)) {
        const { passed, ...grouping } = groupedAsBookedAndPending(
          (jsonBodyOf(both) as { transactions?: unknown } | undefined)?.transactions,
        );
        check.that('AIS-01', passed, { ...grouping, response: both }, { after: listed });
      } else check.notEvaluated(['AIS-01'], `not evaluated: bookingStatus=both was not served (HTTP ${both.status}; END-29's to judge)`);

      if (!start.grouped)
        return check.notEvaluated(
          ['PAG-05', 'END-17'],
          'not evaluated: the listing holds no booked list (AIS-01) whose transactions the pages could be counted by',
        );
      const emptyAfterNext = pages.slice(1).findIndex((p) => p.booked.length === 0);
      check.that(
        'PAG-05',
        emptyAfterNext === -1,
        {
          expected: 'no next link on the last page',
          actual: emptyAfterNext === -1 ? 'next stops at the last page' : `page ${emptyAfterNext + 1} links next to an empty page`,
        },
        { after: listed },
      );

      // Every booked transaction once, the ones the scenario added among them (the account may hold others besides).
      const booked = pages.flatMap((p) => p.booked);
      const unique = new Set(booked.map(idOf));
      const added = booked.map(addedOf).filter((r) => r !== undefined);
      check.that(
        'END-17',
        booked.length === unique.size && added.length === count && new Set(added).size === count,
        {
          expected: `each booked transaction since dateFrom exactly once over the pages, the ${count} added among them`,
          actual: `${booked.length} read over ${pages.length} pages, ${unique.size} distinct; of the ${count} added, ${new Set(added).size} distinct read ${added.length} times`,
          response: start.response,
        },
        { after: listed },
      );
    },
  ),
);

test(
  ...scenario(
    'PAG-03.a',
    'limit=n returns at most n booked transactions and offset=k skips the first k (or the first k pages of n)',
    { checks: ['PAG-03'] },
    async ({ newTpp, consentedPsu, paths, check }) => {
      const { psuId, sessionId } = await consentedPsu();
      const tpp = newTpp({ sessionId });
      const headers = { 'PSU-ID': psuId };
      const accounts = accountsOf(await tpp.get(paths('accounts'), { headers }));
      const accountId = accounts[0]?.resourceId ?? '';
      const listing = paths('transactions', { accountId });
      const firstTen = `${listing}?bookingStatus=booked&limit=10&offset=0`;
      const ten = pageOf(await tpp.get(firstTen, { headers }));
      const skipped = pageOf(await tpp.get(`${listing}?bookingStatus=booked&limit=5&offset=1`, { headers }));
      const kept = idsKept(ten.booked, pageOf(await tpp.get(firstTen, { headers })).booked);
      // offset is named without saying what it counts: transactions (limit=5&offset=1 starts at the 2nd) or pages of
      // limit (it starts at the 6th). Both readings pass; an offset that skips nothing matches neither.
      const readings = { transactions: ten.booked.slice(1, 6).map(idOf), pages: ten.booked.slice(5, 10).map(idOf) };
      const actual = skipped.booked.map(idOf).join();
      const read = check.that('PAG-03', ten.booked.length <= 10, {
        expected: 'limit=10 returns at most 10 booked transactions',
        actual: `${ten.booked.length}`,
        response: ten.response,
      });
      if (!kept) return check.notEvaluated(['PAG-03'], `not evaluated: which transactions offset skipped: ${IDS_CHANGE}`);
      check.that(
        'PAG-03',
        actual === readings.transactions.join() || actual === readings.pages.join(),
        {
          expected: `limit=5&offset=1 returns transactions 2 to 6 (offset counts transactions: ${readings.transactions.join(', ')}) or 6 to 10 (offset counts pages: ${readings.pages.join(', ')})`,
          actual: actual.replaceAll(',', ', '),
          response: skipped.response,
        },
        { after: read },
      );
    },
  ),
);
