/** ADR: the structured-address rule for payments (Resources > Payment initiation request > Structured-address rule). */
import { ANY_CLIENT_ERROR, FIELD_REFUSAL, kept, relaxed } from './requirement-review.js';
import { CLIENT_ERROR_STATUSES, defineArea } from './requirement-types.js';

const S = 'Resources > Structured-address rule';

const DATE_BY_ENVIRONMENT =
  'The date follows the environment declared for the target, one of the two the spec knows: `sandbox` uses 13 August 2026, `production` 15 November 2026. The date is compared with the target clock (its Date response header), not the suite clock.';

const EMPTY_IS_MISSING =
  'Rule 1 asks for the part to be available and rule 4 refuses what is missing: an empty string names nothing, and ISO 20022, whose Max70Text and Max35Text the fields follow, gives them a minimum length of 1. Rule 4 says "returns an error" without a status: any 4xx passes. Judged once the rule is enforced (ADR-08).';

/** Found against the clean-room bank (issue 38): the creditor of a payment to self is the PSU, whose data the bank has. */
const INFERRED_CREDITOR = relaxed(
  'assertion',
  'ADR-05.a, ADR-06.a, ADR-14.a, ADR-15.a, ADR-16.a-b: a payment to self without the creditor part refused',
  'Rule 4 refuses parts that are missing "and cannot be inferred", and "The service infers all debtor data itself": the creditor of a payment to self is the PSU, so those cells are not judged (lib/spec/rule-table.ts); a bank may refuse them by rule 3 all the same.',
);

