/**
 * Endpoints > POST /v1/payments/sepa-credit-transfers and the payment status: the 201 answer with every
 * field of the response table, the products, logical duplicates, the status of a payment, cancellation,
 * the domestic transfer that shows nothing before the PSU approves it, and the PSU a payment names. The
 * endpoint's rules hold for every payment service and product: scenarios of rule-table rows judge each
 * cell the row names (lib/spec/rule-table.ts).
 */
import {
  isSuccess,
  jsonBodyOf,
  scaRedirectOf,
  scenario,
  type ScenarioFixtures,
  servedOrScaAsked,
  test,
  type TppResponse,
} from '../../lib/fixtures/index.js';
import {
  initiate,
  payer,
  paymentIdOf,
  paymentOf,
  paymentPath,
  PRODUCTS,
  refusedAlike,
  sepaPayment,
  statusOf,
  withAddress,
  type Payer,
  type PaymentBody,
  type Where,
} from './payment-bodies.js';
import { cellName, expected, forEachCell, judgeCell, where } from './rule-cells.js';

/** Statuses of a payment not yet authorised (or finished without it): no sign of an SCA exemption. */
const AWAITING_AUTHORISATION: readonly string[] = ['RCVD', 'PDNG', 'RJCT', 'CANC'];

const RESPONSE_FIELDS = [
  'PAY-36',
  'PAY-37',
  'STA-05',
  'PAY-38',
  'PAY-40',
  'PAY-41',
  'PAY-42',
  'LIM-16',
  'PAY-43',
  'MSG-01',
  'MSG-02',
  'MSG-03',
  'MSG-04',
  'LIM-15',
  'MSG-05',
  'MSG-06',
  'MSG-07',
];

/** Why a cell that needs its payment cannot be judged when the bank did not create it. */
function notCreated(response: TppResponse, cell: Where): string {
  return `not evaluated for ${cellName(cell)}: the payment was not created (HTTP ${response.status}); whether the bank offers it is PAY-44, PAY-45 and PAY-46's`;
}

/** The paymentId of a valid payment of the cell, initiated; undefined, the requirements not evaluated, when the bank did not create it. */
async function created(
  { paths, check }: Pick<ScenarioFixtures, 'paths' | 'check'>,
  payingPsu: Payer,
  cell: Where,
  requirements: readonly string[],
): Promise<string | undefined> {
  const initiation = await initiate(payingPsu.tpp, paths, paymentOf(cell, payingPsu), where(cell));
  const paymentId = paymentIdOf(initiation);
  if (paymentId === undefined) check.notEvaluated(requirements, notCreated(initiation, cell));
  return paymentId;
}

test(
  ...scenario(
    'PAY-36.a',
    'the 201 payment response carries paymentId, transactionStatus and, where given, fees, messages and links of the right shape',
    { checks: [...RESPONSE_FIELDS, 'MSG-08'], writes: 'initiates a payment' },
    async ({ newTpp, psu, consentedPsu, paths, check }) => {
      // The deprecated city beside townName invites a warning in tppMessages, so that its items can be judged; a
      // bank that refuses city (PAY-23 lets it) is asked again without it, and its response judged all the same.
      const payingPsu = await payer({ newTpp, psu, consentedPsu, paths });
      const { tpp } = payingPsu;
      const withCity = await initiate(tpp, paths, withAddress(payingPsu, { city: 'Oslo' }), {
        deliberate: 'the deprecated city beside townName',
      });
      const response = isSuccess(withCity) ? withCity : await initiate(tpp, paths, sepaPayment(payingPsu));
      const body = jsonBodyOf(response) as
        | { transactionFees?: { amount?: unknown }; transactionFeeIndicator?: unknown; _links?: { scaRedirect?: { verbs?: unknown } } }
        | undefined;
      if (body === undefined || !isSuccess(response)) {
        check.notEvaluatedRest(`not evaluated: the payment was not created (HTTP ${response.status})`);
        return;
      }
      check.schema(body, 'PaymentInitiationResponse');
      const fee = Number(body.transactionFees?.amount);
      if (body.transactionFeeIndicator !== undefined && Number.isFinite(fee)) {
        check.that('PAY-40', !(fee > 0 && body.transactionFeeIndicator === false), {
          expected: 'transactionFeeIndicator not false while transactionFees shows a fee',
          response,
        });
      }
      const verbs = body._links?.scaRedirect?.verbs;
      if (Array.isArray(verbs))
        check.that('MSG-08', verbs.includes('GET'), {
          expected: 'the scaRedirect verbs include GET',
          actual: JSON.stringify(verbs),
          response,
        });
      // An optional field the bank does not send breaks none of its rules.
      check.heldOnPath(undefined, 'the 201 answer does not carry the optional field this rule is about');
    },
  ),
);

