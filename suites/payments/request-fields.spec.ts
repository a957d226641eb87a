/**
 * Resources > Payment initiation request: every rule of the field table, one scenario per violation, each
 * refused with the status its requirement gives (the code under ERR-21), and the values the table allows
 * accepted. A refused payment must not exist afterwards: its refusal carries no paymentId.
 */
import { scenario, test } from '../../lib/fixtures/index.js';
import { initiate, sepaPayment, withAddress, type PaymentBody } from './payment-bodies.js';

const amount = (value: unknown, currency: unknown = 'EUR') => sepaPayment({ instructedAmount: { amount: value, currency } });
const creditorAccount = (account: Record<string, unknown>) => sepaPayment({ creditorAccount: account });
const debtorAccount = (account: Record<string, unknown>) => sepaPayment({ debtorAccount: account });

/** [scenario id, requirements judged on the refusal, what breaks the rule, the body]. */
const REFUSED: readonly (readonly [string, readonly string[], string, () => PaymentBody])[] = [
  ['PAY-02.a', ['PAY-02', 'LIM-09'], 'an endToEndIdentification of 36 characters', () => sepaPayment({ endToEndIdentification: 'E'.repeat(36) })],
  ['PAY-03.a', ['PAY-03'], 'no instructedAmount', () => sepaPayment({ instructedAmount: undefined })],
  ['PAY-03.b', ['PAY-03'], 'an instructedAmount that is a string', () => sepaPayment({ instructedAmount: '12.50 EUR' })],
  ['PAY-04.a', ['PAY-04'], 'an instructedAmount without amount', () => sepaPayment({ instructedAmount: { currency: 'EUR' } })],
  ['FMT-10.a', ['FMT-10'], 'an amount written as a JSON number', () => amount(12.5)],
  ['PAY-05.a', ['PAY-05', 'LIM-17'], 'an amount of 19 digits', () => amount('12345678901234567.89')],
  ['PAY-06.a', ['PAY-06', 'LIM-17'], 'an amount with 6 fraction digits', () => amount('10.123456')],
  ['PAY-07.a', ['PAY-07', 'LIM-17'], 'EUR 10.123 (EUR has 2 minor units)', () => amount('10.123')],
  ['PAY-07.b', ['PAY-07'], 'JPY 100.5 (JPY has no minor units)', () => amount('100.5', 'JPY')],
  ['PAY-09.a', ['PAY-09'], 'an amount with an exponent (1e3)', () => amount('1e3')],
  ['PAY-09.b', ['PAY-09'], 'an amount with a decimal comma (10,50)', () => amount('10,50')],
  ['PAY-10.a', ['PAY-10'], 'an instructedAmount without currency', () => sepaPayment({ instructedAmount: { amount: '12.50' } })],
  ['PAY-10.b', ['PAY-10'], 'the currency "EURO"', () => amount('12.50', 'EURO')],
  ['PAY-11.a', ['PAY-11'], 'BYN, a current ISO 4217 code absent from the list', () => amount('12.50', 'BYN')],
  ['PAY-13.a', ['PAY-13', 'ADR-04'], 'no creditorName', () => sepaPayment({ creditorName: undefined })],
  ['PAY-14.a', ['PAY-14', 'LIM-10'], 'a creditorName of 71 characters', () => sepaPayment({ creditorName: 'N'.repeat(71) })],
  ['PAY-15.a', ['PAY-15'], 'no creditorAccount', () => sepaPayment({ creditorAccount: undefined })],
  ['PAY-16.a', ['PAY-16'], 'a creditorAccount without iban', () => creditorAccount({ currency: 'EUR' })],
  ['PAY-17.a', ['PAY-17', 'LIM-12'], 'a creditor IBAN of 35 characters', () => creditorAccount({ iban: `NO93${'8'.repeat(31)}`, currency: 'EUR' })],
  ['PAY-18.a', ['PAY-18'], 'a creditor IBAN with wrong check digits', () => creditorAccount({ iban: 'NO9486011117947', currency: 'EUR' })],
  ['PAY-18.b', ['PAY-18'], 'a creditor IBAN in paper form, with spaces', () => creditorAccount({ iban: 'NO93 8601 1117 947', currency: 'EUR' })],
  ['PAY-19.a', ['PAY-19'], 'a creditorAccount currency outside the list', () => creditorAccount({ iban: 'NO9386011117947', currency: 'XXX' })],
  ['PAY-20.a', ['PAY-20'], 'a creditorAddress that is a string', () => sepaPayment({ creditorAddress: 'Storgata 1, 0155 Oslo' })],
  ['PAY-21.a', ['PAY-21', 'LIM-11'], 'a street of 71 characters', () => withAddress({ street: 'S'.repeat(71) })],
  ['PAY-22.a', ['PAY-22'], 'a buildingNumber that is a number', () => withAddress({ buildingNumber: 1 })],
  ['PAY-22.b', ['PAY-22'], 'a postalCode that is an object', () => withAddress({ postalCode: { code: '0155' } })],
  ['PAY-25.a', ['PAY-25', 'ADR-06'], 'a creditorAddress without country', () => withAddress({ country: undefined })],
  ['PAY-26.a', ['PAY-26', 'LIM-14'], 'the country "NOR"', () => withAddress({ country: 'NOR' })],
  ['PAY-26.b', ['PAY-26', 'LIM-14'], 'the country "N"', () => withAddress({ country: 'N' })],
  ['PAY-27.a', ['PAY-27'], 'the country "XK", not in the list', () => withAddress({ country: 'XK' })],
  ['PAY-27.b', ['PAY-27'], 'the country in lower case ("no")', () => withAddress({ country: 'no' })],
  ['PAY-28.a', ['PAY-28'], 'no debtorAccount', () => sepaPayment({ debtorAccount: undefined })],
  ['PAY-29.a', ['PAY-29'], 'a debtorAccount without iban', () => debtorAccount({ currency: 'NOK' })],
  ['PAY-29.b', ['PAY-29', 'LIM-12'], 'a debtor IBAN of 35 characters', () => debtorAccount({ iban: `NO93${'8'.repeat(31)}`, currency: 'NOK' })],
  ['PAY-30.a', ['PAY-30'], 'a debtorAccount without currency', () => debtorAccount({ iban: 'NO9386011117947' })],
  ['PAY-31.a', ['PAY-31'], 'an empty remittanceInformationUnstructured', () => sepaPayment({ remittanceInformationUnstructured: '' })],
  ['PAY-32.a', ['PAY-32', 'LIM-13'], 'a remittanceInformationUnstructured of 141 characters', () => sepaPayment({ remittanceInformationUnstructured: 'R'.repeat(141) })],
  ['PAY-35.a', ['PAY-35'], 'a requestedExecutionDate written 24.12.2030', () => sepaPayment({ requestedExecutionDate: '24.12.2030' })],
  ['PAY-35.b', ['PAY-35'], 'a requestedExecutionDate that is a date-time', () => sepaPayment({ requestedExecutionDate: '2030-12-24T10:00:00+00:00' })],
  ['ADR-03.a', ['ADR-03'], 'a malformed creditor agent BIC', () => sepaPayment({ creditorAgent: 'DNB' })],
  ['PAY-48.a', ['PAY-48'], 'an amount of zero', () => amount('0.00')],
  ['PAY-48.b', ['PAY-48'], 'a negative amount', () => amount('-12.50')],
];

