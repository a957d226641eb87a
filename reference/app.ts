// Assembles the reference bank as a fastify application: state decorator, error
// handling, the signed /v1 API (signature, JSON body, accounts, sandbox) and the
// SCA pages. server.ts adds certificates and listening.
import fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import type { SecureContextOptions } from 'node:tls';
import { frameworkErrorHandler, installErrorHandling } from './errors.js';
import type { Faults } from './faults.js';
import { accountsPlugin } from './plugins/accounts.js';
import { consentsPlugin } from './plugins/consents.js';
import { jsonBodyPlugin } from './plugins/json-body.js';
import { sandboxPlugin } from './plugins/sandbox.js';
import { scaPlugin } from './plugins/sca.js';
import { signaturePlugin, type SignatureOptions } from './plugins/signature.js';
import { transactionsPlugin } from './plugins/transactions.js';
import { BankState } from './state/bank.js';

export interface AppOptions {
  faults: Faults;
  tls: Pick<SecureContextOptions, 'key' | 'cert'>;
  logger?: boolean;
  trustedTppCaPems?: string[];
}

export async function buildReferenceApp(options: AppOptions): Promise<{ app: FastifyInstance; bank: BankState }> {
  const { faults } = options;
  const bank = new BankState(faults);
  const app = fastify({
    https: { ...options.tls, minVersion: 'TLSv1.2' },
    logger: options.logger ?? false,
    forceCloseConnections: true,
    frameworkErrors: frameworkErrorHandler(faults),
    // Validate bodies as sent: no type coercion, no silent removal of unknown fields.
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false } },
  });

  app.decorate('bank', bank);
  installErrorHandling(app, faults);

  const signature: SignatureOptions = options.trustedTppCaPems === undefined ? {} : { trustedCaPems: options.trustedTppCaPems };
  await app.register(
    async (api) => {
      await api.register(signaturePlugin, signature);
      await api.register(jsonBodyPlugin);
      await api.register(accountsPlugin);
      await api.register(transactionsPlugin);
      await api.register(sandboxPlugin);
      // [ais] consents, user, agreements
      await api.register(consentsPlugin);
    },
    { prefix: '/v1' },
  );
  await app.register(scaPlugin, { prefix: '/sca' });
  return { app, bank };
}
