/**
 * Authentication 3 and Errors 1: every request must be signed; a request that should be signed but is not
 * gets 400 with the specification's error body.
 */
import { scenario, test } from '../../lib/fixtures/index.js';

test(
  ...scenario('SIG-03.a', 'a correctly signed request is accepted (not refused)', { checks: ['SIG-03'] }, async ({ tpp, paths, check }) => {
    // Without consent the bank answers 401 with scaRedirect: the request itself was accepted.
    check.accepted('SIG-03', await tpp.get(paths('accounts')));
  }),
);

test(
  ...scenario(
    'SIG-04.a',
    'a request without a Signature header gets 400, with a code that names the problem',
    { checks: ['SIG-04', 'ERR-35', 'SIG-05'] },
    async ({ tpp, paths, check }) => {
      const response = await tpp.request({
        method: 'GET',
        path: paths('accounts'),
        signingDefects: [{ kind: 'no-signature' }],
        malformed: 'no Signature header',
      });
      const refused = check.status('SIG-04', response);
      check.status('ERR-35', response);
      check.code('SIG-05', response, { after: refused });
    },
  ),
);
