/**
 * Versioning > x-accept-fix > longer-names: card account names of up to 70 characters are returned whole,
 * with the fix and without it (a default since 1 October 2024). The card account is made for the scenario
 * with the sandbox mock data, since no known card account has a name longer than the old limit.
 */
import { accountsOf, scenario, test } from '../../lib/fixtures/index.js';
import { consentOf } from '../sandbox/mock-data.js';

/** 69 characters, within the specification's 70 and well past the 35 of before the fix. */
const LONG_NAME = 'Visa Kredittkort for reiser, innkjøp og faste trekk i Norge og utland';

test(
  ...scenario(
    'VER-14.a',
    'longer-names: a card account name of 70 characters comes back whole, with the fix and without it',
    { checks: ['VER-14'], needs: ['sandbox-mock-data'], ownPsu: true, writes: 'a card account with a long name' },
    async ({ tpp, paths, sca, check, ownPsu, sandbox }) => {
      const psu = await ownPsu();
      const cardId = await sandbox.create('createCardAccount', { customerNumber: psu.nationalId, currency: 'NOK', name: LONG_NAME });
      const { psuId } = await consentOf({ tpp, paths, sca }, psu);
      for (const fix of ['longer-names', undefined]) {
        const response = await tpp.get(paths('cardAccounts'), {
          headers: { 'PSU-ID': psuId, ...(fix === undefined ? {} : { 'x-accept-fix': fix }) },
        });
        const cards = accountsOf<{ resourceId?: string; name?: string }>(response, 'cardAccounts');
        const name = cards.find((card) => card.resourceId === cardId)?.name;
        // Whole: none of its characters cut (whatever a bank writes after them is the name's length rule, AIS-10).
        check.that('VER-14', name?.startsWith(LONG_NAME) === true, {
          expected: `the card account's name whole, ${LONG_NAME.length} characters (${fix === undefined ? 'without x-accept-fix' : `with x-accept-fix: ${fix}`})`,
          actual: name === undefined ? 'the card account is not listed' : `"${name}" (${name.length} characters)`,
          response,
        });
      }
    },
  ),
);
