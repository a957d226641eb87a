/** Errors: a malformed request is the TPP's error, answered with a 4xx and the error body, never a 5xx. */
import { scenario, test } from '../../lib/fixtures/index.js';

test(
  ...scenario(
    'ERR-44.a',
    'a POST whose body is not valid JSON is refused with a 4xx, not a 5xx',
    { checks: ['ERR-44'], needs: ['sandbox-mock-data'], writes: 'calls a sandbox mock-data operation' },
    async ({ tpp, sandbox, check }) => {
      const response = await tpp.request({
        ...sandbox.endpoint('createCustomer'),
        rawBody: '{"customerNumber": "1203',
        headers: { 'Content-Type': 'application/json' },
        malformed: 'a body that is not valid JSON',
      });
      check.status('ERR-44', response);
    },
  ),
);
