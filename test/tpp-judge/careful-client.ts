/**
 * The TPP latitude gauntlet: careful TPP clients, written from the specification, each taking one latitude
 * the text leaves the TPP, with the sentence that allows it. The dual of sloppy-client.ts: there each case
 * breaks one rule and must be caught on it; here each variant breaks none and must be caught on nothing
 * (but the SHOULD it names, where the catalogue reports a legal practice). The tests run them against the
 * judging sandbox, through the judging proxy, and audit the proxy's HAR (careful-gauntlet.test.ts).
 *
 * A careful client checks every answer for an scaRedirect and sends its PSU there before it asks again, and
 * sends each PSU the psu-id the bank gave it (Authentication 9 and 12).
 */
import { randomInt, randomUUID } from 'node:crypto';
import type { Clock, TppClient, TppRequest, TppResponse } from '../../lib/tpp/index.js';
import { PAYMENT_PRODUCTS, PAYMENT_SERVICES } from '../../lib/spec/payment-products.js';
import {
  CORPORATE_PSU,
  futureDate,
  goodBulkPayment,
  goodPayment,
  goodPeriodicPayment,
  PRIVATE_PSU,
  scaRedirect,
  SECOND_PRIVATE_PSU,
  type ClientOptions,
  type Redirect,
  type TestTpp,
} from './sloppy-client.js';

/** A legal TPP variant: what it does, and the sentence of the specification that allows it. */
export interface TppVariant {
  name: string;
  allowedBy: string;
  /** SHOULD rules the catalogue reports the practice under (a legal choice it advises against), each with why. */
  reported?: Readonly<Record<string, string>>;
  run(tpp: TestTpp): Promise<void>;
}

type Client = TppClient & { session: string };

/** A PSU as the careful TPP knows it: who logs in at the bank, in which context, and what the bank gave for it. */
interface Psu {
  nationalId: string;
  context: 'PRIVATE' | 'CORPORATE';
  redirect?: Redirect;
}

/** The headers that name a PSU the bank gave the TPP identifiers for (Authentication 12 and 13). */
function named(psu: Psu): Record<string, string> {
  if (psu.redirect === undefined) return {};
  const corporateId = psu.redirect.psuCorporateId;
  return corporateId === undefined
    ? { 'PSU-ID': psu.redirect.psuId }
    : { 'PSU-ID': psu.redirect.psuId, 'PSU-Corporate-ID': corporateId, 'PSU-Context': 'CORPORATE' };
}

function asksForSca(response: TppResponse): boolean {
  return response.status === 401 && response.bodyText.includes('scaRedirect');
}

/**
 * A call as a careful TPP makes it: with its PSU's identifiers; answered 401 with an scaRedirect, the PSU is
 * sent there and the call made again with what the redirect gave.
 */
