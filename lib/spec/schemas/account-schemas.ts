/**
 * Account information: accounts, card accounts, balances, transactions, transaction details, consents
 * and the sandbox customers. The specification shows none of these shapes; they follow Berlin Group
 * 1.3.8 with the specification's facts applied:
 * - account and card-account `name` at most 70 characters;
 * - `cashAccountType` is a code of the ISO 20022 ExternalCashAccountType1 list (lib/spec/codelists.ts);
 * - transactions are grouped as booked and pending; a booked transaction has a `transactionId`;
 * - `remittanceInformationUnstructured` is an array (of strings of at most 140) in transaction lists;
 *   in transaction details either the Berlin Group string or the list's array is accepted;
 * - proprietary references `additionalInformationProprietary…` are described (never unknown), of any type;
 * - the account report's `_links` holds `account` and optionally `first`, `next`, `previous`, `last`;
 * - links keep the Berlin Group shape (ResourceLink: href required, verbs optional, MSG-09).
 */
import { CASH_ACCOUNT_TYPES } from '../codelists.js';
import { named, ref, req } from './base.js';
import type { JsonSchema } from './base.js';

export const ACCOUNT_STATUSES = ['enabled', 'deleted', 'blocked'] as const;
export const ACCOUNT_USAGES = ['PRIV', 'ORGA'] as const;
export const CONSENT_STATUSES = [
  'received',
  'rejected',
  'valid',
  'revokedByPsu',
  'expired',
  'terminatedByTpp',
  'partiallyAuthorised',
] as const;
export const ACCOUNT_ACCESS_TYPES = ['allAccounts', 'allAccountsWithOwnerName'] as const;

const ais = req('AIS-11');
const card = req('AIS-14');
const str = (maxLength: number, ...ids: string[]): JsonSchema => ({ type: 'string', maxLength, ...req(...ids) });

/** Fields an account shares with a card account; `id` is the requirement of the resource's shape. */
function accountCommon(id: string, nameId: string): Record<string, JsonSchema> {
  return {
    resourceId: { type: 'string', ...req(id) },
    currency: ref('ReportedCurrency', req(id)),
    ownerName: str(140, id),
    name: str(70, nameId),
    displayName: str(70, id),
    product: str(35, id),
    status: { type: 'string', enum: [...ACCOUNT_STATUSES], ...req(id) },
    usage: { type: 'string', maxLength: 4, enum: [...ACCOUNT_USAGES], ...req(id) },
    details: str(500, id),
    balances: ref('BalanceList'),
    _links: ref('ResourceLinks', req(id)),
  };
}

export const Account = named('Account', 'One account (Berlin Group 1.3 accountDetails).', {
  type: 'object',
  required: ['currency'],
  ...ais,
  properties: {
    ...accountCommon('AIS-11', 'AIS-09'),
    iban: ref('Iban', ais),
    bban: { type: 'string', pattern: '^[a-zA-Z0-9]{1,30}$', ...ais },
    msisdn: str(35, 'AIS-11'),
    cashAccountType: { type: 'string', enum: [...CASH_ACCOUNT_TYPES], ...req('AIS-08', 'VER-15') },
    bic: ref('Bic', ais),
    linkedAccounts: str(70, 'AIS-11'),
  },
});

export const AccountList = named('AccountList', 'Body of GET /v1/accounts (an empty list when the consented accounts were closed).', {
  type: 'object',
  required: ['accounts'],
  ...req('END-09'),
  properties: { accounts: { type: 'array', items: ref('Account'), ...req('END-09', 'END-11') } },
});

export const AccountDetails = named('AccountDetails', 'Body of GET /v1/accounts/{account-id}.', {
  type: 'object',
  required: ['account'],
  ...ais,
  properties: { account: ref('Account', ais) },
});

export const CardAccount = named('CardAccount', 'One card account (Berlin Group 1.3 cardAccountDetails).', {
  type: 'object',
  required: ['maskedPan', 'currency'],
  ...card,
  properties: {
    ...accountCommon('AIS-14', 'AIS-10'),
    maskedPan: str(35, 'AIS-14'),
    creditLimit: ref('Amount', card),
  },
});

