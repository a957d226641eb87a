/** BSK: signing baskets (Resources > Signing basket authorisation response; Endpoints > Start of signing basket authorisation). */
import { defineArea } from './types.js';

const R = 'Resources > Signing basket authorisation response';
const E = 'Endpoints > Start of signing basket authorisation';

export const BSK = defineArea('BSK', [
  {
    id: 'BSK-01', level: 'MUST', section: `${R} > scaStatus`,
    statement: 'A 201 basket authorisation response carries scaStatus, one of the eight upper-case SCA statuses.',
    testedBy: 'automated',
  },
  {
    id: 'BSK-02', level: 'MUST', section: `${R} > _links`,
    statement: 'A 201 basket authorisation response carries _links, a map of Link objects.',
    testedBy: 'automated',
  },
  {
    id: 'BSK-03', level: 'MUST', section: `${R} > _links`,
    statement: 'When SCA is required, the 401 body of the basket authorisation holds a scaRedirect link to the SCA site.',
    testedBy: 'automated',
    interpretation: 'See ERR-08: a 201 with scaRedirect also hands the PSU to SCA and passes.',
  },
  {
    id: 'BSK-04', level: 'MUST', section: R,
    statement: 'A signing basket is not atomic: after its SCA, payments in it can end in different statuses.',
    testedBy: 'automated',
    interpretation: 'Shown with a basket of one payable payment and one far above the balance: the first must not be rejected because the second fails.',
  },
  {
    id: 'BSK-05', level: 'MUST', section: R,
    statement: 'The basket status reports only the worst status among its payments.',
    testedBy: 'automated',
    interpretation: 'Worst first: RJCT, CANC, PART, then the least advanced of RCVD, PDNG, ACTC, ACCP, ACWP, ACSP, ACWC, ACSC. Rejection and cancellation are outcomes the TPP must act on; otherwise the least progress is the honest summary.',
  },
  {
    id: 'BSK-06', level: 'MUST', section: R,
    statement: "Each payment's own status request answers for a payment in a basket, and is the way to learn its status.",
    testedBy: 'automated',
  },
  {
    id: 'BSK-07', level: 'MUST', section: `${R} > other fields (not shown)`,
    statement: 'The signing basket resource follows the Berlin Group 1.3 shape: created from paymentIds, answered with transactionStatus, basketId, _links.',
    testedBy: 'automated',
    interpretation: 'Create with POST /v1/signing-baskets {"paymentIds": [...]}; the 201 carries transactionStatus, basketId and _links (Berlin Group 1.3.8). Paths can be overridden per target.',
  },
  {
    id: 'BSK-08', level: 'MUST', section: E,
    statement: 'Starting a basket authorisation takes the basket id as its only path parameter.',
    testedBy: 'automated',
    interpretation: 'The path is not shown; the suite uses POST /v1/signing-baskets/{basketId}/authorisations (Berlin Group), overridable per target.',
  },
  {
    id: 'BSK-09', level: 'MUST', section: E,
    statement: 'The basket authorisation takes the payment-initiation header set, signing date, digest, x-request-id, psu-id, psu-corporate-id and tpp-redirect-uri when present.',
    testedBy: 'automated',
  },
  {
    id: 'BSK-10', level: 'MUST', section: E,
    statement: 'The basket authorisation flow works like that of a single payment: scaRedirect, SCA in the browser, redirect back.',
    testedBy: 'automated',
  },
  {
    id: 'BSK-11', level: 'MUST', section: E,
    statement: 'The basket authorisation answers only with 201, 400, 401, 404 or 500.',
    testedBy: 'automated',
  },
  {
    id: 'BSK-12', level: 'MUST', section: E,
    statement: 'A basket cannot hold a bulk or periodic payment: the attempt gets 400 REFERENCE_MIX_INVALID.',
    testedBy: 'automated',
    interpretation: 'The attempt is refused when the basket is created with such a payment id (the only point where payments join a basket).',
  },
  {
    id: 'BSK-13', level: 'MUST', section: E,
    statement: 'Signing baskets are supported for the NCBCT payment product (norwegian-cross-border-credit-transfers).',
    testedBy: 'automated',
    interpretation: 'Product name from this interface family; the body follows the SEPA credit transfer request plus the creditor agent, since the NCBCT fields are not shown.',
  },
]);
