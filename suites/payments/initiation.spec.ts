/**
 * Endpoints > POST /v1/payments/sepa-credit-transfers and the payment status: the 201 answer with every
 * field of the response table, the products, logical duplicates, the status of a payment, and the
 * domestic transfer that shows nothing before the PSU approves it.
 */
import { jsonBodyOf, scaRedirectOf, scenario, test } from '../../lib/fixtures/index.js';
import { initiate, paymentIdOf, paymentPath, PRODUCTS, sepaPayment, statusOf, withAddress } from './payment-bodies.js';

const RESPONSE_FIELDS = ['PAY-36', 'PAY-37', 'STA-05', 'PAY-38', 'PAY-40', 'PAY-41', 'PAY-42', 'LIM-16', 'PAY-43', 'MSG-01', 'MSG-02', 'MSG-03', 'MSG-04', 'LIM-15', 'MSG-05', 'MSG-06', 'MSG-07'];

test(...scenario(
  'PAY-36.a',
  'the 201 payment response carries paymentId, transactionStatus and, where given, fees, messages and links of the right shape',
  { checks: [...RESPONSE_FIELDS, 'MSG-08'], writes: 'initiates a payment' },
  async ({ tpp, paths, check }) => {
    // The deprecated city beside townName invites a warning in tppMessages, so that its items can be judged.
    const response = await initiate(tpp, paths, withAddress({ city: 'Oslo' }));
    const body = jsonBodyOf(response) as { transactionFees?: { amount?: unknown }; transactionFeeIndicator?: unknown; _links?: { scaRedirect?: { verbs?: unknown } } } | undefined;
    if (body === undefined || response.status < 200 || response.status >= 300) {
      check.notEvaluatedRest(`not evaluated: the payment was not created (HTTP ${response.status})`);
      return;
    }
    check.schema(body, 'PaymentInitiationResponse');
    const fee = Number(body.transactionFees?.amount);
    if (body.transactionFeeIndicator !== undefined && Number.isFinite(fee)) {
      check.that('PAY-40', !(fee > 0 && body.transactionFeeIndicator === false), { expected: 'transactionFeeIndicator not false while transactionFees shows a fee', response });
    }
    const verbs = body._links?.scaRedirect?.verbs;
    if (Array.isArray(verbs)) check.that('MSG-08', verbs.includes('GET'), { expected: 'the scaRedirect verbs include GET', actual: JSON.stringify(verbs), response });
    check.notEvaluatedRest('not evaluated: the response does not carry the field this rule is about');
  },
));

test(...scenario(
  'END-05.a',
  'a payment needing SCA is answered 201 with an scaRedirect link',
  { checks: ['END-05'], writes: 'initiates a payment' },
  async ({ tpp, paths, check }) => {
    const response = await initiate(tpp, paths, sepaPayment());
    const created = check.status('END-05', response);
    check.that('END-05', scaRedirectOf(response) !== undefined, { expected: '_links.scaRedirect in the 201 answer', response }, { after: created });
  },
));

test(...scenario(
  'END-06.a',
  'the status of a payment just initiated is answered 200 with a transactionStatus of the list',
  { checks: ['END-06', 'STA-05'], writes: 'initiates a payment' },
  async ({ tpp, paths, check }) => {
    const paymentId = paymentIdOf(await initiate(tpp, paths, sepaPayment()));
    if (paymentId === undefined) return check.notEvaluatedRest('not evaluated: the payment was not created');
    const status = await tpp.get(paymentPath(paths, 'paymentStatus', paymentId));
    const served = check.status('END-06', status);
    check.schema(jsonBodyOf(status), 'PaymentStatus', { after: served });
  },
));

test(...scenario(
  'ERR-22.b',
  'the status of an unknown paymentId is answered 404 RESOURCE_UNKNOWN',
  { checks: ['ERR-22'] },
  async ({ tpp, paths, check }) => {
    const response = await tpp.get(paymentPath(paths, 'paymentStatus', 'a0d1e6f4-5b8c-4d1e-9f00-000000000000'));
    const refused = check.status('ERR-22', response);
    check.code('ERR-22', response, { after: refused });
  },
));

