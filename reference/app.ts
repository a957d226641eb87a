// Assembles the reference bank as a fastify application: its tenants' worlds, error
// handling, the signed /v1 API (signature, JSON body, accounts, sandbox) and the
// SCA pages. server.ts adds certificates and listening.
import fastify from 'fastify';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SecureContextOptions } from 'node:tls';
import { clientErrorHandler, frameworkErrorHandler, installErrorHandling } from './bank-errors.js';
import type { BehaviourSwitches, TppSwitches } from './switches.js';
import { accountsPlugin } from './plugins/account-routes.js';
import { bankChannelPlugin } from './plugins/bank-channel-routes.js';
import { bodyChangesPlugin } from './plugins/body-changes.js';
import { tppRegisterPlugin } from './plugins/tpp-register-routes.js';
import { basketsPlugin } from './plugins/basket-routes.js';
import { consentsPlugin } from './plugins/consent-routes.js';
import { formatPlugin } from './plugins/response-format.js';
import { judgeReportPlugin, judgingPlugin, rulePagesPlugin, type SandboxJudge } from './plugins/tpp-judging.js';
import { jsonBodyPlugin } from './plugins/json-body.js';
import { paymentsPlugin } from './plugins/payment-routes.js';
import { requestHeadersPlugin } from './plugins/request-headers.js';
import { sandboxAccountsPlugin } from './plugins/sandbox-account-routes.js';
import { sandboxClockPlugin } from './plugins/sandbox-clock-routes.js';
import { sandboxCustomersPlugin } from './plugins/sandbox-customer-routes.js';
import { sandboxHomePlugin } from './plugins/sandbox-home-routes.js';
import { sandboxResetPlugin } from './plugins/sandbox-reset-routes.js';
import { scaPlugin } from './plugins/sca-page-routes.js';
import type { ScaPageSet } from './sca-pages/sca-page-set.js';
import { signaturePlugin, type SignatureOptions } from './plugins/signature.js';
import { transactionsPlugin } from './plugins/transaction-routes.js';
import { unversionedPathRewrite, versioningPlugin } from './plugins/versioning.js';
import {
  capConnectionsPerClient,
  DEFAULT_CONNECTION_LIMITS,
  serverOptions,
  type ConnectionCount,
  type ConnectionLimits,
} from './connections.js';
import type { World } from './state/world.js';
import { batchHours, batchSelection } from './services/payment-batch.js';
import { DEFAULT_STORE_BOUNDS, type StoreBoundsConfig } from './state/store-bounds.js';
import { Tenants, type Tenancy, type TenantLimits } from './state/tenants.js';

export interface AppOptions {
  switches: BehaviourSwitches;
  /** Key and certificate; minVersion and ciphers only to break the bank on purpose (TLS faults, server.ts). */
  tls: Pick<SecureContextOptions, 'key' | 'cert' | 'minVersion' | 'ciphers'>;
  logger?: boolean;
  trustedTppCaPems?: string[];
  /** [scapages] The SCA pages the PSU sees; the reference bank's own by default. */
  scaPages?: ScaPageSet;
  /** [tpp-side] Judge every TPP's requests against the TPP rules (serve --judge). */
  judge?: SandboxJudge;
  /** Told of every request received (server.ts: a request log). */
  onRequest?: (request: { method: string; url: string }) => void;
  /** How long the bank waits for a client and how many connections one may hold (connections.ts). */
  connectionLimits?: ConnectionLimits;
  /** How much of each kind of record each sandbox world keeps (state/store-bounds.ts). */
  storeBounds?: StoreBoundsConfig;
  /** How many TPP worlds the bank keeps, and how fast one client may make them (state/tenants.ts). */
  tenantLimits?: TenantLimits;
  /** Whose PSUs a TPP meets: a copy of its own per key (the default), or one sandbox of PSUs every TPP sees (state/tenants.ts). */
  tenancy?: Tenancy;
}

