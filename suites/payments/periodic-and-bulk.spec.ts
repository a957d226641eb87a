/**
 * Periodic and bulk payments (shapes not shown; Berlin Group 1.3; a bank may offer either or neither, and the
 * frequencies it chooses): every frequency, the months of execution
 * of MonthlyVariable with a duplicate month refused (Errors rule 8), a bulk payment, a bulk of no payments,
 * and a payment of a bulk that carries the bulk's own fields. The Berlin Group lets the bank publish which
 * products it offers for periodic and bulk payments, so a well-formed one is tried on SEPA credit transfers
 * first, then on the Norwegian products (initiateOnOfferedProduct). Rows of the rule table are judged in every
 * product.
 */
import { FREQUENCY_CODES } from '../../lib/spec/schemas/payment-schemas.js';
import { scaRedirectOf, scenario, type ScenarioFixtures, test } from '../../lib/fixtures/index.js';
import {
  bulkPayment,
  consentedDebtor,
  currencyOf,
  initiate,
  initiateOnOfferedProduct,
  inCurrency,
  payer,
  paymentFrom,
  paymentIdOf,
  periodicPayment,
  statusOf,
  type From,
  type Patch,
  type Payer,
} from './payment-bodies.js';
import { cellName, forEachCell, judgeCell, where } from './rule-cells.js';

const PERIODIC = 'periodic-payments';
const letters = 'abcdefghi';

/** A periodic payment of this frequency, on the first product that takes one. */
const periodicOf = (payingPsu: Payer, paths: ScenarioFixtures['paths'], frequency: string) =>
  initiateOnOfferedProduct(payingPsu, paths, PERIODIC, (p) => periodicPayment(payingPsu, frequency, inCurrency(currencyOf(p))));

/** The first other frequency the bank takes a periodic payment of, if any: then it offers periodic payments. */
async function anotherFrequencyTaken(payingPsu: Payer, paths: ScenarioFixtures['paths'], frequency: string): Promise<string | undefined> {
  for (const other of FREQUENCY_CODES.filter((f) => f !== frequency))
    if ((await periodicOf(payingPsu, paths, other)).product !== undefined) return other;
  return undefined;
}

FREQUENCY_CODES.forEach((frequency, i) => {
  test(
    ...scenario(
      `PAY-44.${letters[i] ?? 'z'}`,
      `a periodic payment with frequency ${frequency} is taken, on a product that takes periodic payments, or refused as one the bank does not offer`,
      { checks: ['PAY-44'], writes: 'initiates a periodic payment' },
      async ({ newTpp, psu, consentedPsu, paths, check }) => {
        const payingPsu = await payer({ newTpp, psu, consentedPsu, paths });
        const { response, product, tried, unjudged, calledMalformed } = await periodicOf(payingPsu, paths, frequency);
        if (product !== undefined)
          return void check.that('PAY-44', true, {
            expected: `a well-formed periodic payment (${frequency}) taken`,
            actual: tried,
            response,
          });
        if (unjudged !== undefined)
          return check.notEvaluated(['PAY-44'], `not evaluated: no product took the periodic payment (${tried}), and ${unjudged}`);
        // Which services and frequencies a bank offers is its own: only calling the Berlin Group shape malformed is against the rule.
        if (calledMalformed !== true)
          return check.notEvaluated(
            ['PAY-44'],
            `not evaluated: no product took a periodic payment of ${frequency}, each refusing it otherwise than as malformed (${tried}): one the bank does not offer`,
          );
        const other = await anotherFrequencyTaken(payingPsu, paths, frequency);
        if (other !== undefined)
          return check.notEvaluated(
            ['PAY-44'],
            `not evaluated: the bank takes periodic payments (${other}) but not of ${frequency} (${tried}): which frequencies it offers is its own`,
          );
        check.that('PAY-44', false, {
          expected: `a well-formed periodic payment (${frequency}) taken, or refused as a service the bank does not offer`,
          actual: `refused as malformed on every product, and no other frequency taken: ${tried}`,
          response,
        });
      },
    ),
  );
});

test(
  ...scenario(
    'PAY-45.a',
    'a bulk payment of two credit transfers is taken, on a product that takes bulk payments, or refused as a service the bank does not offer',
    { checks: ['PAY-45'], writes: 'initiates a bulk payment' },
    async ({ newTpp, psu, consentedPsu, paths, check }) => {
      const payingPsu = await payer({ newTpp, psu, consentedPsu, paths });
      const { response, product, tried, unjudged, calledMalformed } = await initiateOnOfferedProduct(
        payingPsu,
        paths,
        'bulk-payments',
        (p) => bulkPayment(payingPsu, p),
      );
      if (product !== undefined)
        return void check.that('PAY-45', true, { expected: 'a well-formed bulk payment taken', actual: tried, response });
      if (unjudged !== undefined)
        return check.notEvaluated(['PAY-45'], `not evaluated: no product took the bulk payment (${tried}), and ${unjudged}`);
      if (calledMalformed !== true)
        return check.notEvaluated(
          ['PAY-45'],
          `not evaluated: no product took a bulk payment, each refusing it otherwise than as malformed (${tried}): the bank offers no bulk payments`,
        );
      check.that('PAY-45', false, {
        expected: 'a well-formed bulk payment taken, or refused as a service the bank does not offer',
        actual: `refused as malformed on every product: ${tried}`,
        response,
      });
    },
  ),
);

