/** EVT: the PSU redirect after SCA (Events). */
import { lowered } from './requirement-review.js';
import { defineArea } from './requirement-types.js';

const OK = 'Events > After successful SCA > ';
const KO = 'Events > After failed SCA > ';

export const EVT = defineArea('EVT', [
  {
    id: 'EVT-01',
    level: 'MUST',
    section: 'Events',
    statement: 'The bank sends the TPP no callback other than the PSU redirect after SCA.',
    testedBy: 'manual:an absence of out-of-band calls cannot be observed by the suite',
  },
  {
    id: 'EVT-02',
    level: 'MUST',
    section: 'Events',
    statement: 'After SCA the PSU is redirected to the TPP-Redirect-URI address, with the outcome in the query string.',
    testedBy: 'automated',
    interpretation: 'The parameters are added to the address as given; a query the TPP put in TPP-Redirect-URI is kept.',
  },
  {
    id: 'EVT-03',
    level: 'MUST',
    section: `${OK}psu-id`,
    statement: 'After successful SCA the redirect carries psu-id, a UUID to use in the PSU-ID header.',
    testedBy: 'automated',
  },
  {
    id: 'EVT-04',
    level: 'MUST',
    section: `${OK}psu-corporate-id`,
    statement: 'After successful SCA in corporate context the redirect carries psu-corporate-id, a UUID.',
    testedBy: 'needs-capability:corporate-psu',
  },
  {
    id: 'EVT-05',
    level: 'SHOULD',
    section: `${OK}psu-corporate-id`,
    statement: 'After successful SCA in private context the redirect carries no psu-corporate-id.',
    testedBy: 'automated',
    basis: 'interpretation',
    interpretation:
      '"Optional, present for corporate context" reads most naturally as present exactly for corporate context, but it does not forbid the parameter otherwise; one in private context is a WARNING.',
  },
  {
    id: 'EVT-06',
    level: 'MUST',
    section: `${OK}tpp-session-id`,
    statement: 'After successful SCA the redirect carries tpp-session-id, equal to the TPP-Session-ID of the request that started the SCA.',
    testedBy: 'automated',
  },
  {
    id: 'EVT-07',
    level: 'MUST',
    section: `${OK}context`,
    statement: 'After successful SCA the redirect carries context, PRIVATE or CORPORATE, as chosen by the PSU.',
    testedBy: 'automated',
  },
  {
    id: 'EVT-08',
    level: 'MUST',
    section: `${KO}system`,
    statement: 'After failed SCA with a server error, the redirect carries system, the internal system that produced it.',
    testedBy: 'needs-capability:sca-abort',
    interpretation:
      'The row describes system as the producer of a server error, so it is required only when status is 500 or above and optional otherwise.',
  },
  {
    id: 'EVT-09',
    level: 'MUST',
    section: `${KO}status`,
    statement: 'After failed SCA the redirect carries status, the HTTP status code as a number.',
    testedBy: 'needs-capability:sca-abort',
  },
  {
    id: 'EVT-10',
    level: 'MUST',
    section: `${KO}code`,
    statement: 'After failed SCA the redirect carries code, the error code.',
    testedBy: 'needs-capability:sca-abort',
  },
  {
    id: 'EVT-11',
    level: 'SHOULD',
    section: `${KO}message`,
    statement: 'After failed SCA the redirect carries message, the URL-encoded error text.',
    testedBy: 'needs-capability:sca-abort',
    interpretation:
      'The parameters mirror the error body (system, status, code, message), whose message "may be absent" (Errors, error body): a redirect without message keeps that table; with it, the PSU and the TPP learn why. SHOULD.',
    basis: 'interpretation',
    review: [
      lowered(
        'beyond-text',
        'MUST carry message in every failure redirect',
        'The table of failure parameters has no required column, and the error body it mirrors lets message be absent. SHOULD.',
      ),
    ],
  },
]);
