// Test helpers for the reference bank: start it, talk to it over HTTPS trusting
// only its CA, sign requests as a TPP, and drive the SCA pages with plain HTTP.
import { randomUUID } from 'node:crypto';
import { Agent, request as undiciRequest } from 'undici';
import { formatHttpDate } from '../../lib/httpsig/index.js';
import { generateCertificateAuthority, generateTppCertificate } from '../../lib/pki/index.js';
import { loadTppIdentity, TppClient, type TppIdentity } from '../../lib/tpp/index.js';
import { startReferenceBank, type ReferenceBankOptions, type SwitchSetting, type ReferenceBank } from '../../reference/server.js';

export interface Response {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json(): unknown;
}

export interface RequestOptions {
  method?: string;
  path: string;
  /** Extra or replacing headers; an empty value leaves the header out. */
  headers?: Record<string, string>;
  /** Serialised as JSON with content-type application/json. */
  json?: unknown;
  /** Raw body bytes, sent as they are. */
  body?: string;
  /** Leave out Signature (and keep the rest). */
  unsigned?: boolean;
  /** Date header value to send; default now. */
  date?: Date;
}

const tppCa = generateCertificateAuthority({ commonName: 'Test eIDAS CA', organizationName: 'Test QTSP', countryName: 'NO' });
/** One server CA for all banks a test process starts: key generation is the slow part of a start. */
const bankCa = generateCertificateAuthority({ commonName: 'Test Reference ASPSP CA', organizationName: 'xs2a-conformance tests' });

/** A reference bank on the tests' one server CA, so on one server certificate: no key to make per start. */
export const startTestBank = (options: ReferenceBankOptions = {}): Promise<ReferenceBank> => startReferenceBank({ ca: bankCa, ...options });
let defaultTpp: TppIdentity | undefined;

/** The TPP the tests act as unless they need another: made once per process (its RSA key takes a while). */
export function testTpp(): TppIdentity {
  defaultTpp ??= makeTpp();
  return defaultTpp;
}

/** A TPP identity: a PSD2 certificate (AIS and PIS roles) issued by a test CA. */
export function makeTpp(organizationIdentifier = 'PSDNO-FSA-900001', organizationName = 'Test TPP AS'): TppIdentity {
  return loadTppIdentity(generateTppCertificate(tppCa, { organizationName, organizationIdentifier, roles: ['PSP_AI', 'PSP_PI'] }));
}

export const REDIRECT_URI = 'https://tpp.example/callback?state=abc';

/**
 * A TPP talking to one bank through lib/tpp's TppClient (which signs every
 * request), plus a plain HTTPS agent standing in for the PSU's browser.
 */
export class TestClient {
  /** The PSU's browser: no TPP headers, no signature. */
  readonly agent: Agent;
  readonly tpp: TppClient;
  sessionId: string = randomUUID();
  /** Where the bank's test clock stands relative to ours; Date headers follow it. */
  private clockOffsetMs = 0;

  constructor(
    readonly bank: ReferenceBank,
    identity: TppIdentity,
  ) {
    this.agent = new Agent({ connect: { ca: bank.caPem } });
    this.tpp = new TppClient({
      baseUrl: bank.baseUrl,
      ca: bank.caPem,
      identity,
      safety: { environment: 'sandbox' },
      clock: { now: () => new Date(Date.now() + this.clockOffsetMs) },
    });
  }

  async request(o: RequestOptions): Promise<Response> {
    const headers: Record<string, string> = {
      'tpp-redirect-uri': REDIRECT_URI,
      'tpp-session-id': this.sessionId,
      // The PSU is present (the unattended-read limits do not apply); '' leaves it out.
      'psu-ip-address': '192.0.2.10',
      ...(o.date === undefined ? {} : { date: formatHttpDate(o.date) }),
      ...lowerCase(o.headers ?? {}),
    };
    // An empty value in o.headers means: leave the header out.
    for (const [name, value] of Object.entries(headers)) if (value === '') delete headers[name];
    const res = await this.tpp.request({
      method: o.method ?? 'GET',
      path: o.path,
      headers,
      ...(o.json === undefined ? {} : { json: o.json }),
      ...(o.body === undefined ? {} : { rawBody: o.body }),
      ...(o.unsigned ? { signingDefects: [{ kind: 'no-signature' as const }] } : {}),
    });
    return { status: res.status, headers: res.headers, text: res.bodyText, json: () => res.json() };
  }

  /** Moves the bank's clock (PUT /v1/sandbox/clock offsetSeconds) and signs later requests in its time. */
  async shiftBankClock(offsetSeconds: number): Promise<Response> {
    const res = await this.request({ method: 'PUT', path: '/v1/sandbox/clock', json: { offsetSeconds } });
    if (res.status === 200) this.clockOffsetMs = offsetSeconds * 1000;
    return res;
  }

