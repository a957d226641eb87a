/**
 * Resources > Payment initiation request: every rule of the field table, one scenario per violation, each
 * refused with the status its requirement gives (the code under ERR-21), and the values the table allows
 * accepted. A rule of the table holds for every payment that carries the field: each scenario judges its
 * row of the rule table (lib/spec/rule-table.ts) in every payment service and product the row names.
 */
import { RULE_TABLE } from '../../lib/spec/rule-table.js';
import { scenario, test } from '../../lib/fixtures/index.js';
import { address, payer, type Patch } from './payment-bodies.js';
import { forEachCell, judgeCell } from './rule-cells.js';

const amount = (value: unknown, currency: unknown = 'EUR'): Patch => ({ instructedAmount: { amount: value, currency } });
const creditorAccount = (account: Record<string, unknown>): Patch => ({ creditorAccount: account });
const debtorAccount = (account: Record<string, unknown>): Patch => ({ debtorAccount: account });
const creditorAddress = (changes: Patch): Patch => ({ creditorAddress: address(changes) });

/** What breaks each refusal row of the rule table, as a change of the payment's fields. */
const REFUSED: Readonly<Record<string, Patch>> = {
  'PAY-02.a': { endToEndIdentification: 'E'.repeat(36) },
  'PAY-03.a': { instructedAmount: undefined },
  'PAY-03.b': { instructedAmount: '12.50 EUR' },
  'PAY-04.a': { instructedAmount: { currency: 'EUR' } },
  'FMT-10.a': amount(12.5),
  'PAY-05.a': amount('12345678901234567.89'),
  'PAY-06.a': amount('10.123456'),
  'PAY-07.a': amount('10.123'),
  'PAY-07.b': amount('100.5', 'JPY'),
  'PAY-09.a': amount('1e3'),
  'PAY-09.b': amount('10,50'),
  'PAY-10.a': { instructedAmount: { amount: '12.50' } },
  'PAY-10.b': amount('12.50', 'EURO'),
  'PAY-11.a': amount('12.50', 'BYN'),
  'PAY-13.a': { creditorName: undefined },
  'PAY-14.a': { creditorName: 'N'.repeat(71) },
  'PAY-15.a': { creditorAccount: undefined },
  'PAY-16.a': creditorAccount({ currency: 'EUR' }),
  'PAY-17.a': creditorAccount({ iban: `NO93${'8'.repeat(31)}`, currency: 'EUR' }),
  'PAY-18.a': creditorAccount({ iban: 'NO9486011117947', currency: 'EUR' }),
  'PAY-18.b': creditorAccount({ iban: 'NO93 8601 1117 947', currency: 'EUR' }),
  'PAY-19.a': creditorAccount({ iban: 'NO9386011117947', currency: 'XXX' }),
  'PAY-20.a': { creditorAddress: 'Storgata 1, 0155 Oslo' },
  'PAY-21.a': creditorAddress({ street: 'S'.repeat(71) }),
  'PAY-22.a': creditorAddress({ buildingNumber: 1 }),
  'PAY-22.b': creditorAddress({ postalCode: { code: '0155' } }),
  'PAY-25.a': creditorAddress({ country: undefined }),
  'PAY-26.a': creditorAddress({ country: 'NOR' }),
  'PAY-26.b': creditorAddress({ country: 'N' }),
  'PAY-27.a': creditorAddress({ country: 'XK' }),
  'PAY-27.b': creditorAddress({ country: 'no' }),
  'PAY-28.a': { debtorAccount: undefined },
  'PAY-29.a': debtorAccount({ currency: 'NOK' }),
  'PAY-29.b': debtorAccount({ iban: `NO93${'8'.repeat(31)}`, currency: 'NOK' }),
  'PAY-30.a': debtorAccount({ iban: 'NO9386011117947' }),
  'PAY-31.a': { remittanceInformationUnstructured: '' },
  'PAY-32.a': { remittanceInformationUnstructured: 'R'.repeat(141) },
  'PAY-35.a': { requestedExecutionDate: '24.12.2030' },
  'PAY-35.b': { requestedExecutionDate: '2030-12-24T10:00:00+00:00' },
  'ADR-03.a': { creditorAgent: 'DNB' },
  'PAY-48.a': amount('0.00'),
  'PAY-48.b': amount('-12.50'),
  'ERR-33.a': { requestedExecutionDate: '2020-01-02' },
};

