/**
 * Payment SCA with dynamic linking (Authentication 10): every payment gets its own SCA, a valid session
 * does not spare it; the PSU approves it in the browser. Insufficient funds (Errors rule 5, the ACCP /
 * fundsAvailable fact of transactionStatus) and the sandbox batch processing (5 runs a day).
 */
import { scaRedirectFrom, scaRedirectOf, scenario, test } from '../../lib/fixtures/index.js';
import { consentedDebtor, initiate, pastNextBatchRun, paymentFrom, paymentIdOf, statusOf } from './payment-bodies.js';

test(...scenario(
  'SCA-07.a',
  'in a valid SCA session, each of two payments still gets its own scaRedirect',
  { checks: ['SCA-07'], writes: 'initiates payments' },
  async ({ newTpp, consentedPsu, paths, check }) => {
    const debtor = await consentedDebtor({ newTpp, consentedPsu, paths });
    for (const amount of ['1.00', '2.00']) {
      const response = await initiate(debtor.tpp, paths, paymentFrom(debtor, amount));
      check.that('SCA-07', scaRedirectOf(response) !== undefined, { expected: 'an scaRedirect link for this payment, although the TPP session is valid', response });
    }
  },
));

test(...scenario(
  'ERR-39.a',
  'a payment far above the balance, approved by the PSU, is refused or rejected properly: never a 5xx, ACCP only with fundsAvailable false',
  { checks: ['ERR-39', 'ERR-32', 'STA-06', 'END-07'], writes: 'initiates and approves a payment' },
  async ({ newTpp, consentedPsu, paths, sca, check }) => {
    const debtor = await consentedDebtor({ newTpp, consentedPsu, paths });
    const initiation = await initiate(debtor.tpp, paths, paymentFrom(debtor, '99999999.00'));
    const initiated = check.status('ERR-39', initiation);
    const paymentId = paymentIdOf(initiation);
    if (paymentId === undefined) {
      // Refused at initiation: a proper refusal (judged above), which should say PAYMENT_FAILED.
      const refused = check.status('ERR-32', initiation);
      check.code('ERR-32', initiation, { after: refused });
      return check.notEvaluatedRest('not evaluated: the bank refused the payment at initiation, so it has no status to read');
    }
    check.notEvaluated(['ERR-32'], 'not evaluated: the bank did not refuse the payment at initiation (it may report the lack of funds through the status)');
    const redirect = scaRedirectOf(initiation);
    if (redirect !== undefined) await sca.authorise(redirect, debtor.psu);
    const { response, transactionStatus, fundsAvailable } = await statusOf(debtor.tpp, paths, paymentId);
    const answered = check.status('ERR-39', response, { after: initiated });
    const shown = { expected: 'ACCP only together with fundsAvailable false', actual: `transactionStatus ${String(transactionStatus)}, fundsAvailable ${String(fundsAvailable)}`, response };
    check.that('STA-06', transactionStatus !== 'ACCP' || fundsAvailable === false, shown, { after: answered });
    if (fundsAvailable === undefined) check.notEvaluated(['END-07'], 'not evaluated: the status response carries no fundsAvailable');
    else check.that('END-07', typeof fundsAvailable === 'boolean', { expected: 'fundsAvailable, a boolean', actual: JSON.stringify(fundsAvailable), response });
  },
));

test(...scenario(
  'SBX-09.a',
  'an approved payment advances in status after the next sandbox batch run',
  { checks: ['SBX-09'], writes: 'initiates and approves a payment', needs: ['clock-control'], globalState: 'moves the target clock past a batch run' },
  async ({ newTpp, consentedPsu, paths, sca, sandboxClock, check }) => {
    const debtor = await consentedDebtor({ newTpp, consentedPsu, paths });
    const initiation = await initiate(debtor.tpp, paths, paymentFrom(debtor, '1.00'));
    const paymentId = paymentIdOf(initiation);
    if (paymentId === undefined) return check.notEvaluatedRest('not evaluated: the payment was not created');
    const redirect = await sca.authorise(scaRedirectFrom(initiation), debtor.psu);
    if (redirect.outcome !== 'success') return check.notEvaluatedRest('not evaluated: the PSU could not approve the payment');
    const before = (await statusOf(debtor.tpp, paths, paymentId)).transactionStatus;
    const later = await pastNextBatchRun({ sandboxClock, newTpp }, debtor.psuId);
    const after = await statusOf(later, paths, paymentId);
    const final = ['ACSC', 'RJCT', 'CANC'].includes(String(before));
    check.that('SBX-09', final || after.transactionStatus !== before, { expected: `a status moved on from ${String(before)} after a batch run`, actual: String(after.transactionStatus), response: after.response });
  },
));

test(...scenario(
  'PAY-49.a',
  'the PSU confirming a payment in SCA is shown its amount and its creditor',
  { checks: ['PAY-49'], writes: 'initiates and approves a payment' },
  async ({ newTpp, consentedPsu, paths, sca, check }) => {
    const debtor = await consentedDebtor({ newTpp, consentedPsu, paths });
    const body = paymentFrom(debtor, '7.35');
    const capture = await sca.authorise(scaRedirectFrom(await initiate(debtor.tpp, paths, body)), debtor.psu);
    const shown = capture.read.paymentSummary;
    if (shown === undefined) return check.notEvaluatedRest('not evaluated: the target declares no SCA step that reads the payment shown to the PSU (read: { as: paymentSummary })');
    const creditor = String(body.creditorName);
    check.that('PAY-49', shown.includes('7.35') && shown.includes(creditor), { expected: `the amount 7.35 and the creditor ${creditor} on the confirmation page`, actual: shown });
  },
));
