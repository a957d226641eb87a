/**
 * The rule table: the rules the specification implies for every payment, in every payment service and
 * product, and the state of the payment (or of its SCA link) each is about. A rule found holding for one
 * product or service is no evidence for its siblings, and a state reached after it should be closed is a
 * hole of its own: so every (rule, service, product) is a cell, judged by the scenario of its row, which
 * iterates the row's judged cells, or marked with the reason it cannot be judged.
 *
 * Rows are data: the suites iterate them (suites/payments/rule-cells.ts), and the project's tests fail when
 * a service or product of payment-products.ts has no decision in a row, or a row's scenario is missing.
 */
import { PAYMENT_PRODUCTS, PAYMENT_SERVICES, type PaymentProduct, type PaymentService } from './payment-products.js';

/** The states a rule is judged in: of the payment, and of its SCA link. */
export const RULE_STATES = {
  initiation: 'the request that creates the payment',
  received: 'received, before its SCA',
  approved: 'after the PSU approved it in its SCA (its link used)',
  rejected: 'after the PSU rejected it in its SCA (its link used, the SCA failed)',
  cancelled: 'cancelled by the TPP before its SCA (its link unused)',
  'basket-authorised': 'authorised through a signing basket (its own link unused)',
  expired: 'its link unused for longer than the bank keeps it',
  revoked: "the TPP's authorisation withdrawn in the register while its link is unused",
} as const;
export type RuleState = keyof typeof RULE_STATES;

/** A cell is judged, or says why it cannot be. */
export type Decision = 'judged' | { reason: string };

export interface RuleRow {
  /** Stable key of the row: its scenario id when it has one. */
  key: string;
  /** The requirements its cells judge (catalogue ids). */
  requirements: readonly string[];
  /** The rule, as the cells apply it. */
  rule: string;
  state: RuleState;
  /**
   * The scenario that iterates the judged cells (none when no cell is judged); or several, each judging
   * the cells of its service, product or both, for rows whose cells each take a browser flow or two (a
   * scenario of a cell or a service stays short on a loaded machine, and the workers share them).
   */
  scenario?: string | readonly CellScenario[];
  services: Readonly<Record<PaymentService, Decision>>;
  products: Readonly<Record<PaymentProduct, Decision>>;
}

/** A scenario judging the cells of a row of this service and product (either left out: every one). */
export interface CellScenario {
  id: string;
  service?: PaymentService;
  product?: PaymentProduct;
}

export interface Cell {
  row: RuleRow;
  service: PaymentService;
  product: PaymentProduct;
  /** Why the cell is not judged; undefined for a judged cell. */
  reason?: string;
}

const JUDGED = 'judged' as const;

// Reasons, each once.
const OTHER_PRODUCTS =
  'What a product other than sepa-credit-transfers accepts is its own (PAY-46, a SHOULD: a product may restrict its body, a domestic transfer to NOK say); refusals are judged for every product, acceptance for SEPA.';
const NO_EXECUTION_DATE =
  "A periodic payment has no requestedExecutionDate (Berlin Group: startDate and dayOfExecution); its days are the bank's rules of execution.";
const ONLY_BULK = 'Only a bulk payment has payments of its own.';
const ONLY_PERIODIC = 'Only a periodic payment has a frequency and months of execution.';
const NOT_IN_BASKETS = 'A signing basket holds no periodic or bulk payment (BSK-12): the state is not reachable.';
const SINGLE_JOINS = 'A single payment may join a basket (BSK-07; BSK-13 for NCBCT): there is nothing to refuse.';
const DOMESTIC_ONLY = 'The rule names the product domestic-norway-credit-transfers only.';
const HIDDEN_DOMESTIC = 'A domestic transfer shows no status before the PSU approved it (END-08): there is none to read.';
const PERIODIC_NOT_BATCHED = 'The batch runs leave periodic payments out (SBX-10): no run settles one, early or not.';
const NOT_PERIODIC = "The rule is about periodic payments; the others are SBX-09's and SBX-11's.";
const EXPIRY_UNSPECIFIED =
  "The specification gives a pending SCA no lifetime (its hour is the session's, after SCA): when an unused link expires is the bank's, so no moment can be said to be past it.";
const CREDITOR_INFERRED =
  'The creditor of a payment to self is the PSU, whose data the bank has ("The service infers all debtor data itself"): a part it leaves out can be inferred, and rule 4 refuses only what "cannot be inferred".';
