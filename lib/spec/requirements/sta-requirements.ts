/** STA: scaStatus and transactionStatus (States and transitions). */
import { relaxed } from './requirement-review.js';
import { defineArea } from './requirement-types.js';

export const STA = defineArea('STA', [
  {
    id: 'STA-01',
    level: 'MUST',
    section: 'States > scaStatus',
    statement:
      'scaStatus is one of RECEIVED, PSU_IDENTIFIED, PSU_AUTHENTICATED, SCA_METHOD_SELECTED, STARTED, FINALISED, FAILED, EXEMPTED.',
    testedBy: 'automated',
    interpretation:
      'The spec writes upper case while the Berlin Group uses lower camel case (started, finalised); the spec wins, so camel case fails.',
  },
  {
    id: 'STA-02',
    level: 'MUST',
    section: 'States > scaStatus',
    statement: 'A successful start of a signing basket authorisation answers (201) scaStatus STARTED with links.',
    testedBy: 'automated',
    expect: { status: [201] },
    interpretation:
      'A 401 with an scaRedirect body, which the spec lists among the answers of the operation (ERR-08), starts no authorisation resource to carry a status: the entry is then not evaluated.',
  },
  {
    id: 'STA-03',
    level: 'SHOULD',
    section: 'States > scaStatus',
    statement: 'After a successful SCA the authorisation reads scaStatus FINALISED.',
    testedBy: 'automated',
    basis: 'berlin-group',
    source: 'NextGenPSD2 XS2A 1.3 OpenAPI 1.3.8, schema scaStatus (finalised: the SCA transaction finished successfully)',
    interpretation:
      "Transitions are not shown; the Berlin Group end state of a successful authorisation, written in the spec's upper case. The authorisation status resource itself is a Berlin Group path, hence SHOULD.",
  },
  {
    id: 'STA-04',
    level: 'SHOULD',
    section: 'States > scaStatus',
    statement: 'After a failed SCA the authorisation reads scaStatus FAILED.',
    testedBy: 'needs-capability:sca-abort',
    basis: 'berlin-group',
    source: 'NextGenPSD2 XS2A 1.3 OpenAPI 1.3.8, schema scaStatus (failed: the SCA failed)',
    interpretation: 'As STA-03: the Berlin Group end state of a failed authorisation, in upper case.',
  },
  {
    id: 'STA-05',
    level: 'MUST',
    section: 'States > transactionStatus',
    statement: 'transactionStatus is one of ACCP, ACSC, ACSP, ACTC, ACWC, ACWP, RCVD, PDNG, RJCT, CANC, PART.',
    testedBy: 'automated',
    interpretation: 'ACCC, ACFC and PATC, in the Berlin Group list but not in the spec, fail.',
  },
  {
    id: 'STA-06',
    level: 'MUST',
    section: 'States > transactionStatus',
    statement:
      'An ACCP status response of a payment the debtor cannot cover that carries fundsAvailable carries false: that is how it reports the lack of funds.',
    testedBy: 'automated',
    interpretation:
      'The fact: "ACCP can be reported when funds are lacking, and then the payment status response carries attribute fundsAvailable to show that the payment was rejected for lack of funds". ACCP is also the status of a payment accepted before its funds are checked (Berlin Group: AcceptedCustomerProfile), which carries no fundsAvailable: that reports no lack of funds, and passes. What fails is a fundsAvailable on an ACCP of a payment far above the balance that is not false. RJCT or an initiation error also pass (ERR-39).',
    review: [
      relaxed(
        'assertion',
        'SCA-24.a-l and ERR-39.a (13 scenarios): an ACCP without fundsAvailable taken for a lack of funds',
        'ACCP is reported "when funds are lacking" with fundsAvailable, and otherwise for a payment accepted before its funds are checked: only an ACCP that carries fundsAvailable is a report of the funds, and it must say false.',
      ),
    ],
  },
  {
    id: 'STA-07',
    level: 'INFO',
    section: 'States > transactionStatus',
    statement: 'A status exists for payments on hold or stopped (documentation 2.12.0); the spec does not say which of its statuses it is.',
    testedBy: 'manual:the spec names no code for it, so none can be demanded, and the suite cannot put a payment on hold',
    interpretation:
      "Whatever the bank reports for a held payment must still be one of the spec's statuses (STA-05); no particular code (such as PDNG) is expected.",
  },
  {
    id: 'STA-08',
    level: 'SHOULD',
    section: 'States > scaStatus',
    statement:
      'A basket authorisation that answered STARTED does not read RECEIVED afterwards: before the PSU acts it reads STARTED or a later state.',
    testedBy: 'automated',
    basis: 'interpretation',
    interpretation:
      'Transitions are not shown; the one move shown is a successful start answering STARTED. RECEIVED is the state of an authorisation created and not started yet (Berlin Group: received), so reading it next moves the authorisation backwards. Which later state (PSU_IDENTIFIED, FINALISED…) the bank reports is its own.',
  },
]);
