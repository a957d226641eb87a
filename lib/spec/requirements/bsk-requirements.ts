/** BSK: signing baskets (Resources > Signing basket authorisation response; Endpoints > Start of signing basket authorisation). */
import { kept, lowered, relaxed, variant } from './requirement-review.js';
import { defineArea } from './requirement-types.js';

const R = 'Resources > Signing basket authorisation response';
const E = 'Endpoints > Start of signing basket authorisation';

export const BSK = defineArea('BSK', [
  {
    id: 'BSK-01',
    level: 'MUST',
    section: `${R} > scaStatus`,
    statement: 'A 201 basket authorisation response carries scaStatus, one of the eight upper-case SCA statuses.',
    testedBy: 'automated',
  },
  {
    id: 'BSK-02',
    level: 'MUST',
    section: `${R} > _links`,
    statement: 'A 201 basket authorisation response carries _links, a map of Link objects.',
    testedBy: 'automated',
  },
  {
    id: 'BSK-03',
    level: 'MUST',
    section: `${R} > _links`,
    statement:
      'When SCA is required, the basket authorisation answer (a 401 body, or a 201 per ERR-08) holds a scaRedirect link to the SCA site.',
    testedBy: 'automated',
    expect: { status: [201, 401] },
    interpretation:
      'See ERR-08: the spec shows both a 401 body with scaRedirect and a 201 with links for a started authorisation; both hand the PSU to SCA and pass.',
    review: [
      kept(
        'refusal',
        'a 401 body (or 201) with scaRedirect when SCA is required',
        'Signing basket authorisation response: "when SCA is required (status 401 body), it holds a link named scaRedirect"; Responses: "201 (scaStatus body with links), … 401 (body with scaRedirect link)".',
      ),
    ],
  },
  {
    id: 'BSK-04',
    level: 'MUST',
    section: R,
    statement: 'A signing basket is not atomic: after its SCA, payments in it can end in different statuses.',
    testedBy: 'needs-capability:clock-control',
    interpretation:
      'Shown with a basket of one payable payment and one far above the balance: once the second is rejected, the first must not be rejected with it. The final statuses come after a batch run (SBX-09), which needs the clock moved; where neither payment has moved on by then (a bank that settles later, or checks funds at another moment), atomicity cannot be seen and the entry is not evaluated.',
  },
  {
    id: 'BSK-05',
    level: 'MUST',
    section: R,
    statement:
      "A basket's status reports the worst case over its payments, not a status of its own: the status of one of them, or RJCT for one rejected for lack of funds (ACCP with fundsAvailable false).",
    testedBy: 'needs-capability:clock-control',
    interpretation:
      'The spec does not rank the statuses, so which payment is the worst case is not checked here (BSK-14 carries a ranking at SHOULD level); the basket status must be a transactionStatus of the spec and that of one of its payments, or what a payment\'s status means: ACCP with fundsAvailable false is "rejected for lack of funds", which a basket may report as RJCT (BSK-15). Statuses differ only after a batch run, hence clock control.',
    review: [
      relaxed(
        'beyond-text',
        'MUST equal the status of one of its payments',
        'BSK-15 passes a basket reporting RJCT for a payment ACCP with fundsAvailable false (the fact calls it "rejected for lack of funds"); BSK-05 failed it. The worst case may be named by what it means.',
      ),
      relaxed(
        'contradiction',
        'BSK-15 allows RJCT for a basket holding a payment ACCP with fundsAvailable false, which BSK-05 (BSK-04.a) failed',
        'Both now read the fact alike: a basket may report the lack of funds as RJCT, what "rejected for lack of funds" means.',
      ),
    ],
  },
  {
    id: 'BSK-06',
    level: 'MUST',
    section: R,
    statement: "Each payment's own status request answers (200) for a payment in a basket, and is the way to learn its status.",
    testedBy: 'automated',
    expect: { status: [200] },
  },
  {
    id: 'BSK-07',
    level: 'MUST',
    section: `${R} > other fields (not shown)`,
    statement:
      'The signing basket resource follows the Berlin Group 1.3 shape: created from paymentIds, answered with transactionStatus, basketId, _links.',
    testedBy: 'automated',
    expect: { status: [201] },
    basis: 'berlin-group',
    source:
      'NextGenPSD2 XS2A 1.3 OpenAPI 1.3.8, path /v1/signing-baskets, schemas signingBasket, signingBasketResponse-201, signingBasketResponse-200, signingBasketStatusResponse-200',
    interpretation:
      'Create with POST /v1/signing-baskets {"paymentIds": [...]}; the 201 carries transactionStatus, basketId and _links. The basket status takes the spec\'s transactionStatus list, not the Berlin Group basket list (which has PATC), since it is the status of a payment (BSK-05). Reading and deleting a basket are Berlin Group methods a bank may leave out ("only necessary to support a certain subset of the methods"): judged where the bank offers them. Paths can be overridden per target.',
    review: [
      variant(
        'assertion',
        'BSK-07.a: reading and deleting a basket demanded',
        ['basket-read-and-delete-not-offered'],
        'Berlin Group 1.3.8: "it is only necessary to support a certain subset of the methods defined in this API definition"; the specification needs a basket\'s status (its worst case), not its read or its deletion. Judged where the bank answers them.',
      ),
    ],
  },
  {
    id: 'BSK-08',
    level: 'MUST',
    section: E,
    statement: 'Starting a basket authorisation takes the basket id as its only path parameter.',
    testedBy: 'automated',
    interpretation:
      'The path is not shown; the suite uses the Berlin Group path POST /v1/signing-baskets/{basketId}/authorisations (OpenAPI 1.3.8), which a target may override.',
  },
  {
    id: 'BSK-09',
    level: 'MUST',
    section: E,
    statement:
      'The basket authorisation takes the payment-initiation header set, signing date, digest, x-request-id, psu-id, psu-corporate-id and tpp-redirect-uri when present.',
    testedBy: 'automated',
  },
  {
    id: 'BSK-10',
    level: 'MUST',
    section: E,
    statement: 'The basket authorisation flow works like that of a single payment: scaRedirect, SCA in the browser, redirect back.',
    testedBy: 'automated',
  },
  {
    id: 'BSK-11',
    level: 'SHOULD',
    section: E,
    statement: 'The basket authorisation answers with one of the statuses the spec names for it: 201, 400, 401, 404 or 500.',
    testedBy: 'automated',
    expect: { status: [201, 400, 401, 404, 500] },
    interpretation:
      'The list of responses is read as the answers the operation gives to the requests the suite sends; a status outside it (a 403 for a role, a 429) is not forbidden by the list, which shows the answers, not all of them: a WARNING. Statuses of requests outside the operation (a wrong method, a gateway limit) are not judged here.',
    basis: 'interpretation',
    review: [
      lowered(
        'beyond-text',
        'MUST answer only 201, 400, 401, 404 or 500',
        '"Responses: 201 (…), 400, 401 (…), 404, 500" shows the answers of the operation; it does not forbid another status. SHOULD.',
      ),
    ],
  },
  {
    id: 'BSK-12',
    level: 'MUST',
    section: E,
    statement:
      'A basket cannot hold a bulk or periodic payment: the attempt gets 400 REFERENCE_MIX_INVALID, at basket creation or at the start of its authorisation.',
    testedBy: 'automated',
    expect: { status: [400], codes: ['REFERENCE_MIX_INVALID'] },
    interpretation:
      'The spec puts the refusal under the start of the basket authorisation, while payments join a basket when it is created: a refusal at either step passes, as long as the basket is never authorised with such a payment.',
    review: [
      kept(
        'refusal',
        'refused with 400 REFERENCE_MIX_INVALID',
        'Start of signing basket authorisation: "Baskets may not contain bulk or periodic payments; an attempt returns 400 with code REFERENCE_MIX_INVALID."',
      ),
    ],
  },
  {
    id: 'BSK-13',
    level: 'MUST',
    section: E,
    statement: 'Signing baskets are supported for the NCBCT payment product (norwegian-cross-border-credit-transfers).',
    testedBy: 'automated',
    interpretation:
      'The product path name is the one this interface family uses (a target may declare another). The NCBCT fields are not shown (its regulatory reporting fields among them), so the suite sends the SEPA credit transfer request plus the creditor agent: a bank that refuses that body may want fields the suite cannot know (PAY-46 reports it), and BSK-13 is then not evaluated. Judged is that NCBCT payments the bank took can be put in a basket and its authorisation started.',
  },
  {
    id: 'BSK-14',
    level: 'SHOULD',
    section: R,
    statement: 'The worst case a basket reports ranks RJCT, CANC and PART first, then the least advanced of the other statuses.',
    testedBy: 'needs-capability:clock-control',
    basis: 'interpretation',
    interpretation:
      'The spec names "the worst case" without a ranking. Read here as rejection and cancellation first (outcomes the TPP must act on), a payment lacking funds with them (BSK-15), then the least progress among RCVD, PDNG, ACTC, ACCP, ACWP, ACSP, ACWC, ACSC. Another ranking is a WARNING.',
  },
  {
    id: 'BSK-15',
    level: 'SHOULD',
    section: R,
    statement:
      'A basket holding a payment that lacks funds (ACCP with fundsAvailable false) reports ACCP or RJCT, not the status of a payment going ahead such as ACTC.',
    testedBy: 'automated',
    basis: 'interpretation',
    interpretation:
      'The spec ranks no statuses, but says fundsAvailable false shows that the payment "was rejected for lack of funds": whatever order the bank gives the other statuses, that payment is the worst case of its basket. Its own status (ACCP) or what it means (RJCT) pass; a status of progress hides it until the batch run. Judged right after the basket\'s SCA, before any batch run.',
  },
]);
