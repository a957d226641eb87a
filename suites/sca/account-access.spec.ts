/**
 * Authentication 9 and 12, Events, PSU identifiers: account access through SCA by redirect. The bank answers
 * 401 with an scaRedirect link, the PSU authenticates and consents in the browser, the bank redirects to
 * TPP-Redirect-URI with psu-id, and the TPP's next call with PSU-ID succeeds.
 */
import { expect, req, scaRedirectHref, test } from '../../lib/fixtures/index.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

test.describe('Authentication 12: account access by redirect', () => {
  test(
    'GET /v1/accounts without consent answers 401 with an scaRedirect link (https href and verbs)',
    req('SCA-10', 'SCA-01', 'MSG-05', 'MSG-06', 'MSG-07'),
    async ({ tpp, paths }) => {
      const response = await tpp.get(paths('accounts'));
      expect(response).toHaveStatus(401);
      await expect(response).toMatchSchema('ScaRedirectBody');
      expect(new URL(scaRedirectHref(response)).protocol, 'scaRedirect href must be https').toBe('https:');
    },
  );

  test(
    'SCA in the browser ends at TPP-Redirect-URI with a UUID psu-id, the tpp-session-id and the context',
    req('SCA-12', 'SCA-05', 'EVT-02', 'EVT-03', 'EVT-05', 'EVT-06', 'EVT-07', 'PSU-01', 'PSU-04', 'PSU-09'),
    async ({ tpp, sca, paths, tppSessionId }) => {
      const href = scaRedirectHref(await tpp.get(paths('accounts')));
      const redirect = await sca.authorise(href, 'private');
      expect(redirect.outcome, `redirect parameters: ${JSON.stringify(redirect.params)}`).toBe('success');
      await expect(redirect.params).toMatchSchema('RedirectSuccessQuery');
      expect(redirect.params['psu-id'], 'psu-id').toMatch(UUID);
      expect(redirect.params['tpp-session-id'], 'tpp-session-id').toBe(tppSessionId);
      expect(redirect.params.context, 'context').toBe('PRIVATE');
      expect(redirect.params['psu-corporate-id'], 'psu-corporate-id in private context').toBeUndefined();
    },
  );

  test(
    'with the psu-id from the redirect, GET /v1/accounts returns the consented accounts',
    req('SCA-13', 'PSU-05'),
    async ({ tpp, sca, paths }) => {
      const redirect = await sca.authorise(scaRedirectHref(await tpp.get(paths('accounts'))), 'private');
      const response = await tpp.get(paths('accounts'), { headers: { 'PSU-ID': redirect.params['psu-id'] ?? '' } });
      expect(response).toHaveStatus(200);
      await expect(response).toMatchSchema('AccountList');
      const accounts = response.json<{ accounts: unknown[] }>().accounts;
      expect(accounts.length, 'the PSU consented to every account offered').toBeGreaterThan(0);
    },
  );

  test(
    'a PSU who consents to one account only gets exactly that account from GET /v1/accounts',
    req('SCA-13', 'SCA-19', 'SCA-05'),
    async ({ tpp, sca, paths }) => {
      // Its own PSU: other tests consent to all accounts of the default one at the same time.
      const redirect = await sca.authorise(scaRedirectHref(await tpp.get(paths('accounts'))), 'private2', { variant: 'first-account-only' });
      const response = await tpp.get(paths('accounts'), { headers: { 'PSU-ID': redirect.params['psu-id'] ?? '' } });
      expect(response).toHaveStatus(200);
      const accounts = response.json<{ accounts: unknown[] }>().accounts;
      expect(accounts.length, 'accounts returned after consenting to exactly one').toBe(1);
    },
  );

  test('a second SCA of the same PSU yields the same psu-id', req('PSU-03'), async ({ newTpp, sca, paths }) => {
    const psuIds: string[] = [];
    for (const sessionId of [crypto.randomUUID(), crypto.randomUUID()]) {
      const tpp = newTpp({ sessionId });
      const redirect = await sca.authorise(scaRedirectHref(await tpp.get(paths('accounts'))), 'private');
      psuIds.push(redirect.params['psu-id'] ?? '');
    }
    expect(psuIds[1], 'psu-id of the second SCA').toBe(psuIds[0]);
  });
});
