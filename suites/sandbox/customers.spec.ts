/** Sandbox mock data: the customer list the sandbox login is made of. */
import { notTestable, scenario, test } from '../../lib/fixtures/index.js';

test(...scenario('SBX-05.a', 'GET /v1/sandbox/customers lists the sandbox customers', { checks: ['SBX-05', 'END-22'] }, async ({ target, tpp, paths, check }) => {
  if (target.environment === 'production') notTestable('sandbox operations exist only in the sandbox');
  const response = await tpp.get(paths('sandboxCustomers'));
  check.status('SBX-05', response);
  check.status('END-22', response);
}));
