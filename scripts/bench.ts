/**
 * `npm run bench`: the reference bank's throughput on signed GET /v1/accounts (the 401 asking for SCA, what
 * a TPP's first call gets), 50 connections for 10 s, the bank alone in a child process (one core: one
 * event loop); and the cost of signing one request in the TPP client. Prints requests/s, p50/p99 latency
 * and the signing cost, and a line for each goal (>= 3,000 req/s, p99 < 20 ms, signing < 1.5 ms).
 * Requests are signed ahead (a pool rotated by autocannon): Date stays within the 60 s window for the run.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { generateCertificateAuthority, generateTppCertificate } from '../lib/pki/index.js';
import { HeaderFields, loadTppIdentity, signRequest, type TppIdentity } from '../lib/tpp/index.js';
import { scriptArguments } from './script-arguments.js';

const USAGE = `usage: npm run bench   (node --import tsx scripts/bench.ts)

The reference bank's throughput on signed GET /v1/accounts, 50 connections, and the cost of signing one request.
BENCH_SECONDS: how long to measure (default 10); BENCH_PROFILE=DIR: the bank's CPU profile (node --cpu-prof) there.`;
scriptArguments(USAGE);

const CONNECTIONS = 50;
const DURATION_SECONDS = Number(process.env['BENCH_SECONDS'] ?? 10);
const SIGNED_POOL = 500;

function signedHeaders(identity: TppIdentity, host: string): Record<string, string> {
  const headers = new HeaderFields({
    Accept: 'application/json',
    'TPP-Redirect-URI': 'https://tpp.example/callback',
    'TPP-Session-ID': 'bench-session',
    'PSU-IP-Address': '192.0.2.10',
  });
  return signRequest({
    headers,
    body: undefined,
    identity,
    now: new Date(),
    digestAlgorithm: 'SHA-256',
    defects: [],
    requestTarget: { method: 'GET', path: '/v1/accounts', host },
  }).headers.toRecord();
}

/** Median cost of signing one request (X-Request-ID, Date, Digest, RSA-SHA256 signature), after warm-up. */
function signingCostMs(identity: TppIdentity): number {
  for (let i = 0; i < 200; i++) signedHeaders(identity, 'localhost');
  const samples: number[] = [];
  for (let i = 0; i < 2_000; i++) {
    const start = performance.now();
    signedHeaders(identity, 'localhost');
    samples.push(performance.now() - start);
  }
  return samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)] ?? Number.NaN;
}

async function startBankProcess(): Promise<{ baseUrl: string; caPem: string; stop: () => void }> {
  const child = spawn(
    process.execPath,
    [
      ...(process.env['BENCH_PROFILE'] ? ['--cpu-prof', '--cpu-prof-dir', process.env['BENCH_PROFILE']] : []),
      '--import',
      'tsx',
      '-e',
      `
    const { startReferenceBank } = await import('./reference/server.ts');
    const bank = await startReferenceBank();
    console.log(JSON.stringify({ baseUrl: bank.baseUrl, caPem: bank.caPem }));
    process.on('SIGTERM', () => process.exit(0)); // a clean exit writes the --cpu-prof profile
  `,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
  const { baseUrl, caPem } = JSON.parse(line) as { baseUrl: string; caPem: string };
  return { baseUrl, caPem, stop: () => child.kill() };
}

const ca = generateCertificateAuthority({ commonName: 'Bench eIDAS CA' });
const identity = loadTppIdentity(
  generateTppCertificate(ca, { organizationName: 'Bench TPP AS', organizationIdentifier: 'PSDNO-FSA-BENCH1', roles: ['PSP_AI', 'PSP_PI'] }),
);
const signingMs = signingCostMs(identity);

const bank = await startBankProcess();
try {
  const host = new URL(bank.baseUrl).host;
  const requests = Array.from({ length: SIGNED_POOL }, () => ({
    method: 'GET' as const,
    path: '/v1/accounts',
    headers: signedHeaders(identity, host),
  }));
  // Warm up the bank (JIT, certificate cache) before measuring.
  await autocannon({ url: bank.baseUrl, connections: 10, amount: 2_000, requests, tlsOptions: { ca: bank.caPem } });
  const result = await autocannon({
    url: bank.baseUrl,
    connections: CONNECTIONS,
    duration: DURATION_SECONDS,
    requests,
    tlsOptions: { ca: bank.caPem },
  });
  const statuses = Object.entries(result.statusCodeStats ?? {})
    .map(([status, { count }]) => `${status}: ${count}`)
    .join(', ');
  const lines = [
    `signed GET /v1/accounts, ${CONNECTIONS} connections, ${DURATION_SECONDS} s, bank in one process (statuses ${statuses}; errors ${result.errors}, timeouts ${result.timeouts})`,
    `  requests/s  ${result.requests.average.toFixed(0)}   (goal >= 3000: ${result.requests.average >= 3000 ? 'met' : 'NOT met'})`,
    `  latency     p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms   (goal p99 < 20 ms: ${result.latency.p99 < 20 ? 'met' : 'NOT met'})`,
    `  signing     ${signingMs.toFixed(3)} ms per request in the TPP client   (goal < 1.5 ms: ${signingMs < 1.5 ? 'met' : 'NOT met'})`,
  ];
  console.log(lines.join('\n'));
} finally {
  bank.stop();
}
