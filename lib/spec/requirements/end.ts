/** END: endpoints (Endpoints; Other endpoints named). */
import { defineArea } from './types.js';

const P = 'Endpoints > POST /v1/payments/sepa-credit-transfers';
const ST = 'Endpoints > GET /v1/payments/{payment-product}/{payment-id}/status';
const O = 'Endpoints > Other endpoints named > ';

export const END = defineArea('END', [
  {
    id: 'END-01', level: 'MUST', section: P,
    statement: 'POST /v1/payments/sepa-credit-transfers creates a SEPA credit transfer and answers 201 with the payment initiation response.',
    testedBy: 'automated',
  },
  {
    id: 'END-02', level: 'MUST', section: `${P} > allowLogicalDuplicate`,
    statement: 'With allowLogicalDuplicate=true a second payment identical to an earlier one is accepted (201).',
    testedBy: 'automated',
    interpretation: 'A logical duplicate is a payment with the same debtor, creditor, amount, currency and execution date as an earlier one, sent under a new X-Request-ID.',
  },
  {
    id: 'END-03', level: 'SHOULD', section: `${P} > allowLogicalDuplicate`,
    statement: 'allowLogicalDuplicate takes a boolean: a value other than true or false gets 400.',
    testedBy: 'automated',
  },
  {
    id: 'END-04', level: 'MAY', section: `${P} > allowLogicalDuplicate`,
    statement: 'Without allowLogicalDuplicate=true the bank may refuse a logical duplicate payment (409 CONFLICT, see ERR-15).',
    testedBy: 'automated',
    interpretation: 'The spec gives the parameter but not the default; the suite passes 201 and 409 and fails anything else.',
  },
  {
    id: 'END-05', level: 'MUST', section: `${P} > SCA`,
    statement: 'When the payment needs SCA, the 201 response carries an scaRedirect link.',
    testedBy: 'automated',
  },
  {
    id: 'END-06', level: 'MUST', section: ST,
    statement: 'The payment status endpoint answers 200 with transactionStatus for a payment of the TPP.',
    testedBy: 'automated',
  },
  {
    id: 'END-07', level: 'MUST', section: ST,
    statement: 'When the payment status response carries fundsAvailable, it is a boolean.',
    testedBy: 'automated',
  },
  {
    id: 'END-08', level: 'MUST', section: ST,
    statement: 'For domestic-norway-credit-transfers, details and status are unavailable before the PSU approves: a 4xx error, never data or 5xx.',
    testedBy: 'automated',
    interpretation: 'No status code is named; 403 or 404 with the error body pass. After approval the same requests answer 200.',
  },
  {
    id: 'END-09', level: 'MUST', section: `${O}GET /v1/accounts`,
    statement: 'GET /v1/accounts lists the accounts the PSU consented to, and only those.',
    testedBy: 'automated',
  },
  {
    id: 'END-10', level: 'MUST', section: `${O}GET /v1/accounts`,
    statement: 'GET /v1/accounts without SCA or consent answers 401 with an scaRedirect link.',
    testedBy: 'automated',
    expect: { status: [401] },
  },
  {
    id: 'END-11', level: 'MUST', section: `${O}GET /v1/accounts`,
    statement: 'GET /v1/accounts answers an empty list when the consented accounts have been closed.',
    testedBy: 'needs-capability:sandbox-mock-data',
  },
  {
    id: 'END-12', level: 'MUST', section: `${O}GET /v1/accounts/{id}/balances`,
    statement: 'GET /v1/accounts/{id}/balances returns the balances of one consented account.',
    testedBy: 'automated',
  },
  {
    id: 'END-13', level: 'MUST', section: `${O}GET /v1/accounts/{id}/transactions`,
    statement: 'GET /v1/accounts/{id}/transactions returns the transactions of one consented account.',
    testedBy: 'automated',
  },
  {
    id: 'END-14', level: 'MUST', section: `${O}GET /v1/accounts/{id}/transactions`,
    statement: 'bookingStatus accepts booked, pending, both and all; an unknown value gets 400.',
    testedBy: 'automated',
    interpretation: 'The spec "mentions" both, pending and all; booked is the Berlin Group base value and is accepted too. all is served like both.',
  },
  {
    id: 'END-15', level: 'MUST', section: `${O}GET /v1/accounts/{id}/transactions`,
    statement: 'A transaction listing without any query parameter is answered (bookingStatus defaults to both).',
    testedBy: 'automated',
    interpretation: 'Limits speaks of a "transaction listing without parameters", so bookingStatus is optional here, unlike in the Berlin Group.',
  },
  {
    id: 'END-16', level: 'MUST', section: `${O}GET /v1/accounts/{id}/transactions`,
    statement: 'dateFrom and dateTo (ISO dates) restrict the booked transactions returned to that period.',
    testedBy: 'automated',
    interpretation: 'Inclusive on both ends, by bookingDate.',
  },
  {
    id: 'END-17', level: 'MUST', section: `${O}GET /v1/accounts/{id}/transactions`,
    statement: 'limit and offset page through the transactions (see PAG).',
    testedBy: 'automated',
  },
  {
    id: 'END-18', level: 'MUST', section: `${O}GET /v1/user`,
    statement: 'GET /v1/user starts an SCA in corporate context for a PISP that is not an AISP, yielding psu-corporate-id.',
    testedBy: 'needs-capability:corporate-psu',
  },
  {
    id: 'END-19', level: 'MUST', section: `${O}GET /v1/agreements`,
    statement: "GET /v1/agreements, with a PSU-ID, lists the PSU's corporate agreements.",
    testedBy: 'needs-capability:corporate-psu',
  },
  {
    id: 'END-20', level: 'MUST', section: `${O}POST /v1/consents`,
    statement: 'The deprecated POST /v1/consents ignores its body and answers with an SCA redirect.',
    testedBy: 'automated',
    interpretation: 'Any body, even one that breaks the Berlin Group consent schema, gets the same answer; the redirect is an scaRedirect link in a 201 or 401 body.',
  },
  {
    id: 'END-21', level: 'MUST', section: `${O}POST /v1/consents`,
    statement: 'POST /v1/bank-offered-consents, the replacement of /v1/consents, answers with an SCA redirect.',
    testedBy: 'automated',
  },
  {
    id: 'END-22', level: 'MUST', section: `${O}GET /v1/sandbox/customers`,
    statement: 'GET /v1/sandbox/customers lists the sandbox customers (sandbox targets only).',
    testedBy: 'automated',
  },
  {
    id: 'END-23', level: 'MUST', section: 'Endpoints > Other endpoints named > transaction details',
    statement: 'A transaction details endpoint returns one transaction, including the items the slimmed list no longer carries.',
    testedBy: 'automated',
    interpretation: 'Path not shown: GET /v1/accounts/{id}/transactions/{transactionId} (Berlin Group), reached through _links.transactionDetails when given.',
  },
  {
    id: 'END-24', level: 'INFO', section: 'Endpoints > Other endpoints named > Known issue',
    statement: 'Known issue: with bookingStatus both or pending, all pending transactions are returned whatever dateFrom, dateTo and limit say.',
    testedBy: 'manual:a documented production deviation the suite tolerates outside the sandbox and card accounts',
  },
  {
    id: 'END-25', level: 'MUST', section: 'Endpoints > Other endpoints named > Known issue',
    statement: 'In the sandbox, and for card accounts, dateFrom, dateTo and limit also filter pending transactions.',
    testedBy: 'automated',
  },
  {
    id: 'END-26', level: 'MUST', section: 'Endpoints > Other endpoints named > card accounts',
    statement: 'Card accounts, their balances and transactions are readable with consent.',
    testedBy: 'automated',
    interpretation: 'Paths not shown: GET /v1/card-accounts, /{id}, /{id}/balances, /{id}/transactions (Berlin Group).',
  },
]);
