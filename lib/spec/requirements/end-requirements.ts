/** END: endpoints (Endpoints; Other endpoints named). */
import { kept } from './requirement-review.js';
import { CLIENT_ERROR_STATUSES, defineArea } from './requirement-types.js';

const P = 'Endpoints > POST /v1/payments/sepa-credit-transfers';
const ST = 'Endpoints > GET /v1/payments/{payment-product}/{payment-id}/status';
const O = 'Endpoints > Other endpoints named > ';

export const END = defineArea('END', [
  {
    id: 'END-01',
    level: 'MUST',
    section: P,
    statement:
      'POST /v1/payments/sepa-credit-transfers creates a SEPA credit transfer and answers 201 with the payment initiation response.',
    testedBy: 'automated',
    expect: { status: [201] },
  },
  {
    id: 'END-02',
    level: 'MUST',
    section: `${P} > allowLogicalDuplicate`,
    statement: 'With allowLogicalDuplicate=true a second payment identical to an earlier one is accepted (201).',
    testedBy: 'automated',
    expect: { status: [201] },
    interpretation:
      'A logical duplicate is a payment with the same debtor, creditor, amount, currency and execution date as an earlier one, sent under a new X-Request-ID.',
  },
  {
    id: 'END-03',
    level: 'SHOULD',
    section: `${P} > allowLogicalDuplicate`,
    statement: 'allowLogicalDuplicate takes a boolean: a value other than true or false gets 400.',
    testedBy: 'automated',
    basis: 'interpretation',
    expect: { status: [400] },
    interpretation:
      'The spec types the parameter boolean but says nothing of other values; a bank that reads them as false is not in breach, so a refusal is only SHOULD.',
  },
  {
    id: 'END-04',
    level: 'MAY',
    section: `${P} > allowLogicalDuplicate`,
    statement: 'Without allowLogicalDuplicate=true the bank may refuse a logical duplicate payment (400 or 409) or accept it (201).',
    testedBy: 'automated',
    expect: { status: [201, 400, 409] },
    interpretation:
      'The spec gives the parameter but neither its default nor the status of a refusal: acceptance and a refusal with 400 or 409 pass; the code of a refusal is ERR-15.',
  },
  {
    id: 'END-05',
    level: 'MUST',
    section: `${P} > SCA`,
    statement: 'When the payment needs SCA, the 201 response carries an scaRedirect link.',
    testedBy: 'automated',
    expect: { status: [201] },
  },
  {
    id: 'END-06',
    level: 'MUST',
    section: ST,
    statement: 'The payment status endpoint answers 200 with transactionStatus for a payment of the TPP.',
    testedBy: 'automated',
    expect: { status: [200] },
  },
  {
    id: 'END-07',
    level: 'MUST',
    section: ST,
    statement: 'When the payment status response carries fundsAvailable, it is a boolean.',
    testedBy: 'automated',
  },
  {
    id: 'END-08',
    level: 'MUST',
    section: ST,
    statement:
      'For domestic-norway-credit-transfers, details and status are unavailable before the PSU approves: a 4xx error, never data or 5xx.',
    testedBy: 'automated',
    expect: { status: CLIENT_ERROR_STATUSES },
    interpretation:
      'No status is named, so any 4xx with the error body passes (403, 404 and 401 with scaRedirect are the likely ones). The details path is the Berlin Group one (GET /v1/payments/{product}/{paymentId}).',
    review: [
      kept(
        'refusal',
        'details and status refused (a 4xx) before approval',
        'GET …/status: "For the product domestic-norway-credit-transfers, details and status are not available before the PSU approves the payment."; no status is named, so any 4xx passes.',
      ),
    ],
  },
  {
    id: 'END-09',
    level: 'MUST',
    section: `${O}GET /v1/accounts`,
    statement: 'GET /v1/accounts lists (200) the accounts the PSU consented to, and only those.',
    testedBy: 'automated',
    expect: { status: [200] },
  },
  {
    id: 'END-10',
    level: 'MUST',
    section: `${O}GET /v1/accounts`,
    statement: 'GET /v1/accounts without SCA or consent answers 401 with an scaRedirect link.',
    testedBy: 'automated',
    expect: { status: [401] },
    review: [
      kept(
        'refusal',
        'answers 401 with scaRedirect without SCA or consent',
        'Other endpoints named: GET /v1/accounts "answers 401 with scaRedirect when no SCA or consent exists".',
      ),
    ],
  },
  {
    id: 'END-11',
    level: 'MUST',
    section: `${O}GET /v1/accounts`,
    statement: 'GET /v1/accounts answers an empty list when the consented accounts have been closed.',
    testedBy: 'needs-capability:sandbox-mock-data',
  },
  {
    id: 'END-12',
    level: 'MUST',
    section: `${O}GET /v1/accounts/{id}/balances`,
    statement: 'GET /v1/accounts/{id}/balances returns (200) the balances of one consented account.',
    testedBy: 'automated',
    expect: { status: [200] },
  },
  {
    id: 'END-13',
    level: 'MUST',
    section: `${O}GET /v1/accounts/{id}/transactions`,
    statement: 'GET /v1/accounts/{id}/transactions returns (200) the transactions of one consented account.',
    testedBy: 'automated',
    expect: { status: [200] },
  },
  {
    id: 'END-14',
    level: 'MAY',
    section: `${O}GET /v1/accounts/{id}/transactions`,
    statement:
      'bookingStatus=all, which the spec mentions without a meaning and the Berlin Group does not have, may be served (200) or refused (400).',
    testedBy: 'automated',
    expect: { status: [200, 400] },
    interpretation:
      'The spec only "mentions" all, beside both and pending, and the Berlin Group list (information, booked, pending, both) has no such value. Serving it (whatever it returns beyond the booked and pending groups) and refusing it as an unknown value are both readings of the text; only another answer (a server error, a refusal that is not 400) is reported. both and pending are END-29, booked END-27, an unknown value END-28.',
  },
  {
    id: 'END-15',
    level: 'MUST',
    section: `${O}GET /v1/accounts/{id}/transactions`,
    statement: 'A transaction listing without any query parameter is answered (200).',
    testedBy: 'automated',
    expect: { status: [200] },
    interpretation:
      'Limits speaks of a "transaction listing without parameters", so bookingStatus is optional here, unlike in the Berlin Group. Which transactions such a listing returns by default is not said, so no default is checked.',
  },
  {
    id: 'END-16',
    level: 'MUST',
    section: `${O}GET /v1/accounts/{id}/transactions`,
    statement:
      'dateFrom and dateTo (ISO dates) restrict the booked transactions returned to that period, both days included, by booking date.',
    testedBy: 'automated',
    basis: 'berlin-group',
    source:
      'NextGenPSD2 XS2A 1.3 OpenAPI 1.3.8, query parameters dateFrom and dateTo (inclusive; the booking date for booked transactions)',
    interpretation:
      'The spec names the parameters and, in its known issue, implies that they filter booked transactions; the Berlin Group gives the bounds and the date compared.',
  },
  {
    id: 'END-17',
    level: 'MUST',
    section: `${O}GET /v1/accounts/{id}/transactions`,
    statement: 'limit and offset page through the transactions (see PAG).',
    testedBy: 'automated',
    interpretation:
      'Judged by following next over a period the suite names (dateFrom back to the start of the history): which period a listing without parameters covers is not said (END-15), and the Berlin Group makes dateFrom mandatory, so a bank may default to a recent window (90 days, say).',
  },
  {
    id: 'END-18',
    level: 'MUST',
    section: `${O}GET /v1/user`,
    statement: 'GET /v1/user starts an SCA in corporate context for a PISP that is not an AISP, yielding psu-corporate-id.',
    testedBy: 'needs-capability:corporate-psu',
  },
  {
    id: 'END-19',
    level: 'MUST',
    section: `${O}GET /v1/agreements`,
    statement: "GET /v1/agreements, with a PSU-ID, lists the PSU's corporate agreements.",
    testedBy: 'needs-capability:corporate-psu',
    expect: { status: [200] },
    interpretation:
      "The payload is not shown; the check looks for the psu-corporate-id of the PSU's corporate SCA anywhere in the body, as a string.",
  },
  {
    id: 'END-20',
    level: 'MUST',
    section: `${O}POST /v1/consents`,
    statement: 'The deprecated POST /v1/consents ignores its body and answers with an SCA redirect.',
    testedBy: 'automated',
    expect: { status: [200, 201, 401] },
    interpretation:
      'Any body, even one that breaks the Berlin Group consent schema, gets the same answer; the redirect is an scaRedirect link in a 201 or 401 body, or in a 200 body: the spec gives the answer no status, and a body holding the redirect alone, no consent resource, is as literal a reading of "returns an SCA redirect" as the Berlin Group 201 or the 401 of account access.',
    review: [
      kept(
        'refusal',
        'answers with an SCA redirect',
        'Other endpoints named: POST /v1/consents "ignores its body and returns an SCA redirect"; no status is named, so 200, 201 and 401 with the link pass.',
      ),
    ],
  },
  {
    id: 'END-21',
    level: 'SHOULD',
    section: `${O}POST /v1/consents`,
    statement: 'POST /v1/bank-offered-consents, the replacement of /v1/consents, answers with an SCA redirect.',
    testedBy: 'automated',
    basis: 'interpretation',
    expect: { status: [200, 201, 401] },
    interpretation:
      'The spec names the path as the replacement but shows neither its method nor its payload. The suite reads "replaces" as doing the job of the endpoint it replaces: it calls it with POST and an empty body, like /v1/consents, and expects an scaRedirect link in a 200, 201 or 401 body (END-20). A bank whose replacement takes another method or body keeps the letter of the spec, so a miss is a WARNING. A target may override the path.',
  },
  {
    id: 'END-22',
    level: 'MUST',
    section: `${O}GET /v1/sandbox/customers`,
    statement: 'GET /v1/sandbox/customers lists the sandbox customers (200; sandbox targets only).',
    testedBy: 'automated',
    expect: { status: [200] },
  },
  {
    id: 'END-23',
    level: 'MUST',
    section: 'Endpoints > Other endpoints named > transaction details',
    statement: 'A transaction details endpoint returns one transaction, including the items the slimmed list no longer carries.',
    testedBy: 'automated',
    basis: 'berlin-group',
    source:
      'NextGenPSD2 XS2A 1.3 OpenAPI 1.3.8, path /v1/accounts/{account-id}/transactions/{transactionId} and schema _linksTransactionDetails',
    interpretation:
      'The spec names the endpoint (documentation 2.11.0, release 1.20.0) but not its path: the Berlin Group path is used, reached through _links.transactionDetails when given.',
  },
  {
    id: 'END-24',
    level: 'INFO',
    section: 'Endpoints > Other endpoints named > Known issue',
    statement:
      'Known issue: with bookingStatus both or pending, all pending transactions are returned whatever dateFrom, dateTo and limit say.',
    testedBy: 'manual:a documented production deviation the suite tolerates outside the sandbox and card accounts',
  },
  {
    id: 'END-25',
    level: 'MUST',
    section: 'Endpoints > Other endpoints named > Known issue',
    statement: 'In the sandbox, and for card accounts, dateFrom, dateTo and limit also filter pending transactions.',
    testedBy: 'needs-capability:sandbox-mock-data',
    interpretation:
      'Shown only with pending transactions outside the requested period, which the mock-data operations create; the default sandbox data proves nothing either way.',
  },
  {
    id: 'END-26',
    level: 'MUST',
    section: 'Endpoints > Other endpoints named > card accounts',
    statement: 'Card accounts, their balances and transactions are readable with consent.',
    testedBy: 'automated',
    basis: 'berlin-group',
    source:
      'NextGenPSD2 XS2A 1.3 OpenAPI 1.3.8, paths /v1/card-accounts, /v1/card-accounts/{account-id}, .../balances and .../transactions',
    interpretation:
      'The spec speaks of card accounts (the sandbox known state, interimBooked, names of 70 characters) without their paths: the Berlin Group paths are used.',
  },
  {
    id: 'END-27',
    level: 'MUST',
    section: `${O}GET /v1/accounts/{id}/transactions`,
    statement: 'bookingStatus=booked is accepted (200) and returns booked transactions only.',
    testedBy: 'automated',
    basis: 'berlin-group',
    source:
      'NextGenPSD2 XS2A 1.3 OpenAPI 1.3.8, query parameter bookingStatus ("booked" shall be supported by the ASPSP) and schema accountReport (no pending for booked)',
    expect: { status: [200] },
    interpretation:
      'The spec does not mention booked; the Berlin Group makes it the one value every bank supports, and the spec adds values rather than removing it.',
  },
  {
    id: 'END-28',
    level: 'SHOULD',
    section: `${O}GET /v1/accounts/{id}/transactions`,
    statement: 'A bookingStatus value neither the spec nor the Berlin Group knows (e.g. "everything") gets 400.',
    testedBy: 'automated',
    basis: 'berlin-group',
    source: 'NextGenPSD2 XS2A 1.3 OpenAPI 1.3.8, query parameter bookingStatus (enum information, booked, pending, both)',
    expect: { status: [400] },
    interpretation:
      'The Berlin Group closes the list, but the spec adds "all" to it, so the list the bank uses is its own; serving an unknown value some other way is a WARNING, not a FAIL. The code is checked under ERR-21.',
  },
  {
    id: 'END-29',
    level: 'MUST',
    section: `${O}GET /v1/accounts/{id}/transactions`,
    statement: 'bookingStatus both and pending, which the spec names and its known issue describes in use, are accepted (200).',
    testedBy: 'automated',
    expect: { status: [200] },
    interpretation:
      'The spec mentions both and pending as values of the parameter, and its known issue says what they return in production ("all pending transactions are always returned"), which presupposes that they are served; both are Berlin Group values too. What each returns is AIS-01 (booked and pending groups).',
  },
]);
