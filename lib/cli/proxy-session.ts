/**
 * A judging proxy session (`proxy --target NAME`): the proxy in front of a bank of targets.yaml (the embedded
 * reference bank started behind it, its links and SCA pages reached through it), the traffic appended to a
 * HAR, both sides judged, and the reports written when it stops.
 */
import { Masker } from '../report/mask.js';
import { mkdirPrivate } from '../report/private-files.js';
import { dirname, join, resolve } from 'node:path';
import { generateCertificateAuthority, generateServerCertificate } from '../pki/index.js';
import { interpolateTarget, loadTargetsFile, selectTarget } from '../targets/load.js';
import { HarWriter } from '../har/index.js';
import { TrafficJudging, type Observation } from '../traffic/judging.js';
import type { ObservedExchange } from '../tpp-judge/index.js';
import { startJudgingProxy, type JudgingProxy } from '../traffic/proxy.js';
import { writeResults, type ReportContext } from '../traffic/report.js';
import { visibleControls } from '../report/mask.js';
import type { RunResults } from '../report/results-types.js';
import { capConnectionsPerClient, DEFAULT_CONNECTION_LIMITS } from '../../reference/connections.js';
import { startReferenceBank, type ReferenceBank } from '../../reference/server.js';
import { TOOL } from './package-root.js';
import { readPem } from '../targets/target-files.js';

export interface ProxyCommandOptions {
  target: string;
  targetsFile: string;
  port: number;
  host: string;
  harFile?: string;
  caOut: string;
  trustCaFiles: string[];
  reportDir: string;
  unmasked: boolean;
  /** What to do with each exchange's findings as it passes (default: print the broken rules). */
  onObservation?: (observation: Observation, exchange: ObservedExchange) => void;
}

/** A running proxy session: the proxy, the bank behind it when embedded, and how to stop and report. */
export interface ProxySession {
  proxy: JudgingProxy;
  /** The base URL a TPP's client uses: the proxy's origin with the bank's base path. */
  baseUrl: string;
  /** PEM of the CA of the proxy's TLS certificate. */
  caPem: string;
  harFile: string;
  judging: TrafficJudging;
  /** Stops the proxy (and the embedded bank), writes the reports, and returns them with the exit code. */
  stop(): Promise<{ tpp: RunResults; bank: RunResults; dir: string; exitCode: number }>;
}

