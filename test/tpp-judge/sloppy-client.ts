/**
 * A deliberately sloppy TPP for the project's tests: a correct client (lib/tpp) and a PSU who clicks through
 * the reference bank's SCA pages over plain HTTP, then cases that each break one TPP rule and no other: one
 * per rule the judge can judge at least, and more where a rule binds several kinds of request (every payment
 * service and product, both ways of getting a corporate context wrong). The tests run it against the judging
 * sandbox, through the judging proxy, and audit the HAR the proxy wrote: in every mode each case must be
 * caught on exactly its rule. Its careful counterpart is careful-client.ts.
 *
 * Cases run one after the other against one bank, each in a TPP-Session-ID of its own; a case that needs
 * the PSU's consent first gets it cleanly, so that only its own request is sloppy.
 */
import { randomUUID } from 'node:crypto';
import { Agent } from 'undici';
import { buildSigningString, computeDigest, formatHttpDate, formatSignatureHeader } from '../../lib/httpsig/index.js';
import { generateCertificateAuthority, generateTppCertificate, type KeyAndCertificate } from '../../lib/pki/index.js';
import {
  loadTppIdentity,
  TppClient,
  type Clock,
  type RequestOptions,
  type TppIdentity,
  type TppRequest,
  type TppResponse,
} from '../../lib/tpp/index.js';

export const REDIRECT_URI = 'https://tpp.example/callback';
/** The header that names the case a request belongs to (a header no rule looks at). */
export const CASE_HEADER = 'x-test-case';

export const PRIVATE_PSU = '13039319955';
export const SECOND_PRIVATE_PSU = '12085592767';
export const CORPORATE_PSU = '18129215603';

/** The certificates of the TPPs under test: the sloppy one's good one, one for each certificate rule, and the careful one's. */
export interface TppPki {
  /** The CA the judge (and the bank) trust: its PEM goes to --trust-ca. */
  trustedCa: KeyAndCertificate;
  good: TppIdentity;
  untrusted: TppIdentity;
  expired: TppIdentity;
  paymentsOnly: TppIdentity;
  careful: TppIdentity;
}

let made: TppPki | undefined;

/** The certificates, made once per process: their RSA keys are most of a test's set-up. */
export function tppPki(): TppPki {
  made ??= makeTppPki();
  return made;
}

function makeTppPki(): TppPki {
  const trustedCa = generateCertificateAuthority({ commonName: 'Sloppy test CA', organizationName: 'xs2a-conformance', countryName: 'NO' });
  const otherCa = generateCertificateAuthority({ commonName: 'A CA nobody trusts', organizationName: 'Elsewhere', countryName: 'NO' });
  const issue = (
    ca: KeyAndCertificate,
    roles: ('PSP_AI' | 'PSP_PI')[],
    validity: { notBefore?: Date; validDays?: number } = {},
    name = 'Sloppy',
  ) =>
    loadTppIdentity(
      generateTppCertificate(ca, {
        organizationName: `${name} TPP AS`,
        organizationIdentifier: `PSDNO-FSA-${name.toUpperCase()}`,
        roles,
        ...validity,
      }),
    );
  return {
    trustedCa,
    good: issue(trustedCa, ['PSP_AI', 'PSP_PI']),
    untrusted: issue(otherCa, ['PSP_AI', 'PSP_PI']),
    expired: issue(trustedCa, ['PSP_AI', 'PSP_PI'], { notBefore: new Date(Date.now() - 40 * 86_400_000), validDays: 10 }),
    paymentsOnly: issue(trustedCa, ['PSP_PI']),
    careful: issue(trustedCa, ['PSP_AI', 'PSP_PI'], {}, 'Careful'),
  };
}

/** Where the TPP under test talks to, and what it trusts there. */
export interface TppTarget {
  baseUrl: string;
  caPem: string;
}

/** A payment body that keeps every rule of the field table and the structured address. */
export function goodPayment(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    endToEndIdentification: 'sloppy-1',
    instructedAmount: { amount: '10.00', currency: 'EUR' },
    creditorName: 'Kari Nordmann',
    creditorAccount: { iban: 'NO9386011117947', currency: 'NOK' },
    creditorAgent: 'DNBANOKKXXX',
    creditorAddress: { street: 'Storgata', buildingNumber: '1', postalCode: '0155', townName: 'Oslo', country: 'NO' },
    debtorAccount: { iban: 'NO9386011117947', currency: 'NOK' },
    remittanceInformationUnstructured: 'sloppy test',
    ...overrides,
  };
}

