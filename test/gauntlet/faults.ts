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
];