export async function startProxySession(options: ProxyCommandOptions): Promise<ProxySession> {
  const file = loadTargetsFile(options.targetsFile);
  const config = interpolateTarget(options.target, selectTarget(file, options.target), process.env);
  const baseDir = dirname(resolve(options.targetsFile));
  const trustedCaPems = options.trustCaFiles.map((path, i) => readPem(path, `--trust-ca[${i}]`, process.cwd()));
  const startedAt = new Date();
  const runId = `proxy-${startedAt.toISOString().replace(/[:.]/g, '-')}`;
  const dir = join(options.reportDir, runId);
  mkdirPrivate(dir);
  const harFile = options.harFile ?? join(dir, 'traffic.har');
  const ca = generateCertificateAuthority({
    commonName: 'xs2a-conformance proxy CA',
    organizationName: 'xs2a-conformance',
    countryName: 'NO',
  });
  const server = generateServerCertificate(ca, {
    hostnames: ['localhost', ...(options.host.match(/^[a-z]/i) ? [options.host] : [])],
    ipAddresses: ['127.0.0.1', '::1'],
  });
  const har = new HarWriter(harFile, TOOL);
  const environment = config.environment;
  const remoteBaseUrl = config.embedded ? undefined : (config.baseUrl ?? '').replace(/\/+$/, '');
  const basePath = remoteBaseUrl === undefined ? '' : new URL(remoteBaseUrl).pathname.replace(/\/+$/, '');
  // Links the bank gives that lead through the proxy are seen opened when the PSU opens them.
  let proxyOrigin = '';
  const judging = new TrafficJudging({
    judgeBank: true,
    basePath,
    environment,
    ...(config.paths ? { paths: config.paths } : {}),
    ...(trustedCaPems.length > 0 ? { trustedCaPems } : {}),
    seesScaLink: (href) => URL.parse(href)?.origin === proxyOrigin,
    // The embedded bank starts with the proxy: every identifier a TPP holds there passed through it.
    ...(config.embedded ? { fromBankStart: true } : {}),
  });
  const proxy = await startJudgingProxy({
    host: options.host,
    port: options.port,
    tls: { key: server.privateKeyPem, cert: server.certificatePem },
    judging,
    har,
    harMasker: new Masker(!options.unmasked, [], undefined, 'lookalike'),
    onObservation: options.onObservation ?? printBroken,
    // The bank's own bounds against slow, greedy and flooding clients: the proxy faces the same clients.
    clients: { limits: DEFAULT_CONNECTION_LIMITS, capPerClient: capConnectionsPerClient },
  });
  proxyOrigin = proxy.origin;
  let bank: ReferenceBank | undefined;
  if (remoteBaseUrl === undefined) {
    const scaPages = typeof config.embedded === 'object' ? config.embedded.pages : undefined;
    bank = await startReferenceBank({
      port: 0,
      publicBaseUrl: proxy.origin,
      tenancy: 'shared-psus',
      ...(scaPages ? { scaPages } : {}),
      ...(trustedCaPems.length > 0 ? { trustedTppCaPems: trustedCaPems } : {}),
    });
    proxy.upstream = { baseUrl: bank.baseUrl, caPem: bank.caPem };
  } else {
    const caPem = config.tls?.ca ? readPem(config.tls.ca, `targets.${options.target}.tls.ca`, baseDir) : undefined;
    proxy.upstream = { baseUrl: remoteBaseUrl, ...(caPem ? { caPem } : {}) };
  }
  return {
    proxy,
    baseUrl: `${proxy.origin}${basePath}`,
    caPem: ca.certificatePem,
    harFile,
    judging: judging,
    stop: async () => {
      await proxy.close();
      await bank?.close();
      await har.close();
      judging.finish();
      const finishedAt = new Date();
      const context: ReportContext = {
        runId,
        startedAt,
        finishedAt,
        tool: TOOL,
        target: {
          name: `${options.target} through the judging proxy`,
          environment,
          baseUrl: proxy.upstream?.baseUrl ?? '',
          embedded: Boolean(config.embedded),
          faults: [],
        },
        source: 'proxy',
        maskPersonalData: !options.unmasked,
      };
      const tpp = judging.tppResults(context);
      const bankResults = judging.bankResults({ ...context, target: { ...context.target, name: `${options.target}: the bank's answers` } });
      writeResults(join(dir, 'tpp'), tpp);
      writeResults(join(dir, 'bank'), bankResults);
      const failed = [...tpp.requirements, ...bankResults.requirements].some((r) => r.status === 'FAIL');
      return { tpp, bank: bankResults, dir, exitCode: failed ? 1 : 0 };
    },
  };
}

/**
 * One line per exchange that broke a rule, as it passes; its control characters shown, not obeyed (the TPP's
 * label is what its certificate claims, escape sequences included).
 */
function printBroken({ broken, bankBroken, tpp }: Observation, exchange: ObservedExchange): void {
  if (broken.length === 0 && bankBroken.length === 0) return;
  const path = new URL(exchange.request.url).pathname;
  const sides = [
    broken.length > 0 ? `TPP broke ${broken.join(', ')}` : '',
    bankBroken.length > 0 ? `bank broke ${bankBroken.join(', ')}` : '',
  ].filter(Boolean);
  console.log(
    visibleControls(
      `${exchange.id}: ${exchange.request.method} ${path} → ${exchange.response?.status ?? 'no answer'} · ${sides.join(' · ')} · ${tpp.tpp.label}`,
    ),
  );
}