export const CardAccountList = named('CardAccountList', 'Body of GET /v1/card-accounts.', {
  type: 'object',
  required: ['cardAccounts'],
  ...card,
  properties: { cardAccounts: { type: 'array', items: ref('CardAccount'), ...card } },
});

export const CardAccountDetails = named('CardAccountDetails', 'Body of GET /v1/card-accounts/{account-id}.', {
  type: 'object',
  required: ['cardAccount'],
  ...card,
  properties: { cardAccount: ref('CardAccount', card) },
});

export const Balances = named('Balances', 'Body of GET /v1/accounts/{account-id}/balances.', {
  type: 'object',
  required: ['balances'],
  ...req('END-12'),
  properties: { account: ref('AccountReference'), balances: ref('BalanceList', req('END-12', 'AIS-12')) },
});

export const CardAccountBalances = named(
  'CardAccountBalances',
  'Body of GET /v1/card-accounts/{account-id}/balances (interimBooked when available).',
  {
    type: 'object',
    required: ['balances'],
    ...req('END-26'),
    properties: { cardAccount: ref('AccountReference'), balances: ref('BalanceList', req('END-26', 'AIS-12')) },
  },
);

export const ExchangeRate = named('ExchangeRate', 'Berlin Group reportExchangeRate.', {
  type: 'object',
  required: ['sourceCurrency', 'exchangeRate', 'unitCurrency', 'targetCurrency', 'quotationDate'],
  ...ais,
  properties: {
    sourceCurrency: ref('ReportedCurrency', ais),
    exchangeRate: { type: 'string', ...ais },
    unitCurrency: { type: 'string', ...ais },
    targetCurrency: ref('ReportedCurrency', ais),
    quotationDate: ref('IsoDate'),
    contractIdentification: { type: 'string', ...ais },
  },
});

const trx = req('AIS-13');
const trxStr = (maxLength: number): JsonSchema => ({ type: 'string', maxLength, ...trx });

/** Berlin Group remittanceInformationStructured (the object): a reference with its type and issuer. */
const structuredReference: JsonSchema = {
  type: 'object',
  required: ['reference'],
  ...trx,
  properties: { reference: trxStr(35), referenceType: trxStr(35), referenceIssuer: trxStr(35) },
};

/** Fields of a transaction common to list entries and details (remittanceInformationUnstructured apart). */
export const TransactionBase = named('TransactionBase', 'Fields of a transaction (Berlin Group 1.3 transactions).', {
  type: 'object',
  required: ['transactionAmount'],
  ...trx,
  properties: {
    transactionId: { type: 'string', minLength: 1, ...req('AIS-03') },
    entryReference: trxStr(35),
    endToEndId: trxStr(35),
    mandateId: trxStr(35),
    checkId: trxStr(35),
    creditorId: trxStr(35),
    bookingDate: ref('IsoDate'),
    valueDate: ref('IsoDate'),
    transactionAmount: ref('Amount', trx),
    currencyExchange: { type: 'array', items: ref('ExchangeRate'), ...trx },
    creditorName: trxStr(70),
    creditorAccount: ref('AccountReference'),
    creditorAgent: ref('Bic'),
    ultimateCreditor: trxStr(70),
    debtorName: trxStr(70),
    debtorAccount: ref('AccountReference'),
    debtorAgent: ref('Bic'),
    ultimateDebtor: trxStr(70),
    remittanceInformationUnstructuredArray: { type: 'array', items: trxStr(140), ...trx },
    // a string of at most 140 in Berlin Group 1.3.8, a structured reference in earlier 1.3 releases (VER-20)
    remittanceInformationStructured: { anyOf: [trxStr(140), structuredReference], ...trx },
    remittanceInformationStructuredArray: { type: 'array', ...trx, items: structuredReference },
    additionalInformation: trxStr(500),
    additionalInformationStructured: { type: 'object', ...trx },
    purposeCode: { type: 'string', pattern: '^[A-Z0-9]{4}$', ...trx },
    bankTransactionCode: { type: 'string', ...trx },
    proprietaryBankTransactionCode: trxStr(35),
    balanceAfterTransaction: ref('Balance'),
    _links: ref('ResourceLinks', trx),
  },
  // the spec gives the names, not the type, of the proprietary references (AIS-05)
  patternProperties: { '^additionalInformationProprietary': req('AIS-05') },
});

