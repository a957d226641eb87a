/**
 * The header table (Endpoints > POST /v1/payments/sepa-credit-transfers > Headers), row by row, as data:
 * each required header missing and empty, each header with a form given a value outside it, each optional
 * header sent and taken. A row names the endpoint it is sent to, the requirement its answer judges and the
 * one that judges the code. Rows sent to payment initiation would create a payment where the bank does not
 * refuse them, so they are writing scenarios (never against production).
 */
import { randomUUID } from 'node:crypto';
import {
  consentServesReads,
  scaRedirectOf,
  scenario,
  test,
  type ScenarioFixtures,
  type TppRequest,
  type TppResponse,
} from '../../lib/fixtures/index.js';
import { consentedDebtor, initiationRequest, psuIdentity, sepaPayment } from '../payments/payment-bodies.js';

type EndpointFixtures = Pick<ScenarioFixtures, 'paths' | 'psu' | 'newTpp' | 'consentedPsu'>;

/** Where a row's request goes: method, path, body and the headers the endpoint always takes, from the fixtures. */
type Endpoint = (fixtures: EndpointFixtures) => Promise<{ method: string; path: string; json?: unknown; headers?: Record<string, string> }>;

const ACCOUNT_LIST: Endpoint = ({ paths }) => Promise.resolve({ method: 'GET', path: paths('accounts') });
// A payment names its PSU (HDR-32) and pays from its account, so that only the row's header is wrong.
const PAYMENT_INITIATION: Endpoint = async ({ paths, psu, newTpp, consentedPsu }) =>
  initiationRequest(paths, sepaPayment(await consentedDebtor({ newTpp, consentedPsu, paths })), { headers: psuIdentity(psu) });

type Defect = 'missing' | 'empty' | 'malformed';

interface RefusedRow {
  header: string;
  defect: Defect;
  /** The value sent for `malformed` (and why it is one). */
  value?: string;
  requirement: string;
  /**
   * The requirement that judges the error code (ERR-16 for a missing header, ERR-21 for a malformed one); none when the status alone is
   * judged.
   */
  codeRequirement?: string;
  endpoint: Endpoint;
  /** What the request writes where the bank does not refuse it. */
  writes?: string;
}

/** The row's request: its endpoint's, with this defect instead of the header. */
async function defective(row: RefusedRow, fixtures: EndpointFixtures): Promise<TppRequest> {
  const request = await row.endpoint(fixtures);
  const reason = `${row.header} ${row.defect}${row.value === undefined ? '' : ` (${row.value})`}`;
  if (row.defect === 'missing') return { ...request, omitHeaders: [row.header], malformed: reason };
  return { ...request, headers: { ...request.headers, [row.header]: row.defect === 'empty' ? '' : (row.value ?? '') }, malformed: reason };
}

const CREATES_A_PAYMENT = 'initiates a payment where the bank does not refuse the request';

