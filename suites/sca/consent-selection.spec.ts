/**
 * Authentication 14, the bank-offered consent page: after SCA the PSU sees a checkbox list of accounts, the
 * ones already consented to pre-selected. Observed through what a PSU who changes nothing consents to.
 */
import { randomUUID } from 'node:crypto';
import { accountIdsOf, scaRedirectFrom, scenario, test } from '../../lib/fixtures/index.js';

test(
  ...scenario(
    'SCA-18.a',
    'a PSU who consented to one account and confirms the next consent page unchanged still consents to exactly that account: it was pre-selected',
    { checks: ['SCA-18'], ownPsu: true, needs: ['consent-selection'] },
    async ({ newTpp, sca, paths, check, ownPsu }) => {
      const psu = await ownPsu();
      const consentWith = async (variant: string) => {
        // A fresh TPP session and no PSU-ID: the bank starts a consent flow.
        const tpp = newTpp({ sessionId: randomUUID() });
        const redirect = await sca.authorise(scaRedirectFrom(await tpp.get(paths('accounts'))), psu, { variant });
        return accountIdsOf(await tpp.get(paths('accounts'), { headers: { 'PSU-ID': redirect.params['psu-id'] ?? '' } }));
      };
      const first = await consentWith('first-account-only');
      if (first.length !== 1)
        return check.notEvaluated(['SCA-18'], `not evaluated: consenting to one account gave ${first.length} (SCA-19 judges that)`);
      const again = await consentWith('confirm-as-offered');
      check.that('SCA-18', again.join() === first.join(), {
        expected: `the account consented before (${first.join()}) pre-selected, so confirming unchanged keeps exactly it`,
        actual: `${again.length} accounts: ${again.join(', ') || '(none)'}`,
      });
    },
  ),
);
