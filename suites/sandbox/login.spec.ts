/** What the service does > Environments: the sandbox login needs only a mocked national identification number. */
import { notTestable, scaRedirectFrom, scenario, test } from '../../lib/fixtures/index.js';

const NATIONAL_ID = '{{psu.nationalId}}';

test(
  ...scenario(
    'GEN-06.a',
    'the sandbox SCA login asks only for a mocked national identity number: a number made up for the scenario, and nothing else, completes it',
    { checks: ['GEN-06'], ownPsu: true, writes: 'creates a customer' },
    async ({ target, tpp, paths, sca, ownPsu, check }) => {
      if (target.environment !== 'sandbox') notTestable('the rule is about the sandbox login');
      // The target's steps say what its login pages ask for: nothing but the national identity number may be typed.
      const typed = target.sca.flatMap((rule) => rule.steps).flatMap((step) => ('fill' in step ? [step.fill.value] : []));
      const more = typed.filter((value) => value !== NATIONAL_ID);
      check.that('GEN-06', more.length === 0, {
        expected: `the SCA steps type ${NATIONAL_ID} only`,
        actual: more.length === 0 ? `${NATIONAL_ID} only` : `also ${more.join(', ')}`,
      });
      const capture = await sca.authorise(scaRedirectFrom(await tpp.get(paths('accounts'))), await ownPsu());
      check.that('GEN-06', capture.outcome === 'success', {
        expected: 'the SCA completed with the mocked number alone',
        actual: `${capture.outcome}${capture.params.code ? ` (${capture.params.code})` : ''}`,
      });
    },
  ),
);
