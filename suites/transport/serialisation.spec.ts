/**
 * What the service does > Dates and Amounts, as an answer carries them: dates in JSON bodies YYYY-MM-DD,
 * date-times with seconds and an offset, amounts as strings (each judged by the body's schema), and the
 * Date response header an IMF-fixdate. Read from the balances of a consented PSU's first account.
 */
import { accountsOf, jsonBodyOf, PrerequisiteUnmet, scenario, test } from '../../lib/fixtures/index.js';

/** RFC 7231 IMF-fixdate: "Sun, 06 Nov 1994 08:49:37 GMT". */
const IMF_FIXDATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

test(
  ...scenario(
    'FMT-09.a',
    'balances carry amounts as strings, dates as YYYY-MM-DD and date-times with an offset',
    { checks: ['FMT-09', 'FMT-05', 'FMT-06'] },
    async ({ newTpp, consentedPsu, paths, check }) => {
      const { psuId, sessionId } = await consentedPsu();
      const tpp = newTpp({ sessionId, headers: { 'PSU-ID': psuId } });
      const accounts = accountsOf(await tpp.get(paths('accounts')));
      const accountId = accounts.find((account) => account.resourceId !== undefined)?.resourceId;
      if (accountId === undefined) throw new PrerequisiteUnmet('the consented PSU has no account with a resourceId to read balances of');
      const response = await tpp.get(paths('balances', { accountId }));
      check.schema(jsonBodyOf(response), 'Balances');
      check.notEvaluatedRest('the balances carry no value of this kind');
    },
  ),
);

test(
  ...scenario('FMT-07.a', 'the Date response header is an RFC 7231 IMF-fixdate', { checks: ['FMT-07'] }, async ({ tpp, paths, check }) => {
    const response = await tpp.get(paths('accounts'));
    const date = response.headers['date'];
    check.that('FMT-07', date !== undefined && IMF_FIXDATE.test(date), {
      expected: 'Date: like "Sun, 06 Nov 1994 08:49:37 GMT"',
      actual: `Date: ${date ?? '(none)'}`,
      response,
    });
  }),
);
