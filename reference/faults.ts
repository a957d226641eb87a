// Named faults: each one makes the reference bank break exactly one rule of the
// specification, so that the conformance suite can be shown to catch it.
// A fault is consulted in the one place where its rule is implemented.

export const KNOWN_FAULTS = {
  'signature-check-off': 'accepts requests with any signature, or none at all',
  'accept-missing-signature': 'accepts requests without a Signature header (invalid signatures are still rejected)',
  'date-check-off': 'does not check the Date header against the bank clock',
  'date-tolerance-120': 'accepts a Date header up to 120 seconds off (instead of 60)',
  'date-tolerance-30': 'rejects a Date header more than 30 seconds off (instead of 60)',
  'psu-id-not-uuid': 'the SCA redirect carries a psu-id that is not a UUID',
  'psu-id-unstable': 'the SCA redirect carries a new psu-id at every SCA',
  'no-sca-redirect': 'a 401 asking for SCA has no scaRedirect link',
  'sca-redirect-without-verbs': 'the scaRedirect link has no verbs',
  'redirect-drops-tpp-session-id': 'the redirect after successful SCA omits tpp-session-id',
  'redirect-drops-context': 'the redirect after successful SCA omits context',
  'consent-not-stored': 'the consent the PSU confirms during SCA is not stored, so PSU-ID calls keep answering 401',
  'accounts-ignore-consent': 'account endpoints return all accounts of the PSU, not only the consented ones',
  'error-body-missing-fields': 'error bodies omit id and system',
  'require-request-target': 'refuses signatures that do not cover (request-target), which the specification does not ask for',
  'generic-signature-error-codes': 'signature and Date failures answer code FORMAT_ERROR instead of the specific code',
  'sca-redirect-over-http': 'the scaRedirect href is a plain http:// address',
  'corporate-id-in-private-context': 'the redirect after SCA in private context carries a psu-corporate-id',
  'server-error-on-bad-json': 'a malformed JSON body gives 500 instead of 400',
} as const satisfies Record<string, string>;

export type FaultName = keyof typeof KNOWN_FAULTS;

export function isFaultName(name: string): name is FaultName {
  return Object.hasOwn(KNOWN_FAULTS, name);
}

/** The set of faults a bank instance runs with; empty for a conforming bank. */
export class Faults {
  readonly names: readonly FaultName[];
  private readonly active: ReadonlySet<FaultName>;

  constructor(names: readonly string[] = []) {
    const unknown = names.filter((n) => !isFaultName(n));
    if (unknown.length > 0) {
      throw new Error(
        `Unknown fault${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `"${n}"`).join(', ')}. ` +
          `Known faults: ${Object.keys(KNOWN_FAULTS).join(', ')}`,
      );
    }
    this.names = Object.freeze([...new Set(names as FaultName[])]);
    this.active = new Set(this.names);
  }

  has(name: FaultName): boolean {
    return this.active.has(name);
  }
}
