/**
 * One link, one SCA (SCA-24), for account access: the scaRedirect a 401 gave serves the SCA it was issued
 * for. Opened again in the browser, as the PSU, once that SCA completed or was cancelled, it ends in the
 * failure redirect or an error page, never in a second success. (The payment links, in every payment
 * service and product, are in suites/payments/sca-links.spec.ts.)
 */
import { PrerequisiteUnmet, scaRedirectFrom, scenario, test } from '../../lib/fixtures/index.js';

for (const [id, what, variant] of [
  ['SCA-24.y', 'completed', undefined],
  ['SCA-24.z', 'cancelled by the PSU', 'cancel-at-consent'],
] as const) {
  test(
    ...scenario(
      id,
      `an account-access link whose SCA was ${what} ends, opened again, in the failure redirect or an error page`,
      {
        checks: ['SCA-24'],
        ownPsu: true,
        writes: 'consents to account access',
        ...(variant === undefined ? {} : { needs: ['sca-abort'] as const }),
      },
      async ({ tpp, paths, sca, ownPsu, check }) => {
        const psu = await ownPsu();
        const href = scaRedirectFrom(await tpp.get(paths('accounts')));
        const first = await sca.authorise(href, psu, variant === undefined ? {} : { variant });
        if (first.outcome !== (variant === undefined ? 'success' : 'failure'))
          throw new PrerequisiteUnmet(`the first SCA was not ${what} (${first.url})`);
        const again = await sca.attempt(href, psu);
        const shown = again.outcome === 'refused' ? `stopped: ${again.reason}` : `redirect ${again.url}`;
        check.that('SCA-24', again.outcome !== 'success', {
          expected: `the link of an SCA ${what} ending in the failure redirect or an error page, not a success`,
          actual: shown,
        });
      },
    ),
  );
}