const REVOKED_PAGES =
  "Registration is checked on the TPP's requests (Authentication 2, SIG-10), which a withdrawn TPP has refused; the SCA pages are the PSU's, and what the PSU does on an open link the withdrawn TPP cannot act on.";

type Decisions<K extends string> = Readonly<Record<K, Decision>>;

// Every decision map names every service or product by hand (never "all of the list"): a service or
// product added to payment-products.ts fails the typecheck here until each map says what it does there.
const ALL_SERVICES: Decisions<PaymentService> = { payments: JUDGED, 'periodic-payments': JUDGED, 'bulk-payments': JUDGED };
const DATED_SERVICES: Decisions<PaymentService> = {
  payments: JUDGED,
  'periodic-payments': { reason: NO_EXECUTION_DATE },
  'bulk-payments': JUDGED,
};
const BULK_ONLY: Decisions<PaymentService> = {
  payments: { reason: ONLY_BULK },
  'periodic-payments': { reason: ONLY_BULK },
  'bulk-payments': JUDGED,
};
const PERIODIC_ONLY: Decisions<PaymentService> = {
  payments: { reason: ONLY_PERIODIC },
  'periodic-payments': JUDGED,
  'bulk-payments': { reason: ONLY_PERIODIC },
};
const BASKET_SERVICES: Decisions<PaymentService> = {
  payments: JUDGED,
  'periodic-payments': { reason: NOT_IN_BASKETS },
  'bulk-payments': { reason: NOT_IN_BASKETS },
};
const PERIODIC_IN_BASKET: Decisions<PaymentService> = {
  payments: { reason: SINGLE_JOINS },
  'periodic-payments': JUDGED,
  'bulk-payments': { reason: 'A bulk payment in a basket is BSK-12.b.' },
};
const BULK_IN_BASKET: Decisions<PaymentService> = {
  payments: { reason: SINGLE_JOINS },
  'periodic-payments': { reason: 'A periodic payment in a basket is BSK-12.a.' },
  'bulk-payments': JUDGED,
};
const BATCHED_SERVICES: Decisions<PaymentService> = {
  payments: JUDGED,
  'periodic-payments': { reason: PERIODIC_NOT_BATCHED },
  'bulk-payments': JUDGED,
};
const PERIODIC_BATCH: Decisions<PaymentService> = {
  payments: { reason: NOT_PERIODIC },
  'periodic-payments': JUDGED,
  'bulk-payments': { reason: NOT_PERIODIC },
};

const ALL_PRODUCTS: Decisions<PaymentProduct> = {
  'sepa-credit-transfers': JUDGED,
  'domestic-norway-credit-transfers': JUDGED,
  'norwegian-cross-border-credit-transfers': JUDGED,
  'norwegian-domestic-payment-to-self': JUDGED,
};
const SEPA_ONLY: Decisions<PaymentProduct> = {
  'sepa-credit-transfers': JUDGED,
  'domestic-norway-credit-transfers': { reason: OTHER_PRODUCTS },
  'norwegian-cross-border-credit-transfers': { reason: OTHER_PRODUCTS },
  'norwegian-domestic-payment-to-self': { reason: OTHER_PRODUCTS },
};
const NOT_SEPA: Decisions<PaymentProduct> = {
  'sepa-credit-transfers': { reason: 'The rule is about the products other than SEPA; SEPA takes its own fields under every other row.' },
  'domestic-norway-credit-transfers': JUDGED,
  'norwegian-cross-border-credit-transfers': JUDGED,
  'norwegian-domestic-payment-to-self': JUDGED,
};
const SHOWING_STATUS: Decisions<PaymentProduct> = {
  'sepa-credit-transfers': JUDGED,
  'domestic-norway-credit-transfers': { reason: HIDDEN_DOMESTIC },
  'norwegian-cross-border-credit-transfers': JUDGED,
  'norwegian-domestic-payment-to-self': JUDGED,
};
/** Where the creditor's address parts are missing: a payment to self, whose creditor is the PSU, may have them inferred. */
const CREDITOR_ELSEWHERE: Decisions<PaymentProduct> = {
  'sepa-credit-transfers': JUDGED,
  'domestic-norway-credit-transfers': JUDGED,
  'norwegian-cross-border-credit-transfers': JUDGED,
  'norwegian-domestic-payment-to-self': { reason: CREDITOR_INFERRED },
};
const DOMESTIC: Decisions<PaymentProduct> = {
  'sepa-credit-transfers': { reason: DOMESTIC_ONLY },
  'domestic-norway-credit-transfers': JUDGED,
  'norwegian-cross-border-credit-transfers': { reason: DOMESTIC_ONLY },
  'norwegian-domestic-payment-to-self': { reason: DOMESTIC_ONLY },
};