/** A transaction of a list: remittanceInformationUnstructured is an array there. */
export const Transaction = named('Transaction', 'A transaction of a transaction list (pending entries).', {
  allOf: [ref('TransactionBase')],
  type: 'object',
  properties: {
    remittanceInformationUnstructured: {
      type: 'array',
      ...req('AIS-06'),
      items: { type: 'string', maxLength: 140, ...req('AIS-06', 'AIS-13') },
    },
  },
});

/** A booked transaction: final, with a stable transactionId. */
export const BookedTransaction = named('BookedTransaction', 'A booked transaction of a transaction list: it has a transactionId.', {
  allOf: [ref('Transaction')],
  type: 'object',
  required: ['transactionId'],
  properties: { transactionId: req('AIS-03') },
});

/** A pagination link (first, next, previous, last): a link whose verbs, when given, include GET. */
export const PaginationLink = named('PaginationLink', 'A pagination link of a transaction report: verbs, when given, include GET.', {
  allOf: [ref('ResourceLink')],
  type: 'object',
  ...req('PAG-04'),
  properties: {
    verbs: { type: 'array', contains: { const: 'GET', ...req('PAG-04') }, ...req('PAG-04') },
  },
});

export const ReportLinks = named(
  'ReportLinks',
  'Links of an account report: account, and the pagination links first, next, previous, last.',
  {
    type: 'object',
    required: ['account'],
    ...trx,
    properties: {
      account: ref('ResourceLink', trx),
      first: ref('PaginationLink'),
      next: ref('PaginationLink'),
      previous: ref('PaginationLink'),
      last: ref('PaginationLink'),
    },
    additionalProperties: ref('ResourceLink'),
  },
);

export const AccountReport = named('AccountReport', 'Transactions grouped as booked and pending, with links.', {
  type: 'object',
  required: ['_links'],
  ...req('AIS-01'),
  properties: {
    booked: { type: 'array', items: ref('BookedTransaction'), ...req('AIS-01') },
    pending: { type: 'array', items: ref('Transaction'), ...req('AIS-01') },
    information: { type: 'array', items: ref('Transaction'), ...trx },
    _links: ref('ReportLinks', trx),
  },
});

export const TransactionsResponse = named('TransactionsResponse', 'Body of GET /v1/accounts/{account-id}/transactions.', {
  type: 'object',
  required: ['transactions'],
  ...req('END-13'),
  properties: {
    account: ref('AccountReference'),
    transactions: ref('AccountReport', req('END-13', 'AIS-01')),
    balances: ref('BalanceList'),
    _links: ref('ResourceLinks', trx),
  },
});

/**
 * One transaction as the details endpoint shows it (the list's string-or-array remittance accepted). Without
 * its amount it is no transaction, which the endpoint returns (END-23); a field of the wrong form is the
 * field's own rule.
 */
const transactionDetail: JsonSchema = {
  allOf: [ref('TransactionBase')],
  type: 'object',
  required: ['transactionAmount'],
  ...req('END-23', 'AIS-13'),
  properties: {
    transactionAmount: true,
    remittanceInformationUnstructured: {
      type: ['string', 'array'],
      maxLength: 140,
      items: { type: 'string', maxLength: 140, ...req('AIS-06', 'AIS-13') },
      ...req('AIS-06', 'AIS-13'),
    },
  },
};

/**
 * The sources disagree, so both readings pass: Berlin Group 1.3.8's schema nests
 * `transactionsDetails.transactionDetails`, its example is flat `transactionsDetails: {…}`. Which one a body
 * takes is told by the key (if/then/else, not anyOf): a flaw inside the transaction is then reported as that
 * field's own rule, not as a body matching neither reading.
 */