test(
  ...scenario(
    'END-05.a',
    'a payment needing SCA is answered 201 with a paymentId, a transactionStatus and an scaRedirect link, in every payment service and product',
    { checks: ['END-05', 'PAY-36', 'PAY-37'], writes: 'initiates payments' },
    async ({ newTpp, psu, consentedPsu, paths, check }) => {
      const payingPsu = await payer({ newTpp, psu, consentedPsu, paths });
      const { tpp } = payingPsu;
      await forEachCell('END-05.a', async (cell) => {
        const response = await initiate(tpp, paths, paymentOf(cell, payingPsu), where(cell));
        if (!isSuccess(response)) {
          return check.notEvaluated(
            ['END-05', 'PAY-36', 'PAY-37'],
            `not evaluated for ${cellName(cell)}: the payment was not created (HTTP ${response.status}); whether the bank offers it is PAY-44, PAY-45 and PAY-46's`,
          );
        }
        const created = check.status('END-05', response);
        check.schema(jsonBodyOf(response), 'PaymentInitiationResponse', { after: created });
        // Links are named by their keys in the map _links is (PAY-43's): in any other shape no link is named scaRedirect or otherwise.
        const links = (jsonBodyOf(response) as { _links?: unknown } | undefined)?._links;
        if (links !== undefined && (typeof links !== 'object' || links === null || Array.isArray(links))) {
          return check.notEvaluated(
            ['END-05'],
            `not evaluated for ${cellName(cell)}: _links is not a map of links (PAY-43's), so whether it holds an scaRedirect does not show`,
          );
        }
        if (scaRedirectOf(response) === undefined && created.passed) {
          // The bank may exempt a payment from SCA (SCA-03): one it has taken on without SCA shows a status past RCVD.
          const status = (jsonBodyOf(response) as { transactionStatus?: unknown } | undefined)?.transactionStatus;
          if (typeof status === 'string' && !AWAITING_AUTHORISATION.includes(status)) {
            return check.notEvaluated(
              ['END-05'],
              `not evaluated for ${cellName(cell)}: the bank took the payment on without SCA (transactionStatus ${status}): an exemption (SCA-03), so no SCA was needed`,
            );
          }
        }
        check.that(
          'END-05',
          scaRedirectOf(response) !== undefined,
          { expected: `_links.scaRedirect in the 201 answer of a payment still awaiting its authorisation (${cellName(cell)})`, response },
          { after: created },
        );
      });
    },
  ),
);

test(
  ...scenario(
    'END-06.a',
    'the status of a payment just initiated is answered 200 with a transactionStatus of the list (its details read too), in every payment service and product that shows one',
    { checks: ['END-06', 'STA-05'], writes: 'initiates payments' },
    async ({ newTpp, psu, consentedPsu, paths, check }) => {
      const payingPsu = await payer({ newTpp, psu, consentedPsu, paths });
      const { tpp } = payingPsu;
      await forEachCell('END-06.a', async (cell) => {
        const paymentId = await created({ paths, check }, payingPsu, cell, ['END-06', 'STA-05']);
        if (paymentId === undefined) return;
        const status = await tpp.get(paymentPath(paths, 'paymentStatus', paymentId, where(cell)));
        const served = check.status('END-06', status);
        check.schema(jsonBodyOf(status), 'PaymentStatus', { after: served });
        // Its details too, whose shape the invariants judge (PAY-53).
        await tpp.get(paymentPath(paths, 'payment', paymentId, where(cell)));
      });
    },
  ),
);

test(
  ...scenario(
    'ERR-22.b',
    'the status of an unknown paymentId is answered 404 RESOURCE_UNKNOWN, in every payment service and product',
    { checks: ['ERR-22'] },
    async ({ tpp, paths, check }) => {
      await forEachCell('ERR-22.b', async (cell) => {
        const response = await tpp.get(paymentPath(paths, 'paymentStatus', 'a0d1e6f4-5b8c-4d1e-9f00-000000000000', where(cell)));
        const refused = check.status('ERR-22', response);
        check.code('ERR-22', response, { after: refused });
      });
    },
  ),
);

