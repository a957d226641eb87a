/**
 * Versioning > x-accept-fix: a TPP switches on published breaking changes early, several values
 * comma-separated. The four values of the table were all made default before today, so each answer shows
 * the fixed behaviour with the header and without it, and sending a value changes nothing.
 */
import { isSuccess, jsonBodyOf, scenario, test } from '../../lib/fixtures/index.js';
import { CASH_ACCOUNT_TYPES } from '../../lib/spec/codelists.js';
import { cardListingQuery } from '../ais/card-listing.js';
import { fixReader, objectsOf, PUBLISHED_FIXES, stableJson } from './consented-reads.js';

const WITHOUT = undefined;

/** How a response was asked for, for the report. */
const asked = (fix: string | undefined) => (fix === undefined ? 'without x-accept-fix' : `with x-accept-fix: ${fix}`);

test(
  ...scenario(
    'VER-09.a',
    'x-accept-fix with several published values, comma-separated, is accepted',
    { checks: ['VER-09'] },
    async ({ newTpp, consentedPsu, paths, check }) => {
      const { read } = await fixReader({ newTpp, consentedPsu, paths });
      check.status('VER-09', await read(paths('accounts'), 'amount-as-string, cash-account-type-iso'));
    },
  ),
);

test(
  ...scenario(
    'VER-10.a',
    'an x-accept-fix value the bank does not know is ignored, not refused',
    { checks: ['VER-10'] },
    async ({ newTpp, consentedPsu, paths, check }) => {
      const { read } = await fixReader({ newTpp, consentedPsu, paths });
      check.status('VER-10', await read(paths('accounts'), 'a-fix-nobody-has-published'));
    },
  ),
);

test(
  ...scenario(
    'VER-12.a',
    'amount-as-string: balance amounts are strings, with the fix and without it',
    { checks: ['VER-12'] },
    async ({ newTpp, consentedPsu, paths, check }) => {
      const { read, firstOf } = await fixReader({ newTpp, consentedPsu, paths });
      const accountId = await firstOf('accounts');
      for (const fix of ['amount-as-string', WITHOUT]) {
        const response = await read(paths('balances', { accountId }), fix);
        const amounts = objectsOf(jsonBodyOf(response)).filter((node) => 'amount' in node && 'currency' in node);
        // Balances refused or empty show no amount to see written (serving them is END-12's rule).
        if (amounts.length === 0) {
          check.notEvaluated(['VER-12'], `not evaluated: the balances read ${asked(fix)} show no amount (HTTP ${response.status})`);
          continue;
        }
        const numbers = amounts.filter((node) => typeof node['amount'] !== 'string');
        check.that('VER-12', numbers.length === 0, {
          expected: `amounts as strings (${asked(fix)})`,
          actual: `${numbers.length} of ${amounts.length} amounts not strings: ${JSON.stringify(numbers[0] ?? {})}`,
          response,
        });
      }
    },
  ),
);

test(
  ...scenario(
    'VER-13.a',
    'cardaccount-switch-originalamount-and-transactionamount: card transactions carry transactionAmount in the card account currency, with the fix and without it',
    { checks: ['VER-13'] },
    async ({ newTpp, consentedPsu, paths, check }) => {
      const { read, firstOf } = await fixReader({ newTpp, consentedPsu, paths });
      const accountId = await firstOf('cardAccounts');
      const currency = (jsonBodyOf(await read(paths('cardAccount', { accountId }))) as { cardAccount?: { currency?: string } } | undefined)
        ?.cardAccount?.currency;
      if (currency === undefined)
        return check.notEvaluated(['VER-13'], 'not evaluated: the card account details name no currency to compare the amounts with');
      for (const fix of ['cardaccount-switch-originalamount-and-transactionamount', WITHOUT]) {
        const response = await read(`${paths('cardAccountTransactions', { accountId })}${cardListingQuery()}`, fix);
        const entries = objectsOf(jsonBodyOf(response)).filter((node) => 'transactionAmount' in node);
        if (entries.length === 0) {
          check.notEvaluated(
            ['VER-13'],
            `not evaluated: the card account shows no transaction (${asked(fix)}), so no mapping of its amounts to see`,
          );
          continue;
        }
        const currencyOf = (amount: unknown) => (amount as { currency?: unknown } | undefined)?.currency;
        const wrong = entries.filter((entry) => currencyOf(entry['transactionAmount']) !== currency);
        check.that('VER-13', wrong.length === 0, {
          expected: `every transactionAmount in the card account's currency ${currency}, originalAmount in the purchase's (${asked(fix)})`,
          actual: `${wrong.length} of ${entries.length} otherwise: ${JSON.stringify(wrong[0] ?? {}).slice(0, 300)}`,
        });
      }
    },
  ),
);