/** A row judged by its own scenario (key = scenario id). */
function row(
  scenario: string,
  requirements: readonly string[],
  rule: string,
  state: RuleState,
  services: Decisions<PaymentService>,
  products: Decisions<PaymentProduct>,
): RuleRow {
  return { key: scenario, scenario, requirements, rule, state, services, products };
}

/**
 * A scenario per cell: `letters[service]` names, product by product in the order of PAYMENT_PRODUCTS, the
 * letter of each cell's scenario id (`${requirement}.${letter}`); '' for a service whose cells are not judged.
 * Written out by hand, so that ids stay put: a product added fails here until its letters are given.
 */
function perCell(requirement: string, letters: Readonly<Record<PaymentService, string>>): CellScenario[] {
  return PAYMENT_SERVICES.flatMap((service) => {
    const own = letters[service];
    if (own !== '' && own.length !== PAYMENT_PRODUCTS.length)
      throw new Error(`${requirement}: ${own.length} letters for the ${PAYMENT_PRODUCTS.length} products of ${service}`);
    return [...own].map((letter, i) => ({ id: `${requirement}.${letter}`, service, product: PAYMENT_PRODUCTS[i] as PaymentProduct }));
  });
}

/** A row judged by a scenario per cell (key = the first scenario id). */
function rowPerCell(
  scenarios: readonly CellScenario[],
  requirements: readonly string[],
  rule: string,
  state: RuleState,
  services: Decisions<PaymentService>,
  products: Decisions<PaymentProduct>,
): RuleRow {
  return { key: scenarios[0]?.id ?? '', scenario: scenarios, requirements, rule, state, services, products };
}

/** The three rows a basket's SCA judges, one scenario per product. */
const BASKET_SCENARIOS = perCell('BSK-15', { payments: 'abcd', 'periodic-payments': '', 'bulk-payments': '' });

/** A row no cell of which can be judged, for one reason. */
function reasoned(key: string, requirements: readonly string[], rule: string, state: RuleState, reason: string): RuleRow {
  const no = { reason };
  return {
    key,
    requirements,
    rule,
    state,
    services: { payments: no, 'periodic-payments': no, 'bulk-payments': no },
    products: {
      'sepa-credit-transfers': no,
      'domestic-norway-credit-transfers': no,
      'norwegian-cross-border-credit-transfers': no,
      'norwegian-domestic-payment-to-self': no,
    },
  };
}

