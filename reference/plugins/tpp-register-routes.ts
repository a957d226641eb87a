// Authentication 2: a TPP must be a registered AISP or PISP, checked against the register. Every
// request of the interface is refused (403 FORBIDDEN) while the caller's authorisation is withdrawn
// in the bank's copy of the register. The sandbox operations that withdraw and restore it (capability
// tpp-register) act on the calling TPP only, and stay open to a withdrawn TPP so that it can restore itself.
// The contact address a TPP may register (What the service does) is optional: no request waits for it.
import fp from 'fastify-plugin';
import { BankError } from '../bank-errors.js';
import { defineFault } from '../switches.js';
import { checkHook, SANDBOX_OPERATION, tppOf } from '../http/request-context.js';

const registerUnchecked = defineFault('tpp-register-unchecked', {
  description: 'serves a TPP whose authorisation is withdrawn in the register',
  breaks: ['SIG-10'],
});
const contactRegistrationRequired = defineFault('contact-registration-required', {
  description: 'every request of the interface answers 403 FORBIDDEN until the TPP registers a contact e-mail address',
  breaks: ['GEN-14'],
  refusesEveryRequest:
    'registration is optional, and the suite registers no contact address (the dialogue API is not shown): every request it sends is one of an unregistered TPP',
});

export const tppRegisterPlugin = fp(
  (api, _options, done) => {
    api.addHook(
      'preValidation',
      checkHook((request) => {
        if (request.routeOptions.config.sandboxOperation === true) return;
        const tppId = tppOf(request).id;
        // No contact address is ever registered here: the dialogue API that would take one is not shown.
        if (request.switches.breaks(contactRegistrationRequired))
          throw new BankError(403, 'FORBIDDEN', 'Register a contact e-mail address first');
        if (request.world.register.isAuthorised(tppId) || request.switches.breaks(registerUnchecked)) return;
        throw new BankError(403, 'FORBIDDEN', 'The TPP is not authorised as AISP or PISP in the register: its authorisation is withdrawn');
      }),
    );

    api.delete('/sandbox/tpp-register/authorisation', { config: SANDBOX_OPERATION }, (request, reply) => {
      request.world.register.withdraw(tppOf(request).id);
      return reply.code(204).send();
    });

    api.put('/sandbox/tpp-register/authorisation', { config: SANDBOX_OPERATION }, (request, reply) => {
      request.world.register.restore(tppOf(request).id);
      return reply.code(204).send();
    });
    done();
  },
  { name: 'tpp-register', decorators: { request: ['world'] }, dependencies: ['signature'] },
);
