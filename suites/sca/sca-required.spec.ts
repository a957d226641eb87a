/**
 * Authentication 9 and 12: SCA by redirect on every account endpoint. A request that needs SCA (no PSU
 * identified) answers with an scaRedirect link wherever it is made; TPP-Redirect-URI is the TPP's to send on
 * every request, since it cannot foresee which one will need SCA (a bank may refuse a read without it, or serve
 * one that needs no SCA); and the SCA site can be shown in a frame.
 */
import {
  accountsOf,
  PrerequisiteUnmet,
  scaRedirectFrom,
  scaRedirectOf,
  scenario,
  test,
  type AccountList,
  type ScenarioFixtures,
} from '../../lib/fixtures/index.js';
import type { PathName } from '../../lib/spec/paths.js';
import { cardListingQuery } from '../ais/card-listing.js';

type Kind = 'account' | 'cardAccount' | 'none';

/** The ids of an account and a card account of the worker's consented PSU, and that PSU's psu-id. */
async function consentedResources({
  newTpp,
  consentedPsu,
  paths,
}: Pick<ScenarioFixtures, 'newTpp' | 'consentedPsu' | 'paths'>): Promise<{ psuId: string; sessionId: string; idOf: Record<Kind, string> }> {
  const { psuId, sessionId } = await consentedPsu();
  const tpp = newTpp({ sessionId });
  const first = async (list: AccountList) => {
    const id = accountsOf(await tpp.get(paths(list), { headers: { 'PSU-ID': psuId } }), list)[0]?.resourceId;
    if (id === undefined) throw new PrerequisiteUnmet(`the consented PSU has no entry in GET ${paths(list)}`);
    return id;
  };
  return { psuId, sessionId, idOf: { account: await first('accounts'), cardAccount: await first('cardAccounts'), none: '' } };
}

// [scenario id, endpoint, the kind of resource its path names]
const ACCOUNT_ENDPOINTS: readonly (readonly [string, PathName, Kind])[] = [
  ['SCA-02.a', 'accounts', 'none'],
  ['SCA-02.b', 'account', 'account'],
  ['SCA-02.c', 'balances', 'account'],
  ['SCA-02.d', 'transactions', 'account'],
  ['SCA-02.e', 'cardAccounts', 'none'],
  ['SCA-02.f', 'cardAccount', 'cardAccount'],
  ['SCA-02.g', 'cardAccountBalances', 'cardAccount'],
  ['SCA-02.h', 'cardAccountTransactions', 'cardAccount'],
];

for (const [id, endpoint, kind] of ACCOUNT_ENDPOINTS) {
  test(
    ...scenario(
      id,
      `GET ${endpoint} of an existing resource, with no PSU identified, answers with an scaRedirect link`,
      { checks: ['SCA-02'] },
      async ({ tpp, newTpp, consentedPsu, paths, check }) => {
        const parameters: Record<string, string> =
          kind === 'none' ? {} : { accountId: (await consentedResources({ newTpp, consentedPsu, paths })).idOf[kind] };
        // A card transaction listing carries the parameters the Berlin Group makes mandatory, so that only SCA is missing.
        const response = await tpp.get(`${paths(endpoint, parameters)}${endpoint === 'cardAccountTransactions' ? cardListingQuery() : ''}`);
        check.that('SCA-02', scaRedirectOf(response) !== undefined, {
          expected: 'SCA needed (no PSU-ID): a body with _links.scaRedirect',
          response,
        });
      },
    ),
  );
}

// [scenario id, endpoint, the kind of resource its path names]: calls that would be served, but for the missing header.
const WITHOUT_REDIRECT_URI: readonly (readonly [string, PathName, Kind])[] = [
  ['SCA-04.a', 'accounts', 'none'],
  ['SCA-04.b', 'balances', 'account'],
  ['SCA-04.c', 'transactions', 'account'],
  ['SCA-04.d', 'cardAccounts', 'none'],
];

for (const [id, endpoint, kind] of WITHOUT_REDIRECT_URI) {
  test(
    ...scenario(
      id,
      `GET ${endpoint} with the psu-id of a consent but without TPP-Redirect-URI is refused with 400, or served (it needs no SCA)`,
      { checks: ['SCA-04'] },
      async ({ newTpp, consentedPsu, paths, check }) => {
        const { psuId, sessionId, idOf } = await consentedResources({ newTpp, consentedPsu, paths });
        // Under the consent's own TPP-Session-ID: a read it serves with the header would be served without it, where the bank takes that.
        const response = await newTpp({ sessionId }).get(paths(endpoint, kind === 'none' ? {} : { accountId: idOf[kind] }), {
          headers: { 'PSU-ID': psuId },
          omitHeaders: ['TPP-Redirect-URI'],
          malformed: 'no TPP-Redirect-URI',
        });
        // The TPP's duty (TPP-24): a bank may refuse a read without it (400), or serve one that needs no SCA.
        check.acceptedOrRefused('SCA-04', response);
      },
    ),
  );
}

/** frame-ancestors that admits no other site: 'none', or only 'self'. */
const FRAME_ANCESTORS_CLOSED = /frame-ancestors\s+(?:'none'|'self')\s*(?:;|$)/i;

test(
  ...scenario(
    'SCA-11.a',
    "the SCA site can be shown in a TPP's frame: no X-Frame-Options DENY or SAMEORIGIN, no closed frame-ancestors",
    { checks: ['SCA-11'] },
    async ({ tpp, sca, paths, check }) => {
      const page = await sca.firstPage(scaRedirectFrom(await tpp.get(paths('accounts'))));
      const frameOptions = page.headers['x-frame-options'] ?? '';
      const policy = page.headers['content-security-policy'] ?? '';
      const denied = /deny|sameorigin/i.test(frameOptions) || FRAME_ANCESTORS_CLOSED.test(policy);
      check.that('SCA-11', !denied, {
        expected: 'no header that forbids framing by another site',
        actual: `HTTP ${page.status} ${page.url}: X-Frame-Options: ${frameOptions || '(none)'}; Content-Security-Policy: ${policy || '(none)'}`,
      });
    },
  ),
);
