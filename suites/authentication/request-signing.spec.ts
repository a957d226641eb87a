/**
 * Authentication 3 and Errors 1: every request must be signed; a request that should be signed but is not
 * gets 400 with the specification's error body.
 */
import { expect, req, test } from '../../lib/fixtures/index.js';

test.describe('Authentication 3: every request is signed', () => {
  test('a correctly signed request is accepted (not refused with 400)', req('SIG-03'), async ({ tpp, paths }) => {
    const response = await tpp.get(paths('accounts'));
    // Without consent the bank answers 401 with scaRedirect; what matters here is that it is not a 400.
    expect(response).toHaveStatus([200, 401]);
  });

  test(
    'a request without a Signature header gets 400 with the error body',
    req('SIG-04', 'ERR-35', 'ERR-01', 'ERR-02', 'ERR-03', 'ERR-04', 'ERR-05'),
    async ({ tpp, paths }) => {
      const response = await tpp.request({ method: 'GET', path: paths('accounts'), faults: [{ kind: 'no-signature' }] });
      expect(response).toBeErrorResponse({ status: 400 });
    },
  );

  test('the 400 for a missing Signature carries code SIGNATURE_MISSING', req('SIG-05'), async ({ tpp, paths }) => {
    const response = await tpp.request({ method: 'GET', path: paths('accounts'), faults: [{ kind: 'no-signature' }] });
    expect(response).toBeErrorResponse({ status: 400, codes: ['SIGNATURE_MISSING'] });
  });
});