const REFUSED: readonly RefusedRow[] = [
  {
    header: 'x-accept-fix',
    defect: 'missing',
    requirement: 'HDR-01',
    codeRequirement: 'ERR-16',
    endpoint: PAYMENT_INITIATION,
    writes: CREATES_A_PAYMENT,
  },
  {
    header: 'TPP-Session-ID',
    defect: 'missing',
    requirement: 'HDR-05',
    codeRequirement: 'ERR-16',
    endpoint: PAYMENT_INITIATION,
    writes: CREATES_A_PAYMENT,
  },
  {
    header: 'PSU-IP-Address',
    defect: 'missing',
    requirement: 'HDR-13',
    codeRequirement: 'ERR-16',
    endpoint: PAYMENT_INITIATION,
    writes: CREATES_A_PAYMENT,
  },
  { header: 'X-Request-ID', defect: 'missing', requirement: 'HDR-02', codeRequirement: 'ERR-16', endpoint: ACCOUNT_LIST },
  { header: 'X-Request-ID', defect: 'empty', requirement: 'HDR-02', codeRequirement: 'ERR-16', endpoint: ACCOUNT_LIST },
  { header: 'TPP-Redirect-URI', defect: 'missing', requirement: 'HDR-06', codeRequirement: 'ERR-16', endpoint: ACCOUNT_LIST },
  { header: 'TPP-Redirect-URI', defect: 'empty', requirement: 'HDR-06', codeRequirement: 'ERR-16', endpoint: ACCOUNT_LIST },
  { header: 'PSU-ID', defect: 'malformed', value: 'not-a-uuid', requirement: 'HDR-12', endpoint: ACCOUNT_LIST },
  {
    header: 'PSU-IP-Address',
    defect: 'malformed',
    value: '999.0.2.10',
    requirement: 'HDR-15',
    codeRequirement: 'ERR-21',
    endpoint: ACCOUNT_LIST,
  },
  // Headers the spec names in the table of payment initiation only: judged there (an account read may ignore them).
  {
    header: 'PSU-Context',
    defect: 'malformed',
    value: 'FAMILY',
    requirement: 'HDR-19',
    codeRequirement: 'ERR-21',
    endpoint: PAYMENT_INITIATION,
    writes: CREATES_A_PAYMENT,
  },
  {
    header: 'PSU-Context',
    defect: 'empty',
    requirement: 'HDR-19',
    codeRequirement: 'ERR-21',
    endpoint: PAYMENT_INITIATION,
    writes: CREATES_A_PAYMENT,
  },
  {
    header: 'PSU-HTTP-Method',
    defect: 'malformed',
    value: 'FETCH',
    requirement: 'HDR-28',
    codeRequirement: 'ERR-21',
    endpoint: PAYMENT_INITIATION,
    writes: CREATES_A_PAYMENT,
  },
  {
    header: 'PSU-Device-ID',
    defect: 'malformed',
    value: 'device-42',
    requirement: 'HDR-29',
    codeRequirement: 'ERR-21',
    endpoint: PAYMENT_INITIATION,
    writes: CREATES_A_PAYMENT,
  },
  {
    header: 'PSU-Device-ID',
    defect: 'empty',
    requirement: 'HDR-29',
    codeRequirement: 'ERR-21',
    endpoint: PAYMENT_INITIATION,
    writes: CREATES_A_PAYMENT,
  },
];

interface TakenRow {
  requirement: string;
  title: string;
  headers: (fixtures: Pick<ScenarioFixtures, 'tpp'>) => Record<string, string>;
  endpoint: Endpoint;
  /** A further judgement of the answer (beyond being accepted). */
  also?: (response: TppResponse) => { passed: boolean; expected: string };
}

