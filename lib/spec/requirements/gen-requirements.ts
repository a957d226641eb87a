/** GEN: what the service does (roles, environments, consent approach, PSU contexts, TPP contact registration). */
import { kept, lowered, variant } from './requirement-review.js';
import { defineArea } from './requirement-types.js';

const W = 'What the service does > ';

export const GEN = defineArea('GEN', [
  {
    id: 'GEN-01',
    level: 'INFO',
    section: `${W}Purpose`,
    statement:
      'The interface is the bank side of XS2A for regulated TPPs and follows the XS2A 1.3 guidelines except where the spec says otherwise.',
    testedBy: 'manual:context only',
    interpretation:
      'Where the spec says "not shown", the Berlin Group 1.3 framework fills the gap: an entry resting on it has basis berlin-group and names its source; a reading neither text gives has basis interpretation and is never a MUST.',
  },
  {
    id: 'GEN-02',
    level: 'INFO',
    section: `${W}Roles`,
    statement: 'Roles: the PSU is the bank customer, a PISP initiates payments, an AISP reads accounts, balances and transactions.',
    testedBy: 'manual:context only',
  },
  {
    id: 'GEN-03',
    level: 'MUST',
    section: `${W}Roles`,
    statement: 'The bank serves both roles through the same interface: an AISP can read accounts and a PISP can initiate payments.',
    testedBy: 'automated',
    review: [
      variant(
        'assertion',
        "GEN-03.a paid a SEPA credit transfer in the debtor account's currency (NOK)",
        ['sepa-in-euro-only'],
        "A SEPA credit transfer is a euro payment; which currencies a product takes is not said. The PISP half now pays in euro from the PSU's account, as every other SEPA payment of the suite.",
      ),
    ],
  },
  {
    id: 'GEN-04',
    level: 'INFO',
    section: `${W}Environments`,
    statement:
      'Two environments exist: production with real PSUs and transactions, and a sandbox with fake customers and simulated transactions.',
    testedBy: 'manual:context only; the environment of a target is declared in targets.yaml',
  },
  {
    id: 'GEN-05',
    level: 'MUST',
    section: `${W}Environments`,
    statement: 'The SCA flow a TPP sees is the same in sandbox and production: same redirect, same query parameters, same headers.',
    testedBy: 'needs-capability:production-target',
    interpretation: 'Compared by running the read-only SCA scenarios against both targets; production writing tests never run.',
  },
  {
    id: 'GEN-06',
    level: 'MUST',
    section: `${W}Environments`,
    statement: 'The sandbox SCA login asks only for a mocked national identification number.',
    testedBy: 'automated',
  },
  {
    id: 'GEN-07',
    level: 'MUST',
    section: `${W}Consent`,
    statement:
      'Consent is bank-offered: the PSU grants it in the SCA redirect (or directly with the bank), not through a TPP-built consent body.',
    testedBy: 'automated',
  },
  {
    id: 'GEN-08',
    level: 'MUST',
    section: `${W}Consent`,
    statement: 'Before consent the TPP gets no account information: account reads answer 401 with scaRedirect, never data.',
    testedBy: 'automated',
    expect: { status: [401] },
    review: [
      kept(
        'refusal',
        'answers 401 with scaRedirect before consent',
        'Other endpoints named: GET /v1/accounts "answers 401 with scaRedirect when no SCA or consent exists"; What the service does: "a TPP has no access to account information before consent."',
      ),
    ],
  },
  {
    id: 'GEN-09',
    level: 'MUST',
    section: `${W}PSU contexts`,
    statement: "In PRIVATE context the PSU's own accounts are offered and returned.",
    testedBy: 'automated',
  },
  {
    id: 'GEN-10',
    level: 'MUST',
    section: `${W}PSU contexts`,
    statement: 'In CORPORATE context only the accounts granted under the corporate agreement are offered and returned.',
    testedBy: 'needs-capability:corporate-psu',
    interpretation:
      'Observed with two corporate PSUs of two agreements (made with the sandbox mock data): consented in corporate context, neither gets an account the other gets.',
  },
  {
    id: 'GEN-11',
    level: 'MUST',
    section: `${W}PSU contexts`,
    statement: 'The PSU, not the TPP, picks the context (PRIVATE or CORPORATE) during SCA.',
    testedBy: 'needs-capability:corporate-psu',
    interpretation: 'A PSU without corporate agreements has nothing to pick; the bank may skip the choice and use PRIVATE.',
  },
  {
    id: 'GEN-12',
    level: 'MAY',
    section: `${W}TPP contact registration`,
    statement: 'A TPP may register a contact e-mail address for operational notices through a dialogue API.',
    testedBy: 'manual:the dialogue API path and payload are not shown in the spec',
  },
  {
    id: 'GEN-13',
    level: 'INFO',
    section: `${W}TPP contact registration`,
    statement: 'The TPP is to register only group or common mailboxes, not personal ones.',
    testedBy: 'manual:binds the TPP (TPP-51); the bank cannot tell a personal mailbox from a shared one',
  },
  {
    id: 'GEN-14',
    level: 'MUST',
    section: `${W}TPP contact registration`,
    statement: 'Registration is optional: a TPP that never registered a contact address is served normally.',
    testedBy: 'automated',
    interpretation: 'The suite never registers a contact, so every passing scenario shows this; one test states it explicitly.',
  },
  {
    id: 'GEN-15',
    level: 'SHOULD',
    section: `${W}PSU contexts`,
    statement:
      "A payment is approved only from an account of the context the PSU picked in its SCA: the PSU's own in PRIVATE, the agreement's in CORPORATE.",
    testedBy: 'needs-capability:corporate-psu',
    interpretation:
      "PRIVATE is the context of the PSU's own accounts and CORPORATE of the accounts granted under the agreement, and the PSU picks it during SCA (GEN-11). Observed with a payment from the agreement's account, initiated in corporate context, whose SCA the PSU completes after picking PRIVATE: the bank may fail the SCA, reject the payment or not offer PRIVATE for it; what fails is a payment going ahead (any status but RCVD, RJCT or CANC) after an SCA that ended in PRIVATE context.",
    basis: 'interpretation',
    review: [
      lowered(
        'beyond-text',
        'MUST approve a payment only from an account of the context picked in SCA',
        'The text gives the contexts and says the PSU picks one during SCA; it does not say a payment\'s SCA ending in another context stops the payment (and "the bank may remove payment permission", Authentication 15, is a permission, not a duty). Read into the contexts: SHOULD.',
      ),
    ],
  },
]);
