/**
 * The fault gauntlet: for each fault of the reference bank, the suite tests that must FAIL because of it.
 * A conformance test that no fault can make fail proves nothing; this table is where that is shown.
 */
export interface GauntletCase {
  fault: string;
  /** Playwright --grep, to run only the tests concerned (each run starts its own bank). */
  grep: string;
  /** Titles (substrings) of tests that must FAIL under this fault… */
  mustFail: string[];
  /** …and with a failure message that shows the right reason. */
  because: RegExp;
  /**
   * Only SHOULD-level rules broken: they are WARNINGs, the run stays INCOMPLETE with exit 0, and these
   * requirements must show WARNING. Otherwise the run must be NON_CONFORMANT with exit 1.
   */
  warnings?: string[];
}

export const GAUNTLET: GauntletCase[] = [
  {
    fault: 'signature-check-off',
    grep: 'Signature header',
    mustFail: ['a request without a Signature header gets 400'],
    because: /Expected: HTTP 400 with the error body/,
  },
  {
    fault: 'accept-missing-signature',
    grep: 'Signature header',
    mustFail: ['a request without a Signature header gets 400'],
    because: /Expected: HTTP 400 with the error body/,
  },
  {
    fault: 'error-body-missing-fields',
    grep: 'Signature header',
    mustFail: ['a request without a Signature header gets 400'],
    because: /Problem: +field `id` \(string\) is missing/,
  },
  {
    fault: 'date-check-off',
    grep: 'Date',
    mustFail: ['a Date 61 s in the past gets 400', 'a Date 61 s in the future gets 400', 'a Date 10 minutes in the past gets 400'],
    because: /Expected: HTTP 400 with the error body/,
  },
  {
    fault: 'date-tolerance-120',
    grep: 'Date',
    mustFail: [
      'a Date 61 s in the past gets 400',
      'a Date 61 s in the future gets 400',
      "a Date 65 s behind the target's clock gets 400",
      "a Date 65 s ahead of the target's clock gets 400",
    ],
    because: /Expected: HTTP 400 with the error body/,
  },
  {
    fault: 'date-tolerance-30',
    grep: 'Date',
    mustFail: [
      'a Date 59 s in the past is accepted',
      'a Date 59 s in the future is accepted',
      "a Date 55 s behind the target's clock is accepted",
      "a Date 55 s ahead of the target's clock is accepted",
      'a Date 60 s in the past is accepted',
      'a Date 60 s in the future is accepted',
    ],
    because: /Expected: HTTP 200 or 401/,
  },
  {
    fault: 'no-sca-redirect',
    grep: 'scaRedirect|SCA in the browser',
    mustFail: ['answers 401 with an scaRedirect link', 'SCA in the browser ends at TPP-Redirect-URI'],
    because: /scaRedirect/,
  },
  {
    fault: 'sca-redirect-without-verbs',
    grep: 'scaRedirect link',
    mustFail: ['answers 401 with an scaRedirect link'],
    because: /verbs/,
  },
  {
    fault: 'psu-id-not-uuid',
    grep: 'SCA in the browser',
    mustFail: ['SCA in the browser ends at TPP-Redirect-URI'],
    because: /psu-id/,
  },
  {
    fault: 'redirect-drops-tpp-session-id',
    grep: 'SCA in the browser',
    mustFail: ['SCA in the browser ends at TPP-Redirect-URI'],
    because: /tpp-session-id/,
  },
  {
    fault: 'psu-id-unstable',
    grep: 'same psu-id',
    mustFail: ['a second SCA of the same PSU yields the same psu-id'],
    because: /psu-id of the second SCA/,
  },
  {
    fault: 'redirect-drops-context',
    grep: 'SCA in the browser',
    mustFail: ['SCA in the browser ends at TPP-Redirect-URI'],
    because: /context/,
  },
  {
    fault: 'consent-not-stored',
    grep: 'consented accounts',
    mustFail: ['with the psu-id from the redirect, GET /v1/accounts returns the consented accounts'],
    because: /Expected: HTTP 200\n/,
  },
  {
    fault: 'accounts-ignore-consent',
    grep: 'one account only',
    mustFail: ['a PSU who consents to one account only gets exactly that account'],
    because: /accounts returned after consenting to exactly one/,
  },
  {
    fault: 'require-request-target',
    grep: 'correctly signed',
    mustFail: ['a correctly signed request is accepted'],
    because: /Expected: HTTP 200 or 401/,
  },
  {
    fault: 'generic-signature-error-codes',
    grep: 'carries code',
    mustFail: ['the 400 for a missing Signature carries code SIGNATURE_MISSING', 'the 400 for a Date outside the window carries code TIMESTAMP_INVALID'],
    because: /code FORMAT_ERROR is not one of/,
    warnings: ['SIG-05', 'SIG-13'],
  },
  {
    fault: 'sca-redirect-over-http',
    grep: 'scaRedirect link',
    mustFail: ['answers 401 with an scaRedirect link'],
    because: /scaRedirect href must be https/,
  },
  {
    fault: 'corporate-id-in-private-context',
    grep: 'SCA in the browser',
    mustFail: ['SCA in the browser ends at TPP-Redirect-URI'],
    because: /psu-corporate-id/,
  },
];