  /** DELETE /v1/sandbox/clock: the bank back on system time. */
  async resetBankClock(): Promise<Response> {
    const res = await this.request({ method: 'DELETE', path: '/v1/sandbox/clock' });
    if (res.status === 200) this.clockOffsetMs = 0;
    return res;
  }

  /** POST /v1/sandbox/initialize; the bank clock is back to system time too. */
  async initialize(): Promise<Response> {
    const res = await this.request({ method: 'POST', path: '/v1/sandbox/initialize' });
    if (res.status === 204) this.clockOffsetMs = 0;
    return res;
  }

  async close(): Promise<void> {
    await Promise.all([this.agent.close(), this.tpp.close()]);
  }
}

function lowerCase(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

export async function send(agent: Agent, url: string, method: string, headers: Record<string, string>, body?: string): Promise<Response> {
  const res = await undiciRequest(url, { method, headers, body, dispatcher: agent });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, text, json: () => JSON.parse(text) as unknown };
}

export async function withBank(
  faults: (string | SwitchSetting)[] = [],
  variants: (string | SwitchSetting)[] = [],
): Promise<{ bank: ReferenceBank; client: TestClient; close(): Promise<void> }> {
  const bank = await startTestBank({ faults, variants });
  const client = new TestClient(bank, testTpp());
  return {
    bank,
    client,
    close: async () => {
      await client.close();
      await bank.close();
    },
  };
}

export interface ScaChoices {
  nationalId: string;
  /** Radio value on the context page; default the first (PRIVATE). */
  context?: string;
  /** Account resource ids to tick; default all offered. */
  accounts?: string[];
  /** On the payment confirmation page; default approve. */
  decision?: 'approve' | 'reject';
}

/** The result of driving the SCA pages: the final redirect's query, and the pages seen. */
export interface ScaOutcome {
  location: URL;
  params: Record<string, string>;
  pages: string[];
}

/** Drives the SCA pages as a browser would, but with plain HTTP: GET page, POST form, follow 303s within the bank. */
export async function runSca(client: TestClient, scaHref: string, choices: ScaChoices): Promise<ScaOutcome> {
  const pages: string[] = [];
  let url = scaHref;
  for (let step = 0; step < 10; step++) {
    const page = await send(client.agent, url, 'GET', {});
    if (page.status === 303) {
      const next = new URL(String(page.headers.location), url);
      if (next.origin !== new URL(client.bank.baseUrl).origin) return outcome(next, pages);
      url = next.toString();
      continue;
    }
    if (page.status !== 200) throw new Error(`SCA page ${url} answered ${page.status}: ${page.text}`);
    pages.push(new URL(url).pathname);
    const form = new URLSearchParams();
    if (/id="nationalId"/.test(page.text)) {
      form.set('nationalId', choices.nationalId);
    } else if (/name="context"/.test(page.text)) {
      form.set('context', choices.context ?? 'PRIVATE');
    } else if (/name="decision"/.test(page.text)) {
      form.set('decision', choices.decision ?? 'approve');
    } else {
      const offered = [...page.text.matchAll(/name="account" value="([^"]+)"/g)].map((m) => m[1]!);
      for (const id of choices.accounts ?? offered) form.append('account', id);
    }
    const posted = await send(client.agent, url, 'POST', { 'content-type': 'application/x-www-form-urlencoded' }, form.toString());
    if (posted.status !== 303) throw new Error(`POST ${url} answered ${posted.status}: ${posted.text}`);
    const next = new URL(String(posted.headers.location), url);
    if (next.origin !== new URL(client.bank.baseUrl).origin) return outcome(next, pages);
    url = next.toString();
  }
  throw new Error('SCA did not finish in 10 steps');
}

function outcome(location: URL, pages: string[]): ScaOutcome {
  return { location, params: Object.fromEntries(location.searchParams), pages };
}

/** GET /v1/accounts without PSU-ID, and the scaRedirect href of its 401. */
export async function scaHrefFor(client: TestClient, headers: Record<string, string> = {}): Promise<string> {
  const res = await client.request({ path: '/v1/accounts', headers });
  if (res.status !== 401) throw new Error(`expected 401, got ${res.status}: ${res.text}`);
  const body = res.json() as { _links?: { scaRedirect?: { href?: string } } };
  const href = body._links?.scaRedirect?.href;
  if (href === undefined) throw new Error(`no scaRedirect in ${res.text}`);
  return href;
}

/** Full SCA for a customer: returns the psu-id (and the whole outcome). */
export async function consent(
  client: TestClient,
  choices: ScaChoices,
  headers: Record<string, string> = {},
): Promise<ScaOutcome & { psuId: string }> {
  const result = await runSca(client, await scaHrefFor(client, headers), choices);
  const psuId = result.params['psu-id'];
  if (psuId === undefined) throw new Error(`SCA failed: ${result.location.toString()}`);
  return { ...result, psuId };
}

export interface AccountSummary {
  resourceId: string;
  iban: string;
}

export function accountsOf(res: Response): AccountSummary[] {
  return (res.json() as { accounts: AccountSummary[] }).accounts;
}
