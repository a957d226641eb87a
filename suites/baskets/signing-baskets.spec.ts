/**
 * Signing baskets: create and status, read and delete where offered (Berlin Group 1.3), the start of the authorisation
 * with the answers the specification names for it, bulk and periodic payments refused with
 * REFERENCE_MIX_INVALID, NCBCT payments in a basket, the basket SCA, a basket that is not atomic and one
 * that reports a payment lacking funds, and the links a basket's SCA closes. Rows of the rule table are
 * judged for the payments of every product.
 */
import {
  accountsOf,
  isSuccess,
  jsonBodyOf,
  onlyAsksForSca,
  type RequestOptions,
  scaRedirectFrom,
  scaRedirectOf,
  scenario,
  type ScenarioFixtures,
  test,
  type TppClient,
  type TppResponse,
} from '../../lib/fixtures/index.js';
import {
  consentedDebtor,
  currencyOf,
  inCurrency,
  initiate,
  pastNextBatchRun,
  weekdayAhead,
  PAYMENT_HEADERS,
  payer,
  paymentFrom,
  psuIdentity,
  paymentIdOf,
  paymentOf,
  PRODUCTS,
  sepaPayment,
  statusOf,
  type Debtor,
  type From,
  type Initiation,
  type Patch,
  type Payer,
  type PaymentBody,
  type Where,
} from '../payments/payment-bodies.js';
import type { PaymentProduct } from '../../lib/spec/payment-products.js';
import { cancel, cellName, cellScenarios, cellsName, forEach, forEachCell, initiated, judgeClosed, where } from '../payments/rule-cells.js';

type Paths = ScenarioFixtures['paths'];

/**
 * Initiates the payments (of `defaults`' service and product unless a payment says) and answers their ids (undefined when one was not
 * created).
 */
async function paymentIds(
  tpp: TppClient,
  paths: Paths,
  payments: readonly (readonly [PaymentBody, Initiation?])[],
  defaults: Initiation = {},
): Promise<string[] | undefined> {
  const ids: string[] = [];
  for (const [body, options] of payments) {
    const id = paymentIdOf(await initiate(tpp, paths, body, { ...defaults, ...options }));
    if (id === undefined) return undefined;
    ids.push(id);
  }
  return ids;
}

function createBasket(tpp: TppClient, paths: Paths, ids: readonly string[], malformed?: string): Promise<TppResponse> {
  return tpp.request({ method: 'POST', path: paths('signingBaskets'), json: { paymentIds: ids }, ...(malformed ? { malformed } : {}) });
}

