/**
 * Endpoints > GET /v1/accounts: an empty list when the consented accounts have been closed. The accounts are
 * the scenario's own PSU's, closed with the sandbox operation closeAccount after the PSU consented to them.
 */
import { accountIdsOf, isSuccess, jsonBodyOf, scenario, test } from '../../lib/fixtures/index.js';
import { consentOf } from '../sandbox/mock-data.js';

test(
  ...scenario(
    'END-11.a',
    'once every consented account is closed, GET /v1/accounts answers an empty list',
    { checks: ['END-11'], needs: ['sandbox-mock-data'], ownPsu: true, writes: 'creates a customer with two accounts and closes them' },
    async ({ tpp, paths, sca, ownPsu, sandbox, check }) => {
      const { psuId } = await consentOf({ tpp, paths, sca }, await ownPsu());
      const read = () => tpp.get(paths('accounts'), { headers: { 'PSU-ID': psuId } });
      // Every account the list shows is closed, until it shows none the scenario has not closed: a list that shows
      // only some of the consented accounts at a time (GEN-09 judges that) shows the next ones once the first are closed.
      const closedIds = new Set<string>();
      for (let open = accountIdsOf(await read()); open.length > 0; open = accountIdsOf(await read()).filter((id) => !closedIds.has(id))) {
        for (const accountId of open) {
          const closed = await sandbox.perform('closeAccount', { accountId });
          if (!isSuccess(closed))
            throw new Error(`the target did not close account ${accountId}: HTTP ${closed.status} ${closed.bodyText.slice(0, 300)}`);
          closedIds.add(accountId);
        }
      }
      const after = await read();
      const left = accountIdsOf(after);
      check.that(
        'END-11',
        isSuccess(after) && Array.isArray((jsonBodyOf(after) as { accounts?: unknown } | undefined)?.accounts) && left.length === 0,
        {
          expected: 'HTTP 2xx with an empty accounts list',
          actual: `HTTP ${after.status}, ${left.length} account(s): ${left.join(', ')}`,
          response: after,
        },
      );
    },
  ),
);
