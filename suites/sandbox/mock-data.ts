/**
 * The sandbox mock-data operations as a scenario uses them to make the data it needs (capability
 * sandbox-mock-data): what they answer, and the consent of a PSU of the scenario's own to every account
 * offered. An operation the target refuses stops the scenario (an ERROR that names it), unless the scenario
 * judges that operation itself.
 */
import type { ScenarioFixtures, TppResponse } from '../../lib/fixtures/index.js';
import { consentServesReads, isSuccess, jsonBodyOf, PrerequisiteUnmet, scaRedirectFrom } from '../../lib/fixtures/index.js';

/** A PSU as the target's steps log in with it (one from targets.yaml, or one made for the scenario). */
export type Psu = Awaited<ReturnType<ScenarioFixtures['ownPsu']>>;

/** The body of a mock-data answer the scenario needs to go on. */
export function created(what: string, response: TppResponse): Record<string, unknown> {
  if (!isSuccess(response))
    throw new Error(`the target did not create ${what}: HTTP ${response.status} ${response.bodyText.slice(0, 300)}`);
  return (jsonBodyOf(response) ?? {}) as Record<string, unknown>;
}

/** A date `days` before today (UTC), as the mock-data bodies and the query parameters write it. */
export function daysAgo(days: number, today = new Date()): string {
  return new Date(today.getTime() - days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * SCA for the PSU, consenting to every account offered: the psu-id (and psu-corporate-id, in corporate context).
 * The scenario goes on to read through the consent, under the same TPP-Session-ID: it stops (PrerequisiteUnmet)
 * when the account list is not served there, which is judged by scenarios of its own (consented-reads.ts).
 */
export async function consentOf(
  { tpp, paths, sca }: Pick<ScenarioFixtures, 'tpp' | 'paths' | 'sca'>,
  psu: Psu,
): Promise<{ psuId: string; corporateId?: string }> {
  const redirect = await sca.authorise(scaRedirectFrom(await tpp.get(paths('accounts'))), psu);
  const psuId = redirect.params['psu-id'];
  if (redirect.outcome !== 'success' || psuId === undefined)
    throw new PrerequisiteUnmet(`the SCA for the scenario's PSU gave no psu-id to go on with: ${redirect.url}`);
  // A psu-corporate-id after SCA in private context is EVT-05's to judge; the private consent is read without it.
  const corporateId = redirect.params.context === 'PRIVATE' ? undefined : redirect.params['psu-corporate-id'];
  const headers = { 'PSU-ID': psuId, ...(corporateId === undefined ? {} : { 'PSU-CORPORATE-ID': corporateId }) };
  consentServesReads(await tpp.get(paths('accounts'), { headers }), `the consent of the scenario's PSU`);
  return { psuId, ...(corporateId === undefined ? {} : { corporateId }) };
}