export const TransactionDetails = named(
  'TransactionDetails',
  'Body of GET /v1/accounts/{account-id}/transactions/{transactionId}: transactionsDetails, nested or flat.',
  {
    type: 'object',
    required: ['transactionsDetails'],
    ...req('END-23'),
    properties: {
      transactionsDetails: {
        type: 'object',
        ...req('END-23', 'AIS-13'),
        if: { required: ['transactionDetails'], properties: { transactionDetails: true } },
        then: { properties: { transactionDetails: transactionDetail } },
        else: transactionDetail,
      },
    },
  },
);

export const CardTransaction = named('CardTransaction', 'A card transaction (Berlin Group 1.3 cardTransaction).', {
  type: 'object',
  required: ['transactionAmount'],
  ...card,
  properties: {
    cardTransactionId: { type: 'string', maxLength: 35, ...card },
    terminalId: { type: 'string', maxLength: 35, ...card },
    transactionDate: ref('IsoDate'),
    acceptorTransactionDateTime: ref('IsoDateTime'),
    bookingDate: ref('IsoDate'),
    transactionAmount: ref('Amount', card),
    currencyExchange: { type: 'array', items: ref('ExchangeRate'), ...card },
    originalAmount: ref('Amount', card),
    markupFee: ref('Amount', card),
    markupFeePercentage: { type: 'string', ...card },
    cardAcceptorId: { type: 'string', maxLength: 35, ...card },
    cardAcceptorAddress: ref('Address'),
    cardAcceptorPhone: { type: 'string', ...card },
    merchantCategoryCode: { type: 'string', pattern: '^[0-9]{4}$', ...card },
    maskedPAN: { type: 'string', maxLength: 35, ...card },
    transactionDetails: { type: 'string', maxLength: 140, ...card },
    invoiced: { type: 'boolean', ...card },
    proprietaryBankTransactionCode: { type: 'string', maxLength: 35, ...card },
  },
});

export const CardAccountTransactionsResponse = named(
  'CardAccountTransactionsResponse',
  'Body of GET /v1/card-accounts/{account-id}/transactions.',
  {
    type: 'object',
    required: ['cardTransactions'],
    ...card,
    properties: {
      cardAccount: ref('AccountReference'),
      cardTransactions: {
        type: 'object',
        required: ['booked', '_links'],
        ...card,
        properties: {
          booked: { type: 'array', items: ref('CardTransaction'), ...card },
          pending: { type: 'array', items: ref('CardTransaction'), ...card },
          _links: {
            type: 'object',
            required: ['cardAccount'],
            ...card,
            properties: {
              cardAccount: ref('ResourceLink', card),
              first: ref('PaginationLink'),
              next: ref('PaginationLink'),
              previous: ref('PaginationLink'),
              last: ref('PaginationLink'),
            },
            additionalProperties: ref('ResourceLink'),
          },
        },
      },
      balances: ref('BalanceList'),
      _links: ref('ResourceLinks', card),
    },
  },
);

const consent = req('AIS-15');
const referenceList: JsonSchema = { type: 'array', items: ref('AccountReference'), ...consent };

export const AccountAccess = named('AccountAccess', 'Access granted by a consent (Berlin Group 1.3 accountAccess).', {
  type: 'object',
  ...consent,
  properties: {
    accounts: referenceList,
    balances: referenceList,
    transactions: referenceList,
    additionalInformation: {
      type: 'object',
      ...consent,
      properties: { ownerName: referenceList, trustedBeneficiaries: referenceList },
    },
    availableAccounts: { type: 'string', enum: [...ACCOUNT_ACCESS_TYPES], ...consent },
    availableAccountsWithBalance: { type: 'string', enum: [...ACCOUNT_ACCESS_TYPES], ...consent },
    allPsd2: { type: 'string', enum: [...ACCOUNT_ACCESS_TYPES], ...consent },
    restrictedTo: { type: 'array', items: { type: 'string', enum: [...CASH_ACCOUNT_TYPES], ...req('AIS-08') }, ...consent },
  },
});

const consentStatus: JsonSchema = { type: 'string', enum: [...CONSENT_STATUSES], ...consent };

