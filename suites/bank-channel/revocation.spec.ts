/**
 * Authentication 15: the PSU may revoke a consent directly with the bank, at any time, and the TPP then loses
 * access (the bank need not tell the TPP). The revocation is the target's bank-channel operation, acting as the
 * PSU in the online bank.
 */
import { randomUUID } from 'node:crypto';
import { accountsOf, isSuccess, scaRedirectFrom, scenario, test, type TppResponse } from '../../lib/fixtures/index.js';

/** The account ids a 2xx answer carries (none for any other answer). */
function servedAccountIds(response: TppResponse): string[] {
  if (!isSuccess(response)) return [];
  const accounts = accountsOf(response);
  return accounts.flatMap((a) => (typeof a.resourceId === 'string' ? [a.resourceId] : []));
}

test(
  ...scenario(
    'SCA-20.a',
    'after the PSU revokes the consent directly with the bank, the TPP gets none of the accounts, in the list or read one by one',
    { checks: ['SCA-20'], needs: ['bank-channel'], ownPsu: true, writes: 'revokes a consent in the bank channel' },
    async ({ newTpp, sca, paths, check, ownPsu }) => {
      const psu = await ownPsu();
      if (psu.nationalId === undefined)
        return check.notEvaluated(['SCA-20'], 'not evaluated: the target names no national identity number (customer number) for the PSU');
      const sessionId = randomUUID();
      const redirect = await sca.authorise(scaRedirectFrom(await newTpp({ sessionId }).get(paths('accounts'))), psu);
      const psuId = redirect.params['psu-id'];
      if (redirect.outcome !== 'success' || psuId === undefined)
        return check.notEvaluated(['SCA-20'], `not evaluated: the SCA did not succeed (${redirect.url})`);
      // The same session as the SCA: whatever still grants access after the revocation is the consent, not a missing SCA.
      const tpp = newTpp({ sessionId, headers: { 'PSU-ID': psuId } });
      const granted = servedAccountIds(await tpp.get(paths('accounts')));
      if (granted.length === 0)
        return check.notEvaluated(['SCA-20'], 'not evaluated: the consented PSU saw no account before the revocation');

      const revoked = await tpp.request({ method: 'DELETE', path: paths('sandboxCustomerConsents', { customerNumber: psu.nationalId }) });
      if (!isSuccess(revoked))
        return check.notEvaluated(
          ['SCA-20'],
          `not evaluated: the target did not revoke the consent in its bank channel (HTTP ${revoked.status})`,
        );

      const list = await tpp.get(paths('accounts'));
      const listed = servedAccountIds(list).filter((id) => granted.includes(id));
      check.that('SCA-20', listed.length === 0, {
        expected: 'none of the revoked accounts in GET /v1/accounts (an SCA redirect, a refusal or an empty list)',
        actual: `still listed: ${listed.join(', ')}`,
        response: list,
      });
      const [first = ''] = granted;
      const balances = await tpp.get(paths('balances', { accountId: first }));
      check.that('SCA-20', !isSuccess(balances), { expected: 'no balances of a revoked account (no 2xx)', response: balances });
    },
  ),
);