test(...scenario(
  'END-08.a',
  'a domestic transfer shows neither details nor status before the PSU approves it',
  { checks: ['END-08'], writes: 'initiates a payment' },
  async ({ tpp, paths, check }) => {
    const product = { product: PRODUCTS.domestic };
    const paymentId = paymentIdOf(await initiate(tpp, paths, sepaPayment({ instructedAmount: { amount: '150.00', currency: 'NOK' } }), product));
    if (paymentId === undefined) return check.notEvaluatedRest('not evaluated: the domestic payment was not created');
    check.status('END-08', await tpp.get(paymentPath(paths, 'paymentStatus', paymentId, product)));
    check.status('END-08', await tpp.get(paymentPath(paths, 'payment', paymentId, product)));
  },
));

test(...scenario(
  'PAY-46.a',
  'the domestic and the cross-border (NCBCT) products take the request fields of a SEPA credit transfer',
  { checks: ['PAY-46'], writes: 'initiates payments' },
  async ({ tpp, paths, check }) => {
    for (const product of [PRODUCTS.domestic, PRODUCTS.ncbct]) {
      check.accepted('PAY-46', await initiate(tpp, paths, sepaPayment({ instructedAmount: { amount: '150.00', currency: 'NOK' } }), { product }));
    }
  },
));

test(...scenario(
  'ERR-28.a',
  'a payment for a product the bank does not have is answered 404 PRODUCT_UNKNOWN',
  { checks: ['ERR-28'], writes: 'initiates a payment (refused)' },
  async ({ tpp, paths, check }) => {
    const response = await initiate(tpp, paths, sepaPayment(), { product: 'moon-credit-transfers', malformed: 'an unknown payment product' });
    const refused = check.status('ERR-28', response);
    check.code('ERR-28', response, { after: refused });
  },
));

test(...scenario(
  'END-02.a',
  'a logical duplicate may be refused (409 CONFLICT) without allowLogicalDuplicate, and is accepted with allowLogicalDuplicate=true',
  { checks: ['END-04', 'ERR-15', 'END-02'], writes: 'initiates payments' },
  async ({ tpp, paths, check }) => {
    const payment = sepaPayment();
    const first = await initiate(tpp, paths, payment);
    if (paymentIdOf(first) === undefined) return check.notEvaluatedRest('not evaluated: the first payment was not created');
    const again = await initiate(tpp, paths, { ...payment, endToEndIdentification: 'E2E-CONFORMANCE-2' });
    const either = check.status('END-04', again);
    if (again.status >= 400) check.status('ERR-15', again, { after: either });
    if (again.status >= 400) check.code('ERR-15', again, { after: either });
    else check.notEvaluated(['ERR-15'], 'not evaluated: the bank accepted the logical duplicate, so there is no refusal to judge');
    check.status('END-02', await initiate(tpp, paths, { ...payment, endToEndIdentification: 'E2E-CONFORMANCE-3' }, { query: '?allowLogicalDuplicate=true' }));
  },
));

test(...scenario(
  'END-03.a',
  'allowLogicalDuplicate with a value other than true or false is refused with 400',
  { checks: ['END-03'], writes: 'initiates a payment (refused)' },
  async ({ tpp, paths, check }) => {
    check.status('END-03', await initiate(tpp, paths, sepaPayment(), { query: '?allowLogicalDuplicate=maybe', malformed: 'allowLogicalDuplicate=maybe' }));
  },
));

test(...scenario(
  'ERR-36.a',
  'a payment whose remittance text holds an emoji is accepted or refused with 400, never a server error',
  { checks: ['ERR-36'], writes: 'initiates a payment' },
  async ({ tpp, paths, check }) => {
    check.status('ERR-36', await initiate(tpp, paths, sepaPayment({ remittanceInformationUnstructured: 'Takk for maten \u{1F37D}' })));
  },
));

test(...scenario(
  'PAY-50.a',
  'a payment not yet executed is cancelled by DELETE, and then reads CANC',
  { checks: ['PAY-50'], writes: 'initiates and cancels a payment' },
  async ({ tpp, paths, check }) => {
    const paymentId = paymentIdOf(await initiate(tpp, paths, sepaPayment()));
    if (paymentId === undefined) return check.notEvaluatedRest('not evaluated: the payment was not created');
    const cancelled = await tpp.request({ method: 'DELETE', path: paymentPath(paths, 'payment', paymentId) });
    const done = check.status('PAY-50', cancelled);
    // An answer with links (Berlin Group 202) asks for the cancellation to be authorised first: CANC comes later.
    if ((jsonBodyOf(cancelled) as { _links?: unknown } | undefined)?._links !== undefined) return;
    const { transactionStatus, response } = await statusOf(tpp, paths, paymentId);
    check.that('PAY-50', transactionStatus === 'CANC', { expected: 'transactionStatus CANC after the cancellation', response }, { after: done });
  },
));
