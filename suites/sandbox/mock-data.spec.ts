/**
 * What the service does > Sandbox mock data: operations create or update single mock resources (a customer,
 * an account, a card account), set the balances of accounts and card accounts, and set an account's owner
 * name; each is judged by what a TPP then reads through the account information endpoints.
 */
import { type AccountList, accountsOf, isSuccess, jsonBodyOf, scenario, test, type TppResponse } from '../../lib/fixtures/index.js';
import { BALANCE_TYPES } from '../../lib/spec/schemas/common-schemas.js';
import { consentOf } from './mock-data.js';

const UPDATED_NAME = 'Oppdatert Testperson';
const OWNER_NAME = 'Eier Testesen';
const ACCOUNT_BALANCES = [
  { balanceType: 'closingBooked', balanceAmount: { amount: '500.00', currency: 'NOK' } },
  { balanceType: 'expected', balanceAmount: { amount: '456.78', currency: 'NOK' } },
];
const CARD_BALANCES = [{ balanceType: 'interimBooked', balanceAmount: { amount: '-67.80', currency: 'NOK' } }];

type Balance = { balanceType?: string; balanceAmount?: { amount?: string; currency?: string } };

/** Whether the balances read hold every balance set (same type, same amount as a number, same currency). */
function holds(read: TppResponse, set: readonly Balance[]): boolean {
  const balances = (jsonBodyOf(read) as { balances?: Balance[] } | undefined)?.balances ?? [];
  return set.every((want) =>
    balances.some(
      (b) =>
        b.balanceType === want.balanceType &&
        Number(b.balanceAmount?.amount) === Number(want.balanceAmount?.amount) &&
        b.balanceAmount?.currency === want.balanceAmount?.currency,
    ),
  );
}

const describeBalances = (read: TppResponse) =>
  JSON.stringify(
    ((jsonBodyOf(read) as { balances?: Balance[] } | undefined)?.balances ?? []).map((b) => [b.balanceType, b.balanceAmount?.amount]),
  );

/**
 * Why balances read cannot show what was set, whatever the mock operation did: the read refused, no balance
 * at all, or types outside Berlin Group's list to match by (serving balances and their types are END-12's,
 * END-26's, AIS-07's and AIS-12's rules).
 */
function unmatchable(read: TppResponse): string | undefined {
  if (!isSuccess(read)) return `were refused (HTTP ${read.status})`;
  const types = ((jsonBodyOf(read) as { balances?: Balance[] } | undefined)?.balances ?? []).map((b) => b.balanceType);
  if (types.length === 0) return 'hold no balance';
  const unknown = types.filter((type) => !(BALANCE_TYPES as readonly unknown[]).includes(type));
  return unknown.length > 0 ? `carry balance types outside the Berlin Group list (${unknown.join(', ')})` : undefined;
}

const listed = (response: TppResponse, list: AccountList) => accountsOf(response, list).map((a) => a.resourceId);

test(
  ...scenario(
    'SBX-06.a',
    'mock operations create an account and a card account, update a customer, set balances and the owner name, as the AIS endpoints then show',
    {
      checks: ['SBX-06', 'SBX-07', 'SBX-08'],
      needs: ['sandbox-mock-data'],
      ownPsu: true,
      writes: 'creates and changes sandbox customers and accounts',
    },
    async ({ tpp, paths, sca, ownPsu, sandbox, check }) => {
      const psu = await ownPsu();
      const customerNumber = psu.nationalId ?? '';

      const update = await sandbox.perform('renameCustomer', { customerNumber, name: UPDATED_NAME });
      const accountId = await sandbox.create('createAccount', { customerNumber, accountName: 'Mock-konto', currency: 'NOK' });
      const cardId = await sandbox.create('createCardAccount', { customerNumber, currency: 'NOK', name: 'Mock-kort' });
      const accountBalances = await sandbox.perform('setAccountBalances', { accountId, balances: ACCOUNT_BALANCES });
      const cardBalances = await sandbox.perform('setCardAccountBalances', { accountId: cardId, balances: CARD_BALANCES });
      const ownerName = await sandbox.perform('setOwnerName', { accountId, ownerName: OWNER_NAME });

      const customers = await sandbox.perform('listCustomers');
      const body = jsonBodyOf(customers) as
        { customers?: { customerNumber?: string; name?: string }[] } | { customerNumber?: string; name?: string }[] | undefined;
      const shownName = (Array.isArray(body) ? body : (body?.customers ?? [])).find((c) => c.customerNumber === customerNumber)?.name;
      // The new name can be seen only in a list that is served (whether it is, is END-22's rule): else the update's status alone.
      if (isSuccess(customers))
        check.that('SBX-06', isSuccess(update) && shownName === UPDATED_NAME, {
          expected: `the customer updated (2xx), then listed as "${UPDATED_NAME}"`,
          actual: `HTTP ${update.status}, listed as "${String(shownName)}"`,
          response: customers,
        });
      else
        check.that('SBX-06', isSuccess(update), {
          expected: `the customer updated (2xx); the list that would show the new name was not served (HTTP ${customers.status})`,
          response: update,
        });

      const { psuId } = await consentOf({ tpp, paths, sca }, psu);
      const read = (path: string) => tpp.get(path, { headers: { 'PSU-ID': psuId } });
      const cards = await read(paths('cardAccounts'));
      // The account read by its id: whether the list shows all of the PSU's accounts at once is GEN-09's to judge.
      const details = await read(paths('account', { accountId }));
      check.that('SBX-06', isSuccess(details), {
        expected: `the created account ${accountId} read under the PSU's consent (2xx)`,
        response: details,
      });
      check.that('SBX-06', listed(cards, 'cardAccounts').includes(cardId), {
        expected: `the created card account ${cardId} among the PSU's card accounts`,
        actual: JSON.stringify(listed(cards, 'cardAccounts')),
        response: cards,
      });

      const readBalances = await read(paths('balances', { accountId }));
      const readCardBalances = await read(paths('cardAccountBalances', { accountId: cardId }));
      for (const [what, set, written, read] of [
        ['account', ACCOUNT_BALANCES, accountBalances, readBalances],
        ['card account', CARD_BALANCES, cardBalances, readCardBalances],
      ] as const) {
        const hidden = isSuccess(written) && !holds(read, set) ? unmatchable(read) : undefined;
        if (hidden !== undefined) check.notEvaluated(['SBX-07'], `not evaluated: the ${what} balances read back ${hidden}`);
        else
          check.that('SBX-07', isSuccess(written) && holds(read, set), {
            expected: `the ${what} balances set (${JSON.stringify(set.map((b) => [b.balanceType, b.balanceAmount.amount]))})`,
            actual: `HTTP ${written.status}, read ${describeBalances(read)}`,
            response: read,
          });
      }

      const shownOwner = (jsonBodyOf(details) as { account?: { ownerName?: string } } | undefined)?.account?.ownerName;
      check.that('SBX-08', isSuccess(ownerName) && shownOwner === OWNER_NAME, {
        expected: `ownerName "${OWNER_NAME}" in the account details`,
        actual: `HTTP ${ownerName.status}, ownerName "${String(shownOwner)}"`,
        response: details,
      });
    },
  ),
);
