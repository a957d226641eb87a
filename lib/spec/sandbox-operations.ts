/**
 * The sandbox operations a scenario may need, beyond the interface: the specification names them ("an
 * initialisation operation", "further operations create or update single mock resources, set balances of
 * accounts and card accounts, and set account owner name") without their paths or bodies, and a sandbox needs
 * a clock a tester can move. A target describes each in targets.yaml (`sandbox.operations`): a method, a path
 * and a body template. The vendor's shapes of this interface family (customers, accounts, card accounts,
 * agreements, transactions, initialisation) are the defaults; the others have none, and a scenario that needs
 * one a target does not describe is NOT_TESTABLE, naming it.
 *
 * A body template is JSON with `{{name}}` placeholders: a string that is one placeholder alone takes the
 * variable's value as it is (a number, an array), any other is text. `{name}` in a path is the variable,
 * URL-encoded.
 */

export interface SandboxOperation {
  method: string;
  path: string;
  /** The JSON body, a template; none: no body. */
  body?: unknown;
  /** Where the answer holds the id of what was made (a dotted path into its JSON); `resourceId` by default. */
  idAt?: string;
}

export interface SandboxOperationSpec {
  /** What it does, for people (the NOT_TESTABLE reason names the operation and this). */
  does: string;
  /** The variables a scenario hands it, for a target's template. */
  variables: readonly string[];
  /** The vendor's shape, where the family's public material shows one. */
  default?: SandboxOperation;
}

export const SANDBOX_OPERATIONS = {
  initialize: {
    does: 'resets the sandbox to its known state, removing created customers and accounts',
    variables: [],
    default: { method: 'POST', path: '/v1/sandbox/initialize' },
  },
  listCustomers: { does: 'lists the sandbox customers', variables: [], default: { method: 'GET', path: '/v1/sandbox/customers' } },
  createCustomer: {
    does: 'creates a sandbox customer (a PSU who logs in with the customer number)',
    variables: ['customerNumber', 'name', 'type'],
    default: {
      method: 'POST',
      path: '/v1/sandbox/customers',
      body: { customerNumber: '{{customerNumber}}', name: '{{name}}', type: '{{type}}' },
    },
  },
  createAccount: {
    does: "creates an account of a customer (a corporate customer's: of its agreement)",
    variables: ['customerNumber', 'accountName', 'currency', 'product', 'cashAccountType', 'balances'],
    default: {
      method: 'POST',
      path: '/v1/sandbox/accounts',
      body: {
        customerNumber: '{{customerNumber}}',
        accountName: '{{accountName}}',
        currency: '{{currency}}',
        product: '{{product}}',
        cashAccountType: '{{cashAccountType}}',
        balances: '{{balances}}',
      },
    },
  },
  createCardAccount: {
    does: 'creates a card account of a private customer',
    variables: ['customerNumber', 'currency', 'name', 'balances'],
    default: {
      method: 'POST',
      path: '/v1/sandbox/card-accounts',
      body: { customerNumber: '{{customerNumber}}', currency: '{{currency}}', name: '{{name}}', balances: '{{balances}}' },
    },
  },
  createAgreement: {
    does: 'links persons to a corporate customer and its accounts (engagements)',
    variables: ['owner', 'name', 'engagements'],
    default: {
      method: 'POST',
      path: '/v1/sandbox/agreements',
      body: { owner: '{{owner}}', name: '{{name}}', engagements: '{{engagements}}' },
    },
  },
  addAccountTransactions: {
    does: 'adds transactions (the vendor shape: amount, currency, bookingDate, valueDate, remittance, counterparties) to an account',
    variables: ['accountId', 'transactions'],
    default: { method: 'POST', path: '/v1/sandbox/accounts/{accountId}/transactions', body: '{{transactions}}' },
  },
  addCardTransactions: {
    does: 'adds card transactions to a card account',
    variables: ['accountId', 'transactions'],
    default: { method: 'POST', path: '/v1/sandbox/card-accounts/{accountId}/transactions', body: '{{transactions}}' },
  },
  setAccountBalances: { does: 'sets the balances of an account', variables: ['accountId', 'balances'] },
  setCardAccountBalances: { does: 'sets the balances of a card account', variables: ['accountId', 'balances'] },
  setOwnerName: { does: 'sets the owner name of an account', variables: ['accountId', 'ownerName'] },
  renameCustomer: {
    does: 'changes the name of a sandbox customer (a single mock resource updated)',
    variables: ['customerNumber', 'name'],
  },
  closeAccount: { does: 'closes an account', variables: ['accountId'] },
  freezeClock: { does: "stops the target's clock at a time (`at`, an ISO 8601 date-time)", variables: ['at'] },
  shiftClock: {
    does: "moves the target's clock: `offsetSeconds` from the real time, or `advanceSeconds` from where it stands",
    variables: ['offsetSeconds', 'advanceSeconds'],
  },
  resetClock: { does: "puts the target's clock back on the real time", variables: [] },
} as const satisfies Record<string, SandboxOperationSpec>;

export type SandboxOperationName = keyof typeof SANDBOX_OPERATIONS;

export const SANDBOX_OPERATION_NAMES = Object.keys(SANDBOX_OPERATIONS) as SandboxOperationName[];

/** A template filled: `{{name}}` alone takes the value as it is; inside text, its text. An unknown name is an error naming it. */
export function fillTemplate(template: unknown, variables: Readonly<Record<string, unknown>>): unknown {
  if (typeof template === 'string') {
    const whole = /^\{\{\s*(\w+)\s*\}\}$/.exec(template);
    if (whole?.[1] !== undefined) return valueOf(whole[1], variables);
    return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_all, name: string) => String(valueOf(name, variables)));
  }
  if (Array.isArray(template)) return template.map((item) => fillTemplate(item, variables));
  if (template !== null && typeof template === 'object') {
    // A member whose value is a variable the scenario leaves out is left out.
    const entries = Object.entries(template).filter(([, value]) => !(typeof value === 'string' && isUnsetVariable(value, variables)));
    return Object.fromEntries(entries.map(([key, value]) => [key, fillTemplate(value, variables)]));
  }
  return template;
}

function isUnsetVariable(template: string, variables: Readonly<Record<string, unknown>>): boolean {
  const whole = /^\{\{\s*(\w+)\s*\}\}$/.exec(template);
  return whole?.[1] !== undefined && variables[whole[1]] === undefined;
}

function valueOf(name: string, variables: Readonly<Record<string, unknown>>): unknown {
  if (!(name in variables) || variables[name] === undefined)
    throw new Error(
      `the template names {{${name}}}, which this operation does not give (it gives: ${Object.keys(variables).join(', ') || 'nothing'})`,
    );
  return variables[name];
}

/** A path with `{name}` placeholders filled from the variables, URL-encoded. */
export function fillPath(template: string, variables: Readonly<Record<string, unknown>>): string {
  return template.replace(/\{(\w+)\}/g, (_all, name: string) => encodeURIComponent(String(valueOf(name, variables))));
}
