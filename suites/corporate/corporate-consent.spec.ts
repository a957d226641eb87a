/**
 * What the service does > PSU contexts, and Authentication 13: the PSU picks the context during SCA
 * (PRIVATE or one of its corporate agreements), a corporate context shows only the accounts granted under
 * its agreement, and a corporate context without consent starts a new consent flow. Each scenario takes
 * corporate PSUs of its own (sandbox mock data), whose consents no other scenario sees.
 */
import { randomUUID } from 'node:crypto';
import {
  accountIdsOf,
  type Check,
  isSuccess,
  PrerequisiteUnmet,
  scaRedirectFrom,
  scaRedirectOf,
  scenario,
  test,
  type TppClient,
} from '../../lib/fixtures/index.js';

const CORPORATE = {
  needs: ['corporate-psu', 'sandbox-mock-data'],
  ownPsu: true,
  writes: 'corporate sandbox customers with accounts',
} as const;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/**
 * The context the PSU picked, as the redirect shows it: its context parameter, else a psu-corporate-id (given
 * in corporate context only, EVT-05); undefined when it shows neither (EVT-07 judges the missing parameter).
 */
const pickedContext = (params: Record<string, string>): string | undefined =>
  params.context ?? (params['psu-corporate-id'] !== undefined ? 'CORPORATE' : undefined);

/** GEN-11 on the redirect after the PSU picked `picked`: not evaluated when the redirect does not show the pick. */
function judgePick(
  check: Check,
  redirect: { url: string; params: Record<string, string> },
  picked: string,
  rule: { expected: string; holds: (params: Record<string, string>) => boolean },
): void {
  if (pickedContext(redirect.params) === undefined) {
    return check.notEvaluated(
      ['GEN-11'],
      `not evaluated: the redirect after the PSU picked ${picked} shows no context (neither context nor psu-corporate-id): ${redirect.url}`,
    );
  }
  check.that('GEN-11', rule.holds(redirect.params), { expected: rule.expected, actual: redirect.url });
}

test(
  ...scenario(
    'GEN-11.a',
    'the PSU, not the TPP, picks the context: the SCA page offers PRIVATE and the agreement, and the redirect carries what the PSU picked',
    { checks: ['GEN-11'], ...CORPORATE },
    async ({ newTpp, sca, paths, check, ownPsu }) => {
      const psu = await ownPsu('corporate');
      // The TPP asks for the private context; the PSU picks the corporate agreement.
      const askedPrivate = newTpp({ headers: { 'PSU-Context': 'PRIVATE' } });
      const corporate = await sca.authorise(scaRedirectFrom(await askedPrivate.get(paths('accounts'))), { ...psu, context: 'CORPORATE' });
      judgePick(check, corporate, 'CORPORATE', {
        expected: 'context=CORPORATE or a psu-corporate-id: the PSU picked its agreement (the TPP had asked for PRIVATE)',
        holds: (params) => pickedContext(params) === 'CORPORATE',
      });
      // Another consent flow: this time the PSU picks PRIVATE.
      const own = await sca.authorise(scaRedirectFrom(await newTpp({ sessionId: randomUUID() }).get(paths('accounts'))), {
        ...psu,
        context: 'PRIVATE',
      });
      // Whether a psu-corporate-id comes along in private context is EVT-05's to judge.
      judgePick(check, own, 'PRIVATE', {
        expected: 'context=PRIVATE: the PSU picked PRIVATE',
        holds: (params) => pickedContext(params) === 'PRIVATE',
      });
    },
  ),
);

test(
  ...scenario(
    'SCA-16.a',
    'a PSU who consented in private context and then is asked for in a corporate context gets a new consent flow (401 with scaRedirect)',
    { checks: ['SCA-16'], ...CORPORATE },
    async ({ tpp, sca, paths, check, ownPsu }) => {
      const psu = await ownPsu('corporate');
      const redirect = await sca.authorise(scaRedirectFrom(await tpp.get(paths('accounts'))), { ...psu, context: 'PRIVATE' });
      const psuId = redirect.params['psu-id'];
      if (psuId === undefined) throw new PrerequisiteUnmet(`the SCA in private context gave no psu-id: ${redirect.url}`);
      // The agreement comes from GET /v1/agreements, as Authentication 13 says a TPP with a PSU-ID chooses it.
      const corporateId = UUID.exec((await tpp.get(paths('agreements'), { headers: { 'PSU-ID': psuId } })).bodyText)?.[0];
      if (corporateId === undefined)
        throw new PrerequisiteUnmet("GET /v1/agreements named none of the PSU's agreements (END-19 judges that)");
      const response = await tpp.get(paths('accounts'), {
        headers: { 'PSU-ID': psuId, 'PSU-Context': 'CORPORATE', 'PSU-CORPORATE-ID': corporateId },
      });
      const refused = check.status('SCA-16', response);
      check.that(
        'SCA-16',
        scaRedirectOf(response) !== undefined,
        { expected: 'an scaRedirect link: the consent flow for the new context', response },
        { after: refused },
      );
    },
  ),
);

/** A corporate PSU of the scenario's own, consented in its agreement: the accounts the TPP then gets. */
async function corporateAccounts(
  tpp: TppClient,
  consent: (href: string) => Promise<{ params: Record<string, string>; url: string }>,
  accountsPath: string,
): Promise<string[]> {
  const redirect = await consent(scaRedirectFrom(await tpp.get(accountsPath)));
  const psuId = redirect.params['psu-id'];
  const corporateId = redirect.params['psu-corporate-id'];
  if (psuId === undefined || corporateId === undefined)
    throw new PrerequisiteUnmet(`the SCA in corporate context gave no psu-id and psu-corporate-id: ${redirect.url}`);
  const listing = await tpp.get(accountsPath, { headers: { 'PSU-ID': psuId, 'PSU-CORPORATE-ID': corporateId } });
  if (!isSuccess(listing))
    throw new PrerequisiteUnmet(`the corporate accounts could not be read (HTTP ${listing.status}; SCA-14 judges that)`);
  return accountIdsOf(listing);
}

test(
  ...scenario(
    'GEN-10.a',
    "in CORPORATE context the TPP gets only the accounts of that agreement, none of another agreement's",
    { checks: ['GEN-10'], ...CORPORATE },
    async ({ newTpp, sca, paths, check, ownPsu }) => {
      const [first, second] = [await ownPsu('corporate'), await ownPsu('corporate')];
      const consentedAccounts = (psu: typeof first) =>
        corporateAccounts(newTpp({ sessionId: randomUUID() }), (href) => sca.authorise(href, psu), paths('accounts'));
      const firstAccounts = await consentedAccounts(first);
      const secondAccounts = await consentedAccounts(second);
      // Two agreements share no account: an account both PSUs get in corporate context was not granted to one of them.
      const shared = firstAccounts.filter((id) => secondAccounts.includes(id));
      check.that('GEN-10', firstAccounts.length > 0 && shared.length === 0, {
        expected: "the first agreement's accounts, none that the second agreement's PSU gets too",
        actual: `${firstAccounts.length} accounts, ${shared.length} of them also the second agreement's PSU's (${shared.slice(0, 3).join(', ')})`,
      });
    },
  ),
);
