/**
 * Authentication 1: "TLS 1.2 or higher is always used." Probed at the TLS layer of the target the scenario's
 * TPP talks to: legacy handshakes must be refused by the server (an alert or a closed connection; when the
 * local TLS library cannot even offer the version, nothing is learnt and the check is NOT_EVALUATED), plain
 * HTTP must not be served (no answer, a refusal such as nginx's 400 or a redirect to https all keep it TLS-only),
 * and a TLS 1.2 handshake (or, from a server that refuses 1.2, a TLS 1.3 one) must complete with a certificate
 * valid for the host.
 */
import { plainHttpAnswer, probeTls, scenario, test } from '../../lib/fixtures/index.js';

test(
  ...scenario(
    'SIG-01.a',
    'TLS 1.0 and TLS 1.1 handshakes are refused by the server, and plain HTTP is not served',
    { checks: ['SIG-01'] },
    async ({ tpp, paths, check }) => {
      for (const version of ['TLSv1', 'TLSv1.1'] as const) {
        const probe = await probeTls(tpp.transport, version);
        if (probe.outcome === 'client-cannot-offer') {
          check.notEvaluated(['SIG-01'], `not evaluated for ${version}: this machine's TLS library cannot offer it (${probe.detail})`);
          continue;
        }
        check.that('SIG-01', probe.outcome === 'refused-by-server', {
          expected: `the server refuses a ${version} handshake`,
          actual: `${probe.outcome} (${probe.detail})`,
        });
      }
      // The request a TPP would send, signed, as plain HTTP: what matters is whether the interface serves it there.
      const plain = await plainHttpAnswer(tpp, paths('accounts'));
      check.that('SIG-01', !plain.served, {
        expected: 'the interface not served over plain HTTP on the TLS port (no answer, a refusal or a redirect to https)',
        actual: plain.detail,
      });
    },
  ),
);

test(
  ...scenario(
    'SIG-01.b',
    'a TLS 1.2 (or, where the server refuses 1.2, a TLS 1.3) handshake completes with a certificate valid for the host name',
    { checks: ['SIG-01'] },
    async ({ tpp, check }) => {
      // "TLS 1.2 or higher": a server that speaks TLS 1.3 alone keeps the floor as well as one that offers 1.2.
      const tls12 = await probeTls(tpp.transport, 'TLSv1.2');
      const probe = tls12.outcome === 'refused-by-server' ? await probeTls(tpp.transport, 'TLSv1.3') : tls12;
      const tried = probe === tls12 ? '' : `TLS 1.2 refused (${tls12.detail}), then TLS 1.3: `;
      check.that('SIG-01', probe.outcome === 'established', {
        expected: 'TLS 1.2 or higher established, certificate verified for the host name',
        actual: `${tried}${probe.outcome} (${probe.detail})`,
      });
    },
  ),
);