export async function buildReferenceApp(
  options: AppOptions,
): Promise<{ app: FastifyInstance; tenants: Tenants; connections: ConnectionCount }> {
  const { switches } = options;
  const tenants = new Tenants(
    { batchTakes: batchSelection(switches), batchHours: batchHours(switches) },
    options.storeBounds ?? DEFAULT_STORE_BOUNDS,
    options.tenantLimits,
    options.tenancy,
  );
  const rewriteUrl = unversionedPathRewrite(switches.wholeBank);
  const limits = options.connectionLimits ?? DEFAULT_CONNECTION_LIMITS;
  const deadlines = serverOptions(limits);
  const app = fastify({
    https: { minVersion: 'TLSv1.2', ...options.tls, ...deadlines.https },
    ...deadlines.fastify,
    logger: options.logger ?? false,
    forceCloseConnections: true,
    frameworkErrors: frameworkErrorHandler(switches.wholeBank),
    clientErrorHandler,
    // Validate bodies as sent: no type coercion, no silent removal of unknown fields.
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false } },
    // [corporate] only under the variant unversioned-alias
    ...(rewriteUrl === undefined ? {} : { rewriteUrl }),
  });

  const connections = capConnectionsPerClient(app.server, limits.perClient);
  app.decorate('tenants', tenants);
  const observe = options.onRequest;
  if (observe) {
    app.addHook('onRequest', (request, _reply, done) => {
      observe({ method: request.method, url: request.url });
      done();
    });
  }
  app.decorate('switches', switches);
  // Until the TPP is known, a request meets the switches on for everyone (frameworkErrors run before any hook)
  // and the world of no one. Both are chosen once the TPP is known: by the signature plugin from the request's
  // certificate, by the SCA pages from their authorisation.
  const tppSwitches = Symbol('tppSwitches');
  const tppWorld = Symbol('tppWorld');
  type WithTpp = FastifyRequest & { [tppSwitches]?: TppSwitches; [tppWorld]?: World };
  app.decorateRequest('switches', {
    getter(this: FastifyRequest) {
      return (this as WithTpp)[tppSwitches] ?? switches.wholeBank;
    },
    setter(this: FastifyRequest, value: TppSwitches) {
      (this as WithTpp)[tppSwitches] = value;
    },
  });
  app.decorateRequest('world', {
    getter(this: FastifyRequest) {
      return (this as WithTpp)[tppWorld] ?? tenants.unidentified;
    },
    setter(this: FastifyRequest, value: World) {
      (this as WithTpp)[tppWorld] = value;
    },
  });
  const notFound = installErrorHandling(app);
  if (options.judge) {
    await app.register(judgingPlugin, { judge: options.judge });
    await app.register(rulePagesPlugin, { judge: options.judge });
  }

  const signature: SignatureOptions = options.trustedTppCaPems === undefined ? {} : { trustedCaPems: options.trustedTppCaPems };
  await app.register(
    async (api) => {
      await api.register(signaturePlugin, signature);
      await api.register(tppRegisterPlugin);
      await api.register(formatPlugin);
      await api.register(requestHeadersPlugin);
      // 404 and 405 under /v1 run the /v1 hooks too: the TPP is known (its faults apply) and X-Request-ID is echoed.
      api.setNotFoundHandler(notFound);
      await api.register(jsonBodyPlugin);
      // The faults declared as changes of an answer's body (switches.ts, BodyChange), before versioning rewrites it.
      await api.register(bodyChangesPlugin);
      await api.register(versioningPlugin);
      await api.register(accountsPlugin);
      await api.register(transactionsPlugin);
      await api.register(sandboxCustomersPlugin);
      await api.register(sandboxAccountsPlugin);
      await api.register(sandboxResetPlugin);
      await api.register(sandboxClockPlugin);
      await api.register(paymentsPlugin);
      await api.register(basketsPlugin);
      await api.register(consentsPlugin);
      await api.register(bankChannelPlugin);
      if (options.judge) await api.register(judgeReportPlugin, { judge: options.judge });
    },
    { prefix: '/v1' },
  );
  await app.register(scaPlugin, { prefix: '/sca', ...(options.scaPages ? { pages: options.scaPages } : {}) });
  await app.register(sandboxHomePlugin, { judging: options.judge !== undefined });
  return { app, tenants, connections };
}