/** Refusals of the request table, one row per violation (the suite's body change of the same key). */
const REFUSALS: readonly (readonly [string, readonly string[], string])[] = [
  ['PAY-02.a', ['PAY-02', 'LIM-09'], 'an endToEndIdentification of 36 characters is refused'],
  ['PAY-03.a', ['PAY-03'], 'a payment without instructedAmount is refused'],
  ['PAY-03.b', ['PAY-03'], 'an instructedAmount that is a string is refused'],
  ['PAY-04.a', ['PAY-04'], 'an instructedAmount without amount is refused'],
  ['FMT-10.a', ['FMT-10'], 'an amount written as a JSON number is refused'],
  ['PAY-05.a', ['PAY-05', 'LIM-17'], 'an amount of 19 digits is refused'],
  ['PAY-06.a', ['PAY-06', 'LIM-17'], 'an amount with 6 fraction digits is refused'],
  ['PAY-07.a', ['PAY-07', 'LIM-17'], 'EUR 10.123 (EUR has 2 minor units) is refused'],
  ['PAY-07.b', ['PAY-07'], 'JPY 100.5 (JPY has no minor units) is refused'],
  ['PAY-09.a', ['PAY-09'], 'an amount with an exponent (1e3) is refused'],
  ['PAY-09.b', ['PAY-09'], 'an amount with a decimal comma (10,50) is refused'],
  ['PAY-10.a', ['PAY-10'], 'an instructedAmount without currency is refused'],
  ['PAY-10.b', ['PAY-10'], 'the currency "EURO" is refused'],
  ['PAY-11.a', ['PAY-11'], 'BYN, a current ISO 4217 code absent from the list, is refused'],
  ['PAY-13.a', ['PAY-13', 'ADR-04'], 'a payment without creditorName is refused'],
  ['PAY-14.a', ['PAY-14', 'LIM-10'], 'a creditorName of 71 characters is refused'],
  ['PAY-15.a', ['PAY-15'], 'a payment without creditorAccount is refused'],
  ['PAY-16.a', ['PAY-16'], 'a creditorAccount without iban is refused'],
  ['PAY-17.a', ['PAY-17', 'LIM-12'], 'a creditor IBAN of 35 characters is refused'],
  ['PAY-18.a', ['PAY-18'], 'a creditor IBAN with wrong check digits is refused'],
  ['PAY-18.b', ['PAY-18'], 'a creditor IBAN in paper form, with spaces, is refused'],
  ['PAY-19.a', ['PAY-19'], 'a creditorAccount currency outside the list is refused'],
  ['PAY-20.a', ['PAY-20'], 'a creditorAddress that is a string is refused'],
  ['PAY-21.a', ['PAY-21', 'LIM-11'], 'a street of 71 characters is refused'],
  ['PAY-22.a', ['PAY-22'], 'a buildingNumber that is a number is refused'],
  ['PAY-22.b', ['PAY-22'], 'a postalCode that is an object is refused'],
  ['PAY-25.a', ['PAY-25', 'ADR-06'], 'a creditorAddress without country is refused'],
  ['PAY-26.a', ['PAY-26', 'LIM-14'], 'the country "NOR" is refused'],
  ['PAY-26.b', ['PAY-26', 'LIM-14'], 'the country "N" is refused'],
  ['PAY-27.a', ['PAY-27'], 'the country "XK", not in the list, is refused'],
  ['PAY-27.b', ['PAY-27'], 'the country in lower case ("no") is refused'],
  ['PAY-28.a', ['PAY-28'], 'a payment without debtorAccount is refused'],
  ['PAY-29.a', ['PAY-29'], 'a debtorAccount without iban is refused'],
  ['PAY-29.b', ['PAY-29', 'LIM-12'], 'a debtor IBAN of 35 characters is refused'],
  ['PAY-30.a', ['PAY-30'], 'a debtorAccount without currency is refused'],
  ['PAY-31.a', ['PAY-31'], 'an empty remittanceInformationUnstructured is refused'],
  ['PAY-32.a', ['PAY-32', 'LIM-13'], 'a remittanceInformationUnstructured of 141 characters is refused'],
  ['ADR-03.a', ['ADR-03'], 'a malformed creditor agent BIC is refused'],
  ['PAY-48.a', ['PAY-48'], 'an amount of zero is refused'],
  ['PAY-48.b', ['PAY-48'], 'a negative amount is refused'],
];

/** What the request table allows, accepted (or either reading, where the entry lists both). */
const ALLOWANCES: readonly (readonly [string, readonly string[], string])[] = [
  ['PAY-01.a', ['PAY-01', 'END-01', 'ADR-02'], 'no endToEndIdentification, and only debtorAccount on the debtor side, is accepted'],
  ['PAY-08.a', ['PAY-08'], 'EUR 10.00 (2 minor units) is accepted'],
  // PAY-08.b (JPY 100) is withdrawn: a SEPA product may take no JPY, and JPY has no form without its minor units to compare with.
  ['PAY-08.c', ['PAY-08'], 'BHD 1.000 (3 minor units) is accepted where BHD "1" is'],
  ['PAY-24.a', ['PAY-24'], 'creditorAddress.townName is accepted'],
  ['PAY-33.a', ['PAY-33'], 'remittance text in UTF-8 with Norwegian letters is accepted'],
  ['PAY-23.a', ['PAY-23'], 'the deprecated creditorAddress.city instead of townName is accepted or refused'],
  ['PAY-47.a', ['PAY-47'], 'EUR 10 (fewer fraction digits than the minor units) is accepted or refused'],
  ['ADR-13.a', ['ADR-13'], 'no creditor agent BIC is accepted or refused'],
];

