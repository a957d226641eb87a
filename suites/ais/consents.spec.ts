/**
 * Endpoints > Other endpoints named, Versioning > Deprecations: consent is bank-offered, so the deprecated
 * POST /v1/consents ignores its body and answers with an SCA redirect, and so does its replacement POST
 * /v1/bank-offered-consents.
 */
import { isSuccess, jsonBodyOf, scaRedirectOf, scenario, test } from '../../lib/fixtures/index.js';

/** A body the Berlin Group consent schema would refuse: the bank must not read it. */
const IGNORED_BODY = { access: 'everything, please', recurringIndicator: 'yes', validUntil: 'tomorrow' };

test(
  ...scenario(
    'END-20.a',
    'the deprecated POST /v1/consents ignores its body and answers with an scaRedirect link',
    { checks: ['END-20', 'VER-18'] },
    async ({ tpp, paths, check }) => {
      const response = await tpp.post(paths('consents'), IGNORED_BODY, { deliberate: 'the deprecated endpoint' });
      const linked = { expected: 'an scaRedirect link in the body', actual: scaRedirectOf(response) ?? '(none)', response };
      for (const id of ['END-20', 'VER-18'] as const) {
        const answered = check.status(id, response);
        check.that(id, scaRedirectOf(response) !== undefined, linked, { after: answered });
      }
    },
  ),
);

test(
  ...scenario(
    'END-21.a',
    'POST /v1/bank-offered-consents answers with an scaRedirect link',
    { checks: ['END-21'] },
    async ({ tpp, paths, check }) => {
      const response = await tpp.post(paths('bankOfferedConsents'), {});
      const answered = check.status('END-21', response);
      check.that(
        'END-21',
        scaRedirectOf(response) !== undefined,
        { expected: 'an scaRedirect link in the body', actual: scaRedirectOf(response) ?? '(none)', response },
        { after: answered },
      );
    },
  ),
);

test(
  ...scenario(
    'AIS-15.a',
    'a consent resource the bank answers a consent request with (a 2xx body naming a consent) follows the Berlin Group 1.3 shape; an SCA redirect alone has none',
    { checks: ['AIS-15'] },
    async ({ tpp, paths, check }) => {
      const response = await tpp.post(paths('bankOfferedConsents'), {});
      // A 2xx body naming a consent is the consent resource (Berlin Group consentsResponse-201); a 401, or a 2xx
      // body holding only the scaRedirect link, is the redirect alone ("returns an SCA redirect").
      const body = jsonBodyOf(response) as { consentId?: unknown; consentStatus?: unknown } | undefined;
      if (isSuccess(response) && (body?.consentId !== undefined || body?.consentStatus !== undefined)) {
        check.schema(jsonBodyOf(response), 'ConsentCreationResponse');
        return;
      }
      if (scaRedirectOf(response) === undefined)
        return check.notEvaluated(
          ['AIS-15'],
          `not evaluated: HTTP ${response.status}, neither a consent resource nor an SCA redirect (END-21 judges that)`,
        );
      check.that('AIS-15', true, {
        expected: 'a consent resource in the Berlin Group shape, or an SCA redirect without one',
        actual: `HTTP ${response.status}: the SCA redirect, no consent resource to shape`,
        response,
      });
    },
  ),
);
