/**
 * Periodic and bulk payments (shapes not shown; Berlin Group 1.3): every frequency, the months of execution
 * of MonthlyVariable with a duplicate month refused (Errors rule 8), and a bulk payment.
 */
import { FREQUENCY_CODES } from '../../lib/spec/schemas/payments.js';
import { scenario, test } from '../../lib/fixtures/index.js';
import { bulkPayment, initiate, periodicPayment } from './payment-bodies.js';

const letters = 'abcdefghi';
FREQUENCY_CODES.forEach((frequency, i) => {
  test(...scenario(`PAY-44.${letters[i] ?? 'z'}`, `a periodic payment with frequency ${frequency} is accepted`, { checks: ['PAY-44'], writes: 'initiates a periodic payment' }, async ({ tpp, paths, check }) => {
    check.accepted('PAY-44', await initiate(tpp, paths, periodicPayment(frequency), { service: 'periodic-payments' }));
  }));
});

test(...scenario(
  'ERR-42.a',
  'a MonthlyVariable periodic payment naming a month twice is refused',
  { checks: ['ERR-42', 'ERR-21'], writes: 'initiates a periodic payment (refused)' },
  async ({ tpp, paths, check }) => {
    const body = periodicPayment('MonthlyVariable', { monthsOfExecution: ['1', '4', '4', '10'] });
    const response = await initiate(tpp, paths, body, { service: 'periodic-payments', malformed: 'month 4 listed twice' });
    const refused = check.status('ERR-42', response);
    check.code('ERR-21', response, { after: refused });
  },
));

test(...scenario('PAY-45.a', 'a bulk payment of two credit transfers is accepted', { checks: ['PAY-45'], writes: 'initiates a bulk payment' }, async ({ tpp, paths, check }) => {
  check.accepted('PAY-45', await initiate(tpp, paths, bulkPayment(), { service: 'bulk-payments' }));
}));
