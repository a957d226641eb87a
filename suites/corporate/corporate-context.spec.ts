/**
 * Authentication 13 and Errors rule 4: in corporate context the TPP sends PSU-ID and PSU-CORPORATE-ID (from
 * the SCA redirect) on later calls; a corporate request without PSU-CORPORATE-ID gets 400 (judged on a payment
 * initiation that names the corporate context in PSU-Context).
 */
import {
  accountsOf,
  type ConsentedPsu,
  consentServesReads,
  isSuccess,
  PrerequisiteUnmet,
  scaRedirectOf,
  scenario,
  type ScenarioFixtures,
  test,
} from '../../lib/fixtures/index.js';
import { consentedDebtor, initiate, sepaPayment } from '../payments/payment-bodies.js';

const CORPORATE_PSU = 'corporate';

/**
 * The corporate PSU's consent, which these scenarios judge in corporate context: not one whose SCA ended in PRIVATE context (who picks the
 * context is GEN-11's).
 */
async function corporateConsent(consentedPsu: ScenarioFixtures['consentedPsu']): Promise<ConsentedPsu> {
  const consent = await consentedPsu(CORPORATE_PSU);
  if (consent.context === 'PRIVATE') throw new PrerequisiteUnmet('the SCA of the corporate PSU ended in PRIVATE context');
  return consent;
}

test(
  ...scenario(
    'SCA-14.a',
    'after SCA in corporate context the redirect carries psu-corporate-id, and PSU-ID with PSU-CORPORATE-ID returns the agreement accounts',
    { checks: ['EVT-04', 'PSU-08', 'SCA-15', 'SCA-14', 'HDR-18'], needs: ['corporate-psu'] },
    async ({ newTpp, consentedPsu, paths, check }) => {
      const { psuId, sessionId, corporateId } = await corporateConsent(consentedPsu);
      const uuid = corporateId !== undefined && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(corporateId);
      const shown = {
        expected: 'psu-corporate-id, a UUID, in the redirect after SCA in corporate context',
        actual: corporateId ?? '(absent)',
      };
      const carried = check.that('EVT-04', uuid, shown);
      check.that('PSU-08', uuid, shown);
      check.that('SCA-15', corporateId !== undefined, shown);
      const response = await newTpp({ sessionId }).get(paths('accounts'), {
        headers: { 'PSU-ID': psuId, 'PSU-CORPORATE-ID': corporateId ?? '' },
      });
      // A refusal of every account list (the AISP role, GEN-03's) is told from one of the corporate read by the private PSU's.
      if (!isSuccess(response)) {
        const { psuId: privateId, sessionId: privateSession } = await consentedPsu();
        consentServesReads(
          await newTpp({ sessionId: privateSession }).get(paths('accounts'), { headers: { 'PSU-ID': privateId } }),
          "the private PSU's consent",
        );
      }
      const served = check.status('SCA-14', response, { after: carried });
      // PSU-CORPORATE-ID carries the agreement (HDR-18): with it the agreement's accounts are served.
      check.status('HDR-18', response, { after: carried });
      const accounts = accountsOf(response);
      const agreementAccounts = { expected: 'the accounts of the corporate agreement', actual: `${accounts.length} accounts`, response };
      check.that('SCA-14', accounts.length > 0, agreementAccounts, { after: served });
    },
  ),
);

test(
  ...scenario(
    'SCA-17.a',
    'a payment initiation of a corporate PSU in context CORPORATE without PSU-CORPORATE-ID gets 400',
    { checks: ['SCA-17', 'ERR-38'], needs: ['corporate-psu'], writes: 'initiates a payment (refused)' },
    async ({ newTpp, consentedPsu, paths, check }) => {
      const { psuId, sessionId } = await corporateConsent(consentedPsu);
      // From an account of the agreement, so that only the missing PSU-CORPORATE-ID is wrong.
      const from = await consentedDebtor({ newTpp, consentedPsu, paths }, CORPORATE_PSU);
      // The request names the corporate context itself, in a header of the payment initiation table. Whether an
      // account read with only a corporate PSU-ID is "corporate" is not said: both readings pass, so it is not sent.
      const tpp = newTpp({ sessionId, headers: { 'PSU-ID': psuId, 'PSU-Context': 'CORPORATE' } });
      const response = await initiate(tpp, paths, sepaPayment(from), { malformed: 'corporate context without PSU-CORPORATE-ID' });
      check.status('SCA-17', response);
      check.status('ERR-38', response);
      // An account read with the corporate PSU's PSU-ID alone names no context: refused as a corporate request
      // (400), or read as a private one of the same PSU (which holds no private consent here). Either reading
      // passes; serving the agreement's accounts without PSU-CORPORATE-ID is neither.
      const read = await newTpp({ sessionId, headers: { 'PSU-ID': psuId } }).get(paths('accounts'));
      check.that('SCA-17', !isSuccess(read), {
        expected: 'an account read with PSU-ID alone not served as a corporate one: 400, or answered as a private request of the PSU',
        response: read,
      });
    },
  ),
);

