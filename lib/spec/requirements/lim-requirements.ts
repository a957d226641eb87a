/** LIM: every row of the Limits table, and the PSU-IP-Address sentence below it. */
import { ANY_CLIENT_ERROR, FIELD_REFUSAL, kept, lowered, relaxed, variant } from './requirement-review.js';
import { CLIENT_ERROR_STATUSES, defineArea } from './requirement-types.js';

const L = 'Limits > ';

/** A payment beyond a limit of the table SHOULD be refused with 400, as a payment breaking a field rule (PAY, FIELD_REFUSAL). */
const PAYMENT_OVER_LIMIT = { status: [400] } as const;

export const LIM = defineArea('LIM', [
  {
    id: 'LIM-01',
    level: 'MUST',
    section: `${L}Clock deviation`,
    statement:
      'A signed request whose Date deviates from the bank clock by at most 60 s is accepted; by more than 60 s it is refused (a 4xx).',
    testedBy: 'automated',
    expect: { status: CLIENT_ERROR_STATUSES },
    interpretation:
      'Inclusive bound (60 s accepted, 61 s refused), in both directions. The limit refuses what is beyond it, but no status is named: any 4xx passes (the Berlin Group TIMESTAMP_INVALID is a 400; its code is SIG-13). Without clock control the suite estimates the target clock from its Date headers and keeps a 5 s margin on each side; the exact boundary is tested only with clock-control.',
    review: [ANY_CLIENT_ERROR],
  },
  {
    id: 'LIM-02',
    level: 'MUST',
    section: `${L}SCA session`,
    statement: 'An SCA session bound to one TPP-Session-ID lasts at most 1 hour.',
    testedBy: 'needs-capability:clock-control',
    review: [
      variant(
        'assertion',
        'SES-04.a: a read under the expired session must ask for SCA',
        ['session-governs-sca-prompts-only'],
        'Authentication 10: the session "prevents new SCA prompts in that window"; a bank may serve a PSU\'s reads from the consent whatever TPP-Session-ID they carry. Where it does, the hour is judged on a new SCA under the session: after the hour it must prompt the PSU again.',
      ),
    ],
  },
  {
    id: 'LIM-03',
    level: 'MUST',
    section: `${L}Calls without PSU-IP-Address (balances)`,
    statement: 'Balance reads without PSU-IP-Address are limited to 4 per account per 24 hours; further calls are refused.',
    testedBy: 'automated',
    expect: { status: CLIENT_ERROR_STATUSES },
    interpretation:
      'The spec names no status for the refusal, so any 4xx passes here; 429 ACCESS_EXCEEDED is checked at SHOULD level under ERR-27. The suite makes 5 calls and checks that at most 4 succeed and that, once refused, calls stay refused; this holds whatever earlier runs used that day. Another account is unaffected.',
    review: [
      kept(
        'refusal',
        'the 5th unattended balance read refused (a 4xx)',
        'Limits: "Calls without PSU-IP-Address | at most 4 per 24 hours | balances, per account"; no status is named, so any 4xx passes.',
      ),
    ],
  },
  {
    id: 'LIM-04',
    level: 'MUST',
    section: `${L}Calls without PSU-IP-Address (transactions)`,
    statement: 'Transaction reads without PSU-IP-Address are limited to 4 per account per 24 hours; further calls are refused.',
    testedBy: 'automated',
    expect: { status: CLIENT_ERROR_STATUSES },
    interpretation:
      'As LIM-03: any 4xx refusal (429 ACCESS_EXCEEDED under ERR-27), counted per account, and balances and transactions counted separately.',
    review: [
      kept(
        'refusal',
        'the 5th unattended transaction read refused (a 4xx)',
        'Limits: "Calls without PSU-IP-Address | at most 4 per 24 hours; transactions at most 90 days old | transactions, per account"; no status is named.',
      ),
    ],
  },
  {
    id: 'LIM-05',
    level: 'MUST',
    section: `${L}Calls without PSU-IP-Address (transactions)`,
    statement: 'Transaction reads without PSU-IP-Address return no transaction older than 90 days.',
    testedBy: 'needs-capability:sandbox-mock-data',
    expect: { status: [200, ...CLIENT_ERROR_STATUSES] },
    interpretation:
      'A dateFrom further back may either be refused with a 4xx or be clamped to 90 days; both pass as long as no older booked transaction is returned. It proves something only on an account holding transactions older than 90 days, which the mock-data operations create.',
    review: [
      kept(
        'refusal',
        'no transaction older than 90 days without the PSU (clamped or refused)',
        'Limits: "transactions at most 90 days old" for calls without PSU-IP-Address.',
      ),
    ],
  },
  {
    id: 'LIM-06',
    level: 'MUST',
    section: `${L}Calls without PSU-IP-Address (transactions)`,
    statement: 'Transaction reads without PSU-IP-Address are served only for accounts the PSU used online with SCA in the last 180 days.',
    testedBy: 'needs-capability:clock-control',
  },
  {
    id: 'LIM-07',
    level: 'MUST',
    section: `${L}SCA renewal`,
    statement: 'Consent access needs a new SCA after 180 days.',
    testedBy: 'needs-capability:clock-control',
  },
  {
    id: 'LIM-08',
    level: 'MUST',
    section: `${L}Default transaction page size`,
    statement:
      'A transaction listing without parameters returns at most 200 entries per page, and its pagination links keep that page size (they name limit=200, or lead to pages of no more entries).',
    testedBy: 'needs-capability:sandbox-mock-data',
    interpretation:
      'Testing it needs an account with more than 200 transactions, created with the mock-data operations. See PAG-01 and PAG-02 for how the size is counted.',
    review: [
      relaxed(
        'contradiction',
        'links "carry" the page size, while PAG-02 passes links that name no size',
        'The row says "200 (also in generated pagination links)", which PAG-02 reads two ways: the statement now says what the check already judged, the two readings of PAG-02.',
      ),
    ],
  },
  {
    id: 'LIM-09',
    level: 'SHOULD',
    section: `${L}endToEndIdentification`,
    statement: 'endToEndIdentification of a payment is limited to 35 characters.',
    testedBy: 'automated',
    expect: PAYMENT_OVER_LIMIT,
    review: [FIELD_REFUSAL],
  },
  {
    id: 'LIM-10',
    level: 'SHOULD',
    section: `${L}creditorName, street`,
    statement: 'creditorName of a payment is limited to 70 characters.',
    testedBy: 'automated',
    expect: PAYMENT_OVER_LIMIT,
    review: [FIELD_REFUSAL],
  },
  {
    id: 'LIM-11',
    level: 'SHOULD',
    section: `${L}creditorName, street`,
    statement: 'street of a payment creditor address is limited to 70 characters.',
    testedBy: 'automated',
    expect: PAYMENT_OVER_LIMIT,
    review: [FIELD_REFUSAL],
  },
  {
    id: 'LIM-12',
    level: 'SHOULD',
    section: `${L}IBAN`,
    statement: 'An IBAN in a payment (creditor or debtor) is limited to 34 characters.',
    testedBy: 'automated',
    expect: PAYMENT_OVER_LIMIT,
    review: [FIELD_REFUSAL],
  },
  {
    id: 'LIM-13',
    level: 'MAY',
    section: `${L}remittanceInformationUnstructured`,
    statement:
      'remittanceInformationUnstructured of a payment is limited to 140 characters: a longer one may be refused with 400, or taken and truncated.',
    testedBy: 'automated',
    expect: { status: [201, 400] },
    review: [
      lowered(
        'beyond-text',
        'MUST refuse 141 characters',
        'The request table lets the text "be truncated or re-encoded during processing": taking a longer text and cutting it to the limit keeps the limit as much as refusing it. MAY: 201 and 400 pass.',
      ),
    ],
  },
  {
    id: 'LIM-14',
    level: 'SHOULD',
    section: `${L}country`,
    statement: 'An address country code is exactly 2 characters.',
    testedBy: 'automated',
    expect: PAYMENT_OVER_LIMIT,
    interpretation: 'The row says "2 characters"; combined with the country list (PAY-27) it is an exact length, not a maximum.',
    review: [FIELD_REFUSAL],
  },
  {
    id: 'LIM-15',
    level: 'MUST',
    section: `${L}tppMessages text, psuMessage`,
    statement: 'The text of a tppMessages item in a response is at most 512 characters.',
    testedBy: 'automated',
  },
  {
    id: 'LIM-16',
    level: 'MUST',
    section: `${L}tppMessages text, psuMessage`,
    statement: 'psuMessage in a response is at most 512 characters.',
    testedBy: 'automated',
  },
  {
    id: 'LIM-17',
    level: 'SHOULD',
    section: `${L}amount`,
    statement: 'A payment amount keeps to precision 18, scale 5 and the ISO 4217 minor units of its currency.',
    testedBy: 'automated',
    expect: PAYMENT_OVER_LIMIT,
    interpretation: 'Detailed and interpreted by PAY-05 to PAY-08.',
    review: [FIELD_REFUSAL],
  },
  {
    id: 'LIM-18',
    level: 'MUST',
    section: 'Limits > PSU-IP-Address',
    statement: 'The TPP sends PSU-IP-Address when the PSU is present; such calls are not counted against the 4-per-day limits.',
    testedBy: 'automated',
    expect: { status: [200] },
    interpretation:
      'The sentence binds the TPP; what the bank must do in response is to serve PSU-present calls without the unattended limits, which the suite checks with more than 4 calls carrying the header.',
  },
  {
    id: 'LIM-19',
    level: 'INFO',
    section: 'Limits > PSU-IP-Address',
    statement: 'The TPP must not send PSU-IP-Address when it acts without the PSU.',
    testedBy: 'manual:binds the TPP (TPP-31); the bank cannot tell whether the PSU is really present',
  },
]);
