/**
 * Authentication 9 and 12, Events, PSU identifiers: account access through SCA by redirect. The bank answers
 * 401 with an scaRedirect link, the PSU authenticates and consents in the browser, the bank redirects to
 * TPP-Redirect-URI with psu-id, and the TPP's next call with PSU-ID succeeds.
 */
import { randomUUID } from 'node:crypto';
import {
  accountsOf,
  onlyAsksForSca,
  PrerequisiteUnmet,
  psuIdFrom,
  readsNotRefused,
  refusedForConsentWithoutLink,
  scaRedirectFrom,
  scaRedirectOf,
  scenario,
  servedOrScaAsked,
  test,
} from '../../lib/fixtures/index.js';
import { consentedDebtor, initiate, refusedAlike, sepaPayment } from '../payments/payment-bodies.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

test(
  ...scenario(
    'SCA-10.a',
    'GET /v1/accounts without consent answers 401 with an scaRedirect link to an https address (absolute, or relative to the request)',
    { checks: ['SCA-10', 'END-10', 'SCA-01'] },
    async ({ tpp, paths, check }) => {
      const response = await tpp.get(paths('accounts'));
      const href = scaRedirectOf(response);
      const linked = { expected: 'a body with _links.scaRedirect.href', response };
      check.status('SCA-10', response);
      check.that('SCA-10', href !== undefined, linked);
      check.status('END-10', response);
      const hasLink = check.that('END-10', href !== undefined, linked);
      // scaRedirectOf resolves a relative href against the request's address (MSG-05 lets a link be written so).
      check.that(
        'SCA-01',
        href?.startsWith('https://') === true,
        { expected: 'an scaRedirect href that leads to an https address', actual: href ?? '' },
        { after: hasLink },
      );
    },
  ),
);

test(
  ...scenario(
    'SCA-12.a',
    'SCA in the browser ends at TPP-Redirect-URI, its own query kept, with a UUID psu-id, the tpp-session-id and the context',
    { checks: ['SCA-12', 'EVT-02', 'EVT-03', 'EVT-05', 'EVT-06', 'EVT-07', 'PSU-01', 'PSU-04', 'PSU-09'], ownPsu: true },
    async ({ newTpp, target, sca, paths, check, ownPsu }) => {
      const psu = await ownPsu();
      const state = randomUUID();
      const sessionId = randomUUID();
      const tpp = newTpp({ sessionId, headers: { 'TPP-Redirect-URI': `${target.tpp.redirectUri}?state=${state}` } });
      const redirect = await sca.authorise(scaRedirectFrom(await tpp.get(paths('accounts'))), psu);
      const params = redirect.params;
      const psuId = params['psu-id'];
      const shown = { actual: redirect.url };
      // The rules of the redirect after a successful SCA: a failed one (the PSU could not log in) leaves them unseen.
      if (redirect.outcome !== 'success') throw new PrerequisiteUnmet(`the SCA did not succeed: ${redirect.url}`);

      const reached = check.that('EVT-02', redirect.outcome === 'success' && params.state === state, {
        expected: `a success redirect to TPP-Redirect-URI keeping its query (state=${state})`,
        ...shown,
      });
      check.that('SCA-12', redirect.outcome === 'success' && psuId !== undefined, {
        expected: 'a success redirect carrying psu-id',
        ...shown,
      });
      check.that('PSU-04', psuId !== undefined, { expected: 'psu-id in the redirect', ...shown });
      check.that('EVT-03', psuId !== undefined && UUID.test(psuId), { expected: 'psu-id, a UUID', ...shown }, { after: reached });
      check.that('PSU-01', psuId !== undefined && UUID.test(psuId), { expected: 'an RFC 4122 UUID psu-id', ...shown }, { after: reached });
      check.that(
        'EVT-06',
        params['tpp-session-id'] === sessionId,
        { expected: `tpp-session-id=${sessionId}`, ...shown },
        { after: reached },
      );
      check.that(
        'PSU-09',
        params['tpp-session-id'] === sessionId,
        { expected: 'the TPP-Session-ID of the request that started SCA', ...shown },
        { after: reached },
      );
      check.that('EVT-07', params.context === 'PRIVATE', { expected: 'context=PRIVATE', ...shown }, { after: reached });
      check.that(
        'EVT-05',
        params['psu-corporate-id'] === undefined,
        { expected: 'no psu-corporate-id in private context', ...shown },
        { after: reached },
      );
    },
  ),
);

test(
  ...scenario(
    'SCA-13.a',
    'with the psu-id from the redirect, GET /v1/accounts returns the accounts consented in SCA',
    { checks: ['SCA-13', 'PSU-05', 'SCA-05'] },
    async ({ newTpp, consentedPsu, paths, check }) => {
      const { psuId, sessionId } = await consentedPsu();
      const response = await newTpp({ sessionId }).get(paths('accounts'), { headers: { 'PSU-ID': psuId } });
      readsNotRefused(response);
      const served = check.status('SCA-13', response);
      check.status('PSU-05', response);
      const accounts = accountsOf(response);
      check.that(
        'SCA-05',
        accounts.length > 0,
        { expected: 'the accounts the PSU consented to during SCA (all of them)', actual: `${accounts.length} accounts`, response },
        { after: served },
      );
    },
  ),
);

