/** STA: scaStatus and transactionStatus (States and transitions). */
import { defineArea } from './requirement-types.js';

export const STA = defineArea('STA', [
  {
    id: 'STA-01', level: 'MUST', section: 'States > scaStatus',
    statement: 'scaStatus is one of RECEIVED, PSU_IDENTIFIED, PSU_AUTHENTICATED, SCA_METHOD_SELECTED, STARTED, FINALISED, FAILED, EXEMPTED.',
    testedBy: 'automated',
    interpretation: 'The spec writes upper case while the Berlin Group uses lower camel case (started, finalised); the spec wins, so camel case fails.',
  },
  {
    id: 'STA-02', level: 'MUST', section: 'States > scaStatus',
    statement: 'A successful start of a signing basket authorisation answers (201) scaStatus STARTED with links.',
    testedBy: 'automated',
    expect: { status: [201] },
    interpretation: 'A 401 with an scaRedirect body, which the spec lists among the answers of the operation (ERR-08), starts no authorisation resource to carry a status: the entry is then not evaluated.',
  },
  {
    id: 'STA-03', level: 'SHOULD', section: 'States > scaStatus',
    statement: 'After a successful SCA the authorisation reads scaStatus FINALISED.',
    testedBy: 'automated',
    basis: 'berlin-group',
    source: 'NextGenPSD2 XS2A 1.3 OpenAPI 1.3.8, schema scaStatus (finalised: the SCA transaction finished successfully)',
    interpretation: 'Transitions are not shown; the Berlin Group end state of a successful authorisation, written in the spec\'s upper case. The authorisation status resource itself is a Berlin Group path, hence SHOULD.',
  },
  {
    id: 'STA-04', level: 'SHOULD', section: 'States > scaStatus',
    statement: 'After a failed SCA the authorisation reads scaStatus FAILED.',
    testedBy: 'needs-capability:sca-abort',
    basis: 'berlin-group',
    source: 'NextGenPSD2 XS2A 1.3 OpenAPI 1.3.8, schema scaStatus (failed: the SCA failed)',
    interpretation: 'As STA-03: the Berlin Group end state of a failed authorisation, in upper case.',
  },
  {
    id: 'STA-05', level: 'MUST', section: 'States > transactionStatus',
    statement: 'transactionStatus is one of ACCP, ACSC, ACSP, ACTC, ACWC, ACWP, RCVD, PDNG, RJCT, CANC, PART.',
    testedBy: 'automated',
    interpretation: 'ACCC, ACFC and PATC, in the Berlin Group list but not in the spec, fail.',
  },
  {
    id: 'STA-06', level: 'MUST', section: 'States > transactionStatus',
    statement: 'When ACCP is reported for a payment lacking funds, its status response carries fundsAvailable false.',
    testedBy: 'automated',
    interpretation: 'fundsAvailable false marks the payment as rejected for lack of funds. The suite pays more than the balance; RJCT or an initiation error also pass (ERR-39), but ACCP without fundsAvailable false fails.',
  },
  {
    id: 'STA-07', level: 'INFO', section: 'States > transactionStatus',
    statement: 'A status exists for payments on hold or stopped (documentation 2.12.0); the spec does not say which of its statuses it is.',
    testedBy: 'manual:the spec names no code for it, so none can be demanded, and the suite cannot put a payment on hold',
    interpretation: 'Whatever the bank reports for a held payment must still be one of the spec\'s statuses (STA-05); no particular code (such as PDNG) is expected.',
  },
  {
    id: 'STA-08', level: 'SHOULD', section: 'States > scaStatus',
    statement: 'A basket authorisation that answered STARTED does not read RECEIVED afterwards: before the PSU acts it reads STARTED or a later state.',
    testedBy: 'automated',
    basis: 'interpretation',
    interpretation: 'Transitions are not shown; the one move shown is a successful start answering STARTED. RECEIVED is the state of an authorisation created and not started yet (Berlin Group: received), so reading it next moves the authorisation backwards. Which later state (PSU_IDENTIFIED, FINALISED…) the bank reports is its own.',
  },
]);
