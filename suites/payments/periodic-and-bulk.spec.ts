/**
 * Periodic and bulk payments (shapes not shown; Berlin Group 1.3): every frequency, the months of execution
 * of MonthlyVariable with a duplicate month refused (Errors rule 8), a bulk payment, a bulk of no payments,
 * and a payment of a bulk that carries the bulk's own fields. Rows of the rule table are judged in every
 * product.
 */
import { FREQUENCY_CODES } from '../../lib/spec/schemas/payments.js';
import { scenario } from '../../lib/fixtures/index.js';
import { bulkPayment, initiate, payer, periodicPayment, SOME_DEBTOR_IBAN, type Patch } from './payment-bodies.js';
import { forEachCell, judgeCell } from './rule-cells.js';

const letters = 'abcdefghi';
FREQUENCY_CODES.forEach((frequency, i) => {
  scenario(`PAY-44.${letters[i] ?? 'z'}`, `a periodic payment with frequency ${frequency} is accepted`, { checks: ['PAY-44'], writes: 'initiates a periodic payment' }, async ({ newTpp, psu, paths, check }) => {
    check.accepted('PAY-44', await initiate(payer({ newTpp, psu }), paths, periodicPayment(frequency), { service: 'periodic-payments' }));
  });
});

scenario('PAY-45.a', 'a bulk payment of two credit transfers is accepted', { checks: ['PAY-45'], writes: 'initiates a bulk payment' }, async ({ newTpp, psu, paths, check }) => {
  check.accepted('PAY-45', await initiate(payer({ newTpp, psu }), paths, bulkPayment(), { service: 'bulk-payments' }));
});

/** Each refusal row of the rule table about these shapes, and what breaks it (a bulk's debtor side on the bulk, its creditor side on its first payment). */
const REFUSED: readonly (readonly [string, string, Patch, string])[] = [
  ['ERR-42.a', 'ERR-42', { frequency: 'MonthlyVariable', monthsOfExecution: ['1', '4', '4', '10'] }, 'month 4 listed twice'],
  ['PAY-51.a', 'PAY-51', { payments: [] }, 'a bulk of no payments'],
  ['PAY-52.a', 'PAY-52', { firstPayment: { debtorAccount: { iban: SOME_DEBTOR_IBAN, currency: 'NOK' } } }, 'a payment of a bulk with a debtorAccount of its own'],
  ['PAY-52.b', 'PAY-52', { firstPayment: { requestedExecutionDate: '2030-12-24' } }, 'a payment of a bulk with a requestedExecutionDate of its own'],
];

for (const [key, requirement, patch, what] of REFUSED) {
  scenario(key, `${what} is refused, in every payment product`, { checks: [requirement, 'ERR-21'], writes: 'initiates payments (refused)' }, async ({ newTpp, psu, paths, check }) => {
    const tpp = payer({ newTpp, psu });
    await forEachCell(key, (cell) => judgeCell({ check, paths }, tpp, cell, { patch, requirements: [requirement], code: 'ERR-21', malformed: what }));
  });
}
