/**
 * Periodic and bulk payments (shapes not shown; Berlin Group 1.3): every frequency, the months of execution
 * of MonthlyVariable with a duplicate month rejected (Errors rule 8), and a bulk payment. The Berlin Group
 * lets the bank publish which products it offers for each service, so each is tried on SEPA credit
 * transfers first, then on the Norwegian products (initiateOnOfferedProduct).
 */
import { FREQUENCY_CODES } from '../../lib/spec/schemas/payments.js';
import { scaRedirectOf, scenario, test } from '../../lib/fixtures/index.js';
import { bulkPayment, consentedDebtor, currencyOf, initiate, initiateOnOfferedProduct, inCurrency, paymentIdOf, periodicPayment, statusOf } from './payment-bodies.js';

const PERIODIC = 'periodic-payments';
const letters = 'abcdefghi';
FREQUENCY_CODES.forEach((frequency, i) => {
  test(...scenario(`PAY-44.${letters[i] ?? 'z'}`, `a periodic payment with frequency ${frequency} is accepted, on a product that takes periodic payments`, { checks: ['PAY-44'], writes: 'initiates a periodic payment' }, async ({ tpp, paths, check }) => {
    const { response, product, tried } = await initiateOnOfferedProduct(tpp, paths, PERIODIC, (p) => periodicPayment(frequency, inCurrency(currencyOf(p))));
    check.that('PAY-44', product !== undefined, { expected: `a well-formed periodic payment (${frequency}) taken on one of the products tried`, actual: tried, response });
  }));
});

/** Month 4 twice: Errors rule 8. */
const DUPLICATE_MONTHS = { monthsOfExecution: ['1', '4', '4', '10'] };

test(...scenario(
  'ERR-42.a',
  'a MonthlyVariable periodic payment naming a month twice is rejected: refused at initiation, or reported RJCT',
  { checks: ['ERR-42', 'ERR-21'], writes: 'initiates, and where the bank takes it authorises, a periodic payment' },
  async ({ newTpp, consentedPsu, paths, sca, check }) => {
    const debtor = await consentedDebtor({ newTpp, consentedPsu, paths });
    // From the PSU's own account, so that the PSU can authorise it where the bank takes it.
    const periodic = (changes = {}) => periodicPayment('MonthlyVariable', { ...inCurrency(debtor.account.currency), debtorAccount: debtor.account, ...changes });
    // The product the bank takes a well-formed MonthlyVariable payment on (PAY-44.i judges whether there is one).
    const { product } = await initiateOnOfferedProduct(debtor.tpp, paths, PERIODIC, () => periodic());
    if (product === undefined) return check.notEvaluatedRest('not evaluated: no product took a well-formed MonthlyVariable periodic payment (PAY-44 judges that)');
    const options = { service: PERIODIC, product } as const;
    const response = await initiate(debtor.tpp, paths, periodic(DUPLICATE_MONTHS), { ...options, malformed: 'month 4 listed twice' });
    const paymentId = paymentIdOf(response);
    if (paymentId === undefined) {
      // Refused at initiation: the status of every malformed payment, and its code.
      const refused = check.status('ERR-42', response);
      check.code('ERR-21', response, { after: refused });
      return;
    }
    check.notEvaluated(['ERR-21'], 'not evaluated: the bank took the payment, so there is no refusal code to judge');
    // Taken: "rejected" then reads RJCT, right away or once the PSU has authorised it.
    const rejected = async () => (await statusOf(debtor.tpp, paths, paymentId, options)).transactionStatus === 'RJCT';
    if (await rejected()) {
      check.that('ERR-42', true, { expected: 'transactionStatus RJCT', response });
      return;
    }
    const redirect = scaRedirectOf(response);
    const authorised = redirect === undefined ? undefined : await sca.authorise(redirect, debtor.psu);
    const after = await statusOf(debtor.tpp, paths, paymentId, options);
    check.that('ERR-42', authorised?.outcome === 'failure' || after.transactionStatus === 'RJCT', {
      expected: 'the payment rejected: refused at initiation, RJCT, or its authorisation refused',
      actual: `taken (HTTP ${response.status}); ${authorised === undefined ? 'no SCA' : `SCA ${authorised.outcome}`}; then transactionStatus ${String(after.transactionStatus)}`,
      response: after.response,
    });
  },
));

test(...scenario('PAY-45.a', 'a bulk payment of two credit transfers is accepted, on a product that takes bulk payments', { checks: ['PAY-45'], writes: 'initiates a bulk payment' }, async ({ tpp, paths, check }) => {
  const { response, product, tried } = await initiateOnOfferedProduct(tpp, paths, 'bulk-payments', (p) => bulkPayment(currencyOf(p)));
  check.that('PAY-45', product !== undefined, { expected: 'a well-formed bulk payment taken on one of the products tried', actual: tried, response });
}));