/** The structured-address rule, once enforced: each creditor part missing, empty or blank. */
const ADDRESS_RULE: readonly (readonly [string, readonly string[], string])[] = [
  ['ADR-05.a', ['ADR-05', 'ADR-07', 'ERR-40', 'ADR-01', 'ADR-08'], 'a creditor address without town name is refused'],
  ['ADR-06.a', ['ADR-06', 'ADR-07'], 'a payment without creditorAddress (no creditor country) is refused'],
  ['ADR-14.a', ['ADR-14'], 'an empty creditorName is refused'],
  ['ADR-15.a', ['ADR-15'], 'an empty creditorAddress.townName is refused'],
  ['ADR-16.a', ['ADR-16'], 'a creditorName of spaces is refused'],
  ['ADR-16.b', ['ADR-16'], 'a creditorAddress.townName of spaces is refused'],
];

export const RULE_TABLE: readonly RuleRow[] = [
  // ---- Initiation: the request table, for every service and product ----
  ...REFUSALS.map(([id, requirements, rule]) => row(id, [...requirements, 'ERR-21'], rule, 'initiation', ALL_SERVICES, ALL_PRODUCTS)),
  row(
    'PAY-35.a',
    ['PAY-35', 'ERR-21'],
    'a requestedExecutionDate written 24.12.2030 is refused',
    'initiation',
    DATED_SERVICES,
    ALL_PRODUCTS,
  ),
  row(
    'PAY-35.b',
    ['PAY-35', 'ERR-21'],
    'a requestedExecutionDate that is a date-time is refused',
    'initiation',
    DATED_SERVICES,
    ALL_PRODUCTS,
  ),
  row(
    'ERR-33.a',
    ['ERR-33'],
    'a requestedExecutionDate in the past is refused with EXECUTION_DATE_INVALID',
    'initiation',
    DATED_SERVICES,
    ALL_PRODUCTS,
  ),
  ...ALLOWANCES.map(([id, requirements, rule]) => row(id, requirements, rule, 'initiation', ALL_SERVICES, SEPA_ONLY)),
  ...ADDRESS_RULE.map(([id, requirements, rule]) =>
    row(id, [...requirements, 'ERR-21'], rule, 'initiation', ALL_SERVICES, CREDITOR_ELSEWHERE),
  ),
  row(
    'HDR-32.a',
    ['HDR-32', 'ERR-16'],
    'a payment with neither PSU-ID nor X-PSU-IDENTITY is not created',
    'initiation',
    ALL_SERVICES,
    ALL_PRODUCTS,
  ),
  row('PAY-51.a', ['PAY-51', 'ERR-21'], 'a bulk payment with an empty payments array is refused', 'initiation', BULK_ONLY, ALL_PRODUCTS),
  row(
    'PAY-52.a',
    ['PAY-52', 'ERR-21'],
    'a payment of a bulk with a debtorAccount of its own is refused',
    'initiation',
    BULK_ONLY,
    ALL_PRODUCTS,
  ),
  row(
    'PAY-52.b',
    ['PAY-52', 'ERR-21'],
    'a payment of a bulk with a requestedExecutionDate of its own is refused',
    'initiation',
    BULK_ONLY,
    ALL_PRODUCTS,
  ),
  row(
    'ERR-42.a',
    ['ERR-42', 'ERR-21'],
    'a MonthlyVariable periodic payment naming a month twice is refused',
    'initiation',
    PERIODIC_ONLY,
    ALL_PRODUCTS,
  ),
  row(
    'END-02.a',
    ['END-04', 'ERR-15', 'END-02'],
    'a logical duplicate may be refused (409) without allowLogicalDuplicate, and is accepted with allowLogicalDuplicate=true',
    'initiation',
    ALL_SERVICES,
    ALL_PRODUCTS,
  ),
  row('END-03.a', ['END-03'], 'allowLogicalDuplicate=maybe is refused with 400', 'initiation', ALL_SERVICES, ALL_PRODUCTS),
  row(
    'ERR-36.a',
    ['ERR-36'],
    'remittance text with an emoji is accepted or refused with 400, never a server error',
    'initiation',
    ALL_SERVICES,
    ALL_PRODUCTS,
  ),
  row(
    'END-05.a',
    ['END-05', 'PAY-36', 'PAY-37'],
    'a payment needing SCA is answered 201 with a paymentId, a transactionStatus of the list and an scaRedirect link',
    'initiation',
    ALL_SERVICES,
    ALL_PRODUCTS,
  ),
  row(
    'PAY-46.a',
    ['PAY-46'],
    'a product other than sepa-credit-transfers takes the fields of a SEPA credit transfer',
    'initiation',
    ALL_SERVICES,
    NOT_SEPA,
  ),
  row(
    'BSK-12.a',
    ['BSK-12', 'ERR-34', 'ERR-41'],
    'a basket with a periodic payment is refused with 400 REFERENCE_MIX_INVALID',
    'initiation',
    PERIODIC_IN_BASKET,
    ALL_PRODUCTS,
  ),
  row(
    'BSK-12.b',
    ['BSK-12', 'ERR-34', 'ERR-41'],
    'a basket with a bulk payment is refused with 400 REFERENCE_MIX_INVALID',
    'initiation',
    BULK_IN_BASKET,
    ALL_PRODUCTS,
  ),

  // ---- Received, before its SCA ----
  row(
    'END-06.a',
    ['END-06', 'STA-05'],
    'the status of a payment just initiated is answered 200 with a status of the list',
    'received',
    ALL_SERVICES,
    SHOWING_STATUS,
  ),
  row(
    'END-08.a',
    ['END-08'],
    'a domestic transfer shows neither details nor status before the PSU approves it',
    'received',
    ALL_SERVICES,
    DOMESTIC,
  ),
  row(
    'ERR-22.b',
    ['ERR-22'],
    'the status of an unknown paymentId is answered 404 RESOURCE_UNKNOWN',
    'received',
    ALL_SERVICES,
    ALL_PRODUCTS,
  ),
  row(
    'SCA-07.a',
    ['SCA-07'],
    'in a valid SCA session, every payment still gets its own scaRedirect',
    'received',
    ALL_SERVICES,
    ALL_PRODUCTS,
  ),
  row(
    'STA-08.a',
    ['STA-08'],
    'a started basket authorisation reads STARTED or later before the PSU acts, not RECEIVED',
    'received',
    BASKET_SERVICES,
    ALL_PRODUCTS,
  ),

  // ---- Approved: the PSU approved it in its SCA ----
  rowPerCell(
    perCell('SCA-24', { payments: 'abcd', 'periodic-payments': 'efgh', 'bulk-payments': 'ijkl' }),
    ['SCA-24', 'PAY-49', 'STA-06', 'ERR-39', 'END-07'],
    'approved far above the balance: the PSU was shown amount and creditor, ACCP only with fundsAvailable false, and its link is used up',
    'approved',
    ALL_SERVICES,
    ALL_PRODUCTS,
  ),
  rowPerCell(
    perCell('GEN-15', { payments: 'abcd', 'periodic-payments': 'efgh', 'bulk-payments': 'ijkl' }),
    ['GEN-15'],
    "a payment from the agreement's account does not go ahead after an SCA the PSU ended in PRIVATE context",
    'approved',
    ALL_SERVICES,
    ALL_PRODUCTS,
  ),
  // The batch rows move the target's clock, each scenario alone: one per service keeps each short.
  rowPerCell(
    [
      { id: 'SBX-11.a', service: 'payments' },
      { id: 'SBX-11.b', service: 'bulk-payments' },
    ],
    ['SBX-11'],
    'a payment with a requestedExecutionDate days ahead is not settled (ACSC) before that day, by a batch run or at approval',
    'approved',
    DATED_SERVICES,
    ALL_PRODUCTS,
  ),
  row('SBX-10.a', ['SBX-10'], 'the batch runs leave periodic payments out', 'approved', PERIODIC_BATCH, ALL_PRODUCTS),
  rowPerCell(
    [
      { id: 'SBX-09.a', service: 'payments' },
      { id: 'SBX-09.b', service: 'bulk-payments' },
    ],
    ['SBX-09'],
    'an approved payment advances in status after the next batch run',
    'approved',
    BATCHED_SERVICES,
    ALL_PRODUCTS,
  ),
  rowPerCell(
    BASKET_SCENARIOS,
    ['BSK-15', 'BSK-06'],
    'a basket of a payable payment and one lacking funds, authorised, reports the lack of funds',
    'approved',
    BASKET_SERVICES,
    ALL_PRODUCTS,
  ),

  // ---- Rejected: the PSU rejected it in its SCA ----
  rowPerCell(
    perCell('SCA-24', { payments: 'mnop', 'periodic-payments': 'qrst', 'bulk-payments': 'uvwx' }),
    ['SCA-24'],
    'rejected by the PSU: its link is used up, and the payment stays rejected',
    'rejected',
    ALL_SERVICES,
    ALL_PRODUCTS,
  ),

  // ---- Cancelled by the TPP before its SCA ----
  rowPerCell(
    perCell('SCA-25', { payments: 'abcd', 'periodic-payments': 'efgh', 'bulk-payments': 'ijkl' }),
    ['SCA-25'],
    'cancelled before its SCA: its link ends in failure or an error page, and the payment stays cancelled',
    'cancelled',
    ALL_SERVICES,
    ALL_PRODUCTS,
  ),
  row(
    'PAY-50.a',
    ['PAY-50'],
    'a payment not yet executed is cancelled by DELETE, and then reads CANC',
    'cancelled',
    ALL_SERVICES,
    SHOWING_STATUS,
  ),
  rowPerCell(
    perCell('SCA-25', { payments: 'mnop', 'periodic-payments': '', 'bulk-payments': '' }),
    ['SCA-25'],
    "a basket one of whose payments the TPP cancelled before the basket's SCA: the basket's link ends in failure or an error page",
    'cancelled',
    BASKET_SERVICES,
    ALL_PRODUCTS,
  ),

  // ---- Authorised through a basket: its own link unused ----
  {
    key: 'own-link-after-basket',
    requirements: ['SCA-25'],
    rule: 'a payment authorised through its basket: its own link ends in failure or an error page, and its status stays',
    state: 'basket-authorised',
    services: BASKET_SERVICES,
    products: ALL_PRODUCTS,
    scenario: BASKET_SCENARIOS,
  },
  {
    key: 'basket-link-used',
    requirements: ['SCA-24'],
    rule: "the basket's own link, once its SCA completed, ends in failure or an error page",
    state: 'basket-authorised',
    services: BASKET_SERVICES,
    products: ALL_PRODUCTS,
    scenario: BASKET_SCENARIOS,
  },

  // ---- States no cell of which can be judged ----
  reasoned('link-expired', ['SCA-24'], 'an unused link past its lifetime ends in failure', 'expired', EXPIRY_UNSPECIFIED),
  reasoned(
    'link-revoked',
    ['SIG-10'],
    'an unused link of a TPP whose authorisation was withdrawn ends in failure',
    'revoked',
    REVOKED_PAGES,
  ),
];

