/**
 * Authentication 2: a TPP holds an eIDAS certificate from a trusted CA, in validity, with the PSD2 role the
 * service needs. The specification validates certificates "in production", so these run on a target that
 * declares it validates as production does and trusts the suite's test CA (test-ca-trusted): the
 * scenario's own TPP signs with a variant of its certificate that is wrong in one way. The registration check
 * of the same item runs where the target keeps a register the tester can change (tpp-register).
 */
import { isSuccess, scenario, servedOrScaAsked, test } from '../../lib/fixtures/index.js';

const PRODUCTION_VALIDATION = { needs: ['test-ca-trusted'] } as const;

test(
  ...scenario(
    'SIG-02.a',
    'a certificate from a CA the bank does not trust is refused',
    { checks: ['SIG-02'], ...PRODUCTION_VALIDATION },
    async ({ newTpp, paths, check }) => {
      const response = await newTpp({ certificate: { kind: 'untrusted-ca' } }).get(paths('accounts'), {
        malformed: 'certificate from an untrusted CA',
      });
      check.refused('SIG-02', response);
    },
  ),
);

test(
  ...scenario(
    'SIG-09.a',
    'an expired certificate is refused',
    { checks: ['SIG-09'], ...PRODUCTION_VALIDATION },
    async ({ newTpp, paths, check }) => {
      const response = await newTpp({ certificate: { kind: 'expired' } }).get(paths('accounts'), { malformed: 'an expired certificate' });
      check.refused('SIG-09', response);
    },
  ),
);

test(
  ...scenario(
    'SIG-08.a',
    'a certificate without the account information role (PSP_AI) is refused account access, with FORBIDDEN',
    { checks: ['SIG-08', 'ERR-13'], ...PRODUCTION_VALIDATION },
    async ({ newTpp, paths, check }) => {
      const response = await newTpp({ certificate: { kind: 'roles', roles: ['PSP_PI'] } }).get(paths('accounts'), {
        malformed: 'a PIS-only certificate reading accounts',
      });
      const roleRefused = check.refused('SIG-08', response);
      check.code('ERR-13', response, { after: roleRefused });
    },
  ),
);

test(
  ...scenario(
    'SIG-10.a',
    'a TPP whose authorisation is withdrawn in the register is refused, where the same request was served just before',
    {
      checks: ['SIG-10'],
      needs: ['tpp-register'],
      // The register entry is the TPP's, which every scenario of the run shares: nothing else may run meanwhile.
      globalState: "withdraws the run's own TPP authorisation in the target's register, and restores it",
    },
    async ({ tpp, paths, check }) => {
      const before = await tpp.get(paths('accounts'));
      if (!servedOrScaAsked(before))
        return check.notEvaluated(
          ['SIG-10'],
          `not evaluated: the TPP was refused before its authorisation was withdrawn (HTTP ${before.status})`,
        );
      const withdrawn = await tpp.request({ method: 'DELETE', path: paths('sandboxTppAuthorisation') });
      if (!isSuccess(withdrawn))
        return check.notEvaluated(
          ['SIG-10'],
          `not evaluated: the target did not withdraw the authorisation in its register (HTTP ${withdrawn.status})`,
        );
      try {
        check.refused('SIG-10', await tpp.get(paths('accounts'), { malformed: 'a TPP whose authorisation is withdrawn in the register' }));
      } finally {
        await tpp.request({ method: 'PUT', path: paths('sandboxTppAuthorisation') });
      }
    },
  ),
);
