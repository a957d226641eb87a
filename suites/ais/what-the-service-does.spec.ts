/**
 * What the service does: both roles through one interface (GEN-03), consent bank-offered and granted by the
 * PSU in the SCA redirect (GEN-07), no account information before consent (GEN-08), the PSU's own accounts in
 * PRIVATE context (GEN-09), and a TPP served without registering a contact address (GEN-14).
 */
import { randomUUID } from 'node:crypto';
import {
  accountsOf,
  consentServesReads,
  isSuccess,
  onlyAsksForSca,
  PrerequisiteUnmet,
  scaRedirectOf,
  scenario,
  test,
} from '../../lib/fixtures/index.js';
import { initiate, psuIdentity, refusedAlike, sepaPayment } from '../payments/payment-bodies.js';

type Listed = { resourceId?: string; iban?: unknown; currency?: unknown };

/** A Berlin Group consent request asking for everything: a bank-offered consent must not be granted from it. */
const TPP_CONSENT_BODY = {
  access: { allPsd2: 'allAccounts' },
  recurringIndicator: true,
  validUntil: '9999-12-31',
  frequencyPerDay: 4,
  combinedServiceIndicator: false,
};

test(
  ...scenario(
    'GEN-03.a',
    "one interface serves both roles: the same TPP reads a consented PSU's accounts and initiates a payment from one of them",
    { checks: ['GEN-03'], writes: 'initiates a payment' },
    async ({ newTpp, consentedPsu, psu: targetPsu, paths, check }) => {
      const { psuId, sessionId } = await consentedPsu();
      const tpp = newTpp({ sessionId, headers: { 'PSU-ID': psuId } });
      const listing = await tpp.get(paths('accounts'));
      // Asked for SCA again, the AISP was not refused: whether the consent serves reads is SCA-13's to judge.
      if (onlyAsksForSca(listing))
        throw new PrerequisiteUnmet(`the account list under the consent asks for SCA again (HTTP ${listing.status})`);
      check.that('GEN-03', isSuccess(listing), { expected: 'as an AISP: the account list (2xx)', response: listing });
      // The account's shape is AIS-11's rule: a listed account without IBAN or currency only leaves nothing to pay from.
      const account = accountsOf<Listed>(listing).find((a) => typeof a.iban === 'string' && typeof a.currency === 'string');
      if (account === undefined) throw new PrerequisiteUnmet('no listed account with an IBAN and a currency to pay from');
      // A SEPA credit transfer, in euro as every other of the suite's (SEPA is a euro scheme), from the account read.
      const from = { account: { iban: String(account.iban), currency: String(account.currency) } };
      const initiation = await initiate(tpp, paths, sepaPayment(from));
      // A refusal denies the TPP its second role only where the bank takes the suite's payments at all.
      const unjudged = isSuccess(initiation)
        ? undefined
        : await refusedAlike(newTpp({ headers: psuIdentity(targetPsu) }), paths, sepaPayment(from));
      if (unjudged !== undefined) return check.notEvaluated(['GEN-03'], `not evaluated as a PISP: ${unjudged}`);
      check.that('GEN-03', isSuccess(initiation), {
        expected: 'as a PISP, on the same interface: the payment initiated (2xx)',
        response: initiation,
      });
    },
  ),
);

test(
  ...scenario(
    'GEN-08.a',
    'before the PSU consented to anything, an account read for that PSU answers 401 with an scaRedirect, never data',
    { checks: ['GEN-08'], ownPsu: true, writes: 'creates a customer' },
    async ({ tpp, paths, ownPsu, check }) => {
      const psu = await ownPsu();
      // A PSU the bank knows, named with X-PSU-IDENTITY (the alternative to a psu-id, which only an SCA gives).
      const response = await tpp.get(paths('accounts'), { headers: { 'X-PSU-IDENTITY': psu.nationalId ?? '' } });
      const refused = check.status('GEN-08', response);
      check.that(
        'GEN-08',
        scaRedirectOf(response) !== undefined,
        { expected: 'an scaRedirect link to obtain the consent', actual: scaRedirectOf(response) ?? '(none)', response },
        { after: refused },
      );
    },
  ),
);

test(
  ...scenario(
    'GEN-07.a',
    "consent is granted by the PSU in the SCA redirect, not by a TPP's consent body; in PRIVATE context the PSU's own accounts are offered and returned",
    { checks: ['GEN-07', 'GEN-09'], needs: ['sandbox-mock-data'], ownPsu: true, writes: 'creates a customer and an account' },
    async ({ tpp, newTpp, paths, sca, ownPsu, sandbox, check }) => {
      const psu = await ownPsu();
      const accountId = await sandbox.create('createAccount', {
        customerNumber: psu.nationalId,
        accountName: 'Egen konto',
        currency: 'NOK',
      });
      const identity = { 'X-PSU-IDENTITY': psu.nationalId ?? '' };
      // Served before any consent, the read after the body could not show what the body granted (GEN-08 judges that).
      // Under a TPP-Session-ID of its own: its scaRedirect is left unopened, and the flow below must not repeat a request of its session
      // (TPP-41).
      const unconsented = await newTpp({ sessionId: randomUUID() }).get(paths('accounts'), { headers: identity });
      if (isSuccess(unconsented))
        throw new PrerequisiteUnmet(`the PSU's accounts are served before any consent (HTTP ${unconsented.status})`);
      const request = await tpp.post(paths('bankOfferedConsents'), TPP_CONSENT_BODY, { headers: identity });
      const before = await tpp.get(paths('accounts'), { headers: identity });
      check.that('GEN-07', !isSuccess(before), {
        expected: "no account data after the TPP's consent body alone",
        actual: `HTTP ${before.status}, ${accountsOf(before).length} account(s)`,
        response: before,
      });

      const href = scaRedirectOf(before) ?? scaRedirectOf(request);
      if (href === undefined) throw new PrerequisiteUnmet('no scaRedirect to let the PSU consent');
      const redirect = await sca.authorise(href, psu);
      const psuId = redirect.params['psu-id'];
      if (redirect.outcome !== 'success' || psuId === undefined) throw new PrerequisiteUnmet('the SCA of the PSU did not succeed');
      const after = await tpp.get(paths('accounts'), { headers: { 'PSU-ID': psuId } });
      // Whether the consent granted in the redirect serves reads is SCA-13's and SCA-05's to judge.
      consentServesReads(after);
      const ids = accountsOf<Listed>(after).map((a) => a.resourceId);
      check.that('GEN-09', ids.includes(accountId), {
        expected: `the PSU's own account ${accountId} returned in PRIVATE context`,
        actual: JSON.stringify(ids),
        response: after,
      });
    },
  ),
);

test(
  ...scenario(
    'GEN-14.a',
    'a TPP that never registered a contact e-mail address is served normally',
    { checks: ['GEN-14'] },
    async ({ tpp, paths, check }) => {
      // The suite never registers a contact address (the dialogue API is not shown): every TPP of the run is unregistered.
      // Its first request is answered as any TPP's: served, or sent to SCA (a 401 for want of consent without the link
      // says neither, and is SCA-02's). What a consent then serves is SCA-13's and GEN-03's.
      check.accepted('GEN-14', await tpp.get(paths('accounts')));
    },
  ),
);
