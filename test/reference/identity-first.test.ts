// Identity first, state after (issue 35, H1, M1, L1, L4, L7, M5): nothing of a sandbox world, a switch handle
// or a judge's TPP comes from a request whose signature has not verified. A copied certificate (anyone can
// have a TPP's: it goes with every request) reaches nothing of its holder's world, writes nothing into its
// holder's report, and a flood of forged certificates evicts no world. New worlds are limited per client
// and never push out a world in use.
import assert from 'node:assert/strict';
import { randomUUID, X509Certificate } from 'node:crypto';
import { connect } from 'node:tls';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { after, before, describe, test } from 'node:test';
import type { RunResults } from '../../lib/report/results-types.js';
import { SandboxJudging } from '../../lib/traffic/sandbox-judging.js';
import { TPP_REPORT_PATH } from '../../reference/plugins/tpp-judging.js';
import type { ReferenceBank } from '../../reference/server.js';
import { BehaviourSwitches } from '../../reference/switches.js';
import { makeTpp, send, startTestBank, TestClient, type Response } from './helpers.js';

const CREATED = '22222222222';
const ORGANISATION = 'PSDNO-FSA-900035';

const status = (res: Response) => `${res.status} ${res.text}`;
const codeOf = (res: Response) => (res.json() as { code?: string }).code;
const customersOf = async (client: TestClient, unsigned = false) =>
  (
    (await client.request({ path: '/v1/sandbox/customers', unsigned })).json() as { customers?: { customerNumber: string }[] }
  ).customers?.map((c) => c.customerNumber) ?? [];

describe('a forged or copied certificate reaches no world', () => {
  let bank: ReferenceBank;
  let own: TestClient;
  const forgers: TestClient[] = [];

  before(async () => {
    bank = await startTestBank();
    own = new TestClient(bank, makeTpp(ORGANISATION, 'Own TPP AS'));
    assert.equal(
      (
        await own.request({
          method: 'POST',
          path: '/v1/sandbox/customers',
          json: { customerNumber: CREATED, name: 'Own Customer', type: 'private' },
        })
      ).status,
      201,
    );
    assert.equal((await own.shiftBankClock(1800)).status, 200);
    for (let i = 0; i < 3; i++) forgers.push(new TestClient(bank, makeTpp(`PSDNO-FSA-9100${i}`, `Forger ${i} AS`)));
  });
  after(async () => {
    await Promise.all([own.close(), ...forgers.map((f) => f.close())]);
    await bank.close();
  });

  test('unsigned requests carrying 250 forged certificates (250 keys) are refused and leave the world of the TPP at work whole', async () => {
    for (const certificate of forgedCertificates(own, 250)) {
      const res = await send(own.agent, `${bank.baseUrl}/v1/sandbox/customers`, 'GET', {
        'tpp-signature-certificate': certificate,
        'x-request-id': randomUUID(),
        date: new Date().toUTCString(),
      });
      assert.equal(res.status, 400, status(res));
    }
    assert.ok((await customersOf(own)).includes(CREATED), "the TPP's world was pushed out by requests that proved no key");
    const clock = (await own.request({ path: '/v1/sandbox/clock' })).json() as { mode: string };
    assert.equal(clock.mode, 'offset', "the TPP's clock was lost with its world");
  });

  test('a refusal before authentication is dated by the real clock, not by the clock of the world the certificate claims', async () => {
    // Accept without JSON: refused (406) before the signature is looked at, with the TPP's own certificate.
    const refused = await own.request({ path: '/v1/accounts', headers: { accept: 'application/xml' } });
    assert.equal(refused.status, 406, status(refused));
    const skew = Math.abs(Date.parse(String(refused.headers.date)) - Date.now());
    assert.ok(skew < 300_000, `the answer carries the claimed world's clock (${String(refused.headers.date)})`);
  });
});