test(
  ...scenario(
    'VER-15.a',
    'cash-account-type-iso: cashAccountType holds ISO 20022 codes, with the fix and without it',
    { checks: ['VER-15'] },
    async ({ newTpp, consentedPsu, paths, check }) => {
      const { read } = await fixReader({ newTpp, consentedPsu, paths });
      for (const fix of ['cash-account-type-iso', WITHOUT]) {
        const response = await read(paths('accounts'), fix);
        const types = objectsOf(jsonBodyOf(response)).flatMap((node) =>
          node['cashAccountType'] === undefined ? [] : [node['cashAccountType']],
        );
        // cashAccountType is optional (Berlin Group): an account list without one shows no mapping.
        if (types.length === 0) {
          check.notEvaluated(['VER-15'], `not evaluated: no account of the list carries a cashAccountType (${asked(fix)})`);
          continue;
        }
        const proprietary = types.filter((type) => !(CASH_ACCOUNT_TYPES as readonly unknown[]).includes(type));
        check.that('VER-15', proprietary.length === 0, {
          expected: `ISO 20022 ExternalCashAccountType1 codes (${asked(fix)})`,
          actual: types.map(String).join(', '),
          response,
        });
      }
    },
  ),
);

test(
  ...scenario(
    'VER-16.a',
    'every published fix value, already the default, changes nothing: accounts, balances and card accounts read the same with and without',
    { checks: ['VER-16'] },
    async ({ newTpp, consentedPsu, paths, check }) => {
      const { read, firstOf } = await fixReader({ newTpp, consentedPsu, paths });
      const accountId = await firstOf('accounts');
      for (const path of [paths('accounts'), paths('balances', { accountId }), paths('cardAccounts')]) {
        const without = await read(path);
        // One value at a time: several at once, comma-separated, are VER-09's rule.
        for (const fix of PUBLISHED_FIXES) {
          const withFix = await read(path, fix);
          // Refused both ways, the resource shows nothing a fix could change (serving it is its endpoint's rule).
          if (!isSuccess(withFix) && !isSuccess(without)) {
            check.notEvaluated(
              ['VER-16'],
              `not evaluated: GET ${path} was served neither ${asked(fix)} nor without it (HTTP ${withFix.status}, ${without.status})`,
            );
            continue;
          }
          check.that('VER-16', withFix.status === without.status && stableJson(withFix) === stableJson(without), {
            expected: `GET ${path} answered the same ${asked(fix)} as without it`,
            actual: `${asked(fix)}: HTTP ${withFix.status} ${stableJson(withFix).slice(0, 300)}\n   without: HTTP ${without.status} ${stableJson(without).slice(0, 300)}`,
          });
        }
      }
    },
  ),
);

test(
  ...scenario(
    'VER-20.a',
    'transactions may carry remittanceInformationStructuredArray (an array of structured references), the successor of remittanceInformationStructured',
    { checks: ['VER-20'] },
    async ({ newTpp, consentedPsu, paths, check }) => {
      const { read, firstOf } = await fixReader({ newTpp, consentedPsu, paths });
      const response = await read(paths('transactions', { accountId: await firstOf('accounts') }));
      const entries = objectsOf(jsonBodyOf(response)).filter((node) => 'transactionAmount' in node);
      const structured = (value: unknown) => value !== null && typeof value === 'object' && !Array.isArray(value);
      const malformed = entries.filter((entry) => {
        const array = entry['remittanceInformationStructuredArray'];
        const single = entry['remittanceInformationStructured'];
        return (
          (array !== undefined && !(Array.isArray(array) && array.every(structured))) ||
          (single !== undefined && typeof single !== 'string' && !structured(single))
        );
      });
      check.that('VER-20', malformed.length === 0, {
        expected:
          'remittanceInformationStructuredArray, where given, an array of structured references; remittanceInformationStructured a string or a structured reference',
        actual: `${malformed.length} of ${entries.length} transactions otherwise: ${JSON.stringify(malformed[0] ?? {}).slice(0, 300)}`,
      });
    },
  ),
);