function basketIdOf(response: TppResponse): string | undefined {
  const id = (jsonBodyOf(response) as { basketId?: unknown } | undefined)?.basketId;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/**
 * The products a basket is tried with: SEPA credit transfers, then NCBCT, the product the spec says
 * signing baskets are supported for (a bank may offer them for it alone).
 */
const BASKET_PRODUCTS = [PRODUCTS.sepa, PRODUCTS.ncbct] as const;

interface Basket {
  /** The answer to the basket's creation (the last one tried when none made a basket). */
  created?: TppResponse;
  basketId?: string;
  ids?: string[];
  product: string;
}

/** A basket of the payments `bodies(product)` makes, on the first product the bank takes in a basket. */
async function basketOf(tpp: TppClient, paths: Paths, bodies: (product: string) => PaymentBody[]): Promise<Basket> {
  let last: Basket = { product: PRODUCTS.sepa };
  for (const product of BASKET_PRODUCTS) {
    const ids = await paymentIds(
      tpp,
      paths,
      bodies(product).map((body) => [body, { product }] as const),
    );
    if (ids === undefined) continue;
    const created = await createBasket(tpp, paths, ids);
    const basketId = basketIdOf(created);
    last = { created, ids, product, ...(basketId === undefined ? {} : { basketId }) };
    if (basketId !== undefined) return last;
  }
  return last;
}

/** `count` payments in the product's currency (a creditor of their own each), above the amounts banks commonly exempt from SCA. */
const payments = (from: From, count: number) => (product: string) =>
  Array.from({ length: count }, () => sepaPayment(from, inCurrency(currencyOf(product), '112.50')));

/**
 * A single payment the bank takes in a basket: of `product` first, then of NCBCT (the product the spec names
 * signing baskets for: a bank may offer them for it alone), then SEPA. Found with a basket of it alone, deleted again.
 */
async function basketablePayment(payingPsu: Payer, paths: Paths, product: PaymentProduct): Promise<string | undefined> {
  const { tpp } = payingPsu;
  for (const candidate of new Set([product, PRODUCTS.ncbct, PRODUCTS.sepa])) {
    const id = paymentIdOf(
      await initiate(tpp, paths, paymentOf({ service: 'payments', product: candidate }, payingPsu), { product: candidate }),
    );
    const basketId = id === undefined ? undefined : basketIdOf(await createBasket(tpp, paths, [id]));
    if (id === undefined || basketId === undefined) continue;
    const deleted = await tpp.request({ method: 'DELETE', path: paths('signingBasket', { basketId }) });
    if (isSuccess(deleted)) return id;
    return paymentIdOf(
      await initiate(tpp, paths, paymentOf({ service: 'payments', product: candidate }, payingPsu), { product: candidate }),
    );
  }
  return undefined;
}

function startAuthorisation(
  tpp: TppClient,
  paths: Paths,
  basketId: string,
  options: Pick<RequestOptions, 'malformed' | 'failureProvoked'> = {},
): Promise<TppResponse> {
  // The same header set as payment initiation (Endpoints, start of signing basket authorisation).
  return tpp.request({
    method: 'POST',
    path: paths('signingBasketAuthorisations', { basketId }),
    headers: { ...PAYMENT_HEADERS },
    ...options,
  });
}

/** Every link of a body's _links carries verbs (MSG-09). */
function linksWithoutVerbs(body: unknown): string[] {
  const links = (body as { _links?: Record<string, { verbs?: unknown }> } | undefined)?._links ?? {};
  return Object.entries(links)
    .filter(([, link]) => !Array.isArray(link.verbs))
    .map(([name]) => name);
}

test(
  ...scenario(
    'BSK-07.a',
    'a basket made from two payments is created (201) and reported, and read and deleted where the bank offers it, in the Berlin Group shape',
    { checks: ['BSK-07', 'MSG-09'], writes: 'initiates payments and a signing basket' },
    async ({ newTpp, psu, consentedPsu, paths, check }) => {
      const payingPsu = await payer({ newTpp, psu, consentedPsu, paths });
      const { tpp } = payingPsu;
      const { created } = await basketOf(tpp, paths, payments(payingPsu, 2));
      if (created === undefined) return check.notEvaluatedRest('not evaluated: the payments were not created');
      const made = check.status('BSK-07', created);
      check.schema(jsonBodyOf(created), 'SigningBasketCreationResponse', { after: made });
      const bare = linksWithoutVerbs(jsonBodyOf(created));
      check.that(
        'MSG-09',
        bare.length === 0,
        { expected: 'every link of the basket with verbs', actual: `without verbs: ${bare.join(', ')}`, response: created },
        { after: made },
      );
      const basketId = basketIdOf(created);
      if (basketId === undefined) return check.notEvaluatedRest('not evaluated: no basketId');
      // Its status carries the worst case the spec speaks of; reading and deleting it are Berlin Group methods a bank
      // may leave out ("only necessary to support a certain subset"): judged where the bank serves them.
      check.schema(jsonBodyOf(await tpp.get(paths('signingBasketStatus', { basketId }))), 'SigningBasketStatus');
      const read = await tpp.get(paths('signingBasket', { basketId }));
      if (isSuccess(read)) check.schema(jsonBodyOf(read), 'SigningBasket');
      const deleted = await tpp.request({ method: 'DELETE', path: paths('signingBasket', { basketId }) });
      if (!isSuccess(deleted) && deleted.status < 500) return;
      check.that('BSK-07', isSuccess(deleted), {
        expected: 'the basket deleted (2xx), or its deletion refused as a method the bank does not offer',
        response: deleted,
      });
    },
  ),
);

test(
  ...scenario(
    'ERR-06.a',
    'the start of a basket authorisation answers 201 with scaStatus STARTED and an scaRedirect link',
    {
      checks: ['ERR-06', 'STA-02', 'BSK-01', 'BSK-02', 'STA-01', 'BSK-11', 'BSK-08', 'BSK-09', 'ERR-08', 'BSK-03'],
      writes: 'initiates payments and a signing basket',
    },
    async ({ newTpp, consentedPsu, paths, check }) => {
      // With PSU-ID, so that psu-id is among the signed headers (BSK-09).
      const debtor = await consentedDebtor({ newTpp, consentedPsu, paths });
      const { tpp } = debtor;
      const { basketId } = await basketOf(tpp, paths, payments(debtor, 2));
      if (basketId === undefined) return check.notEvaluatedRest('not evaluated: the payments or the basket were not created');
      const response = await startAuthorisation(tpp, paths, basketId);
      check.status('BSK-11', response);
      check.accepted('BSK-08', response);
      check.accepted('BSK-09', response);
      const sca = { expected: 'an scaRedirect link to the SCA site', response };
      if (onlyAsksForSca(response)) {
        // The other answer the spec names when SCA is required (ERR-08): no authorisation resource to judge.
        check.notEvaluated(
          ['ERR-06', 'STA-02', 'BSK-01', 'BSK-02', 'STA-01'],
          'not evaluated: the bank asks for SCA with its 401 scaRedirect body (ERR-08), which starts no authorisation resource to carry a status',
        );
      } else {
        const started = check.status('ERR-06', response);
        const body = jsonBodyOf(response) as { scaStatus?: unknown } | undefined;
        check.that('STA-02', started.passed && body?.scaStatus === 'STARTED', { expected: '201 with scaStatus STARTED', response });
        if (started.passed) check.schema(body, 'SigningBasketAuthorisationResponse');
        else check.notEvaluated(['BSK-01', 'BSK-02', 'STA-01'], 'not evaluated: the authorisation did not start (201)');
      }

      check.that('ERR-08', check.status('BSK-03', response).passed && scaRedirectOf(response) !== undefined, sca);
      check.that('BSK-03', scaRedirectOf(response) !== undefined, sca);
    },
  ),
);

test(
  ...scenario(
    'ERR-09.a',
    'the authorisation of an unknown basket is answered 404 RESOURCE_UNKNOWN',
    { checks: ['ERR-09'] },
    async ({ newTpp, psu, paths, check }) => {
      const response = await startAuthorisation(newTpp({ headers: psuIdentity(psu) }), paths, 'b0d1e6f4-5b8c-4d1e-9f00-000000000000', {
        malformed: 'an unknown basket id',
      });
      const refused = check.status('ERR-09', response);
      check.code('ERR-09', response, { after: refused });
    },
  ),
);

test(
  ...scenario(
    'ERR-10.a',
    'an internal failure of the bank during a basket authorisation is answered 500 SYSTEM_ERROR',
    {
      checks: ['ERR-10', 'ERR-11'],
      needs: ['fault-injection'],
      writes: 'initiates payments and a signing basket, and asks the sandbox for an internal failure',
    },
    async ({ newTpp, psu, consentedPsu, paths, check }) => {
      const payingPsu = await payer({ newTpp, psu, consentedPsu, paths });
      const { tpp } = payingPsu;
      const { basketId } = await basketOf(tpp, paths, payments(payingPsu, 2));
      if (basketId === undefined) return check.notEvaluatedRest('not evaluated: the payments or the basket were not created');
      const armed = await tpp.post(paths('sandboxFailures'), { operation: 'signing-basket-authorisation', resourceId: basketId });
      if (!isSuccess(armed))
        return check.notEvaluatedRest(`not evaluated: the target did not arm an internal failure (HTTP ${armed.status})`);
      const response = await startAuthorisation(tpp, paths, basketId, {
        failureProvoked: 'the sandbox was asked to fail this basket authorisation inside the bank',
      });
      // ERR-11 carries the pairing over to any internal failure; this one is the basket's (ERR-10).
      for (const requirement of ['ERR-10', 'ERR-11']) {
        const answered = check.status(requirement, response);
        check.code(requirement, response, { after: answered });
      }
    },
  ),
);

for (const [id, kind] of [
  ['BSK-12.a', 'a periodic payment'],
  ['BSK-12.b', 'a bulk payment'],
] as const) {
  test(
    ...scenario(
      id,
      `a basket with ${kind} is refused with 400 REFERENCE_MIX_INVALID, at creation or at the start of its authorisation, in every product`,
      { checks: ['BSK-12', 'ERR-34', 'ERR-41'], writes: 'initiates payments and signing baskets' },
      async ({ newTpp, psu, consentedPsu, paths, check }) => {
        const payingPsu = await payer({ newTpp, psu, consentedPsu, paths });
        const { tpp } = payingPsu;
        await forEachCell(id, async (cell) => {
          // Beside a payment of a product the bank takes in baskets: only the mix can be the reason of a refusal.
          const single = await basketablePayment(payingPsu, paths, cell.product);
          const mixed = paymentIdOf(await initiate(tpp, paths, paymentOf(cell, payingPsu), where(cell)));
          const ids = single === undefined || mixed === undefined ? undefined : [single, mixed];
          if (ids === undefined)
            return check.notEvaluated(
              ['BSK-12', 'ERR-34', 'ERR-41'],
              `not evaluated for ${cellName(cell)}: ${kind}, or a single payment the bank takes in a basket, could not be initiated`,
            );
          const created = await createBasket(tpp, paths, ids, `a basket with ${kind} (${cell.product})`);
          const basketId = basketIdOf(created);
          const refusal =
            basketId === undefined
              ? created
              : await startAuthorisation(tpp, paths, basketId, {
                  malformed: `the authorisation of a basket with ${kind} (${cell.product})`,
                });
          for (const requirement of ['BSK-12', 'ERR-34', 'ERR-41']) {
            const refused = check.status(requirement, refusal);
            check.code(requirement, refusal, { after: refused });
          }
        });
      },
    ),
  );
}

test(
  ...scenario(
    'BSK-13.a',
    'a basket of NCBCT payments the bank took is created and its authorisation started',
    { checks: ['BSK-13', 'VER-24'], writes: 'initiates payments and a signing basket' },
    async ({ newTpp, psu, consentedPsu, paths, check }) => {
      const payingPsu = await payer({ newTpp, psu, consentedPsu, paths });
      const { tpp } = payingPsu;
      const ncbct = { product: PRODUCTS.ncbct };
      const nok = { instructedAmount: { amount: '15000.00', currency: 'NOK' } };
      const initiation = await initiate(tpp, paths, sepaPayment(payingPsu, nok), ncbct);
      const first = paymentIdOf(initiation);
      const second = paymentIdOf(await initiate(tpp, paths, sepaPayment(payingPsu, nok), ncbct));
      // The NCBCT fields (its regulatory reporting among them) are not shown: a bank that wants others than the
      // SEPA credit transfer's refuses the suite's body, which says nothing about its baskets (PAY-46 reports it).
      if (first === undefined || second === undefined)
        return check.notEvaluatedRest(
          `not evaluated: the bank did not take the suite's NCBCT body (HTTP ${initiation.status}), whose fields the spec does not show`,
        );
      const basket = await createBasket(tpp, paths, [first, second]);
      const basketId = basketIdOf(basket);
      check.accepted('BSK-13', basket);
      check.accepted('VER-24', basket);
      if (basketId === undefined) return;
      const started = await startAuthorisation(tpp, paths, basketId);
      for (const requirement of ['BSK-13', 'VER-24']) check.accepted(requirement, started);
    },
  ),
);

/**
 * Two payments of the consented PSU in a basket, authorised in the browser: amounts above those banks commonly
 * exempt from SCA (SCA-03), which an exempting bank would approve at once, before any basket.
 */
async function authorisedBasket(
  fixtures: Pick<ScenarioFixtures, 'newTpp' | 'consentedPsu' | 'paths' | 'sca'>,
  amounts: readonly [string, string],
  variant?: string,
  patches: readonly Patch[] = [],
) {
  const debtor = await consentedDebtor(fixtures);
  const { paths, sca } = fixtures;
  const { ids, basketId, product } = await basketOf(debtor.tpp, paths, () =>
    amounts.map((amount, i) => paymentFrom(debtor, amount, undefined, patches[i])),
  );
  if (ids === undefined || basketId === undefined) return undefined;
  const start = await startAuthorisation(debtor.tpp, paths, basketId);
  const redirect = await sca.authorise(scaRedirectFrom(start), debtor.psu, variant ? { variant } : {});
  const authorisationId = (jsonBodyOf(start) as { authorisationId?: unknown } | undefined)?.authorisationId;
  return { debtor, ids, basketId, product, redirect, authorisationId: typeof authorisationId === 'string' ? authorisationId : undefined };
}

test(
  ...scenario(
    'BSK-10.a',
    'the PSU authorises a basket in the browser like a single payment; each payment then answers its own status request',
    { checks: ['BSK-10', 'BSK-06', 'STA-03'], writes: 'initiates and approves payments in a signing basket' },
    async ({ newTpp, consentedPsu, paths, sca, check }) => {
      const basket = await authorisedBasket({ newTpp, consentedPsu, paths, sca }, ['101.00', '102.00']);
      if (basket === undefined) return check.notEvaluatedRest('not evaluated: the payments or the basket were not created');
      const { debtor, ids, basketId, product, redirect, authorisationId } = basket;
      check.that('BSK-10', redirect.outcome === 'success', {
        expected: 'SCA ends in a success redirect to TPP-Redirect-URI',
        actual: redirect.url,
      });
      for (const id of ids) check.status('BSK-06', (await statusOf(debtor.tpp, paths, id, { product })).response);
      if (authorisationId === undefined)
        return check.notEvaluated(['STA-03'], 'not evaluated: the basket authorisation has no authorisationId to read');
      const status = await debtor.tpp.get(paths('signingBasketAuthorisation', { basketId, authorisationId }));
      const scaStatus = (jsonBodyOf(status) as { scaStatus?: unknown } | undefined)?.scaStatus;
      check.that('STA-03', scaStatus === 'FINALISED', { expected: 'scaStatus FINALISED after the successful SCA', response: status });
    },
  ),
);

const PAYABLE = '101.00';
/** More than any sandbox balance: the payment lacks funds. */
const FAR_ABOVE_BALANCE = '99999999.00';

/** Whether every balance the account with this IBAN reports (in its currency) still covers `amount`. */
async function covers(tpp: TppClient, paths: Paths, iban: string, amount: string): Promise<boolean> {
  const accounts = accountsOf<{ iban?: unknown; resourceId?: unknown }>(await tpp.get(paths('accounts')));
  const accountId = accounts.find((a) => a.iban === iban)?.resourceId;
  if (typeof accountId !== 'string') return false;
  const balances =
    (jsonBodyOf(await tpp.get(paths('balances', { accountId }))) as { balances?: { balanceAmount?: { amount?: unknown } }[] } | undefined)
      ?.balances ?? [];
  const amounts = balances.map((b) => Number(b.balanceAmount?.amount));
  return amounts.length > 0 && amounts.every((a) => Number.isFinite(a) && a >= Number(amount));
}

test(
  ...scenario(
    'BSK-04.a',
    'a basket is not atomic: after a batch run a payable payment is booked while one far above the balance is rejected, and the basket reports the worst',
    {
      checks: ['BSK-04', 'BSK-05', 'BSK-14'],
      writes: 'initiates and approves payments in a signing basket',
      needs: ['clock-control'],
      globalState: 'moves the target clock past a batch run',
    },
    async ({ newTpp, consentedPsu, paths, sca, sandboxClock, check }) => {
      const fixtures = { newTpp, consentedPsu, paths, sca };
      // A bank may refuse at initiation a payment it cannot cover (ERR-32): then one dated ahead lacks the funds on its execution date.
      const dated = weekdayAhead(2);
      const basket =
        (await authorisedBasket(fixtures, [PAYABLE, FAR_ABOVE_BALANCE])) ??
        (await authorisedBasket(fixtures, [PAYABLE, FAR_ABOVE_BALANCE], undefined, [{}, { requestedExecutionDate: dated }]));
      if (basket === undefined || basket.redirect.outcome !== 'success')
        return check.notEvaluatedRest('not evaluated: the basket was not created or not authorised');
      const later = await pastNextBatchRun({ sandboxClock, newTpp }, basket.debtor.psuId, dated);
      const [payableStatus, unpayableStatus] = await Promise.all(
        basket.ids.map((id) => statusOf(later, paths, id, { product: basket.product })),
      );
      const [payable, unpayable] = [payableStatus?.transactionStatus, unpayableStatus?.transactionStatus];
      // Rejected: RJCT, or ACCP reported with fundsAvailable false (the fact the spec gives for lack of funds).
      const rejected = (status: Awaited<ReturnType<typeof statusOf>> | undefined) =>
        status?.transactionStatus === 'RJCT' || (status?.transactionStatus === 'ACCP' && status.fundsAvailable === false);
      const status = await later.get(paths('signingBasketStatus', { basketId: basket.basketId }));
      const basketStatus = (jsonBodyOf(status) as { transactionStatus?: unknown } | undefined)?.transactionStatus;
      const actual = `payable ${String(payable)}, unpayable ${String(unpayable)}, basket ${String(basketStatus)}`;
      // Atomicity shows only once the unpayable payment is rejected: until then both may rightly wait.
      if (!rejected(unpayableStatus))
        check.notEvaluated(
          ['BSK-04'],
          `not evaluated: after a batch run the payment far above the balance is not rejected yet (${actual}), so whether the basket is atomic does not show`,
        );
      else if (rejected(payableStatus) && !(await covers(later, paths, basket.debtor.account.iban, PAYABLE))) {
        // The debtor account is shared with every other scenario that pays from it: once they have spent it, the
        // "payable" payment lacks funds of its own, and its rejection says nothing of atomicity.
        check.notEvaluated(
          ['BSK-04'],
          `not evaluated: the debtor account no longer covers ${PAYABLE} in every balance it reports, so the payable payment's rejection (${actual}) may be its own lack of funds`,
        );
      } else
        check.that('BSK-04', !rejected(payableStatus), { expected: 'the payable payment not rejected with the unpayable one', actual });
      // The basket status is compared with its payments' own: one the status request does not answer (BSK-06's) leaves nothing to compare.
      if (payable === undefined || unpayable === undefined) {
        const read = [payableStatus, unpayableStatus].map((s) => `HTTP ${String(s?.response.status)}`).join(', ');
        return check.notEvaluated(
          ['BSK-05', 'BSK-14'],
          `not evaluated: the status of a payment of the basket was not read (${read}), so what the basket reports cannot be compared with it (${actual})`,
        );
      }
      // The worst case may be named by what it means: RJCT for a payment rejected for lack of funds (ACCP, fundsAvailable false).
      const meant: unknown[] = [payable, unpayable, ...(rejected(unpayableStatus) || rejected(payableStatus) ? ['RJCT'] : [])];
      check.that('BSK-05', meant.includes(basketStatus), {
        expected: 'the basket status is that of one of its payments, or RJCT for one rejected for lack of funds',
        actual,
        response: status,
      });
      const worst = ['RJCT', 'CANC', 'PART'].find((s) => s === payable || s === unpayable);
      check.that('BSK-14', worst === undefined || basketStatus === worst, {
        expected: `the basket reports the worst case (${worst ?? 'none'})`,
        actual,
        response: status,
      });
    },
  ),
);

test(
  ...scenario(
    'STA-04.a',
    'after the PSU rejects the basket in SCA, its authorisation reads scaStatus FAILED',
    { checks: ['STA-04'], writes: 'initiates payments in a signing basket', needs: ['sca-abort'] },
    async ({ newTpp, consentedPsu, paths, sca, check }) => {
      const basket = await authorisedBasket({ newTpp, consentedPsu, paths, sca }, ['101.00', '102.00'], 'reject-payment');
      if (basket?.authorisationId === undefined) return check.notEvaluatedRest('not evaluated: no basket authorisation to read');
      const status = await basket.debtor.tpp.get(
        paths('signingBasketAuthorisation', { basketId: basket.basketId, authorisationId: basket.authorisationId }),
      );
      const scaStatus = (jsonBodyOf(status) as { scaStatus?: unknown } | undefined)?.scaStatus;
      check.that('STA-04', scaStatus === 'FAILED', { expected: 'scaStatus FAILED after the PSU rejected', response: status });
    },
  ),
);

test(
  ...scenario(
    'ERR-18.a',
    'the status of an authorisation id the bank does not know is answered 404',
    { checks: ['ERR-18'], writes: 'initiates payments and a signing basket' },
    async ({ newTpp, psu, consentedPsu, paths, check }) => {
      const payingPsu = await payer({ newTpp, psu, consentedPsu, paths });
      const { tpp } = payingPsu;
      const { basketId } = await basketOf(tpp, paths, payments(payingPsu, 1));
      if (basketId === undefined) return check.notEvaluatedRest('not evaluated: the basket was not created');
      const response = await tpp.request({
        method: 'GET',
        path: paths('signingBasketAuthorisation', { basketId, authorisationId: 'c0d1e6f4-5b8c-4d1e-9f00-000000000000' }),
        malformed: 'an unknown authorisation id',
      });
      const refused = check.status('ERR-18', response);
      check.code('ERR-18', response, { after: refused });
    },
  ),
);

/** authorisationId of the start of a basket authorisation, if its answer gives one. */
function authorisationIdOf(response: TppResponse): string | undefined {
  const id = (jsonBodyOf(response) as { authorisationId?: unknown } | undefined)?.authorisationId;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

test(
  ...scenario(
    'STA-08.a',
    'a started basket authorisation reads STARTED or a later state before the PSU acts, not RECEIVED, for the payments of every product',
    { checks: ['STA-08'], writes: 'initiates payments and signing baskets' },
    async ({ newTpp, consentedPsu, paths, check }) => {
      // The PSU's own client, in its session: a bank that asks for SCA (401) to start an authorisation outside one starts none to read.
      const debtor = await consentedDebtor({ newTpp, consentedPsu, paths });
      const { tpp } = debtor;
      await forEachCell('STA-08.a', async (cell) => {
        const ids = await paymentIds(tpp, paths, [[paymentOf(cell, debtor)], [paymentOf(cell, debtor)]], where(cell));
        const basketId = ids === undefined ? undefined : basketIdOf(await createBasket(tpp, paths, ids));
        if (basketId === undefined)
          return check.notEvaluated(['STA-08'], `not evaluated for ${cellName(cell)}: the payments or their basket were not created`);
        const start = await startAuthorisation(tpp, paths, basketId);
        const authorisationId = authorisationIdOf(start);
        const startedAs = (jsonBodyOf(start) as { scaStatus?: unknown } | undefined)?.scaStatus;
        if (authorisationId === undefined)
          return check.notEvaluated(
            ['STA-08'],
            `not evaluated for ${cellName(cell)}: the start answered no authorisationId to read (HTTP ${start.status})`,
          );
        const read = await tpp.get(paths('signingBasketAuthorisation', { basketId, authorisationId }));
        const scaStatus = (jsonBodyOf(read) as { scaStatus?: unknown } | undefined)?.scaStatus;
        check.that('STA-08', scaStatus !== 'RECEIVED', {
          expected: `after a start that answered ${String(startedAs)}, not RECEIVED (${cellName(cell)})`,
          actual: `scaStatus ${String(scaStatus)}`,
          response: read,
        });
      });
    },
  ),
);

/**
 * A basket of a payable payment and one lacking funds, of the cell's product, with the links of each. Where the
 * bank refuses the one lacking funds at initiation (ERR-32's first path: `refusedForFunds`, the payable one taken),
 * a second payable payment takes its place: the links are judged all the same.
 */
async function basketOfTwo(paths: Paths, debtor: Debtor, cell: Where) {
  const payable = await initiated({ paths }, debtor, cell, '1.00');
  const unpayable = await initiated({ paths }, debtor, cell, FAR_ABOVE_BALANCE);
  const refusedForFunds = payable.href !== undefined && unpayable.paymentId === undefined && unpayable.response.status >= 400;
  const other = refusedForFunds ? await initiated({ paths }, debtor, cell, '2.00') : unpayable;
  if (payable.href === undefined || other.href === undefined)
    return { unmet: `the payments were not created with their links: ${payable.unmet ?? other.unmet ?? ''}` } as const;
  const basketId = basketIdOf(await createBasket(debtor.tpp, paths, [payable.paymentId, other.paymentId]));
  if (basketId === undefined) return { unmet: 'the basket was not created' } as const;
  const start = await startAuthorisation(debtor.tpp, paths, basketId);
  const href = scaRedirectOf(start);
  if (href === undefined) return { unmet: `the basket authorisation gave no scaRedirect (HTTP ${start.status})` } as const;
  return { basketId, href, payable, unpayable: other, refusedForFunds } as const;
}

for (const { id, cells } of cellScenarios('BSK-15.a')) {
  test(
    ...scenario(
      id,
      `a basket of a payable payment and one lacking funds (${cellsName(cells)}), authorised, reports the lack of funds; its link and each payment's own are then closed`,
      { checks: ['BSK-15', 'BSK-06', 'SCA-24', 'SCA-25'], writes: 'initiates payments and signing baskets, and approves them' },
      async ({ newTpp, consentedPsu, paths, sca, check }) => {
        const debtor = await consentedDebtor({ newTpp, consentedPsu, paths });
        await forEach(cells, async (cell) => {
          const basket = await basketOfTwo(paths, debtor, cell);
          if (basket.href === undefined)
            return check.notEvaluated(['BSK-15', 'BSK-06', 'SCA-24', 'SCA-25'], `not evaluated for ${cellName(cell)}: ${basket.unmet}`);
          const capture = await sca.authorise(basket.href, debtor.psu);
          if (capture.outcome !== 'success')
            return check.notEvaluated(
              ['BSK-15', 'BSK-06', 'SCA-24', 'SCA-25'],
              `not evaluated for ${cellName(cell)}: the PSU could not authorise the basket (${capture.url})`,
            );
          const [payable, unpayable] = await Promise.all(
            [basket.payable, basket.unpayable].map((p) => statusOf(debtor.tpp, paths, p.paymentId, where(cell))),
          );
          for (const status of [payable, unpayable]) if (status !== undefined) check.status('BSK-06', status.response);
          const status = await debtor.tpp.get(paths('signingBasketStatus', { basketId: basket.basketId }));
          const basketStatus = (jsonBodyOf(status) as { transactionStatus?: unknown } | undefined)?.transactionStatus;
          const lacking = unpayable?.transactionStatus === 'ACCP' && unpayable.fundsAvailable === false;
          const actual = `payable ${String(payable?.transactionStatus)}, lacking funds ${String(unpayable?.transactionStatus)} (fundsAvailable ${String(unpayable?.fundsAvailable)}), basket ${String(basketStatus)}`;
          // No basket ever holds a payment lacking funds where the bank refuses it at initiation.
          if (basket.refusedForFunds)
            check.heldOnPath(
              ['BSK-15'],
              `the bank refused the payment above the balance at initiation (ERR-32): no basket holds one lacking funds (${cellName(cell)})`,
            );
          else if (!lacking)
            check.notEvaluated(
              ['BSK-15'],
              `not evaluated for ${cellName(cell)}: the bank reports the payment above the balance otherwise than ACCP with fundsAvailable false (${actual})`,
            );
          else
            check.that('BSK-15', basketStatus === 'ACCP' || basketStatus === 'RJCT', {
              expected: `the basket reports the payment lacking funds (ACCP or RJCT) (${cellName(cell)})`,
              actual,
              response: status,
            });
          await judgeClosed({ paths, sca, check }, debtor, cell, 'SCA-25', basket.payable, 'authorised through its basket');
          await judgeClosed(
            { paths, sca, check },
            debtor,
            cell,
            'SCA-24',
            { href: basket.href, paymentId: basket.payable.paymentId },
            "the basket's SCA completed",
          );
        });
      },
    ),
  );
}

for (const { id, cells } of cellScenarios('SCA-25.m')) {
  test(
    ...scenario(
      id,
      `a basket one of whose payments (${cellsName(cells)}) the TPP cancelled before the basket's SCA: the basket's link ends in failure or an error page, and the payment stays cancelled`,
      { checks: ['SCA-25'], writes: 'initiates payments and signing baskets, and cancels a payment' },
      async ({ newTpp, consentedPsu, paths, sca, check }) => {
        const debtor = await consentedDebtor({ newTpp, consentedPsu, paths });
        await forEach(cells, async (cell) => {
          const basket = await basketOfTwo(paths, debtor, cell);
          if (basket.href === undefined) return check.notEvaluated(['SCA-25'], `not evaluated for ${cellName(cell)}: ${basket.unmet}`);
          const uncancelled = await cancel({ paths }, debtor.tpp, cell, basket.payable.paymentId);
          if (uncancelled !== undefined) {
            // A bank may keep a payment its open basket holds from being cancelled (Berlin Group RESOURCE_BLOCKED): where it
            // cancels the same payment outside a basket, no basket of it ever outlives a cancelled payment.
            const alone = await initiated({ paths }, debtor, cell, '3.00');
            const outside = alone.paymentId === undefined ? alone.unmet : await cancel({ paths }, debtor.tpp, cell, alone.paymentId);
            if (outside === undefined)
              return check.heldOnPath(
                ['SCA-25'],
                `the bank does not cancel a payment its open basket holds (${uncancelled}), and cancels one outside a basket: no basket outlives a cancelled payment of it (${cellName(cell)})`,
              );
            return check.notEvaluated(['SCA-25'], `not evaluated for ${cellName(cell)}: ${uncancelled}`);
          }
          await judgeClosed(
            { paths, sca, check },
            debtor,
            cell,
            'SCA-25',
            { href: basket.href, paymentId: basket.payable.paymentId },
            'a payment of its basket cancelled by the TPP',
          );
        });
      },
    ),
  );
}
