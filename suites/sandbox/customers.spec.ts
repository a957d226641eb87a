/** Sandbox mock data: the customer list the sandbox login is made of. */
import { jsonBodyOf, notTestable, scenario, test } from '../../lib/fixtures/index.js';

test(
  ...scenario(
    'SBX-05.a',
    'GET /v1/sandbox/customers lists the sandbox customers, each with the number typed at login and its type',
    { checks: ['END-22', 'SBX-05'] },
    async ({ target, tpp, paths, check }) => {
      if (target.environment === 'production') notTestable('sandbox operations exist only in the sandbox');
      const response = await tpp.get(paths('sandboxCustomers'));
      const listed = check.status('END-22', response);
      // The payload is not shown: this interface family's shape, a SHOULD (SBX-05).
      check.schema(jsonBodyOf(response), 'SandboxCustomers', { after: listed });
    },
  ),
);
