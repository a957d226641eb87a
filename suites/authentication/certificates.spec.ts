/**
 * Authentication 2: a TPP holds an eIDAS certificate from a trusted CA, in validity, with the PSD2 role the
 * service needs. The specification validates certificates "in production", so these run on a target that
 * declares it validates as production does and trusts the suite's test CA (test-ca-trusted): the
 * scenario's own TPP signs with a variant of its certificate that is wrong in one way.
 */
import { scaRedirectOf, scenario, type Check, type CheckResult, type TppResponse } from '../../lib/fixtures/index.js';

const PRODUCTION_VALIDATION = { needs: ['test-ca-trusted'] } as const;

/**
 * Refused with a status the entry lists; a 401 that only asks for SCA (scaRedirect) or a 2xx means the
 * certificate was taken, whatever its status.
 */
function refused(check: Check, id: string, response: TppResponse): CheckResult {
  const served = (response.status >= 200 && response.status < 300) || scaRedirectOf(response) !== undefined;
  if (served) return check.that(id, false, { expected: 'the certificate refused', actual: 'the request was served (the certificate taken)', response });
  return check.status(id, response);
}

scenario('SIG-02.a', 'a certificate from a CA the bank does not trust is refused', { checks: ['SIG-02'], ...PRODUCTION_VALIDATION }, async ({ newTpp, paths, check }) => {
  const response = await newTpp({ certificate: { kind: 'untrusted-ca' } }).get(paths('accounts'), { malformed: 'certificate from an untrusted CA' });
  refused(check, 'SIG-02', response);
});

scenario('SIG-09.a', 'an expired certificate is refused', { checks: ['SIG-09'], ...PRODUCTION_VALIDATION }, async ({ newTpp, paths, check }) => {
  const response = await newTpp({ certificate: { kind: 'expired' } }).get(paths('accounts'), { malformed: 'an expired certificate' });
  refused(check, 'SIG-09', response);
});

scenario(
  'SIG-08.a',
  'a certificate without the account information role (PSP_AI) is refused account access, with FORBIDDEN',
  { checks: ['SIG-08', 'ERR-13'], ...PRODUCTION_VALIDATION },
  async ({ newTpp, paths, check }) => {
    const response = await newTpp({ certificate: { kind: 'roles', roles: ['PSP_PI'] } }).get(paths('accounts'), { malformed: 'a PIS-only certificate reading accounts' });
    const roleRefused = refused(check, 'SIG-08', response);
    check.code('ERR-13', response, { after: roleRefused });
  },
);
