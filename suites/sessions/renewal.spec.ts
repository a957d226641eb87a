/**
 * Authentication 11 and Limits: SCA for account access is renewed every 180 days. Until then the consent
 * serves the TPP (with the PSU present, or acting alone where the bank asks a present PSU for a fresh SCA
 * once the session's hour is over); after it, a new SCA is needed, and transaction reads without the PSU are
 * refused. Time is moved with the target's clock (the scenario runs alone).
 */
import { randomUUID } from 'node:crypto';
import { accountsOf, isSuccess, PrerequisiteUnmet, scaRedirectFrom, scaRedirectOf, scenario, test } from '../../lib/fixtures/index.js';

const DAY = 86_400;
/** A day's margin on either side of day 180: the suite does not judge the hour the period ends. */
const WITHIN = 179 * DAY;
const PAST = 181 * DAY;
const WITHOUT_PSU = ['PSU-IP-Address'];

test(
  ...scenario(
    'SCA-09.a',
    'account access holds for 180 days after SCA and needs a new SCA after them (CONSENT_EXPIRED); transaction reads without the PSU end too',
    {
      checks: ['SCA-09', 'LIM-07', 'ERR-26', 'LIM-06'],
      ownPsu: true,
      needs: ['clock-control'],
      globalState: 'moves the target clock past the 180-day SCA renewal period',
    },
    async ({ newTpp, sca, paths, check, ownPsu, sandboxClock }) => {
      const psu = await ownPsu();
      const tpp = newTpp();
      const redirect = await sca.authorise(scaRedirectFrom(await tpp.get(paths('accounts'))), psu);
      const psuId = redirect.params['psu-id'];
      if (psuId === undefined) throw new PrerequisiteUnmet(`the SCA did not succeed: ${redirect.url}`);
      const listing = await tpp.get(paths('accounts'), { headers: { 'PSU-ID': psuId } });
      const accountId = accountsOf(listing)[0]?.resourceId;
      if (accountId === undefined) throw new PrerequisiteUnmet('the PSU consented to no account');

      // Each day under a TPP-Session-ID of its own: the hour of the SCA's session is long over, and is a rule of its own (SES-04).
      const readsOn = async (shift: number) => {
        await sandboxClock.shift(shift);
        const client = newTpp({ sessionId: randomUUID(), headers: { 'PSU-ID': psuId } });
        return {
          accounts: await client.get(paths('accounts')),
          // The same read again before the PSU opens the first answer's scaRedirect (TPP-41), on purpose: without the PSU.
          unattendedAccounts: await client.get(paths('accounts'), {
            omitHeaders: WITHOUT_PSU,
            deliberate: 'the read repeated without the PSU present, whose answer tells an ended consent from a fresh SCA for a present PSU',
          }),
          unattendedTransactions: await client.get(paths('transactions', { accountId }), { omitHeaders: WITHOUT_PSU }),
        };
      };

      // Under a TPP-Session-ID no SCA completed under, a bank may ask a present PSU for a fresh SCA while the
      // consent still serves the TPP acting alone: access holds if either read is served.
      const within = await readsOn(WITHIN);
      const accessed = isSuccess(within.accounts) || isSuccess(within.unattendedAccounts);
      const stillValid = check.that('SCA-09', accessed, {
        expected: 'account access served on day 179 after SCA (2xx), with the PSU present or without it',
        actual: `with the PSU: HTTP ${within.accounts.status}; without: HTTP ${within.unattendedAccounts.status}`,
        response: within.unattendedAccounts,
      });
      const unattendedBefore = isSuccess(within.unattendedTransactions);

      const past = await readsOn(PAST);
      const renewed = scaRedirectOf(past.accounts) !== undefined && !isSuccess(past.unattendedAccounts);
      const renewal = {
        expected: 'on day 181 after SCA, account access answered with an scaRedirect (a new SCA), and not served without the PSU either',
        actual: `with the PSU: HTTP ${past.accounts.status}${scaRedirectOf(past.accounts) === undefined ? ' without scaRedirect' : ''}; without: HTTP ${past.unattendedAccounts.status}`,
        response: past.accounts,
      };
      const renew = check.that('SCA-09', renewed, renewal, { after: stillValid });
      check.that('LIM-07', renewed, renewal, { after: stillValid });
      const answered = check.status('ERR-26', past.accounts, { after: renew });
      check.code('ERR-26', past.accounts, { after: answered });
      if (!unattendedBefore)
        return check.notEvaluated(
          ['LIM-06'],
          `not evaluated: transactions without the PSU were not served on day 179 either (HTTP ${within.unattendedTransactions.status})`,
        );
      check.that('LIM-06', !isSuccess(past.unattendedTransactions), {
        expected: 'on day 181 after SCA, a transaction read without PSU-IP-Address refused',
        response: past.unattendedTransactions,
      });
    },
  ),
);