/**
 * Each refusal row of the rule table about these shapes, and what breaks it (a bulk's debtor side on the bulk, its creditor side on its
 * first payment).
 */
const REFUSED: readonly (readonly [string, string, (from: From) => Patch, string])[] = [
  ['PAY-51.a', 'PAY-51', () => ({ payments: [] }), 'a bulk of no payments'],
  [
    'PAY-52.a',
    'PAY-52',
    (from) => ({ firstPayment: { debtorAccount: from.account } }),
    'a payment of a bulk with a debtorAccount of its own',
  ],
  [
    'PAY-52.b',
    'PAY-52',
    () => ({ firstPayment: { requestedExecutionDate: '2030-12-24' } }),
    'a payment of a bulk with a requestedExecutionDate of its own',
  ],
];

for (const [key, requirement, patch, what] of REFUSED) {
  test(
    ...scenario(
      key,
      `${what} is refused, in every payment product`,
      { checks: [requirement, 'ERR-21'], writes: 'initiates payments (refused)' },
      async ({ newTpp, psu, consentedPsu, paths, check }) => {
        const payingPsu = await payer({ newTpp, psu, consentedPsu, paths });
        await forEachCell(key, (cell) =>
          judgeCell({ check, paths }, payingPsu, cell, {
            patch: patch(payingPsu),
            requirements: [requirement],
            code: 'ERR-21',
            malformed: what,
          }),
        );
      },
    ),
  );
}

/** A MonthlyVariable schedule; month 4 twice breaks Errors rule 8. */
const MONTHLY_VARIABLE: Patch = { frequency: 'MonthlyVariable', monthsOfExecution: ['1', '4', '7', '10'] };
const DUPLICATE_MONTHS: Patch = { ...MONTHLY_VARIABLE, monthsOfExecution: ['1', '4', '4', '10'] };

test(
  ...scenario(
    'ERR-42.a',
    'a MonthlyVariable periodic payment naming a month twice is rejected: refused at initiation, or reported RJCT, in every product',
    { checks: ['ERR-42', 'ERR-21'], writes: 'initiates, and where the bank takes it authorises, periodic payments' },
    async ({ newTpp, consentedPsu, paths, sca, check }) => {
      // From the PSU's own account, so that the PSU can authorise one the bank takes.
      const debtor = await consentedDebtor({ newTpp, consentedPsu, paths });
      await forEachCell('ERR-42.a', async (cell) => {
        const response = await initiate(debtor.tpp, paths, paymentFrom(debtor, '1.00', cell, DUPLICATE_MONTHS), {
          ...where(cell),
          malformed: 'month 4 listed twice',
        });
        const paymentId = paymentIdOf(response);
        if (paymentId === undefined) {
          // Refused at initiation: the status of every malformed payment, and its code, where the product takes the
          // same MonthlyVariable payment without the duplicate (a bank may not offer MonthlyVariable at all).
          await judgeCell({ check, paths }, debtor, cell, {
            patch: DUPLICATE_MONTHS,
            requirements: ['ERR-42'],
            code: 'ERR-21',
            malformed: 'month 4 listed twice',
            control: { patch: MONTHLY_VARIABLE },
          });
          return;
        }
        check.notEvaluated(
          ['ERR-21'],
          `not evaluated for ${cellName(cell)}: the bank took the payment, so there is no refusal code to judge`,
        );
        // Taken: "rejected" then reads RJCT, right away or once the PSU has authorised it.
        const now = await statusOf(debtor.tpp, paths, paymentId, where(cell));
        if (now.transactionStatus === 'RJCT')
          return void check.that('ERR-42', true, { expected: 'transactionStatus RJCT', response: now.response });
        const redirect = scaRedirectOf(response);
        const authorised = redirect === undefined ? undefined : await sca.authorise(redirect, debtor.psu);
        const after = await statusOf(debtor.tpp, paths, paymentId, where(cell));
        check.that('ERR-42', authorised?.outcome === 'failure' || after.transactionStatus === 'RJCT', {
          expected: `the payment rejected: refused at initiation, RJCT, or its authorisation refused (${cellName(cell)})`,
          actual: `taken (HTTP ${response.status}); ${authorised === undefined ? 'no SCA' : `SCA ${authorised.outcome}`}; then transactionStatus ${String(after.transactionStatus)}`,
          response: after.response,
        });
      });
    },
  ),
);