/** What a redirect after SCA carried. */
export interface Redirect {
  psuId: string;
  psuCorporateId?: string;
}

/** One case: the rule it breaks, what it breaks it with (where a rule has more cases than one), and what it does. */
export interface SloppyCase {
  rule: string;
  with?: string;
  run(tpp: TestTpp): Promise<void>;
}

/** How a case is named in CASE_HEADER and in the tests' findings: its rule, and what it breaks the rule with. */
export function caseName(sloppy: SloppyCase): string {
  return sloppy.with === undefined ? sloppy.rule : `${sloppy.rule} (${sloppy.with})`;
}

/** How a client of the TPP under test is made: its session, certificate, clock, digest, headers, and how it shapes each request. */
export interface ClientOptions {
  session?: string;
  identity?: TppIdentity;
  headers?: Record<string, string>;
  clockSkewSeconds?: number;
  /** The clock its Date is read from (a TPP following a sandbox clock it moved). */
  clock?: Clock;
  digestAlgorithm?: 'SHA-256' | 'SHA-512';
  /** Applied to every request before it is signed (headers left out, more of them signed). */
  shape?: (request: TppRequest) => TppRequest;
}

/** The TPP the tests judge (sloppy here, careful in careful-client.ts): clients in sessions of their own, and its PSU. */
export class TestTpp {
  private readonly agent: Agent;
  private readonly clients: TppClient[] = [];
  /** Case being run, sent as CASE_HEADER on every request. */
  case = 'warm-up';

  constructor(
    readonly target: TppTarget,
    readonly pki: TppPki,
    /** Each answer the PSU's browser got (the sandbox names broken rules in a header of them too). */
    private readonly onBrowserAnswer: (headers: Record<string, string | string[] | undefined>) => void = () => undefined,
    /** Each answer the TPP got. */
    private readonly onAnswer: (response: TppResponse) => void = () => undefined,
  ) {
    this.agent = new Agent({ connect: { ca: target.caPem } });
  }

  /** A client in a session of its own (`session`), signing with the good certificate unless told otherwise. */
  client(options: ClientOptions = {}): TppClient & { session: string } {
    const session = options.session ?? randomUUID();
    const client = new TppClient({
      baseUrl: this.target.baseUrl,
      dispatcher: this.agent,
      identity: options.identity ?? this.pki.good,
      safety: { environment: 'sandbox' },
      clockSkewSeconds: options.clockSkewSeconds ?? 0,
      ...(options.clock === undefined ? {} : { clock: options.clock }),
      ...(options.digestAlgorithm === undefined ? {} : { digestAlgorithm: options.digestAlgorithm }),
      defaultHeaders: { 'TPP-Redirect-URI': REDIRECT_URI, 'TPP-Session-ID': session, 'PSU-IP-Address': '192.0.2.10', ...options.headers },
    });
    this.clients.push(client);
    const request = client.request.bind(client);
    const shape = options.shape ?? ((req: TppRequest) => req);
    // Every request names its case, and its answer is seen.
    client.request = async (req) => {
      const response = await request(shape({ ...req, headers: { [CASE_HEADER]: this.case, ...req.headers } }));
      this.onAnswer(response);
      return response;
    };
    return Object.assign(client, { session });
  }

  /** The PSU opens the scaRedirect link, logs in, picks the context and consents to every account (or approves the payment). */
  async authorise(href: string, nationalId = PRIVATE_PSU, context: 'PRIVATE' | 'CORPORATE' = 'PRIVATE'): Promise<Redirect> {
    let url = href;
    let page = await this.browse('GET', url);
    for (let step = 0; step < 10; step++) {
      if (page.location !== undefined) {
        const next = new URL(page.location, url);
        if (next.href.startsWith(REDIRECT_URI)) {
          const psuId = next.searchParams.get('psu-id');
          if (psuId === null) throw new Error(`the SCA failed: ${next.href}`);
          const psuCorporateId = next.searchParams.get('psu-corporate-id');
          return { psuId, ...(psuCorporateId === null ? {} : { psuCorporateId }) };
        }
        url = next.href;
        page = await this.browse('GET', url);
        continue;
      }
      const form = new URLSearchParams();
      if (page.html.includes('name="nationalId"')) form.set('nationalId', nationalId);
      else if (page.html.includes('name="context"')) {
        const values = [...page.html.matchAll(/name="context" value="([^"]+)"/g)].map((m) => m[1] ?? '');
        form.set('context', values.find((value) => value.startsWith(context)) ?? 'PRIVATE');
      } else if (page.html.includes('name="account"')) {
        for (const match of page.html.matchAll(/name="account" value="([^"]+)"/g)) form.append('account', match[1] ?? '');
        form.set('action', 'confirm');
      } else form.set('decision', 'approve');
      page = await this.browse('POST', url, form);
    }
    throw new Error(`the SCA did not end at ${REDIRECT_URI}`);
  }