describe('a full sandbox refuses a new key rather than push out a world in use', () => {
  test('with room for three worlds, the fourth key is refused (429 ACCESS_EXCEEDED) and the first still served', async () => {
    const bank = await startTestBank({ tenantLimits: { maxWorlds: 3 } });
    const clients = [0, 1, 2, 3].map((i) => new TestClient(bank, makeTpp(`PSDNO-FSA-9300${i}`, `Tenant ${i} AS`)));
    try {
      for (const client of clients.slice(0, 3)) assert.equal((await client.request({ path: '/v1/sandbox/customers' })).status, 200);
      const refused = await clients[3]!.request({ path: '/v1/sandbox/customers' });
      assert.equal(refused.status, 429, status(refused));
      assert.equal(codeOf(refused), 'ACCESS_EXCEEDED');
      assert.match(refused.text, /"message":"the sandbox holds 3 TPP worlds/);
      assert.equal((await clients[0]!.request({ path: '/v1/sandbox/customers' })).status, 200);
    } finally {
      await Promise.all(clients.map((c) => c.close()));
      await bank.close();
    }
  });
});

describe('new worlds are limited per client', () => {
  test('a client that made its budget of worlds is refused another (429), and its worlds still serve it', async () => {
    const bank = await startTestBank({ tenantLimits: { newWorldsPerClient: 2 } });
    const clients = [0, 1, 2].map((i) => new TestClient(bank, makeTpp(`PSDNO-FSA-9200${i}`, `Client ${i} AS`)));
    try {
      assert.equal((await clients[0]!.request({ path: '/v1/sandbox/customers' })).status, 200);
      assert.equal((await clients[1]!.request({ path: '/v1/sandbox/customers' })).status, 200);
      const refused = await clients[2]!.request({ path: '/v1/sandbox/customers' });
      assert.equal(refused.status, 429, status(refused));
      assert.equal(codeOf(refused), 'ACCESS_EXCEEDED');
      assert.equal((await clients[0]!.request({ path: '/v1/sandbox/customers' })).status, 200, 'a key seen before keeps its world');
    } finally {
      await Promise.all(clients.map((c) => c.close()));
      await bank.close();
    }
  });
});

describe('a fault that relaxes the signature check opens no one’s world', () => {
  test('an unsigned request with a TPP’s certificate is served in the world of no key holder: it neither sees nor resets the TPP’s', async () => {
    const bank = await startTestBank({ faults: ['accept-missing-signature'] });
    const own = new TestClient(bank, makeTpp(ORGANISATION, 'Own TPP AS'));
    try {
      assert.equal(
        (
          await own.request({
            method: 'POST',
            path: '/v1/sandbox/customers',
            json: { customerNumber: CREATED, name: 'Own Customer', type: 'private' },
          })
        ).status,
        201,
      );
      const seen = await customersOf(own, true);
      assert.ok(seen.length > 0, 'the fault serves the unsigned request');
      assert.ok(!seen.includes(CREATED), "an unsigned request saw the TPP's customers");
      const reset = await own.request({ method: 'POST', path: '/v1/sandbox/initialize', unsigned: true });
      assert.equal(reset.status, 204, status(reset));
      assert.ok((await customersOf(own)).includes(CREATED), "an unsigned request reset the TPP's world");
    } finally {
      await own.close();
      await bank.close();
    }
  });
});

describe('the judging sandbox attributes a request by the key that signed it', () => {
  let bank: ReferenceBank;
  let judge: SandboxJudging;
  let own: TestClient;

  before(async () => {
    let baseUrl = '';
    judge = new SandboxJudging({ tool: { name: 'xs2a-conformance', version: 'test' }, baseUrl: () => baseUrl, maskPersonalData: true });
    bank = await startTestBank({ judge });
    baseUrl = bank.baseUrl;
    own = new TestClient(bank, makeTpp(ORGANISATION, 'Own TPP AS'));
  });
  after(async () => {
    await own.close();
    await bank.close();
  });

  test("requests carrying a TPP's certificate but not signed by its key write nothing into its report", async () => {
    assert.equal((await own.request({ path: '/v1/sandbox/customers' })).status, 200);
    // The certificate is public: these requests carry it, and no valid signature.
    for (let i = 0; i < 3; i++) assert.equal((await own.request({ path: '/v1/accounts', unsigned: true })).status, 400);
    const report = JSON.parse((await own.request({ path: `/v1${TPP_REPORT_PATH}` })).text) as RunResults;
    assert.deepEqual(
      report.requirements.filter((r) => r.status === 'FAIL').map((r) => r.id),
      [],
      'failures of requests the TPP did not sign are in its report',
    );
    assert.equal(report.tests.length, 1);
    assert.match(report.tests[0]?.title ?? '', /: 1 exchange\(s\)/, 'its signed request before the report, and nothing else');
  });

  test('an asterisk or absolute-form request target gets the specification’s error body, and the judge goes on', async () => {
    for (const line of ['OPTIONS * HTTP/1.1', `GET http://bank.invalid/v1/accounts HTTP/1.1`]) {
      const answer = await rawRequest(bank, `${line}\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
      const [head = '', body = ''] = answer.split('\r\n\r\n');
      assert.match(head, /^HTTP\/1\.1 4\d\d /, `${line}: ${head}`);
      const parsed = JSON.parse(body) as Record<string, unknown>;
      assert.deepEqual(
        Object.keys(parsed)
          .filter((k) => ['id', 'system', 'status', 'code'].includes(k))
          .sort(),
        ['code', 'id', 'status', 'system'],
        `${line}: ${body}`,
      );
    }
    assert.equal((await own.request({ path: '/v1/sandbox/customers' })).status, 200);
  });
});

describe('switch handles come from the settings, never from a claim', () => {
  test('200,000 claimed identities leave the switches as they were', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const switches = new BehaviourSwitches({ faults: [{ name: 'accept-missing-signature', tpps: ['PSDNO-FSA-1'] }] });
    const settle = () => [1, 2, 3].forEach(() => gc());
    settle();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 200_000; i++) assert.equal(switches.forTpp(`PSDNO-FSA-claimed-${i}`), switches.wholeBank);
    settle();
    const grownMiB = (process.memoryUsage().heapUsed - before) / 1024 / 1024;
    assert.ok(grownMiB < 4, `the switches grew ${grownMiB.toFixed(1)} MiB for 200,000 claims`);
    assert.ok(
      switches.forTpp('PSDNO-FSA-1').breaks({ kind: 'fault', name: 'accept-missing-signature' }),
      'a configured TPP keeps its switches',
    );
  });
});

/**
 * Certificates that parse, each with a public key of its own (one byte of the TPP's modulus changed): what a
 * flood of forged identities costs an attacker nothing to make. None can sign anything.
 */
function forgedCertificates(client: TestClient, count: number): string[] {
  const der = Buffer.from(client.tpp.identity.signatureCertificate, 'base64');
  const spki = new X509Certificate(der).publicKey.export({ type: 'spki', format: 'der' });
  const at = der.indexOf(spki) + spki.length - 16; // inside the modulus, before the exponent
  return Array.from({ length: count }, (_, i) => {
    const forged = Buffer.from(der);
    forged.writeUInt16BE(i, at);
    return forged.toString('base64');
  });
}

/** One request over a raw TLS connection, as written (targets an HTTP client would not send). */
function rawRequest(bank: ReferenceBank, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: bank.port, ca: bank.caPem, servername: 'localhost' }, () => socket.end(text));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}