export const Consent = named('Consent', 'Body of GET /v1/consents/{consentId} (Berlin Group 1.3 consentInformationResponse).', {
  type: 'object',
  required: ['access', 'recurringIndicator', 'validUntil', 'frequencyPerDay', 'lastActionDate', 'consentStatus'],
  ...consent,
  properties: {
    access: ref('AccountAccess', consent),
    recurringIndicator: { type: 'boolean', ...consent },
    validUntil: ref('IsoDate', consent),
    frequencyPerDay: { type: 'integer', minimum: 1, ...consent },
    lastActionDate: ref('IsoDate', consent),
    consentStatus,
    _links: ref('ResourceLinks', consent),
  },
});

/**
 * The success answer of a consent request: a Berlin Group consent resource (consentsResponse-201), or the SCA
 * redirect alone. Consent is bank-offered and the endpoint "returns an SCA redirect", so a body holding only
 * _links (scaRedirect) is no consent resource; a body naming a consent (consentId or consentStatus) is one,
 * and has the Berlin Group fields (AIS-15).
 */
export const ConsentCreationResponse = named(
  'ConsentCreationResponse',
  'Body of a 2xx answer to POST /v1/consents or /v1/bank-offered-consents: a Berlin Group consent resource (consentsResponse-201), or the SCA redirect alone (_links).',
  {
    type: 'object',
    required: ['_links'],
    ...consent,
    // AJV's strict mode wants each required property declared beside it; `true` adds no rule
    if: {
      anyOf: [
        { required: ['consentId'], properties: { consentId: true } },
        { required: ['consentStatus'], properties: { consentStatus: true } },
      ],
    },
    then: { required: ['consentStatus', 'consentId'], properties: { consentStatus: true, consentId: true }, ...consent },
    properties: {
      consentStatus,
      consentId: { type: 'string', minLength: 1, ...consent },
      _links: ref('ResourceLinks', consent),
      psuMessage: ref('PsuMessage'),
    },
  },
);

export const ConsentStatus = named('ConsentStatus', 'Body of GET /v1/consents/{consentId}/status.', {
  type: 'object',
  required: ['consentStatus'],
  ...consent,
  properties: { consentStatus, psuMessage: ref('PsuMessage') },
});

const sandbox = req('SBX-05');

/**
 * A sandbox customer: `customerNumber` is what the PSU types at the sandbox login, and `type` private or
 * corporate (the sandbox conventions of this interface family). The specification calls the login number
 * "mocked", so no form or check digits are demanded of it; `name` is optional.
 */
export const SandboxCustomer = named(
  'SandboxCustomer',
  'A sandbox customer (item of GET /v1/sandbox/customers, body of POST /v1/sandbox/customers).',
  {
    type: 'object',
    required: ['customerNumber', 'type'],
    ...sandbox,
    properties: {
      customerNumber: { type: 'string', minLength: 1, ...sandbox },
      name: { type: 'string', ...req('SBX-06') },
      type: { type: 'string', enum: ['private', 'corporate'], ...sandbox },
    },
  },
);

/** The list of sandbox customers: a JSON array of customers, or an object holding it under `customers`. */
export const SandboxCustomers = named('SandboxCustomers', 'Body of GET /v1/sandbox/customers: [...] or { customers: [...] }.', {
  type: ['array', 'object'],
  ...sandbox,
  items: ref('SandboxCustomer'),
  required: ['customers'],
  properties: { customers: { type: 'array', items: ref('SandboxCustomer'), ...sandbox } },
});

export const ACCOUNT_SCHEMAS = {
  Account,
  AccountList,
  AccountDetails,
  CardAccount,
  CardAccountList,
  CardAccountDetails,
  Balances,
  CardAccountBalances,
  ExchangeRate,
  PaginationLink,
  TransactionBase,
  Transaction,
  BookedTransaction,
  ReportLinks,
  AccountReport,
  TransactionsResponse,
  TransactionDetails,
  CardTransaction,
  CardAccountTransactionsResponse,
  AccountAccess,
  Consent,
  ConsentCreationResponse,
  ConsentStatus,
  SandboxCustomer,
  SandboxCustomers,
} satisfies Record<string, JsonSchema>;