export const ADR = defineArea('ADR', [
  {
    id: 'ADR-01',
    level: 'MUST',
    section: `${S} 1`,
    statement: 'A payment needs name, town name and country code for debtor, creditor and creditor agent; the bank checks this.',
    testedBy: 'automated',
    interpretation: 'Checked through its parts: the debtor side by ADR-02, the creditor side by ADR-03 to ADR-07.',
    review: [
      kept(
        'assertion',
        'the rule judged in every payment product, not in SEPA and cross-border (NCBCT) payments alone (a reading of the clean-room bank)',
        '"Structured-address rule for payments": it names payments, not a product; written beside the sepa-credit-transfers request table, whose fields the other products take (PAY-46).',
      ),
    ],
  },
  {
    id: 'ADR-02',
    level: 'MUST',
    section: `${S} 2`,
    statement:
      'The bank infers all debtor data itself: a payment with only debtorAccount (iban, currency) on the debtor side is accepted (201).',
    testedBy: 'automated',
    expect: { status: [201] },
  },
  {
    id: 'ADR-03',
    level: 'SHOULD',
    section: `${S} 3`,
    statement: 'The TPP supplies the creditor agent BIC in `creditorAgent`; a malformed BIC there gets 400.',
    testedBy: 'automated',
    basis: 'berlin-group',
    source: 'NextGenPSD2 XS2A 1.3 OpenAPI 1.3.8, schema paymentInitiation_json property creditorAgent (schema bicfi)',
    expect: { status: [400] },
    interpretation:
      'The field table has no field for it; the rule says no other API change is needed, so the Berlin Group request field `creditorAgent` (a BIC, 8 or 11 characters, pattern [A-Z]{6}[A-Z2-9][A-NP-Z0-9]([A-Z0-9]{3})?) carries it. A missing BIC is ADR-13.',
    review: [FIELD_REFUSAL],
  },
  {
    id: 'ADR-04',
    level: 'MUST',
    section: `${S} 3`,
    statement:
      'The TPP supplies the creditor name; once the rule is enforced, a payment without creditorName is refused with an error (a 4xx).',
    testedBy: 'automated',
    expect: { status: CLIENT_ERROR_STATUSES },
    review: [ANY_CLIENT_ERROR],
  },
  {
    id: 'ADR-05',
    level: 'MUST',
    section: `${S} 3`,
    statement:
      'The TPP supplies the creditor town name (creditorAddress.townName); once enforced, a payment without it is refused with an error (a 4xx).',
    testedBy: 'automated',
    expect: { status: CLIENT_ERROR_STATUSES },
    interpretation:
      'Where the bank still accepts the deprecated creditorAddress.city (PAY-23), a city value also satisfies the rule; where it refuses city, only townName does.',
    review: [ANY_CLIENT_ERROR, INFERRED_CREDITOR],
  },
  {
    id: 'ADR-06',
    level: 'MUST',
    section: `${S} 3`,
    statement:
      'The TPP supplies the creditor country code; once enforced, a payment without creditorAddress.country is refused with an error (a 4xx).',
    testedBy: 'automated',
    expect: { status: CLIENT_ERROR_STATUSES },
    review: [ANY_CLIENT_ERROR, INFERRED_CREDITOR],
  },
  {
    id: 'ADR-07',
    level: 'MUST',
    section: `${S} 4`,
    statement: 'A missing creditor town name or country, which cannot be inferred, gives an error response (a 4xx), never 201 or 5xx.',
    testedBy: 'automated',
    expect: { status: CLIENT_ERROR_STATUSES },
    interpretation:
      'The spec says only "returns an error": any 4xx passes (400, the status it gives every other refusal of a malformed request, is the likely one; the code is checked under ERR-21). A missing creditor agent BIC can be inferred from the IBAN, so it is ADR-13.',
    review: [ANY_CLIENT_ERROR, INFERRED_CREDITOR],
  },
  {
    id: 'ADR-08',
    level: 'MUST',
    section: `${S} 5`,
    statement: 'In the sandbox the structured-address rule is enforced from 13 August 2026.',
    testedBy: 'automated',
    interpretation: DATE_BY_ENVIRONMENT,
  },
  {
    id: 'ADR-09',
    level: 'MUST',
    section: `${S} 5`,
    statement: 'Before 13 August 2026 the sandbox does not refuse a payment for missing structured-address parts.',
    testedBy: 'needs-capability:clock-control',
    interpretation: `"Enforcement starts" on a date means no refusal before it. ${DATE_BY_ENVIRONMENT}`,
  },
  {
    id: 'ADR-10',
    level: 'MUST',
    section: `${S} 5`,
    statement: 'In production the structured-address rule is enforced from 15 November 2026.',
    testedBy: 'manual:observable only by initiating payments in production, which the suite never does (safety policy)',
    interpretation: `${DATE_BY_ENVIRONMENT} No other environment stands in for production: the sandbox has its own date.`,
  },
  {
    id: 'ADR-11',
    level: 'MUST',
    section: `${S} 5`,
    statement: 'Before 15 November 2026 production does not refuse a payment for missing structured-address parts.',
    testedBy: 'manual:observable only by initiating payments in production, which the suite never does, and whose clock it cannot move',
    interpretation: `"Enforcement starts" on a date means no refusal before it. ${DATE_BY_ENVIRONMENT}`,
  },
  {
    id: 'ADR-12',
    level: 'INFO',
    section: `${S} 5`,
    statement: 'The structured-address rule brings no other API change: no new endpoint, header or status.',
    testedBy: 'manual:context only; nothing to observe beyond ADR-01 to ADR-11',
  },
  {
    id: 'ADR-13',
    level: 'MAY',
    section: `${S} 4`,
    statement:
      'A payment without a creditor agent BIC may be accepted (the BIC inferred from the creditor IBAN) or refused with 400: both pass.',
    testedBy: 'automated',
    expect: { status: [201, 400] },
    interpretation:
      'Rule 3 asks the TPP for the BIC, but rule 4 refuses only parts that cannot be inferred, and a BIC can be derived from most IBANs. The reference bank refuses a missing BIC once the rule is enforced.',
  },
  {
    id: 'ADR-14',
    level: 'MUST',
    section: `${S} 1`,
    statement:
      'Once the rule is enforced, an empty creditorName ("") does not make the creditor name available: the payment is refused with an error (a 4xx).',
    testedBy: 'automated',
    expect: { status: CLIENT_ERROR_STATUSES },
    interpretation: `${EMPTY_IS_MISSING} The code is checked under ERR-21.`,
    review: [ANY_CLIENT_ERROR, INFERRED_CREDITOR],
  },
  {
    id: 'ADR-15',
    level: 'MUST',
    section: `${S} 1`,
    statement:
      'Once the rule is enforced, an empty creditorAddress.townName ("") does not make the town name available: the payment is refused with an error (a 4xx).',
    testedBy: 'automated',
    expect: { status: CLIENT_ERROR_STATUSES },
    interpretation: `${EMPTY_IS_MISSING} Where the bank still takes the deprecated city for townName (PAY-23, ADR-05), an empty townName beside a city is judged by the city.`,
    review: [ANY_CLIENT_ERROR, INFERRED_CREDITOR],
  },
  {
    id: 'ADR-16',
    level: 'SHOULD',
    section: `${S} 1`,
    statement: 'Once the rule is enforced, a creditor name or town name made only of spaces is refused with 400, like an empty one.',
    testedBy: 'automated',
    basis: 'interpretation',
    expect: { status: [400] },
    interpretation:
      'Spaces name no creditor and no town, but ISO 20022 text types take them, and the spec does not ask the bank to look inside the text: refusing them is read into rule 1, so accepting them is a WARNING.',
    review: [INFERRED_CREDITOR],
  },
]);
