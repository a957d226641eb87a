/** ADR: the structured-address rule for payments (Resources > Payment initiation request > Structured-address rule). */
import { defineArea } from './types.js';

const S = 'Resources > Structured-address rule';

const DATE_BY_ENVIRONMENT =
  'The date follows the environment declared for the target: `sandbox` uses 13 August 2026; `production` and `staging` use 15 November 2026, because staging runs the production release line. The date is compared with the target clock (its Date response header), not the suite clock.';

export const ADR = defineArea('ADR', [
  {
    id: 'ADR-01', level: 'MUST', section: `${S} 1`,
    statement: 'A payment needs name, town name and country code for debtor, creditor and creditor agent; the bank checks this.',
    testedBy: 'automated',
    interpretation: 'Checked through its parts: the debtor side by ADR-02, the creditor side by ADR-03 to ADR-07.',
  },
  {
    id: 'ADR-02', level: 'MUST', section: `${S} 2`,
    statement: 'The bank infers all debtor data itself: a payment with only debtorAccount (iban, currency) on the debtor side is accepted.',
    testedBy: 'automated',
  },
  {
    id: 'ADR-03', level: 'MUST', section: `${S} 3`,
    statement: 'The TPP supplies the creditor agent BIC in `creditorAgent`; a malformed BIC there gets 400.',
    testedBy: 'automated',
    interpretation: 'The field table has no field for it; the rule says no other API change is needed, so the Berlin Group request field `creditorAgent` (a BIC, 8 or 11 characters, pattern [A-Z]{6}[A-Z2-9][A-NP-Z0-9]([A-Z0-9]{3})?) carries it.',
  },
  {
    id: 'ADR-04', level: 'MUST', section: `${S} 3`,
    statement: 'The TPP supplies the creditor name; a payment without creditorName is refused.',
    testedBy: 'automated',
  },
  {
    id: 'ADR-05', level: 'MUST', section: `${S} 3`,
    statement: 'The TPP supplies the creditor town name (creditorAddress.townName); once enforced, a payment without it is refused.',
    testedBy: 'automated',
    interpretation: 'The deprecated creditorAddress.city also satisfies the rule while it is still accepted (PAY-23).',
  },
  {
    id: 'ADR-06', level: 'MUST', section: `${S} 3`,
    statement: 'The TPP supplies the creditor country code; once enforced, a payment without creditorAddress.country is refused.',
    testedBy: 'automated',
  },
  {
    id: 'ADR-07', level: 'MUST', section: `${S} 4`,
    statement: 'Mandatory address parts that are missing and cannot be inferred give an error response (400), never 201 or 5xx.',
    testedBy: 'automated',
    interpretation: 'Status 400 with code FORMAT_ERROR. A bank may derive the creditor agent BIC from the creditor IBAN, so for a missing BIC either 201 or 400 passes; a missing town name or country cannot be inferred and must give 400. The reference bank refuses all three.',
  },
  {
    id: 'ADR-08', level: 'MUST', section: `${S} 5`,
    statement: 'In the sandbox the structured-address rule is enforced from 13 August 2026.',
    testedBy: 'automated',
    interpretation: DATE_BY_ENVIRONMENT,
  },
  {
    id: 'ADR-09', level: 'MUST', section: `${S} 5`,
    statement: 'Before 13 August 2026 the sandbox does not refuse a payment for missing structured-address parts.',
    testedBy: 'needs-capability:clock-control',
    interpretation: `"Enforcement starts" on a date means no refusal before it. ${DATE_BY_ENVIRONMENT}`,
  },
  {
    id: 'ADR-10', level: 'MUST', section: `${S} 5`,
    statement: 'In production the structured-address rule is enforced from 15 November 2026.',
    testedBy: 'automated',
    interpretation: `${DATE_BY_ENVIRONMENT} A production target never gets the writing test (safety policy), so this runs on staging targets.`,
  },
  {
    id: 'ADR-11', level: 'MUST', section: `${S} 5`,
    statement: 'Before 15 November 2026 production does not refuse a payment for missing structured-address parts.',
    testedBy: 'needs-capability:clock-control',
    interpretation: DATE_BY_ENVIRONMENT,
  },
  {
    id: 'ADR-12', level: 'INFO', section: `${S} 5`,
    statement: 'The structured-address rule brings no other API change: no new endpoint, header or status.',
    testedBy: 'manual:context only; nothing to observe beyond ADR-01 to ADR-11',
  },
]);