test(
  ...scenario(
    'SCA-19.a',
    'a PSU who consents to one account only gets exactly that account from GET /v1/accounts',
    { checks: ['SCA-19', 'END-09', 'SCA-13'], ownPsu: true, needs: ['consent-selection'] },
    async ({ newTpp, sca, paths, check, ownPsu }) => {
      const psu = await ownPsu();
      const tpp = newTpp();
      const redirect = await sca.authorise(scaRedirectFrom(await tpp.get(paths('accounts'))), psu, { variant: 'first-account-only' });
      // Under a TPP-Session-ID of its own, as a TPP's later calls (whether the SCA's session is kept is SES-02's to judge);
      // where the bank asks for SCA under one it has never seen (a reading of the session table), under the SCA's.
      const headers = { 'PSU-ID': psuIdFrom(redirect) };
      const elsewhere = await newTpp({ sessionId: randomUUID() }).get(paths('accounts'), { headers });
      const response = onlyAsksForSca(elsewhere) ? await tpp.get(paths('accounts'), { headers }) : elsewhere;
      readsNotRefused(response);
      const served = check.status('SCA-13', response);
      const accounts = accountsOf(response);
      const one = { expected: 'exactly the one account consented to', actual: `${accounts.length} accounts`, response };
      check.that('SCA-19', accounts.length === 1, one, { after: served });
      check.that('END-09', accounts.length === 1, one, { after: served });
    },
  ),
);

test(
  ...scenario(
    'PSU-03.a',
    'a second SCA of the same PSU yields the same psu-id',
    { checks: ['PSU-03'], ownPsu: true },
    async ({ newTpp, sca, paths, check, ownPsu }) => {
      const psu = await ownPsu();
      const psuIds: string[] = [];
      for (const sessionId of [randomUUID(), randomUUID()]) {
        const redirect = await sca.authorise(scaRedirectFrom(await newTpp({ sessionId }).get(paths('accounts'))), psu);
        psuIds.push(psuIdFrom(redirect));
      }
      check.that('PSU-03', psuIds[0] !== undefined && psuIds[1] === psuIds[0], {
        expected: `the same psu-id twice`,
        actual: psuIds.join(' then '),
      });
    },
  ),
);

test(
  ...scenario(
    'PSU-07.a',
    'a well-formed PSU-ID the bank never issued gets no data',
    { checks: ['PSU-07', 'ERR-23'] },
    async ({ tpp, paths, check }) => {
      const response = await tpp.get(paths('accounts'), { headers: { 'PSU-ID': randomUUID() } });
      const refused = check.status('PSU-07', response);
      // Judged on the path the bank takes: a fresh SCA (401 with scaRedirect) is one ERR-23 passes; a 401 for want of consent that lacks
      // the link says nothing of it (SCA-02 judges that).
      if (refused.passed && scaRedirectOf(response) !== undefined)
        return void check.that('ERR-23', true, {
          expected: 'a fresh SCA (401 with scaRedirect), or an error with PSU_CREDENTIALS_INVALID',
          actual: `a fresh SCA: HTTP ${response.status} with scaRedirect`,
          response,
        });
      if (refused.passed && refusedForConsentWithoutLink(response))
        return check.notEvaluated(
          ['ERR-23'],
          'not evaluated: the bank asks for consent (a 401 for want of it, without the scaRedirect link), not for another identification of the PSU',
        );
      const answered = check.status('ERR-23', response, { after: refused });
      check.code('ERR-23', response, { after: answered });
    },
  ),
);

test(
  ...scenario(
    'HDR-16.a',
    'a payment initiation naming the PSU by X-PSU-IDENTITY, the national identity number, instead of PSU-ID is taken',
    { checks: ['HDR-16'], writes: 'initiates a payment' },
    async ({ newTpp, consentedPsu, paths, check }) => {
      const debtor = await consentedDebtor({ newTpp, consentedPsu, paths });
      const { psu, psuId } = debtor;
      const { sessionId } = await consentedPsu();
      if (psu.nationalId === undefined)
        return check.notEvaluated(['HDR-16'], 'not evaluated: the target names no national identity number for its PSU');
      // The header table of payment initiation names it; on an account read, where the spec does not, a bank may ignore it.
      const response = await initiate(newTpp({ sessionId, headers: { 'X-PSU-IDENTITY': psu.nationalId } }), paths, sepaPayment(debtor));
      // A refusal is X-PSU-IDENTITY's only where the bank takes the same payment naming the PSU by PSU-ID.
      const unjudged = servedOrScaAsked(response)
        ? undefined
        : await refusedAlike(newTpp({ sessionId, headers: { 'PSU-ID': psuId } }), paths, sepaPayment(debtor));
      if (unjudged !== undefined) return check.notEvaluated(['HDR-16'], `not evaluated: ${unjudged}`);
      check.accepted('HDR-16', response);
    },
  ),
);

test(
  ...scenario('HDR-17.a', 'an X-PSU-IDENTITY that is not 11 digits gets no data', { checks: ['HDR-17'] }, async ({ tpp, paths, check }) => {
    check.status(
      'HDR-17',
      await tpp.get(paths('accounts'), { headers: { 'X-PSU-IDENTITY': '1303931995' }, malformed: 'X-PSU-IDENTITY of 10 digits' }),
    );
  }),
);