test(
  ...scenario(
    'END-08.a',
    'a domestic transfer shows neither details nor status before the PSU approves it, in every payment service',
    { checks: ['END-08'], writes: 'initiates payments' },
    async ({ newTpp, psu, consentedPsu, paths, check }) => {
      const payingPsu = await payer({ newTpp, psu, consentedPsu, paths });
      const { tpp } = payingPsu;
      await forEachCell('END-08.a', async (cell) => {
        const paymentId = await created({ paths, check }, payingPsu, cell, ['END-08']);
        if (paymentId === undefined) return;
        check.status('END-08', await tpp.get(paymentPath(paths, 'paymentStatus', paymentId, where(cell))));
        check.status('END-08', await tpp.get(paymentPath(paths, 'payment', paymentId, where(cell))));
      });
    },
  ),
);

test(
  ...scenario(
    'PAY-46.a',
    'the domestic, cross-border (NCBCT) and to-self products take the request fields of a SEPA credit transfer, in every payment service',
    { checks: ['PAY-46'], writes: 'initiates payments' },
    async ({ newTpp, psu, consentedPsu, paths, check }) => {
      const payingPsu = await payer({ newTpp, psu, consentedPsu, paths });
      const { tpp } = payingPsu;
      await forEachCell('PAY-46.a', async (cell) => {
        const response = await initiate(tpp, paths, paymentOf(cell, payingPsu), where(cell));
        // A refusal is the product's only where the same payment service takes the body on sepa-credit-transfers.
        const sepa = { service: cell.service, product: PRODUCTS.sepa };
        const unjudged = servedOrScaAsked(response) ? undefined : await refusedAlike(tpp, paths, paymentOf(sepa, payingPsu), sepa);
        if (unjudged !== undefined) return check.notEvaluated(['PAY-46'], `not evaluated for ${cellName(cell)}: ${unjudged}`);
        check.accepted('PAY-46', response);
      });
    },
  ),
);

test(
  ...scenario(
    'ERR-28.a',
    'a payment for a product the bank does not have is answered 404 PRODUCT_UNKNOWN',
    { checks: ['ERR-28'], writes: 'initiates a payment (refused)' },
    async ({ newTpp, psu, consentedPsu, paths, check }) => {
      const payingPsu = await payer({ newTpp, psu, consentedPsu, paths });
      const response = await initiate(payingPsu.tpp, paths, sepaPayment(payingPsu), {
        product: 'moon-credit-transfers',
        malformed: 'an unknown payment product',
      });
      const refused = check.status('ERR-28', response);
      check.code('ERR-28', response, { after: refused });
    },
  ),
);

/** The same payment with another endToEndIdentification (on a bulk's first payment): a logical duplicate of it. */
function sameOtherwise(body: PaymentBody, endToEnd: string): PaymentBody {
  const payments = body.payments as PaymentBody[] | undefined;
  if (payments === undefined) return { ...body, endToEndIdentification: endToEnd };
  return { ...body, payments: payments.map((p, i) => (i === 0 ? { ...p, endToEndIdentification: endToEnd } : p)) };
}

test(
  ...scenario(
    'END-02.a',
    'a logical duplicate may be refused (409 CONFLICT) without allowLogicalDuplicate, and is accepted with allowLogicalDuplicate=true, in every payment service and product',
    { checks: ['END-04', 'ERR-15', 'END-02'], writes: 'initiates payments' },
    async ({ newTpp, psu, consentedPsu, paths, check }) => {
      const payingPsu = await payer({ newTpp, psu, consentedPsu, paths });
      const { tpp } = payingPsu;
      await forEachCell('END-02.a', async (cell) => {
        const payment = paymentOf(cell, payingPsu);
        const first = await initiate(tpp, paths, payment, where(cell));
        if (paymentIdOf(first) === undefined) return check.notEvaluated(['END-04', 'ERR-15', 'END-02'], notCreated(first, cell));
        const again = await initiate(tpp, paths, sameOtherwise(payment, 'E2E-CONFORMANCE-2'), { ...where(cell), judgesDuplicates: true });
        const either = check.status('END-04', again);
        if (again.status >= 400) check.status('ERR-15', again, { after: either });
        if (again.status >= 400) check.code('ERR-15', again, { after: either });
        else
          check.notEvaluated(
            ['ERR-15'],
            `not evaluated for ${cellName(cell)}: the bank accepted the logical duplicate, so there is no refusal to judge`,
          );
        check.status(
          'END-02',
          await initiate(tpp, paths, sameOtherwise(payment, 'E2E-CONFORMANCE-3'), { ...where(cell), query: '?allowLogicalDuplicate=true' }),
        );
      });
    },
  ),
);

