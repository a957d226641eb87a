/**
 * A PSU of the scenario's own with an account holding a long booked history (sandbox mock data), consented
 * through SCA: what pagination and the 90-day limit need and no fixed target data guarantees. The history is
 * added with the sandbox operation addAccountTransactions, in the vendor's shape (xs2a-facts.md).
 */
import type { ScenarioFixtures } from '../../lib/fixtures/index.js';
import { consentOf, created, daysAgo } from '../sandbox/mock-data.js';

export interface BusyAccount {
  accountId: string;
  psuId: string;
  /** Booked transactions the mock history added. */
  count: number;
}

/**
 * What the remittance text of each transaction added begins with (then its number): the account may hold others
 * besides (a bank may give a new account a history of its own), and these tell the added ones apart.
 */
export const ADDED_REMITTANCE = 'Busy account';

type Needs = Pick<ScenarioFixtures, 'tpp' | 'paths' | 'sca' | 'ownPsu' | 'sandbox'>;

/** `count` booked card payments spread evenly over the last `days` days, today's first. */
function history(count: number, days: number): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, i) => {
    const booked = daysAgo(Math.floor((i * days) / count));
    return {
      amount: `-${10 + (i % 90)}.50`,
      currency: 'NOK',
      bookingDate: booked,
      valueDate: booked,
      creditorName: 'Butikk AS',
      remittanceInformationUnstructured: `${ADDED_REMITTANCE} ${i + 1}`,
    };
  });
}

/** Creates the account and its history, then consents to every account of the PSU. */
export async function busyAccount({ tpp, paths, sca, ownPsu, sandbox }: Needs, count: number, days: number): Promise<BusyAccount> {
  const psu = await ownPsu();
  const accountId = await sandbox.create('createAccount', { customerNumber: psu.nationalId, accountName: 'Busy account', currency: 'NOK' });
  created('a transaction history', await sandbox.perform('addAccountTransactions', { accountId, transactions: history(count, days) }));
  const { psuId } = await consentOf({ tpp, paths, sca }, psu);
  return { accountId, psuId, count };
}