async function call(
  t: TestTpp,
  client: Client,
  psu: Psu,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<TppResponse> {
  const send = () =>
    method === 'GET'
      ? client.get(path, { headers: { ...named(psu), ...headers } })
      : client.post(path, body, { headers: { ...named(psu), ...headers } });
  const first = await send();
  if (!asksForSca(first)) return first;
  psu.redirect = await t.authorise(scaRedirect(first), psu.nationalId, psu.context);
  return send();
}

/** The careful TPP's first call for a PSU: GET /v1/accounts, consent through SCA, and the accounts it may read. */
async function connect(t: TestTpp, client: Client, psu: Psu): Promise<string[]> {
  const accounts = JSON.parse((await call(t, client, psu, 'GET', '/v1/accounts')).bodyText) as { accounts?: { resourceId?: string }[] };
  return (accounts.accounts ?? []).flatMap((account) => (account.resourceId === undefined ? [] : [account.resourceId]));
}

const PAYMENT_HEADERS = { 'x-accept-fix': 'amount-as-string' };

/** A payment of its own: a careful TPP does not send the same payment twice (the bank may take it for a logical duplicate). */
function newPayment(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const amount = { amount: `${randomInt(1, 10_000)}.${String(randomInt(0, 100)).padStart(2, '0')}`, currency: 'EUR' };
  return goodPayment({ endToEndIdentification: randomUUID().replaceAll('-', ''), instructedAmount: amount, ...overrides });
}

/** A PSU's everyday session: consent, a read of balances and transactions, and a payment. */
async function everyday(
  t: TestTpp,
  options: ClientOptions = {},
  psu: Psu = { nationalId: PRIVATE_PSU, context: 'PRIVATE' },
): Promise<void> {
  const client = t.client(options);
  const [accountId] = await connect(t, client, psu);
  if (accountId !== undefined) {
    await call(t, client, psu, 'GET', `/v1/accounts/${accountId}/balances`);
    await call(t, client, psu, 'GET', `/v1/accounts/${accountId}/transactions?bookingStatus=booked`);
  }
  await call(t, client, psu, 'POST', '/v1/payments/sepa-credit-transfers', newPayment(), PAYMENT_HEADERS);
}

/** A Date clock a TPP moves with the sandbox clock it moves. */
function followingClock(): Clock & { at: Date | undefined; offsetMs: number } {
  return {
    at: undefined,
    offsetMs: 0,
    now() {
      return this.at === undefined ? new Date(Date.now() + this.offsetMs) : new Date(this.at.getTime());
    },
  };
}

/** UTF-8 text as a header value: its bytes, as the client's latin1 characters carry them on the wire. */
function utf8Header(text: string): string {
  return Buffer.from(text, 'utf8').toString('latin1');
}

/** Every optional header of the header table, with values of its types. */
const OPTIONAL_HEADERS: Readonly<Record<string, string>> = {
  'PSU-IP-Port': '52311',
  'PSU-User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) careful-tpp',
  'PSU-Accept': 'text/html',
  'PSU-Accept-Charset': 'utf-8',
  'PSU-Accept-Encoding': 'gzip',
  'PSU-Accept-Language': 'nb-NO',
  'PSU-HTTP-Method': 'GET',
  'PSU-Device-ID': '6f7d1b0e-4a4c-4d2b-9a55-0e8f0c1d2e3f',
  'PSU-Geo-Location': 'GEO:59.9139;10.7522',
  'TPP-Redirect-Preferred': 'true',
  'TPP-Brand-Logging-Information': utf8Header('Blåbær Betaling AS'),
  'Accept-Language': 'nb-NO',
  'Accept-Charset': 'utf-8',
  'x-accept-fix': 'amount-as-string,longer-names',
};

/** Unattended reads: the PSU's consent first, then reads without PSU-IP-Address. */
async function unattendedReads(t: TestTpp, client: Client, psu: Psu, accountId: string, times: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    for (const what of ['balances', 'transactions'])
      await client.get(`/v1/accounts/${accountId}/${what}`, { headers: named(psu), omitHeaders: ['PSU-IP-Address'] });
  }
}

/** The bodies of a payment of every service and product, each keeping every rule. */
function paymentOf(service: (typeof PAYMENT_SERVICES)[number], product: (typeof PAYMENT_PRODUCTS)[number]): unknown {
  const amount =
    product === 'norwegian-cross-border-credit-transfers'
      ? { amount: '100', currency: 'JPY' }
      : product === 'sepa-credit-transfers'
        ? { amount: '10.5', currency: 'EUR' }
        : { amount: '1.000', currency: 'BHD' };
  const endToEndIdentification = randomUUID().replaceAll('-', '');
  if (service === 'bulk-payments') return goodBulkPayment({ instructedAmount: amount, endToEndIdentification });
  if (service === 'periodic-payments')
    return goodPeriodicPayment({
      instructedAmount: amount,
      endToEndIdentification,
      frequency: 'MonthlyVariable',
      monthsOfExecution: ['1', '6', '12'],
      endDate: futureDate(400),
    });
  return newPayment({ instructedAmount: amount, requestedExecutionDate: futureDate(3) });
}

