// Sandbox initialisation: POST /v1/sandbox/initialize takes the caller's world back to the known state
// (customers, accounts, consents, sessions, clock): what was created goes, what was changed comes back.
import fp from 'fastify-plugin';
import { SANDBOX_OPERATION } from '../http/request-context.js';
import { defineFault } from '../switches.js';

const initializeKeepsNames = defineFault('initialize-keeps-changed-names', {
  description: 'initialisation leaves the changed names of known customers as they are',
  breaks: ['SBX-01'],
});
const initializeKeepsCreatedAccounts = defineFault('initialize-keeps-created-accounts', {
  description: 'initialisation leaves the accounts created for known customers in place',
  breaks: ['SBX-02'],
});

export const sandboxResetPlugin = fp(
  (api, _options, done) => {
    api.post('/sandbox/initialize', { config: SANDBOX_OPERATION }, (request, reply) => {
      request.world.reset({
        names: request.switches.breaks(initializeKeepsNames),
        createdAccountsOfKnown: request.switches.breaks(initializeKeepsCreatedAccounts),
      });
      return reply.code(204).send();
    });
    done();
  },
  { name: 'sandbox-reset', encapsulate: true, decorators: { request: ['world'] }, dependencies: ['signature', 'json-body'] },
);