  /** The PSU opens a link and goes no further. */
  async openOnly(href: string): Promise<void> {
    await this.browse('GET', href);
  }

  private async browse(method: 'GET' | 'POST', url: string, form?: URLSearchParams): Promise<{ html: string; location?: string }> {
    const target = new URL(url);
    const answer = await this.agent.request({
      origin: target.origin,
      path: `${target.pathname}${target.search}`,
      method,
      headers: form === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' },
      body: form?.toString() ?? null,
    });
    const html = await answer.body.text();
    this.onBrowserAnswer(answer.headers);
    const location = answer.headers.location;
    if (answer.statusCode >= 400) throw new Error(`the SCA page ${url} answered ${answer.statusCode}: ${html.slice(0, 200)}`);
    return { html, ...(typeof location === 'string' ? { location } : {}) };
  }

  /** A session whose PSU has consented: the client, and the psu-id it persisted. */
  async consented(
    nationalId = PRIVATE_PSU,
    context: 'PRIVATE' | 'CORPORATE' = 'PRIVATE',
    options: ClientOptions = {},
  ): Promise<{
    client: TppClient & { session: string };
    redirect: Redirect;
    accountId: string;
    account: { iban?: string; currency?: string };
  }> {
    const client = this.client({
      ...options,
      headers: { ...(context === 'CORPORATE' ? { 'PSU-Context': 'CORPORATE' } : {}), ...options.headers },
    });
    const redirect = await this.authorise(scaRedirect(await client.get('/v1/accounts')), nationalId, context);
    const headers = {
      'PSU-ID': redirect.psuId,
      ...(redirect.psuCorporateId === undefined ? {} : { 'PSU-Corporate-ID': redirect.psuCorporateId }),
    };
    const accounts = jsonOf(await client.get('/v1/accounts', { headers })) as {
      accounts?: { resourceId?: string; iban?: string; currency?: string }[];
    };
    const account = accounts.accounts?.find((a) => a.iban !== undefined);
    if (account?.resourceId === undefined) throw new Error('the consented PSU has no account with an IBAN');
    return { client, redirect, accountId: account.resourceId, account };
  }

  async close(): Promise<void> {
    await Promise.all(this.clients.map((client) => client.close()));
    await this.agent.close();
  }
}

function jsonOf(response: TppResponse): unknown {
  try {
    return JSON.parse(response.bodyText) as unknown;
  } catch {
    return undefined;
  }
}

export function scaRedirect(response: TppResponse): string {
  const href = (jsonOf(response) as { _links?: { scaRedirect?: { href?: string } } } | undefined)?._links?.scaRedirect?.href;
  if (href === undefined) throw new Error(`no scaRedirect in HTTP ${response.status} ${response.bodyText.slice(0, 200)}`);
  return href;
}

/**
 * A correctly signed request whose Signature header is rewritten by `edit` afterwards (the parts of
 * Authentication 5 in another order or form): the signing itself stays right.
 */
function signedThenEdited(
  identity: TppIdentity,
  path: string,
  edit: (parts: { keyId: string; algorithm: string; headers: string[]; signature: string }) => string,
): RequestOptions {
  const headers: Record<string, string> = {
    'X-Request-ID': randomUUID(),
    Date: formatHttpDate(new Date()),
    Digest: computeDigest(new Uint8Array(0)),
    'TPP-Redirect-URI': REDIRECT_URI,
  };
  const names = ['date', 'digest', 'x-request-id', 'tpp-redirect-uri'];
  const lower = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  const signature = identity.sign(buildSigningString(names, (name) => lower[name], { method: 'GET', path }));
  return { headers: { ...headers, Signature: edit({ keyId: identity.keyId, algorithm: 'rsa-sha256', headers: names, signature }) } };
}

