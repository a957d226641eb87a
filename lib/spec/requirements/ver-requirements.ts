/** VER: versioning (path prefix, documentation changes, x-accept-fix, deprecations, release notes). */
import { kept } from './requirement-review.js';
import { defineArea } from './requirement-types.js';

const V = 'Versioning > ';
const X = 'Versioning > x-accept-fix > ';
const DEFAULT =
  'Every implemented fix became default on its "made default" date, all before the current date; the suite therefore expects the fixed behaviour with and without the header.';

export const VER = defineArea('VER', [
  {
    id: 'VER-01',
    level: 'MUST',
    section: `${V}Path prefix`,
    statement: 'The interface is served under the path prefix /v1: its operations answer there.',
    testedBy: 'automated',
    interpretation:
      'Observed over the network: the paths of the operations the suite reads start with /v1, and there they give the API\'s answer (served, or asked for SCA), not a "not found". What the same path without /v1 answers is not judged: a refusal, an alias serving the same API, or a redirect to the /v1 path all keep the prefix where the spec puts it.',
  },
  {
    id: 'VER-02',
    level: 'INFO',
    section: `${V}Documentation version`,
    statement:
      'The documentation is versioned on its own (latest 2.16.0); each documentation version maps to an API release (latest 1.23.7).',
    testedBy: 'manual:context only',
  },
  {
    id: 'VER-03',
    level: 'INFO',
    section: `${V}Documentation changes > 2.16.0`,
    statement: 'Documentation 2.16.0 added balance type interimBooked for card accounts.',
    testedBy: 'manual:release history; the behaviour is AIS-07',
  },
  {
    id: 'VER-04',
    level: 'INFO',
    section: `${V}Documentation changes > 2.15.0`,
    statement:
      'Documentation 2.15.0 deprecated Address.city for townName, updated the sandbox structured address and added regulatory reporting to SEPA cross-border payments.',
    testedBy: 'manual:release history; the behaviours are PAY-23, PAY-24 and ADR',
  },
  {
    id: 'VER-05',
    level: 'INFO',
    section: `${V}Documentation changes > 2.14.0`,
    statement: 'Documentation 2.14.0 introduced a higher service level on non-SEPA cross-border payments.',
    testedBy: 'manual:release history; the fields of cross-border payments are not shown',
  },
  {
    id: 'VER-06',
    level: 'INFO',
    section: `${V}Documentation changes > 2.12.0`,
    statement: 'Documentation 2.12.0 added a payment status for held or stopped payments.',
    testedBy: 'manual:release history; the behaviour is STA-07',
  },
  {
    id: 'VER-07',
    level: 'INFO',
    section: `${V}Documentation changes > 2.11.0`,
    statement: 'Documentation 2.11.0 added the transaction details endpoint.',
    testedBy: 'manual:release history; the behaviour is END-23',
  },
  {
    id: 'VER-08',
    level: 'INFO',
    section: `${V}Documentation changes > 2.9.6`,
    statement: 'Documentation 2.9.6 introduced single-SCA payment initiation.',
    testedBy: 'manual:release history; the behaviour is HDR-20',
  },
  {
    id: 'VER-09',
    level: 'MUST',
    section: `${V}x-accept-fix`,
    statement: 'x-accept-fix switches on published future breaking changes early; several values may be given comma-separated.',
    testedBy: 'automated',
    expect: { status: [200] },
    interpretation: 'Whitespace around the commas is ignored.',
  },
  {
    id: 'VER-10',
    level: 'SHOULD',
    section: `${V}x-accept-fix`,
    statement: 'An x-accept-fix value the bank does not know is ignored, not refused.',
    testedBy: 'automated',
    expect: { status: [200] },
    basis: 'interpretation',
    interpretation: 'The spec defines no error for it; ignoring unknown values lets a TPP send a fix before every environment has it.',
  },
  {
    id: 'VER-11',
    level: 'INFO',
    section: `${V}x-accept-fix`,
    statement: 'The bank announces breaking changes 3 months before they take effect.',
    testedBy: 'manual:a process commitment, not observable through the interface',
  },
  {
    id: 'VER-12',
    level: 'MUST',
    section: `${X}amount-as-string`,
    statement: 'amount-as-string (from 11.2019, default since 1 Aug 2020): amounts are strings, with or without the header.',
    testedBy: 'automated',
    interpretation: DEFAULT,
  },
  {
    id: 'VER-13',
    level: 'MUST',
    section: `${X}cardaccount-switch-originalamount-and-transactionamount`,
    statement:
      'cardaccount-switch-originalamount-and-transactionamount (05.2020, default since 13 Nov 2024): card transaction amounts are mapped right.',
    testedBy: 'automated',
    interpretation: `"Correct mapping" is read as: transactionAmount is in the card account currency, originalAmount in the currency of the purchase, the meanings the Berlin Group cardTransaction gives the two fields. ${DEFAULT}`,
  },
  {
    id: 'VER-14',
    level: 'MUST',
    section: `${X}longer-names`,
    statement: 'longer-names (06.2020, default since 1 Oct 2024): card account names up to 70 characters are returned whole.',
    testedBy: 'needs-capability:sandbox-mock-data',
    interpretation: `Tested by giving a card account a name of 36 to 70 characters. ${DEFAULT}`,
  },
  {
    id: 'VER-15',
    level: 'MUST',
    section: `${X}cash-account-type-iso`,
    statement: 'cash-account-type-iso (06.2023, default since 13 Nov 2024): cashAccountType holds ISO 20022 codes.',
    testedBy: 'automated',
    interpretation: `The codes are those of the ExternalCashAccountType1 list (AIS-08). ${DEFAULT}`,
  },
  {
    id: 'VER-16',
    level: 'MUST',
    section: `${V}x-accept-fix`,
    statement: 'Sending a fix value that is already the default is accepted and changes nothing.',
    testedBy: 'automated',
    interpretation:
      'The four values of the table are the published ones, so a TPP may still send them; as each is the default, the answer is the same with or without it.',
  },
  {
    id: 'VER-17',
    level: 'INFO',
    section: `${V}Deprecations`,
    statement: 'Address.city is deprecated in favour of Address.townName and will be removed.',
    testedBy: 'manual:tracked by PAY-23 (city accepted or refused, both pass) and PAY-24 (townName)',
  },
  {
    id: 'VER-18',
    level: 'MUST',
    section: `${V}Deprecations`,
    statement: 'The deprecated /v1/consents still answers (with an SCA redirect) while /v1/bank-offered-consents replaces it.',
    testedBy: 'automated',
    expect: { status: [200, 201, 401] },
    interpretation:
      'Deprecated means announced for removal, not removed: the endpoint is still listed among the endpoints, so an answer without the SCA redirect (a 404 included) fails. The redirect may come in a 200, 201 or 401 body (END-20).',
    review: [
      kept(
        'refusal',
        'the deprecated endpoint still answers with an SCA redirect',
        'Other endpoints named: POST /v1/consents "deprecated; ignores its body and returns an SCA redirect; replaced by /v1/bank-offered-consents".',
      ),
    ],
  },
  {
    id: 'VER-19',
    level: 'INFO',
    section: `${V}Deprecations`,
    statement: 'The transaction list was slimmed: items it no longer carries are served by the transaction details endpoint.',
    testedBy: 'manual:which items moved is not shown; the details endpoint is END-23',
  },
  {
    id: 'VER-20',
    level: 'MAY',
    section: `${V}Deprecations`,
    statement: 'Transactions may carry remittanceInformationStructuredArray, the successor of remittanceInformationStructured.',
    testedBy: 'automated',
    interpretation:
      'During the change both properties are accepted in responses: the old one as a string of at most 140 (Berlin Group 1.3.8) or a structured object (earlier 1.3 releases), the new one as an array of structured remittance objects (Berlin Group).',
  },
  {
    id: 'VER-21',
    level: 'MUST',
    section: `${V}Release notes > 1.18.0`,
    statement: 'A paymentId stays valid after the payment is changed in another channel of the bank.',
    testedBy: 'needs-capability:bank-channel',
    expect: { status: [200] },
  },
  {
    id: 'VER-22',
    level: 'MUST',
    section: `${V}Release notes > 1.18.0`,
    statement: 'Booked transactions have stable transaction ids.',
    testedBy: 'automated',
    interpretation: 'Same check as AIS-03.',
  },
  {
    id: 'VER-23',
    level: 'MUST',
    section: `${V}Release notes > 1.20.0`,
    statement: 'The transaction details endpoint is available.',
    testedBy: 'automated',
  },
  {
    id: 'VER-24',
    level: 'MUST',
    section: `${V}Release notes > 1.21.20`,
    statement: 'Signing baskets are available for NCBCT payments.',
    testedBy: 'automated',
    interpretation: 'Same check as BSK-13.',
  },
  {
    id: 'VER-25',
    level: 'INFO',
    section: `${V}Release notes > 1.21.8`,
    statement: "Release 1.21.8 brought instant payments between a PSU's own accounts in one bank.",
    testedBy: 'manual:the spec names neither the payment product nor what "instant" means for its statuses, so nothing can be demanded',
  },
  {
    id: 'VER-26',
    level: 'INFO',
    section: `${V}Release notes > 1.21.18`,
    statement: 'Release 1.21.18 added endToEndIdentification to more payment types, without saying which.',
    testedBy: 'manual:the spec does not say which payment types gained the field; for SEPA credit transfers it is PAY-01 and PAY-02',
  },
]);
