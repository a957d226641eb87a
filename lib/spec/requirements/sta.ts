/** STA: scaStatus and transactionStatus (States and transitions). */
import { defineArea } from './types.js';

export const STA = defineArea('STA', [
  {
    id: 'STA-01', level: 'MUST', section: 'States > scaStatus',
    statement: 'scaStatus is one of RECEIVED, PSU_IDENTIFIED, PSU_AUTHENTICATED, SCA_METHOD_SELECTED, STARTED, FINALISED, FAILED, EXEMPTED.',
    testedBy: 'automated',
    interpretation: 'The spec writes upper case while the Berlin Group uses lower camel case (started, finalised); the spec wins, so camel case fails.',
  },
  {
    id: 'STA-02', level: 'MUST', section: 'States > scaStatus',
    statement: 'A successful start of a signing basket authorisation answers scaStatus STARTED with links.',
    testedBy: 'automated',
  },
  {
    id: 'STA-03', level: 'SHOULD', section: 'States > scaStatus',
    statement: 'After a successful SCA the authorisation reads scaStatus FINALISED.',
    testedBy: 'automated',
    interpretation: 'Transitions are not shown; this is the Berlin Group end state of a successful authorisation, hence SHOULD.',
  },
  {
    id: 'STA-04', level: 'SHOULD', section: 'States > scaStatus',
    statement: 'After a failed SCA the authorisation reads scaStatus FAILED.',
    testedBy: 'needs-capability:sca-abort',
    interpretation: 'As STA-03, from the Berlin Group state machine.',
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
    id: 'STA-07', level: 'MUST', section: 'States > transactionStatus',
    statement: 'A payment on hold or stopped is reported with its own status, PDNG.',
    testedBy: 'needs-capability:bank-channel',
    interpretation: 'The spec names no code; of the listed ones only PDNG means "pending further checks", so held or stopped payments read PDNG until they end in ACSC, RJCT or CANC.',
  },
]);
