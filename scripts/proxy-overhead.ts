/**
 * `node --import tsx scripts/proxy-overhead.ts [requests]`: what the judging proxy adds to a request. One TPP
 * client sends signed GET /v1/accounts to the reference bank, alternately straight and through the proxy
 * (judging both sides and writing the HAR), one request at a time (default 400 of each, after 50 to warm
 * up); prints the median and p90 latency of each and their difference. Figures follow the machine's load.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { HarWriter } from '../lib/har/index.js';
import { generateCertificateAuthority, generateServerCertificate, generateTppCertificate } from '../lib/pki/index.js';
import { loadTppIdentity, TppClient } from '../lib/tpp/index.js';
import { TrafficJudging } from '../lib/traffic/judging.js';
import { startJudgingProxy } from '../lib/traffic/proxy.js';
import { startReferenceBank } from '../reference/server.js';
import { scriptArguments } from './script-arguments.js';

const USAGE = `usage: node --import tsx scripts/proxy-overhead.ts [requests]

What the judging proxy adds to a request: [requests] signed GET /v1/accounts straight and as many through the
proxy (default 400 of each), after 50 to warm up; the median and p90 latency of each.`;
const REQUESTS = Number(
  scriptArguments(USAGE, {
    maxPositionals: 1,
    refuse: ({ positionals: [count] }) =>
      count === undefined || (Number.isInteger(Number(count)) && Number(count) > 0)
        ? undefined
        : `requests is a whole number above 0, not "${count}"`,
  }).positionals[0] ?? 400,
);
const WARM_UP = 50;

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? 0;

const dir = mkdtempSync(join(tmpdir(), 'xs2a-proxy-overhead-'));
const bank = await startReferenceBank();
const proxyCa = generateCertificateAuthority({ commonName: 'proxy CA', organizationName: 'x', countryName: 'NO' });
const proxyServer = generateServerCertificate(proxyCa, { hostnames: ['localhost'], ipAddresses: ['127.0.0.1'] });
const har = new HarWriter(join(dir, 'traffic.har'), { name: 'proxy-overhead', version: '1' });
const proxy = await startJudgingProxy({
  host: '127.0.0.1',
  port: 0,
  tls: { key: proxyServer.privateKeyPem, cert: proxyServer.certificatePem },
  judging: new TrafficJudging({ judgeBank: true, basePath: '', environment: 'sandbox', seesScaLink: () => true }),
  har,
});
proxy.upstream = { baseUrl: bank.baseUrl, caPem: bank.caPem };
const ca = generateCertificateAuthority({ commonName: 'TPP CA', organizationName: 'x', countryName: 'NO' });
const identity = loadTppIdentity(
  generateTppCertificate(ca, { organizationName: 'Bench TPP', organizationIdentifier: 'PSDNO-FSA-BENCH', roles: ['PSP_AI', 'PSP_PI'] }),
);
const headers = { 'TPP-Redirect-URI': 'https://tpp.example/callback', 'TPP-Session-ID': 'bench', 'PSU-IP-Address': '192.0.2.10' };
const direct = new TppClient({
  baseUrl: bank.baseUrl,
  ca: bank.caPem,
  identity,
  safety: { environment: 'sandbox' },
  defaultHeaders: headers,
});
const proxied = new TppClient({
  baseUrl: proxy.origin,
  ca: proxyCa.certificatePem,
  identity,
  safety: { environment: 'sandbox' },
  defaultHeaders: headers,
});

const timings = { direct: [] as number[], proxied: [] as number[] };
try {
  for (let i = 0; i < WARM_UP + REQUESTS; i++) {
    for (const [name, client] of [
      ['direct', direct],
      ['proxied', proxied],
    ] as const) {
      const started = performance.now();
      await client.get('/v1/accounts');
      if (i >= WARM_UP) timings[name].push(performance.now() - started);
    }
  }
} finally {
  await direct.close();
  await proxied.close();
  await proxy.close();
  await har.close();
  await bank.close();
  rmSync(dir, { recursive: true, force: true });
}
const row = (name: string, values: number[]) =>
  `${name.padEnd(8)} median ${percentile(values, 0.5).toFixed(2)} ms, p90 ${percentile(values, 0.9).toFixed(2)} ms`;
console.log(row('direct', timings.direct));
console.log(row('proxied', timings.proxied));
console.log(
  `the proxy adds ${(percentile(timings.proxied, 0.5) - percentile(timings.direct, 0.5)).toFixed(2)} ms a request (median), judging both sides and writing the HAR`,
);
