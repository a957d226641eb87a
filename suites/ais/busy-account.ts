/**
 * A PSU of the scenario's own with an account holding a long booked history (sandbox mock data), consented
 * through SCA: what pagination and the 90-day limit need and no fixed target data guarantees.
 */
import type { ScenarioFixtures, TppResponse } from '../../lib/fixtures/index.js';
import { scaRedirectFrom } from '../../lib/fixtures/index.js';

export interface BusyAccount {
  accountId: string;
  psuId: string;
  /** Booked transactions the mock history holds. */
  count: number;
}

type Needs = Pick<ScenarioFixtures, 'tpp' | 'paths' | 'sca' | 'ownPsu'>;

function created(what: string, response: TppResponse): Record<string, unknown> {
  if (response.status >= 300) throw new Error(`the target did not create ${what}: HTTP ${response.status} ${response.bodyText.slice(0, 300)}`);
  return JSON.parse(response.bodyText) as Record<string, unknown>;
}

/** Creates the account and its history, then consents to every account of the PSU. */
export async function busyAccount({ tpp, paths, sca, ownPsu }: Needs, count: number, days: number): Promise<BusyAccount> {
  const psu = await ownPsu();
  const account = created('an account', await tpp.post(paths('sandboxAccounts'), { customerNumber: psu.nationalId, accountName: 'Busy account', currency: 'NOK' }));
  const accountId = String(account.resourceId);
  created('a transaction history', await tpp.post(paths('sandboxAccountTransactions', { accountId }), { count, days }));
  const redirect = await sca.authorise(scaRedirectFrom(await tpp.get(paths('accounts'))), psu);
  const psuId = redirect.params['psu-id'];
  if (redirect.outcome !== 'success' || psuId === undefined) throw new Error(`the SCA for the scenario's PSU did not succeed: ${redirect.url}`);
  return { accountId, psuId, count };
}