const part = (name: string, value: string) => `${name}="${value}"`;

/** The payment initiation path of the product whose field table the specification gives. */
const PAYMENTS = '/v1/payments/sepa-credit-transfers';
const PAYMENT_HEADERS = { 'x-accept-fix': 'amount-as-string' };

/** A periodic payment that keeps every rule but the one a case breaks. */
export function goodPeriodicPayment(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return goodPayment({ startDate: futureDate(30), frequency: 'Monthly', ...overrides });
}

/** A bulk payment of two good payments, `entry` changing the first. */
export function goodBulkPayment(entry: Record<string, unknown> = {}): Record<string, unknown> {
  const { debtorAccount, ...payment } = goodPayment();
  return {
    batchBookingPreferred: true,
    debtorAccount,
    payments: [
      { ...payment, ...entry },
      { ...payment, endToEndIdentification: 'sloppy-2' },
    ],
  };
}

/** An ISO 8601 date this many days from now. */
export function futureDate(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** A payment of a service and product, signed and with the headers its table requires. */
function pay(t: TestTpp, path: string, body: unknown): Promise<unknown> {
  return t.client().post(path, body, { headers: PAYMENT_HEADERS });
}

/** The cases, at least one per judged TPP rule, in catalogue order. */
export const SLOPPY_CASES: readonly SloppyCase[] = [
  { rule: 'TPP-01', run: async (t) => void (await t.client().get('/v1/accounts', { signingDefects: [{ kind: 'no-signature' }] })) },
  { rule: 'TPP-02', run: async (t) => void (await t.client().get('/v1/accounts', { signingDefects: [{ kind: 'no-certificate' }] })) },
  // A request with a body: one without is not judged (the text reads both ways for a GET).
  {
    rule: 'TPP-03',
    run: async (t) =>
      void (await t.client().post(PAYMENTS, goodPayment(), { headers: PAYMENT_HEADERS, signingDefects: [{ kind: 'no-digest' }] })),
  },
  {
    rule: 'TPP-04',
    run: async (t) =>
      void (await t.client().post(PAYMENTS, goodPayment(), { headers: PAYMENT_HEADERS, signingDefects: [{ kind: 'wrong-digest' }] })),
  },
  { rule: 'TPP-05', run: async (t) => void (await t.client().get('/v1/accounts', { signingDefects: [{ kind: 'no-date' }] })) },
  { rule: 'TPP-06', run: async (t) => void (await t.client().get('/v1/accounts', { headers: { Date: new Date().toISOString() } })) },
  { rule: 'TPP-07', run: async (t) => void (await t.client({ clockSkewSeconds: -150 }).get('/v1/accounts')) },
  {
    rule: 'TPP-08',
    run: async (t) =>
      void (await t.client().get('/v1/accounts', { signingDefects: [{ kind: 'signature-without-part', part: 'algorithm' }] })),
  },
  {
    rule: 'TPP-09',
    run: async (t) => {
      const options = signedThenEdited(t.pki.good, '/v1/accounts', (p) =>
        [part('algorithm', p.algorithm), part('keyId', p.keyId), part('headers', p.headers.join(' ')), part('signature', p.signature)].join(
          ',',
        ),
      );
      await t.client().get('/v1/accounts', options);
    },
  },
  { rule: 'TPP-10', run: async (t) => void (await t.client().get('/v1/accounts', { signingDefects: [{ kind: 'wrong-serial' }] })) },
  {
    rule: 'TPP-11',
    run: async (t) => {
      // The right certificate, its serial written in lower case as some tooling does.
      const keyId = t.pki.good.keyId.replace(/^SN=([0-9A-F]+)/, (_all, serial: string) => `SN=${serial.toLowerCase()}`);
      await t.client().get('/v1/accounts', { signingDefects: [{ kind: 'key-id', value: keyId }] });
    },
  },
  {
    rule: 'TPP-12',
    run: async (t) => {
      const options = signedThenEdited(t.pki.good, '/v1/accounts', (p) => formatSignatureHeader({ ...p, algorithm: 'hs2019' }));
      await t.client().get('/v1/accounts', options);
    },
  },
  {
    rule: 'TPP-13',
    run: async (t) => {
      const options = signedThenEdited(t.pki.good, '/v1/accounts', (p) =>
        formatSignatureHeader({ ...p, headers: ['Date', 'Digest', 'X-Request-ID', 'TPP-Redirect-URI'] }),
      );
      await t.client().get('/v1/accounts', options);
    },
  },
  {
    rule: 'TPP-14',
    run: async (t) =>
      void (await t.client().get('/v1/accounts', { signingDefects: [{ kind: 'unsigned-header', header: 'tpp-redirect-uri' }] })),
  },
  { rule: 'TPP-15', run: async (t) => void (await t.client().get('/v1/accounts', { signingDefects: [{ kind: 'altered-signature' }] })) },
  {
    rule: 'TPP-16',
    run: async (t) => {
      // An extra parameter (draft-cavage lets a verifier ignore it) with a raw latin-1 letter.
      const options = signedThenEdited(t.pki.good, '/v1/accounts', (p) => `${formatSignatureHeader(p)},note="Bl\u00e5b\u00e6r"`);
      await t.client().get('/v1/accounts', options);
    },
  },
  { rule: 'TPP-18', run: async (t) => void (await t.client({ identity: t.pki.untrusted }).get('/v1/accounts')) },
  { rule: 'TPP-19', run: async (t) => void (await t.client({ identity: t.pki.expired }).get('/v1/accounts')) },
  { rule: 'TPP-20', run: async (t) => void (await t.client({ identity: t.pki.paymentsOnly }).get('/v1/accounts')) },
  { rule: 'TPP-22', run: async (t) => void (await t.client().get('/v1/accounts', { omitHeaders: ['X-Request-ID'] })) },
  {
    rule: 'TPP-23',
    run: async (t) => {
      // A retry that sends the X-Request-ID of the call it repeats.
      const client = t.client();
      const requestId = randomUUID();
      await client.get('/v1/sandbox/customers', { headers: { 'X-Request-ID': requestId } });
      await client.get('/v1/sandbox/customers', { headers: { 'X-Request-ID': requestId } });
    },
  },
  { rule: 'TPP-24', run: async (t) => void (await t.client().get('/v1/accounts', { omitHeaders: ['TPP-Redirect-URI'] })) },
  { rule: 'TPP-25', run: async (t) => void (await t.client({ headers: { 'TPP-Redirect-URI': 'callback' } }).get('/v1/accounts')) },
  {
    rule: 'TPP-26',
    run: async (t) => void (await t.client().post(PAYMENTS, goodPayment(), { headers: PAYMENT_HEADERS, omitHeaders: ['TPP-Session-ID'] })),
  },
  { rule: 'TPP-27', run: async (t) => void (await t.client().post(PAYMENTS, goodPayment())) },
  {
    rule: 'TPP-28',
    run: async (t) => void (await t.client().post(PAYMENTS, goodPayment(), { headers: { 'x-accept-fix': 'amount-as-strng' } })),
  },
  {
    rule: 'TPP-29',
    run: async (t) => void (await t.client().post(PAYMENTS, goodPayment(), { headers: PAYMENT_HEADERS, omitHeaders: ['PSU-IP-Address'] })),
  },
  { rule: 'TPP-30', run: async (t) => void (await t.client({ headers: { 'PSU-IP-Address': 'unknown' } }).get('/v1/accounts')) },
  { rule: 'TPP-32', run: async (t) => void (await t.client().get('/v1/accounts', { headers: { 'PSU-ID': PRIVATE_PSU } })) },
  {
    rule: 'TPP-33',
    run: async (t) => void (await t.client().get('/v1/accounts', { headers: { 'X-PSU-IDENTITY': PRIVATE_PSU.slice(1) } })),
  },
  { rule: 'TPP-34', run: async (t) => void (await t.client().get('/v1/accounts', { headers: { 'PSU-Context': 'private' } })) },
  { rule: 'TPP-36', run: async (t) => void (await t.client().get('/v1/accounts', { headers: { 'PSU-HTTP-Method': 'FETCH' } })) },
  { rule: 'TPP-37', run: async (t) => void (await t.client().get('/v1/accounts', { headers: { 'PSU-Device-ID': 'device-1' } })) },
  { rule: 'TPP-38', run: async (t) => void (await t.client().get('/v1/accounts', { headers: { 'TPP-Redirect-Preferred': 'no' } })) },
  {
    rule: 'TPP-39',
    with: 'the psu-id dropped',
    run: async (t) => {
      // After the SCA redirect the psu-id is dropped: the PSU goes through SCA again in the same session.
      const { client } = await t.consented();
      await t.authorise(scaRedirect(await client.get('/v1/accounts')));
    },
  },
  {
    rule: 'TPP-39',
    with: 'a PSU-ID no redirect gave',
    run: async (t) => void (await t.client().get('/v1/accounts', { headers: { 'PSU-ID': randomUUID() } })),
  },
  // Both in a session of their own: corporate context is the request's, whichever session the redirect came in.
  {
    rule: 'TPP-40',
    with: 'corporate context without PSU-CORPORATE-ID',
    run: async (t) => {
      const { redirect } = await t.consented(CORPORATE_PSU, 'CORPORATE');
      await t.client({ headers: { 'PSU-Context': 'CORPORATE' } }).get('/v1/accounts', { headers: { 'PSU-ID': redirect.psuId } });
    },
  },
  {
    rule: 'TPP-40',
    with: 'a PSU-CORPORATE-ID never obtained',
    run: async (t) => {
      const { redirect } = await t.consented(CORPORATE_PSU, 'CORPORATE');
      await t
        .client({ headers: { 'PSU-Context': 'CORPORATE' } })
        .get('/v1/accounts', { headers: { 'PSU-ID': redirect.psuId, 'PSU-Corporate-ID': randomUUID() } });
    },
  },
  {
    rule: 'TPP-41',
    run: async (t) => {
      // Asked for SCA, the TPP asks again instead of sending the PSU to the link.
      const client = t.client();
      await client.get('/v1/accounts');
      await client.get('/v1/accounts');
    },
  },
  {
    rule: 'TPP-42',
    run: async (t) => {
      // One TPP-Session-ID for the SCAs of two PSUs.
      const client = t.client();
      const first = scaRedirect(await client.get('/v1/accounts'));
      await t.openOnly(first);
      const second = scaRedirect(await client.get('/v1/card-accounts'));
      await t.authorise(first, PRIVATE_PSU);
      await t.authorise(second, SECOND_PRIVATE_PSU);
    },
  },
  ...(
    [
      ['TPP-43', 'balances'],
      ['TPP-44', 'transactions'],
    ] as const
  ).map(([rule, what]): SloppyCase => ({
    rule,
    run: async (t) => {
      const { client, redirect, accountId } = await t.consented(SECOND_PRIVATE_PSU);
      // Five reads without the PSU in a day: one past the quota.
      for (let i = 0; i < 5; i++)
        await client.get(`/v1/accounts/${accountId}/${what}`, { headers: { 'PSU-ID': redirect.psuId }, omitHeaders: ['PSU-IP-Address'] });
    },
  })),
  {
    rule: 'TPP-45',
    run: async (t) =>
      void (await t.client().request({
        method: 'POST',
        path: '/v1/sandbox/customers',
        rawBody: '{"customerNumber": "1203',
        headers: { 'Content-Type': 'application/json' },
      })),
  },
  { rule: 'TPP-46', run: async (t) => void (await pay(t, PAYMENTS, goodPayment({ creditorName: 'N'.repeat(71) }))) },
  {
    rule: 'TPP-46',
    with: 'a periodic NCBCT',
    run: async (t) =>
      void (await pay(
        t,
        '/v1/periodic-payments/norwegian-cross-border-credit-transfers',
        goodPeriodicPayment({ creditorName: 'N'.repeat(71) }),
      )),
  },
  {
    rule: 'TPP-46',
    with: 'a domestic transfer',
    run: async (t) =>
      void (await pay(
        t,
        '/v1/payments/domestic-norway-credit-transfers',
        goodPayment({ remittanceInformationUnstructured: 'r'.repeat(141) }),
      )),
  },
  {
    rule: 'TPP-47',
    run: async (t) => void (await pay(t, PAYMENTS, goodPayment({ instructedAmount: { amount: '10.123', currency: 'EUR' } }))),
  },
  {
    rule: 'TPP-47',
    with: 'a bulk payment',
    run: async (t) =>
      void (await pay(
        t,
        '/v1/bulk-payments/sepa-credit-transfers',
        goodBulkPayment({ instructedAmount: { amount: '10.123', currency: 'EUR' } }),
      )),
  },
  {
    rule: 'TPP-47',
    with: 'a payment to self',
    run: async (t) =>
      void (await pay(
        t,
        '/v1/payments/norwegian-domestic-payment-to-self',
        goodPayment({ instructedAmount: { amount: '100.005', currency: 'NOK' } }),
      )),
  },
  { rule: 'TPP-48', run: async (t) => void (await pay(t, PAYMENTS, goodPayment({ creditorAgent: undefined }))) },
  {
    rule: 'TPP-48',
    with: 'an NCBCT',
    run: async (t) =>
      void (await pay(
        t,
        '/v1/payments/norwegian-cross-border-credit-transfers',
        goodPayment({ creditorAddress: { street: 'Storgata', country: 'NO' } }),
      )),
  },
  {
    rule: 'TPP-48',
    with: 'a bulk payment',
    run: async (t) =>
      void (await pay(t, '/v1/bulk-payments/domestic-norway-credit-transfers', goodBulkPayment({ creditorAgent: undefined }))),
  },
  { rule: 'TPP-49', run: async (t) => void (await t.client().post('/v1/consents', {})) },
  {
    rule: 'TPP-50',
    run: async (t) => void (await pay(t, PAYMENTS, goodPayment({ creditorAddress: { townName: 'Oslo', city: 'Oslo', country: 'NO' } }))),
  },
  {
    rule: 'TPP-50',
    with: 'a periodic payment',
    run: async (t) =>
      void (await pay(
        t,
        '/v1/periodic-payments/sepa-credit-transfers',
        goodPeriodicPayment({ creditorAddress: { townName: 'Oslo', city: 'Oslo', country: 'NO' } }),
      )),
  },
  // Latin-1 bytes where UTF-8 is asked for: a header no other rule reads.
  {
    rule: 'TPP-52',
    run: async (t) => void (await t.client().get('/v1/accounts', { headers: { 'TPP-Brand-Logging-Information': 'Bl\u00e5b\u00e6r AS' } })),
  },
  {
    rule: 'TPP-53',
    run: async (t) => void (await pay(t, '/v1/periodic-payments/sepa-credit-transfers', goodPeriodicPayment({ frequency: undefined }))),
  },
  {
    rule: 'TPP-53',
    with: 'a bulk payment',
    run: async (t) =>
      void (await pay(t, '/v1/bulk-payments/sepa-credit-transfers', goodBulkPayment({ debtorAccount: goodPayment().debtorAccount }))),
  },
  {
    rule: 'TPP-54',
    run: async (t) =>
      void (await pay(
        t,
        '/v1/periodic-payments/domestic-norway-credit-transfers',
        goodPeriodicPayment({ frequency: 'MonthlyVariable', monthsOfExecution: ['1', '6', '1'] }),
      )),
  },
];

/**
 * The warm-up: what a careful TPP does (consent, reads with the psu-id, a payment the PSU approves), which
 * must break nothing. Then every case, `onCase` told before each.
 */
export async function runSloppyTpp(tpp: TestTpp, onCase: (rule: string) => void): Promise<void> {
  tpp.case = 'warm-up';
  onCase('warm-up');
  const { client, redirect, accountId, account } = await tpp.consented();
  const headers = { 'PSU-ID': redirect.psuId };
  await client.get(`/v1/accounts/${accountId}/balances`, { headers });
  const payment = await client.post(PAYMENTS, goodPayment({ debtorAccount: { iban: account.iban, currency: account.currency } }), {
    headers: { ...PAYMENT_HEADERS, ...headers, 'PSU-Context': 'PRIVATE' },
  });
  if (payment.status === 201) {
    const href = (jsonOf(payment) as { _links?: { scaRedirect?: { href?: string } } })._links?.scaRedirect?.href;
    if (href !== undefined) await tpp.authorise(href);
  }
  for (const sloppy of SLOPPY_CASES) {
    tpp.case = caseName(sloppy);
    onCase(tpp.case);
    await sloppy.run(tpp);
  }
  tpp.case = 'done';
  onCase('done');
}
