/** Errors > RESOURCE_UNKNOWN: an account id the bank does not know, read by a consented PSU. */
import { randomUUID } from 'node:crypto';
import { consentServesReads, scenario, test } from '../../lib/fixtures/index.js';

test(
  ...scenario(
    'ERR-22.a',
    'an unknown account id answers 404 (or 403) with RESOURCE_UNKNOWN',
    { checks: ['ERR-22'] },
    async ({ newTpp, consentedPsu, paths, check }) => {
      const { psuId, sessionId } = await consentedPsu();
      // An unknown account is told from an unconsented read only where the consent serves the PSU's known ones.
      consentServesReads(await newTpp({ sessionId }).get(paths('accounts'), { headers: { 'PSU-ID': psuId } }));
      const response = await newTpp({ sessionId }).get(paths('account', { accountId: randomUUID() }), {
        headers: { 'PSU-ID': psuId },
        malformed: 'an account id the bank does not know',
      });
      const unknown = check.status('ERR-22', response);
      check.code('ERR-22', response, { after: unknown });
    },
  ),
);