/** What the table allows, in each row of the rule table that says so: accepted (201), or either reading where the entry lists both. */
const ALLOWED: Readonly<Record<string, Patch>> = {
  'PAY-01.a': { endToEndIdentification: undefined },
  'PAY-08.a': amount('10.00'),
  'PAY-08.c': amount('1.000', 'BHD'),
  'PAY-24.a': creditorAddress({ townName: 'Bergen' }),
  'PAY-33.a': { remittanceInformationUnstructured: 'Blåbær og ørret fra Ålesund' },
  'PAY-23.a': creditorAddress({ townName: undefined, city: 'Oslo' }),
  'PAY-47.a': amount('10'),
  'ADR-13.a': { creditorAgent: undefined },
};

/** The code of a refusal is judged under ERR-21 (FORMAT_ERROR); a past date under its own entry. */
const CODE_REQUIREMENT = (key: string): string => (key === 'ERR-33.a' ? 'ERR-33' : 'ERR-21');

/** What the bank may take but a TPP does not send (the TPP rules): tried on purpose. */
const OFF_TPP_RULES: Readonly<Record<string, string>> = { 'PAY-23.a': 'the deprecated city', 'ADR-13.a': 'no creditor agent BIC' };

/**
 * Rows whose reading every valid payment of the suite's has (exact minor units, a townName): the valid payment
 * without it, the control a refusal is compared with (judgeCell), so that a bank refusing all the suite sends
 * for another reason (the currency itself, say) is not told it refuses this reading.
 */
const CONTROL: Readonly<Record<string, { patch: Patch; deliberate?: string }>> = {
  'PAY-08.a': { patch: amount('12.5') },
  // In BHD itself: a product that takes no BHD (a SEPA credit transfer is a euro payment) refuses both alike.
  'PAY-08.c': { patch: amount('1', 'BHD') },
  'PAY-24.a': { patch: creditorAddress({ townName: undefined, city: 'Oslo' }), deliberate: OFF_TPP_RULES['PAY-23.a'] },
};

for (const row of RULE_TABLE.filter((r) => Object.hasOwn(REFUSED, r.key))) {
  const patch = REFUSED[row.key] ?? {};
  const code = CODE_REQUIREMENT(row.key);
  const requirements = row.requirements.filter((id) => id !== 'ERR-21');
  test(
    ...scenario(
      row.key,
      `${row.rule}, in every payment service and product`,
      { checks: row.requirements, writes: 'initiates payments (refused)' },
      async ({ newTpp, psu, consentedPsu, paths, check }) => {
        const payingPsu = await payer({ newTpp, psu, consentedPsu, paths });
        await forEachCell(row.key, (cell) =>
          judgeCell({ check, paths }, payingPsu, cell, { patch, requirements, code, malformed: row.rule }),
        );
      },
    ),
  );
}

for (const row of RULE_TABLE.filter((r) => Object.hasOwn(ALLOWED, r.key))) {
  const patch = ALLOWED[row.key] ?? {};
  test(
    ...scenario(
      row.key,
      `${row.rule}, in every payment service`,
      { checks: row.requirements, writes: 'initiates payments' },
      async ({ newTpp, psu, consentedPsu, paths, check }) => {
        const payingPsu = await payer({ newTpp, psu, consentedPsu, paths });
        const deliberate = OFF_TPP_RULES[row.key];
        const control = CONTROL[row.key];
        await forEachCell(row.key, (cell) =>
          judgeCell({ check, paths }, payingPsu, cell, {
            patch,
            requirements: row.requirements,
            ...(deliberate === undefined ? {} : { deliberate }),
            ...(control === undefined ? {} : { control }),
          }),
        );
      },
    ),
  );
}
