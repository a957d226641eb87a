/**
 * Authentication 13 and Errors rule 4: in corporate context the TPP sends PSU-ID and PSU-CORPORATE-ID (from
 * the SCA redirect) on later calls; a corporate request without PSU-CORPORATE-ID gets 400, whether or not it
 * says `PSU-Context: CORPORATE`.
 */
import { jsonBodyOf, scenario } from '../../lib/fixtures/index.js';

const CORPORATE_PSU = 'corporate';

scenario(
  'SCA-14.a',
  'after SCA in corporate context the redirect carries psu-corporate-id, and PSU-ID with PSU-CORPORATE-ID returns the agreement accounts',
  { checks: ['EVT-04', 'PSU-08', 'SCA-15', 'SCA-14'], needs: ['corporate-psu'] },
  async ({ newTpp, consentedPsu, paths, check }) => {
    const { psuId, sessionId, corporateId } = await consentedPsu(CORPORATE_PSU);
    const uuid = corporateId !== undefined && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(corporateId);
    const shown = { expected: 'psu-corporate-id, a UUID, in the redirect after SCA in corporate context', actual: corporateId ?? '(absent)' };
    const carried = check.that('EVT-04', uuid, shown);
    check.that('PSU-08', uuid, shown);
    check.that('SCA-15', corporateId !== undefined, shown);
    const response = await newTpp({ sessionId }).get(paths('accounts'), { headers: { 'PSU-ID': psuId, 'PSU-CORPORATE-ID': corporateId ?? '' } });
    const served = check.status('SCA-14', response, { after: carried });
    const accounts = (jsonBodyOf(response) as { accounts?: unknown[] } | undefined)?.accounts ?? [];
    check.that('SCA-14', accounts.length > 0, { expected: 'the accounts of the corporate agreement', actual: `${accounts.length} accounts`, response }, { after: served });
  },
);

scenario(
  'SCA-17.a',
  'a corporate PSU-ID without PSU-CORPORATE-ID gets 400, with PSU-Context CORPORATE and without it',
  { checks: ['SCA-17'], needs: ['corporate-psu'] },
  async ({ newTpp, consentedPsu, paths, check }) => {
    const { psuId, sessionId } = await consentedPsu(CORPORATE_PSU);
    const tpp = newTpp({ sessionId });
    const saysCorporate = await tpp.get(paths('accounts'), { headers: { 'PSU-ID': psuId, 'PSU-Context': 'CORPORATE' }, malformed: 'corporate context without PSU-CORPORATE-ID' });
    check.status('SCA-17', saysCorporate);
    const saysNothing = await tpp.get(paths('accounts'), { headers: { 'PSU-ID': psuId }, malformed: 'a corporate PSU-ID without PSU-CORPORATE-ID' });
    check.status('SCA-17', saysNothing);
  },
);