test(
  ...scenario(
    'END-19.a',
    "GET /v1/agreements with the PSU-ID lists the PSU's corporate agreement, the one chosen during SCA",
    { checks: ['END-19'], needs: ['corporate-psu'] },
    async ({ newTpp, consentedPsu, paths, check }) => {
      const { psuId, sessionId, corporateId } = await consentedPsu(CORPORATE_PSU);
      if (corporateId === undefined) throw new PrerequisiteUnmet('the corporate SCA gave no psu-corporate-id to look for');
      const response = await newTpp({ sessionId }).get(paths('agreements'), { headers: { 'PSU-ID': psuId } });
      const listed = check.status('END-19', response);
      check.that(
        'END-19',
        response.bodyText.includes(`"${corporateId}"`),
        { expected: `the agreement ${corporateId} among those listed`, response },
        { after: listed },
      );
    },
  ),
);

test(
  ...scenario(
    'END-18.a',
    'GET /v1/user, asked by a PISP that is not an AISP, starts an SCA that ends in corporate context with a psu-corporate-id',
    { checks: ['END-18'], needs: ['corporate-psu'], ownPsu: true },
    async ({ target, tpp, newTpp, paths, sca, ownPsu, check }) => {
      // A corporate PSU of its own where the target makes them: an SCA of the target's corporate PSU may end the
      // session its shared consent's reads go on under (SES-05), for the other scenarios of the run.
      const psu = target.capabilities.includes('sandbox-mock-data') ? await ownPsu('corporate') : CORPORATE_PSU;
      // The endpoint is "for PISPs that are not AISPs": a certificate with the payment role alone, where the target
      // takes the suite's test certificates; else the run's own TPP, which a bank may turn away as an AISP.
      const pispOnly = target.capabilities.includes('test-ca-trusted');
      const response = await (pispOnly ? newTpp({ certificate: { kind: 'roles', roles: ['PSP_PI'] } }) : tpp).get(paths('user'));
      const href = scaRedirectOf(response);
      if (href === undefined && !pispOnly) {
        return check.notEvaluated(
          ['END-18'],
          `not evaluated: the run's TPP is an AISP too (GET /v1/user is for PISPs that are not), and the target takes no test certificate with the payment role alone (test-ca-trusted): HTTP ${response.status}`,
        );
      }
      const started = check.that('END-18', href !== undefined, { expected: 'an scaRedirect link', response });
      if (href === undefined) return;
      const redirect = await sca.authorise(href, psu);
      // What the SCA yields is seen only when it succeeds (a PSU who cannot log in is another rule's).
      if (redirect.outcome !== 'success')
        return check.notEvaluated(['END-18'], `not evaluated: the SCA did not succeed, so it yielded nothing to see: ${redirect.url}`);
      const { context } = redirect.params;
      const corporateId = redirect.params['psu-corporate-id'];
      // The corporate PSU picks its agreement on the SCA pages: an SCA that ends in PRIVATE context all the same did not follow the PSU's
      // pick (GEN-11's to judge).
      if (context === 'PRIVATE')
        return check.notEvaluated(
          ['END-18'],
          `not evaluated: the SCA ended in PRIVATE context, which the corporate PSU did not pick (${redirect.url})`,
        );
      // The psu-corporate-id shows the corporate context; a context parameter, where there is one (EVT-07), must not contradict it.
      const corporate = corporateId !== undefined && (context === undefined || context === 'CORPORATE');
      check.that(
        'END-18',
        corporate,
        { expected: 'a psu-corporate-id in the redirect (and context=CORPORATE, if it names one)', actual: redirect.url },
        { after: started },
      );
    },
  ),
);
