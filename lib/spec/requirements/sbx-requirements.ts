/** SBX: sandbox mock data (What the service does > Sandbox mock data). */
import { lowered } from './requirement-review.js';
import { defineArea } from './requirement-types.js';

const S = 'What the service does > Sandbox mock data';

export const SBX = defineArea('SBX', [
  {
    id: 'SBX-01',
    level: 'MUST',
    section: S,
    statement: 'An initialisation operation resets the sandbox to its known state.',
    testedBy: 'needs-capability:sandbox-reset',
    interpretation:
      'The path is not shown; the suite uses POST /v1/sandbox/initialize (signed like any request), which a target may override in targets.yaml.',
  },
  {
    id: 'SBX-02',
    level: 'MUST',
    section: S,
    statement: 'Initialisation also removes customers and accounts created manually.',
    testedBy: 'needs-capability:sandbox-reset',
  },
  {
    id: 'SBX-03',
    level: 'MUST',
    section: S,
    statement: 'In the known state every private customer has 2 accounts and one card account.',
    testedBy: 'needs-capability:sandbox-reset',
  },
  {
    id: 'SBX-04',
    level: 'MUST',
    section: S,
    statement: 'In the known state every corporate customer has 2 accounts.',
    testedBy: 'needs-capability:sandbox-reset',
  },
  {
    id: 'SBX-05',
    level: 'SHOULD',
    section: S,
    statement:
      'Each customer GET /v1/sandbox/customers lists carries the number the PSU types at the sandbox login and its type, private or corporate.',
    testedBy: 'automated',
    basis: 'interpretation',
    interpretation:
      "The spec names the list (END-22) but not its payload. The suite reads it as this interface family's sandbox writes it: a JSON array of customers, or an object holding one under `customers`, each with `customerNumber` and `type` (private or corporate); the number is mocked, so no check digits are demanded. A bank that lists its customers otherwise keeps the letter of the spec: a WARNING here, and the scenarios that look customers up in the list are not evaluated.",
  },
  {
    id: 'SBX-06',
    level: 'SHOULD',
    section: S,
    statement:
      "Mock operations in this interface family's form create or update a single mock resource: a customer, an account or a card account.",
    testedBy: 'needs-capability:sandbox-mock-data',
    basis: 'interpretation',
    interpretation:
      'The spec says such operations exist but shows neither their path nor their payload ("not shown"). The suite calls them as this interface family does (POST /v1/sandbox/customers, /accounts, /card-accounts, /agreements; PUT /v1/sandbox/customers/{customerNumber} with { name } for an update, which the family does not show), amounts as strings, and judges each by what the customer list and the account information endpoints then show. A target may override the paths in targets.yaml; one whose operations take other methods or bodies keeps the letter of the spec, so a miss is a WARNING, not a FAIL. Accepting amounts as numbers too is the target\'s choice.',
  },
  {
    id: 'SBX-07',
    level: 'SHOULD',
    section: S,
    statement: "Mock operations in this interface family's form set the balances of an account and of a card account.",
    testedBy: 'needs-capability:sandbox-mock-data',
    basis: 'interpretation',
    interpretation:
      "Path and payload not shown: the suite replaces the balances with PUT /v1/sandbox/accounts/{id}/balances (and /card-accounts/{id}/balances), body { balances: [{ balanceType, balanceAmount }] } (the family's balance shape), and reads them back through the balances endpoints, amounts compared as numbers. Another form keeps the letter of the spec: a WARNING.",
  },
  {
    id: 'SBX-08',
    level: 'SHOULD',
    section: S,
    statement: "A mock operation in this interface family's form sets the owner name of an account.",
    testedBy: 'needs-capability:sandbox-mock-data',
    basis: 'interpretation',
    interpretation:
      'Path and payload not shown: the suite uses PUT /v1/sandbox/accounts/{id}/owner-name with { ownerName }, and reads it back as ownerName in the account details (Berlin Group 1.3 accountDetails.ownerName). Another form keeps the letter of the spec: a WARNING.',
  },
  {
    id: 'SBX-09',
    level: 'SHOULD',
    section: S,
    statement:
      'The sandbox simulates batch processing 5 times a day: an authorised non-periodic payment advances in status after a batch run.',
    testedBy: 'needs-capability:clock-control',
    interpretation:
      'The batch times are not given, only their number: with clock control the suite moves the clock a day (and a minute) on, which holds at least one of the five runs wherever the bank puts them, and expects the status to have moved on from its state after SCA. A payment already final after SCA (ACSC, RJCT, CANC) has nothing to advance to and passes.',
    basis: 'interpretation',
    review: [
      lowered(
        'beyond-text',
        "MUST advance an approved payment's status at the next batch run",
        '"The sandbox simulates payment batch processing for all payments except periodic ones, 5 times a day" gives the runs, not what a run does to a payment\'s status (a payment may wait for its settlement day, or settle in a later run). Read as progress by the next run: SHOULD.',
      ),
    ],
  },
  {
    id: 'SBX-10',
    level: 'MUST',
    section: S,
    statement: 'The simulated batch processing leaves periodic payments out.',
    testedBy: 'needs-capability:clock-control',
  },
  {
    id: 'SBX-11',
    level: 'SHOULD',
    section: S,
    statement:
      'An approved payment with a requestedExecutionDate days ahead is not settled (ACSC) before that day, by a batch run or at approval.',
    testedBy: 'needs-capability:clock-control',
    basis: 'interpretation',
    interpretation:
      'The spec gives requestedExecutionDate a form (PAY-35) and refuses a past one (ERR-33), but does not say how the sandbox simulates a date ahead. Read by its name: the payment is executed on that day, not before. Checked 13 hours later (past a batch run, still days before the date): any status but ACSC passes (ACTC, PDNG, ACSP…). Periodic payments carry startDate and are left out of the batch runs (SBX-10).',
  },
]);