const TAKEN: readonly TakenRow[] = [
  {
    requirement: 'HDR-23',
    title: 'TPP-Brand-Logging-Information is taken',
    headers: () => ({ 'TPP-Brand-Logging-Information': 'Example Budget App' }),
    endpoint: ACCOUNT_LIST,
  },
  {
    requirement: 'HDR-25',
    title: 'a Host without the port is taken',
    headers: ({ tpp }) => ({ Host: new URL(tpp.transport.baseUrl).hostname }),
    endpoint: ACCOUNT_LIST,
  },
  { requirement: 'HDR-26', title: 'PSU-IP-Port is taken', headers: () => ({ 'PSU-IP-Port': '49152' }), endpoint: ACCOUNT_LIST },
  {
    requirement: 'HDR-27',
    title: 'the forwarded PSU-User-Agent, PSU-Accept, PSU-Accept-Charset, PSU-Accept-Encoding and PSU-Accept-Language are taken',
    headers: () => ({
      'PSU-User-Agent': 'Mozilla/5.0 (X11; Linux x86_64)',
      'PSU-Accept': 'text/html',
      'PSU-Accept-Charset': 'utf-8',
      'PSU-Accept-Encoding': 'gzip',
      'PSU-Accept-Language': 'nb-NO',
    }),
    endpoint: ACCOUNT_LIST,
  },
  {
    requirement: 'HDR-30',
    title: 'PSU-Geo-Location is taken',
    headers: () => ({ 'PSU-Geo-Location': 'GEO:59.9139;10.7522' }),
    endpoint: ACCOUNT_LIST,
  },
  {
    requirement: 'HDR-21',
    title: 'TPP-Redirect-Preferred: true is taken and SCA goes through the redirect',
    headers: () => ({ 'TPP-Redirect-Preferred': 'true' }),
    endpoint: ACCOUNT_LIST,
    also: (response) => ({ passed: scaRedirectOf(response) !== undefined, expected: 'an scaRedirect link: SCA by redirect' }),
  },
  // Without the bank's app (or with it: the app takes over the redirect on the PSU's device, SCA-23), false is a value of the header.
  {
    requirement: 'HDR-22',
    title: 'TPP-Redirect-Preferred: false is taken',
    headers: () => ({ 'TPP-Redirect-Preferred': 'false' }),
    endpoint: ACCOUNT_LIST,
  },
  {
    requirement: 'HDR-24',
    title: 'Accept, Accept-Charset, Accept-Encoding and Accept-Language are taken and the answer states its Content-Type',
    headers: () => ({ Accept: 'application/json', 'Accept-Charset': 'utf-8', 'Accept-Encoding': 'gzip', 'Accept-Language': 'nb' }),
    endpoint: ACCOUNT_LIST,
    also: (response) => ({ passed: response.headers['content-type'] !== undefined, expected: 'a Content-Type header on the answer' }),
  },
  {
    requirement: 'HDR-31',
    title: 'header names in another case (x-request-id, TPP-SESSION-ID, tpp-redirect-uri) are the same headers',
    headers: ({ tpp }) => ({
      'x-request-id': randomUUID(),
      'TPP-SESSION-ID': randomUUID(),
      'tpp-redirect-uri': tpp.defaultHeader('TPP-Redirect-URI') ?? '',
    }),
    endpoint: ACCOUNT_LIST,
  },
];

const letter = (index: number) => String.fromCharCode('a'.charCodeAt(0) + index);
const rowsOf = <T extends { requirement: string }>(rows: readonly T[]) =>
  rows.map((row, i) => ({
    row,
    id: `${row.requirement}.${letter(rows.slice(0, i).filter((r) => r.requirement === row.requirement).length)}`,
  }));

for (const { row, id } of rowsOf(REFUSED)) {
  const checks = [row.requirement, ...(row.codeRequirement ? [row.codeRequirement] : [])];
  const options = { checks, ...(row.writes ? { writes: row.writes } : {}) };
  test(
    ...scenario(
      id,
      `${row.header} ${row.defect}${row.value === undefined ? '' : ` ("${row.value}")`} is refused`,
      options,
      async ({ tpp, newTpp, consentedPsu, paths, psu, check }) => {
        const response = await tpp.request(await defective(row, { paths, psu, newTpp, consentedPsu }));
        const refused = check.status(row.requirement, response);
        if (row.codeRequirement) check.code(row.codeRequirement, response, { after: refused });
      },
    ),
  );
}

for (const { row, id } of rowsOf(TAKEN)) {
  test(
    ...scenario(id, row.title, { checks: [row.requirement] }, async ({ tpp, newTpp, consentedPsu, paths, psu, check }) => {
      const response = await tpp.request({ ...(await row.endpoint({ paths, psu, newTpp, consentedPsu })), headers: row.headers({ tpp }) });
      const taken = check.accepted(row.requirement, response);
      const also = row.also?.(response);
      if (also) check.that(row.requirement, also.passed, { expected: also.expected, response }, { after: taken });
    }),
  );
}

test(
  ...scenario(
    'HDR-14.a',
    'an account read without PSU-IP-Address (the PSU absent) is served, not refused as a missing header',
    { checks: ['HDR-14'] },
    async ({ newTpp, consentedPsu, paths, check }) => {
      const { psuId, sessionId } = await consentedPsu();
      // What the header's absence changes is seen against the same read with the PSU present.
      consentServesReads(await newTpp({ sessionId }).get(paths('accounts'), { headers: { 'PSU-ID': psuId } }));
      const response = await newTpp({ sessionId }).get(paths('accounts'), {
        headers: { 'PSU-ID': psuId },
        omitHeaders: ['PSU-IP-Address'],
      });
      check.status('HDR-14', response);
    },
  ),
);