test(
  ...scenario(
    'END-03.a',
    'allowLogicalDuplicate with a value other than true or false is refused with 400, in every payment service and product',
    { checks: ['END-03'], writes: 'initiates payments (refused)' },
    async ({ newTpp, psu, consentedPsu, paths, check }) => {
      const payingPsu = await payer({ newTpp, psu, consentedPsu, paths });
      await forEachCell('END-03.a', (cell) =>
        judgeCell({ check, paths }, payingPsu, cell, {
          patch: {},
          query: '?allowLogicalDuplicate=maybe',
          requirements: ['END-03'],
          malformed: 'allowLogicalDuplicate=maybe',
        }),
      );
    },
  ),
);

test(
  ...scenario(
    'ERR-36.a',
    'a payment whose remittance text holds an emoji is accepted or refused with 400, never a server error, in every payment service and product',
    { checks: ['ERR-36'], writes: 'initiates payments' },
    async ({ newTpp, psu, consentedPsu, paths, check }) => {
      const payingPsu = await payer({ newTpp, psu, consentedPsu, paths });
      await forEachCell('ERR-36.a', (cell) =>
        judgeCell({ check, paths }, payingPsu, cell, {
          patch: { remittanceInformationUnstructured: 'Takk for maten \u{1F37D}' },
          requirements: ['ERR-36'],
        }),
      );
    },
  ),
);

test(
  ...scenario(
    'PAY-50.a',
    'a payment not yet executed is cancelled by DELETE, and then reads CANC, in every payment service and product that shows its status',
    { checks: ['PAY-50'], writes: 'initiates and cancels payments' },
    async ({ newTpp, psu, consentedPsu, paths, check }) => {
      const payingPsu = await payer({ newTpp, psu, consentedPsu, paths });
      const { tpp } = payingPsu;
      await forEachCell('PAY-50.a', async (cell) => {
        const paymentId = await created({ paths, check }, payingPsu, cell, ['PAY-50']);
        if (paymentId === undefined) return;
        const before = await statusOf(tpp, paths, paymentId, where(cell));
        const cancelled = await tpp.request({ method: 'DELETE', path: paymentPath(paths, 'payment', paymentId, where(cell)) });
        const done = check.status('PAY-50', cancelled);
        // An answer with links (Berlin Group 202) asks for the cancellation to be authorised first: CANC comes later.
        if ((jsonBodyOf(cancelled) as { _links?: unknown } | undefined)?._links !== undefined) return;
        const { transactionStatus, response } = await statusOf(tpp, paths, paymentId, where(cell));
        // A status unread after the cancellation counts against it only where it was read before (END-06 judges the reading).
        if (transactionStatus === undefined && before.transactionStatus === undefined) {
          return check.notEvaluated(
            ['PAY-50'],
            `not evaluated for ${cellName(cell)}: the payment's status answers neither before its cancellation nor after (HTTP ${before.response.status}, then ${response.status})`,
          );
        }
        check.that(
          'PAY-50',
          transactionStatus === 'CANC',
          { expected: `transactionStatus CANC after the cancellation (${cellName(cell)})`, response },
          { after: done },
        );
      });
    },
  ),
);

test(
  ...scenario(
    'HDR-32.a',
    'a payment with neither PSU-ID nor X-PSU-IDENTITY is refused or asked for SCA, not created, in every payment service and product',
    { checks: ['HDR-32', 'ERR-16'], writes: 'initiates payments (refused)' },
    async ({ tpp, newTpp, psu, consentedPsu, paths, check }) => {
      // The scenario's own client names no PSU: it has no PSU-ID, and sends no X-PSU-IDENTITY.
      const payingPsu = await payer({ newTpp, psu, consentedPsu, paths });
      await forEachCell('HDR-32.a', async (cell) => {
        const response = await initiate(tpp, paths, paymentOf(cell, payingPsu), {
          ...where(cell),
          malformed: 'neither PSU-ID nor X-PSU-IDENTITY',
        });
        // Another answer is the missing PSU's only where the bank takes the same payment naming its PSU (a service it offers).
        const unjudged = expected('HDR-32', response)
          ? undefined
          : await refusedAlike(payingPsu.tpp, paths, paymentOf(cell, payingPsu), where(cell));
        if (unjudged !== undefined) return check.notEvaluated(['HDR-32', 'ERR-16'], `not evaluated for ${cellName(cell)}: ${unjudged}`);
        const refused = check.status('HDR-32', response);
        if (expected('ERR-16', response)) check.code('ERR-16', response, { after: refused });
        else check.notEvaluated(['ERR-16'], `not evaluated for ${cellName(cell)}: no 400 whose code to judge (HTTP ${response.status})`);
      });
    },
  ),
);
