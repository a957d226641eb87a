/**
 * A HAR of realistic traffic, as large as asked, for measuring the audit (scripts/audit-heap.ts and the
 * streaming test): one TPP reading a PSU's transactions and initiating payments, every request signed and
 * dated right, every answer a well-formed 200 or 201 with the bank's Date. Written as it is made, so making
 * it holds no more than the audit will.
 */
import { randomUUID } from 'node:crypto';
import { formatHttpDate } from '../httpsig/index.js';
import { entryOfExchange, HarWriter, type HttpExchange } from '../har/index.js';
import { HeaderFields, signRequest, type TppIdentity } from '../tpp/index.js';

const ORIGIN = 'https://bank.example';

function transactions(count: number, seed: number): string {
  const booked = Array.from({ length: count }, (_, i) => ({
    transactionId: `${seed}-${i}`,
    bookingDate: '2026-11-01',
    valueDate: '2026-11-01',
    transactionAmount: { amount: `-${(i % 97) + 1}.50`, currency: 'NOK' },
    creditorName: 'Kiwi Majorstuen',
    remittanceInformationUnstructured: [`Varekjøp ${i}`],
  }));
  return JSON.stringify({
    account: { iban: 'NO9386011117947' },
    transactions: { booked, pending: [], _links: { account: { href: '/v1/accounts/a1', verbs: ['GET'] } } },
  });
}

/** Writes about `megabytes` of HAR to `path`; returns the number of entries. */
export async function generateHar(path: string, megabytes: number, identity: TppIdentity): Promise<number> {
  const writer = new HarWriter(path, { name: 'xs2a-conformance traffic generator', version: '1' });
  const psuId = randomUUID();
  const session = randomUUID();
  let entries = 0;
  const started = Date.now();
  const answerBody = transactions(40, 1);
  for (; writer.size < megabytes * 1_048_576; entries++) {
    const at = new Date(started + entries * 1000);
    const payment = entries % 10 === 9;
    const target = payment ? '/v1/payments/sepa-credit-transfers' : '/v1/accounts/a1/transactions';
    const body = payment
      ? Buffer.from(
          JSON.stringify({
            instructedAmount: { amount: '10.00', currency: 'EUR' },
            creditorName: 'Kari Nordmann',
            creditorAccount: { iban: 'NO9386011117947', currency: 'NOK' },
            creditorAgent: 'DNBANOKKXXX',
            creditorAddress: { townName: 'Oslo', country: 'NO' },
            debtorAccount: { iban: 'NO9386011117947', currency: 'NOK' },
          }),
        )
      : undefined;
    const headers = new HeaderFields({
      Accept: 'application/json',
      'TPP-Redirect-URI': 'https://tpp.example/callback',
      'TPP-Session-ID': session,
      'PSU-IP-Address': '192.0.2.10',
      'PSU-ID': psuId,
      ...(payment ? { 'Content-Type': 'application/json', 'x-accept-fix': 'amount-as-string' } : {}),
    });
    const signed = signRequest({
      headers,
      body,
      identity,
      now: at,
      digestAlgorithm: 'SHA-256',
      defects: [],
      requestTarget: { method: payment ? 'POST' : 'GET', path: target, host: 'bank.example' },
    });
    const lower = Object.fromEntries(Object.entries(signed.headers.toRecord()).map(([name, value]) => [name.toLowerCase(), value]));
    const answer = payment ? JSON.stringify({ paymentId: randomUUID(), transactionStatus: 'RCVD' }) : answerBody;
    const exchange: HttpExchange = {
      id: `generated ${entries}`,
      startedAt: at,
      durationMs: 12,
      request: {
        method: payment ? 'POST' : 'GET',
        url: `${ORIGIN}${target}`,
        headers: { host: 'bank.example', ...lower },
        body: body ?? new Uint8Array(0),
      },
      response: {
        status: payment ? 201 : 200,
        headers: { 'content-type': 'application/json', date: formatHttpDate(at), 'x-request-id': lower['x-request-id'] },
        body: Buffer.from(answer),
      },
    };
    if (!writer.add(entryOfExchange(exchange))) await writer.drained();
  }
  await writer.close();
  return entries;
}