/** Every cell of a row: service by product, judged when both are judged, else the first reason. */
export function cellsOf(ruleRow: RuleRow): Cell[] {
  return PAYMENT_SERVICES.flatMap((service) =>
    PAYMENT_PRODUCTS.map((product) => {
      const reason = [ruleRow.services[service], ruleRow.products[product]].flatMap((d) => (d === JUDGED ? [] : [d.reason]))[0];
      return { row: ruleRow, service, product, ...(reason === undefined ? {} : { reason }) };
    }),
  );
}

/** The scenario that judges a row's cell of this service and product, if any. */
export function scenarioOf(ruleRow: RuleRow, { service, product }: Pick<Cell, 'service' | 'product'>): string | undefined {
  if (typeof ruleRow.scenario !== 'object') return ruleRow.scenario;
  return ruleRow.scenario.find(
    (s) => (s.service === undefined || s.service === service) && (s.product === undefined || s.product === product),
  )?.id;
}

/** Every scenario that judges cells of a row. */
export function scenariosOf(ruleRow: RuleRow): string[] {
  return typeof ruleRow.scenario === 'object'
    ? [...new Set(ruleRow.scenario.map((s) => s.id))]
    : ruleRow.scenario === undefined
      ? []
      : [ruleRow.scenario];
}

/** The judged cells a scenario goes through: of its row (by the row's key), of the services it judges. */
export function judgedCells(key: string): Cell[] {
  const found = RULE_TABLE.find((r) => r.key === key) ?? RULE_TABLE.find((r) => scenariosOf(r).includes(key));
  if (found === undefined) throw new Error(`the rule table has no row ${key}`);
  const shared = typeof found.scenario === 'object';
  return cellsOf(found).filter((cell) => cell.reason === undefined && (!shared || scenarioOf(found, cell) === key));
}
