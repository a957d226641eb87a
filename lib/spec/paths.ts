/**
 * Default paths of the interface (the specification's, and the Berlin Group 1.3 defaults where it gives none).
 * A target overrides any of them under `paths:` in targets.yaml; `{name}` placeholders are filled per call.
 */
export const DEFAULT_PATHS = {
  accounts: '/v1/accounts',
  account: '/v1/accounts/{accountId}',
  balances: '/v1/accounts/{accountId}/balances',
  transactions: '/v1/accounts/{accountId}/transactions',
  transactionDetails: '/v1/accounts/{accountId}/transactions/{transactionId}',
  cardAccounts: '/v1/card-accounts',
  cardAccount: '/v1/card-accounts/{accountId}',
  cardAccountBalances: '/v1/card-accounts/{accountId}/balances',
  cardAccountTransactions: '/v1/card-accounts/{accountId}/transactions',
  user: '/v1/user',
  agreements: '/v1/agreements',
  consents: '/v1/consents',
  bankOfferedConsents: '/v1/bank-offered-consents',
  paymentInitiation: '/v1/{paymentService}/{paymentProduct}',
  payment: '/v1/{paymentService}/{paymentProduct}/{paymentId}',
  paymentStatus: '/v1/{paymentService}/{paymentProduct}/{paymentId}/status',
  signingBaskets: '/v1/signing-baskets',
  signingBasket: '/v1/signing-baskets/{basketId}',
  signingBasketStatus: '/v1/signing-baskets/{basketId}/status',
  signingBasketAuthorisations: '/v1/signing-baskets/{basketId}/authorisations',
  // [pis] the authorisation status of a basket (Berlin Group 1.3)
  signingBasketAuthorisation: '/v1/signing-baskets/{basketId}/authorisations/{authorisationId}',
  sandboxCustomers: '/v1/sandbox/customers',
  sandboxAccounts: '/v1/sandbox/accounts',
  sandboxInitialize: '/v1/sandbox/initialize',
  sandboxClock: '/v1/sandbox/clock',
  // [ais] sandbox mock data
  sandboxAccountTransactions: '/v1/sandbox/accounts/{accountId}/transactions',
  // [sandbox] the other mock-data operations (paths not shown by the specification; the family's, see reference/README.md)
  sandboxCustomer: '/v1/sandbox/customers/{customerNumber}',
  sandboxAccount: '/v1/sandbox/accounts/{accountId}',
  sandboxAccountBalances: '/v1/sandbox/accounts/{accountId}/balances',
  sandboxAccountOwnerName: '/v1/sandbox/accounts/{accountId}/owner-name',
  sandboxCardAccounts: '/v1/sandbox/card-accounts',
  sandboxCardAccount: '/v1/sandbox/card-accounts/{accountId}',
  sandboxCardAccountBalances: '/v1/sandbox/card-accounts/{accountId}/balances',
  sandboxCardAccountTransactions: '/v1/sandbox/card-accounts/{accountId}/transactions',
  sandboxAgreements: '/v1/sandbox/agreements',
  // The PSU acting in another channel of the bank (capability bank-channel), and internal failures on demand (fault-injection)
  sandboxCustomerConsents: '/v1/sandbox/customers/{customerNumber}/consents',
  sandboxPayment: '/v1/sandbox/payments/{paymentId}',
  sandboxFailures: '/v1/sandbox/failures',
  sandboxTppAuthorisation: '/v1/sandbox/tpp-register/authorisation',
} as const;

export type PathName = keyof typeof DEFAULT_PATHS;

export function resolvePath(
  overrides: Readonly<Record<string, string>>,
  name: PathName,
  parameters: Readonly<Record<string, string>> = {},
): string {
  const template = overrides[name] ?? DEFAULT_PATHS[name];
  return template.replace(/\{(\w+)\}/g, (_whole, key: string) => {
    const value = parameters[key];
    if (value === undefined) throw new Error(`path ${name} (${template}) needs a value for {${key}}`);
    return encodeURIComponent(value);
  });
}
