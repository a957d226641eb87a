/**
 * Errors, CONSENT_INVALID / RESOURCE_UNKNOWN (Berlin Group): a read of an account the PSU has not consented
 * to is refused with a code that says so. The account is another PSU's, which this PSU never could consent to.
 */
import { accountsOf, PrerequisiteUnmet, scaRedirectOf, scenario, test } from '../../lib/fixtures/index.js';

test(
  ...scenario(
    'ERR-25.a',
    "a read of an account outside the PSU's consent is refused with RESOURCE_UNKNOWN or CONSENT_INVALID",
    { checks: ['ERR-25'] },
    async ({ newTpp, consentedPsu, paths, check }) => {
      const other = await consentedPsu('private2');
      const listing = await newTpp({ sessionId: other.sessionId }).get(paths('accounts'), { headers: { 'PSU-ID': other.psuId } });
      const accountId = accountsOf(listing)[0]?.resourceId;
      if (accountId === undefined) throw new PrerequisiteUnmet("the second PSU has no account to try with the first PSU's psu-id");
      const { psuId, sessionId } = await consentedPsu();
      const response = await newTpp({ sessionId }).get(paths('account', { accountId }), { headers: { 'PSU-ID': psuId } });
      if (scaRedirectOf(response) !== undefined)
        return check.notEvaluated(
          ['ERR-25'],
          'not evaluated: the bank asks for consent (401 with scaRedirect), which carries no error code',
        );
      const refused = check.status('ERR-25', response);
      check.code('ERR-25', response, { after: refused });
    },
  ),
);
