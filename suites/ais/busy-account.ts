/**
 * A PSU of the scenario's own with an account holding a long booked history (sandbox mock data), consented
 * through SCA: what pagination and the 90-day limit need and no fixed target data guarantees.
 */
import type { ScenarioFixtures } from '../../lib/fixtures/index.js';
import { consentOf, created, resourceIdOf } from '../sandbox/mock-data.js';

export interface BusyAccount {
  accountId: string;
  psuId: string;
  /** Booked transactions the mock history holds. */
  count: number;
}

type Needs = Pick<ScenarioFixtures, 'tpp' | 'paths' | 'sca' | 'ownPsu'>;

/** Creates the account and its history, then consents to every account of the PSU. */
export async function busyAccount({ tpp, paths, sca, ownPsu }: Needs, count: number, days: number): Promise<BusyAccount> {
  const psu = await ownPsu();
  const accountId = resourceIdOf('an account', await tpp.post(paths('sandboxAccounts'), { customerNumber: psu.nationalId, accountName: 'Busy account', currency: 'NOK' }));
  created('a transaction history', await tpp.post(paths('sandboxAccountTransactions', { accountId }), { count, days }));
  const { psuId } = await consentOf({ tpp, paths, sca }, psu);
  return { accountId, psuId, count };
}