export const CAREFUL_VARIANTS: readonly TppVariant[] = [
  {
    name: 'one TPP-Session-ID for several PSUs, each sent its own psu-id, private and corporate',
    allowedBy:
      'Resources > Identifiers of the PSU: TPP-Session-ID "chosen by the TPP; ties a redirect to the originating request and governs the SCA session" (nothing binds one to one PSU)',
    reported: {
      'TPP-42': 'one TPP-Session-ID carrying the SCAs of two PSUs is the SHOULD the catalogue reads into "governs the SCA session"',
    },
    run: async (t) => {
      const session = randomUUID();
      const first: Psu = { nationalId: PRIVATE_PSU, context: 'PRIVATE' };
      const second: Psu = { nationalId: SECOND_PRIVATE_PSU, context: 'PRIVATE' };
      const corporate: Psu = { nationalId: CORPORATE_PSU, context: 'CORPORATE' };
      const [firstAccount] = await connect(t, t.client({ session }), first);
      await connect(t, t.client({ session }), second);
      await connect(t, t.client({ session, headers: { 'PSU-Context': 'CORPORATE' } }), corporate);
      // Back to the first PSU, in private context, in the session the corporate SCA came last in.
      const client = t.client({ session });
      await call(t, client, first, 'GET', '/v1/accounts');
      if (firstAccount !== undefined) await call(t, client, first, 'GET', `/v1/accounts/${firstAccount}/balances`);
      await call(t, client, second, 'GET', '/v1/accounts');
      await call(t, client, corporate, 'GET', '/v1/accounts');
    },
  },
  {
    name: 'consent asked through POST /v1/bank-offered-consents',
    allowedBy:
      'Endpoints > Other endpoints named: POST /v1/consents "ignores its body and returns an SCA redirect; replaced by /v1/bank-offered-consents"',
    run: async (t) => {
      const client = t.client();
      const redirect = await t.authorise(scaRedirect(await client.post('/v1/bank-offered-consents', {})), SECOND_PRIVATE_PSU);
      await call(t, client, { nationalId: SECOND_PRIVATE_PSU, context: 'PRIVATE', redirect }, 'GET', '/v1/accounts');
    },
  },
  {
    name: 'a new TPP-Session-ID on every request',
    allowedBy: 'Resources > Identifiers of the PSU: TPP-Session-ID "chosen by the TPP"',
    run: async (t) => {
      const psu: Psu = { nationalId: SECOND_PRIVATE_PSU, context: 'PRIVATE' };
      const [accountId] = await connect(t, t.client(), psu);
      if (accountId !== undefined) await call(t, t.client(), psu, 'GET', `/v1/accounts/${accountId}/balances`);
      await call(t, t.client(), psu, 'GET', '/v1/accounts');
      await call(t, t.client(), psu, 'POST', '/v1/payments/sepa-credit-transfers', newPayment(), PAYMENT_HEADERS);
    },
  },
  {
    name: 'unattended reads counted per calendar day (UTC): 4 before midnight, 4 after',
    allowedBy:
      'Limits: calls without PSU-IP-Address "at most 4 per 24 hours", for balances and for transactions, per account (a calendar day is 24 hours)',
    run: async (t) => {
      const clock = followingClock();
      const psu: Psu = { nationalId: PRIVATE_PSU, context: 'PRIVATE' };
      const client = t.client({ clock });
      const [accountId] = await connect(t, client, psu);
      if (accountId === undefined) throw new Error('the PSU has no account to read');
      const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
      for (const at of [
        `${tomorrow}T23:50:00Z`,
        `${new Date(Date.parse(`${tomorrow}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)}T00:10:00Z`,
      ]) {
        await client.put('/v1/sandbox/clock', { frozenAt: at });
        clock.at = new Date(at);
        await unattendedReads(t, client, psu, accountId, 4);
      }
      await client.delete('/v1/sandbox/clock');
      clock.at = undefined;
    },
  },
  {
    name: 'no Digest on a request without a body',
    allowedBy:
      'Header table: Digest is "base64 of the SHA-256 or SHA-512 hash of the body" (required on payment initiation, which has one); Authentication 6: "A header absent from the request is left out"',
    run: async (t) => {
      const client = t.client({
        shape: (request: TppRequest) =>
          request.json === undefined && request.rawBody === undefined
            ? { ...request, omitHeaders: [...(request.omitHeaders ?? []), 'Digest'] }
            : request,
      });
      await client.get('/v1/sandbox/customers');
      await client.get('/v1/accounts');
      await client.post('/v1/payments/sepa-credit-transfers', newPayment(), {
        headers: { ...PAYMENT_HEADERS, 'X-PSU-IDENTITY': PRIVATE_PSU },
      });
    },
  },
  {
    name: 'the signature over (request-target) and the headers Authentication 6 asks for',
    allowedBy:
      'Authentication 5: headers are "names of the signed headers, lower case, space-separated, in signing order; (request-target) denotes the target URL"',
    run: (t) =>
      everyday(t, {
        shape: (request: TppRequest) => ({ ...request, signingDefects: [{ kind: 'extra-signed-headers', names: ['(request-target)'] }] }),
      }),
  },
  {
    name: 'SHA-512 digests',
    allowedBy: 'Header table: Digest is "base64 of the SHA-256 or SHA-512 hash of the body (RFC 3230, RFC 5843)"',
    run: (t) => everyday(t, { digestAlgorithm: 'SHA-512' }),
  },
  {
    name: 'PSU-IP-Address in IPv6',
    allowedBy: 'Header table: PSU-IP-Address is the "IP address of the PSU towards the TPP"',
    run: (t) => everyday(t, { headers: { 'PSU-IP-Address': '2001:db8:85a3::8a2e:370:7334' } }),
  },
  {
    name: 'every optional header sent, TPP-Brand-Logging-Information in UTF-8',
    allowedBy:
      'Header table: the rows marked "no" (PSU-IP-Port, PSU-User-Agent, PSU-Accept…, PSU-HTTP-Method, PSU-Device-ID, PSU-Geo-Location, TPP-Redirect-Preferred, TPP-Brand-Logging-Information, Accept…); Data format: "Requests and responses use UTF-8"',
    run: (t) => everyday(t, { headers: { ...OPTIONAL_HEADERS, 'PSU-Context': 'PRIVATE' } }),
  },
  {
    name: 'no optional header sent',
    allowedBy: 'Header table: the rows marked "no" are optional',
    run: (t) => everyday(t, { shape: (request: TppRequest) => ({ ...request, omitHeaders: [...(request.omitHeaders ?? []), 'Accept'] }) }),
  },
  {
    name: 'X-PSU-IDENTITY instead of PSU-ID on a payment',
    allowedBy: 'Header table: X-PSU-IDENTITY is the "alternative to PSU-ID: Norwegian national identity number or D-number"',
    run: async (t) =>
      void (await t
        .client()
        .post('/v1/payments/sepa-credit-transfers', newPayment(), { headers: { ...PAYMENT_HEADERS, 'X-PSU-IDENTITY': PRIVATE_PSU } })),
  },
  {
    name: 'a corporate id chosen from GET /v1/agreements',
    allowedBy:
      'Authentication 13: the corporate id "comes from the SCA redirect …, or is chosen from GET /v1/agreements when a PSU-ID exists"',
    run: async (t) => {
      const psu: Psu = { nationalId: CORPORATE_PSU, context: 'CORPORATE' };
      await connect(t, t.client({ headers: { 'PSU-Context': 'CORPORATE' } }), psu);
      const client = t.client();
      const agreements = JSON.parse(
        (await client.get('/v1/agreements', { headers: { 'PSU-ID': psu.redirect?.psuId ?? '' } })).bodyText,
      ) as { agreements?: { psuCorporateId?: string }[] };
      const chosen =
        agreements.agreements
          ?.map((agreement) => agreement.psuCorporateId)
          .find((id) => id !== undefined && id !== psu.redirect?.psuCorporateId) ?? psu.redirect?.psuCorporateId;
      if (chosen === undefined || psu.redirect === undefined) throw new Error('the corporate PSU has no agreement');
      await call(t, client, { ...psu, redirect: { ...psu.redirect, psuCorporateId: chosen } }, 'GET', '/v1/accounts');
    },
  },
  {
    name: "payments of every service and product, amounts in each currency's minor units or fewer",
    allowedBy:
      'Endpoints and Errors rules 7 and 8: the products the specification names (sepa-credit-transfers, domestic-norway-credit-transfers, NCBCT) and periodic and bulk payments; instructedAmount.amount: "the fraction digits must match the ISO 4217 minor units of the currency"',
    run: async (t) => {
      const client = t.client();
      for (const service of PAYMENT_SERVICES) {
        for (const product of PAYMENT_PRODUCTS)
          await client.post(`/v1/${service}/${product}`, paymentOf(service, product), {
            headers: { ...PAYMENT_HEADERS, 'X-PSU-IDENTITY': PRIVATE_PSU },
          });
      }
    },
  },
  {
    name: 'a Date on the sandbox clock it moved, and the sandbox reset meanwhile',
    allowedBy:
      'Authentication 4: "the Date header must be correct; the maximum clock deviation is 60 seconds"; What the service does: "an initialisation operation resets the sandbox to a known state"',
    run: async (t) => {
      const clock = followingClock();
      const client = t.client({ clock });
      await client.put('/v1/sandbox/clock', { offsetSeconds: 7200 });
      clock.offsetMs = 7_200_000;
      await client.get('/v1/sandbox/customers');
      await connect(t, client, { nationalId: SECOND_PRIVATE_PSU, context: 'PRIVATE' });
      // The reset puts the clock back on the real time: the request came in on the moved one.
      await client.post('/v1/sandbox/initialize', {});
      clock.offsetMs = 0;
      await client.get('/v1/sandbox/customers');
    },
  },
];
