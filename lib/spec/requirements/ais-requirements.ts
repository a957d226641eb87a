/** AIS: the account, balance and transaction facts the spec gives (Resources > account information facts). */
import { relaxed, variant } from './requirement-review.js';
import { defineArea } from './requirement-types.js';

const F = 'Resources > Account information facts > ';
const NS = 'Resources > Account, balance, transaction and consent fields (not shown)';
const BG =
  "The spec does not show these fields and says the interface follows XS2A 1.3; the Berlin Group 1.3.8 shape fills the gap, with the spec's own facts (string amounts, name 70, cashAccountType codes) taking precedence. Links keep the Berlin Group shape: verbs on them are MSG-09 (SHOULD).";
const OAS = 'NextGenPSD2 XS2A 1.3 OpenAPI 1.3.8, schema';

export const AIS = defineArea('AIS', [
  {
    id: 'AIS-01',
    level: 'MUST',
    section: `${F}booked and pending`,
    statement:
      'A transaction list groups its entries as booked and pending: every entry is in one of the groups (transactions.booked, transactions.pending), each an array; a group with no entry may be left out.',
    testedBy: 'automated',
    interpretation:
      '"Transactions are grouped as booked and pending" names the groups; the Berlin Group accountReport requires only _links, says "booked shall be contained" for booked and both, and leaves pending out for booked. So each group present is an array and every entry is in one; a group with no entry may be left out (an empty pending one, above all), while a list of entries under another name is no grouping.',
    review: [
      variant(
        'assertion',
        'END-13.a: booked and pending both demanded as arrays',
        ['empty-transaction-groups-omitted'],
        'Berlin Group 1.3.8 accountReport: required only _links; "booked shall be contained if bookingStatus parameter is set to booked or both"; pending is one of the groups, not one every answer carries.',
      ),
    ],
  },
  {
    id: 'AIS-02',
    level: 'MUST',
    section: `${F}booked is final`,
    statement: 'A booked transaction is final: reading the list again returns it unchanged.',
    testedBy: 'automated',
    interpretation:
      'Compared transaction by transaction, by transactionId, as data: the order of the list or of the fields in an entry, links that point at the same resource in another form, and entries booked between the two reads do not count as a change.',
  },
  {
    id: 'AIS-03',
    level: 'MUST',
    section: `${F}transactionId`,
    statement: 'A booked transaction has a transactionId that stays the same across reads.',
    testedBy: 'automated',
  },
  {
    id: 'AIS-04',
    level: 'INFO',
    section: `${F}pending may change`,
    statement: 'A pending transaction may change between reads; nothing about it is compared across reads.',
    testedBy: 'manual:a permission to the bank; the suite relies on no stability of pending entries',
  },
  {
    id: 'AIS-05',
    level: 'MAY',
    section: `${F}additionalInformationProprietaryX`,
    statement: 'Extra proprietary references appear, when available, in additionalInformationProprietaryX fields.',
    testedBy: 'automated',
    interpretation:
      'X stands for a suffix (a number or name); any property whose name starts with additionalInformationProprietary is accepted, whatever its value, since the spec gives no type and the Berlin Group has no such field.',
  },
  {
    id: 'AIS-06',
    level: 'MUST',
    section: `${F}remittanceInformationUnstructured`,
    statement: 'In transaction lists remittanceInformationUnstructured is an array of strings.',
    testedBy: 'automated',
    interpretation: 'The rule is stated for lists; on the transaction details endpoint a string or an array both pass.',
  },
  {
    id: 'AIS-07',
    level: 'SHOULD',
    section: `${F}interimBooked`,
    statement: 'Card account balances include balance type interimBooked when it is available.',
    testedBy: 'automated',
    interpretation: '"When available" cannot be checked from outside, so its absence is a WARNING, not a FAIL.',
  },
  {
    id: 'AIS-08',
    level: 'MUST',
    section: `${F}cashAccountType`,
    statement: 'cashAccountType is a code of the ISO 20022 ExternalCashAccountType1 list (e.g. CACC, SVGS, CARD, LOAN, TAXE).',
    testedBy: 'automated',
    interpretation:
      '"Follows ISO 20022 mapping" (and cash-account-type-iso, VER-15) is read as a code of that external code list, kept in lib/spec/codelists.ts; four capital letters that are no code of it fail.',
  },
  {
    id: 'AIS-09',
    level: 'MUST',
    section: `${F}name`,
    statement: 'An account name is at most 70 characters.',
    testedBy: 'automated',
  },
  {
    id: 'AIS-10',
    level: 'MUST',
    section: `${F}name`,
    statement: 'A card account name is at most 70 characters.',
    testedBy: 'automated',
  },
  {
    id: 'AIS-11',
    level: 'MUST',
    section: NS,
    statement:
      'An account entry follows the Berlin Group 1.3 account details shape: currency required, resourceId, iban, name, cashAccountType, _links.',
    testedBy: 'automated',
    basis: 'berlin-group',
    source: `${OAS} accountDetails (currency required), with accountList`,
    interpretation: BG,
    review: [
      relaxed(
        'assertion',
        'IBANs checked against national check digits (the iban format)',
        "ISO 13616-1 gives an IBAN its structure and mod-97 check digits; a BBAN's national check digits are the country's rule. The iban format checks ISO 13616 only (lib/identifiers).",
      ),
    ],
  },
  {
    id: 'AIS-12',
    level: 'MUST',
    section: NS,
    statement: 'A balance follows the Berlin Group 1.3 shape: balanceAmount and a Berlin Group balanceType are required.',
    testedBy: 'automated',
    basis: 'berlin-group',
    source: `${OAS} balance (balanceAmount and balanceType required) and balanceType`,
    interpretation: BG,
  },
  {
    id: 'AIS-13',
    level: 'MUST',
    section: NS,
    statement: 'A transaction entry follows the Berlin Group 1.3 shape: transactionAmount is required, dates are ISO dates.',
    testedBy: 'automated',
    basis: 'berlin-group',
    source: `${OAS} transactions (transactionAmount required) and transactionList`,
    interpretation: BG,
  },
  {
    id: 'AIS-14',
    level: 'MUST',
    section: NS,
    statement: 'A card account entry follows the Berlin Group 1.3 card account shape (maskedPan, currency, name, _links).',
    testedBy: 'automated',
    basis: 'berlin-group',
    source: `${OAS} cardAccountDetails (maskedPan and currency required)`,
    interpretation: BG,
  },
  {
    id: 'AIS-15',
    level: 'MUST',
    section: NS,
    statement:
      'A consent resource, where the bank returns one, follows the Berlin Group 1.3 shape: consentStatus from the Berlin Group list, and links for SCA.',
    testedBy: 'automated',
    basis: 'berlin-group',
    source: `${OAS} consentInformationResponse-200_json, consentsResponse-201 and consentStatus`,
    interpretation: `${BG} consentStatus keeps Berlin Group lower camel case (received, valid, revokedByPsu, ...), since the spec gives no casing for it. Consent is bank-offered and the consent endpoints answer with an SCA redirect: the spec does not say that a consent resource exists, so a bank that answers with the redirect alone (an error body with the scaRedirect link) has no resource to shape and meets the rule, in an error answer or a success (a success body holding the scaRedirect link and no consentId or consentStatus is that redirect); a success body naming a consent is judged against the Berlin Group consent creation response.`,
  },
]);