for (const [id, requirements, what, body] of REFUSED) {
  test(...scenario(
    id,
    `a payment with ${what} is refused, with no paymentId`,
    { checks: [...requirements, 'ERR-21'], writes: 'initiates a payment (refused)' },
    async ({ tpp, paths, check }) => {
      const response = await initiate(tpp, paths, body(), { malformed: what });
      const refusals = requirements.map((requirement) => check.status(requirement, response));
      check.code('ERR-21', response, { after: refusals });
    },
  ));
}

/** [scenario id, requirement, what the table allows, the body]: accepted (201), or either reading where the entry lists both. */
const ALLOWED: readonly (readonly [string, readonly string[], string, () => PaymentBody])[] = [
  ['PAY-01.a', ['PAY-01', 'END-01', 'ADR-02'], 'no endToEndIdentification and only debtorAccount on the debtor side', () => sepaPayment({ endToEndIdentification: undefined })],
  ['PAY-08.a', ['PAY-08'], 'EUR 10.00 (2 minor units)', () => amount('10.00')],
  ['PAY-08.b', ['PAY-08'], 'JPY 100 (no minor units)', () => amount('100', 'JPY')],
  ['PAY-08.c', ['PAY-08'], 'BHD 1.000 (3 minor units)', () => amount('1.000', 'BHD')],
  ['PAY-24.a', ['PAY-24'], 'creditorAddress.townName', () => withAddress({ townName: 'Bergen' })],
  ['PAY-33.a', ['PAY-33'], 'remittance text in UTF-8 with Norwegian letters', () => sepaPayment({ remittanceInformationUnstructured: 'Blåbær og ørret fra Ålesund' })],
  ['PAY-23.a', ['PAY-23'], 'the deprecated creditorAddress.city instead of townName', () => withAddress({ townName: undefined, city: 'Oslo' })],
  ['PAY-47.a', ['PAY-47'], 'EUR 10 (fewer fraction digits than the minor units)', () => amount('10')],
  ['ADR-13.a', ['ADR-13'], 'no creditor agent BIC', () => sepaPayment({ creditorAgent: undefined })],
];

for (const [id, requirements, what, body] of ALLOWED) {
  test(...scenario(id, `a payment with ${what} is answered as the table allows`, { checks: requirements, writes: 'initiates a payment' }, async ({ tpp, paths, check }) => {
    const response = await initiate(tpp, paths, body());
    for (const requirement of requirements) check.status(requirement, response);
  }));
}

test(...scenario(
  'ERR-33.a',
  'a requestedExecutionDate in the past is refused with EXECUTION_DATE_INVALID',
  { checks: ['ERR-33'], writes: 'initiates a payment (refused)' },
  async ({ tpp, paths, check }) => {
    const response = await initiate(tpp, paths, sepaPayment({ requestedExecutionDate: '2020-01-02' }), { malformed: 'an execution date in the past' });
    const refused = check.status('ERR-33', response);
    check.code('ERR-33', response, { after: refused });
  },
));
