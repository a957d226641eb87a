/**
 * The interface's operations as data: for a recorded request (method and URL), which operation it was and
 * which schema a successful answer must match. The invariants validate every response by this table, so a
 * field broken anywhere is caught by every scenario that sees it. Paths come from lib/spec/paths.ts with
 * the target's overrides; an unknown path still gets the rules that hold for every response.
 */
import { DEFAULT_PATHS, type PathName } from './paths.js';
import type { SchemaName } from './schemas/index.js';

export interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: PathName;
  /** Schema of a 2xx answer with a body. */
  success?: SchemaName;
  /** Schema of a 401 answer asking for SCA, where the spec types its body (ScaRedirectBody otherwise). */
  scaRequired?: SchemaName;
}

export const OPERATIONS: readonly Operation[] = [
  { method: 'GET', path: 'accounts', success: 'AccountList' },
  { method: 'GET', path: 'account', success: 'AccountDetails' },
  { method: 'GET', path: 'balances', success: 'Balances' },
  { method: 'GET', path: 'transactions', success: 'TransactionsResponse' },
  { method: 'GET', path: 'transactionDetails', success: 'TransactionDetails' },
  { method: 'GET', path: 'cardAccounts', success: 'CardAccountList' },
  { method: 'GET', path: 'cardAccount', success: 'CardAccountDetails' },
  { method: 'GET', path: 'cardAccountBalances', success: 'CardAccountBalances' },
  { method: 'GET', path: 'cardAccountTransactions', success: 'CardAccountTransactionsResponse' },
  { method: 'POST', path: 'consents', success: 'ConsentCreationResponse' },
  { method: 'POST', path: 'bankOfferedConsents', success: 'ConsentCreationResponse' },
  { method: 'POST', path: 'paymentInitiation', success: 'PaymentInitiationResponse' },
  { method: 'GET', path: 'paymentStatus', success: 'PaymentStatus' },
  { method: 'POST', path: 'signingBaskets', success: 'SigningBasketCreationResponse' },
  { method: 'GET', path: 'signingBasket', success: 'SigningBasket' },
  { method: 'GET', path: 'signingBasketStatus', success: 'SigningBasketStatus' },
  {
    method: 'POST',
    path: 'signingBasketAuthorisations',
    success: 'SigningBasketAuthorisationResponse',
    scaRequired: 'SigningBasketScaRedirectBody',
  },
  // [pis]
  { method: 'GET', path: 'signingBasketAuthorisation', success: 'ScaStatusResponse' },
  { method: 'GET', path: 'payment', success: 'PaymentDetails' },
  { method: 'GET', path: 'sandboxCustomers', success: 'SandboxCustomers' },
];

/** Placeholders with a closed set of values (anything else would make the template match too much). */
const CLOSED_PLACEHOLDERS: Readonly<Record<string, string>> = {
  paymentService: '(?:payments|bulk-payments|periodic-payments)',
};

interface CompiledPath {
  name: PathName;
  pattern: RegExp;
  literalSegments: number;
}

function compile(name: PathName, template: string): CompiledPath {
  const segments = template.split('/').filter(Boolean);
  const source = segments
    .map((segment) => {
      const placeholder = /^\{(\w+)\}$/.exec(segment)?.[1];
      if (placeholder) return `(?<${placeholder}>${CLOSED_PLACEHOLDERS[placeholder] ?? '[^/]+'})`;
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return { name, pattern: new RegExp(`^/${source}/?$`), literalSegments: segments.filter((s) => !s.startsWith('{')).length };
}

/** Finds the operation of requests by method and path, for one target's path overrides. */
export class OperationTable {
  private readonly paths: CompiledPath[];

  constructor(overrides: Readonly<Record<string, string>> = {}) {
    this.paths = (Object.keys(DEFAULT_PATHS) as PathName[])
      .map((name) => compile(name, overrides[name] ?? DEFAULT_PATHS[name]))
      // The most literal template wins: /v1/sandbox/customers before /v1/{paymentService}/{paymentProduct}.
      .sort((a, b) => b.literalSegments - a.literalSegments);
  }

  /**
   * Which path of the interface `pathname` is (relative to the target's base URL, without the query), with
   * its placeholders' values, whatever the method: for judging requests by what they address (lib/tpp-judge).
   */
  match(pathname: string): { name: PathName; parameters: Record<string, string> } | undefined {
    for (const path of this.paths) {
      const found = path.pattern.exec(pathname);
      if (found) return { name: path.name, parameters: { ...found.groups } };
    }
    return undefined;
  }

  /** `pathname` relative to the target's base URL, without the query. */
  find(method: string, pathname: string): Operation | undefined {
    const upper = method.toUpperCase();
    for (const path of this.paths) {
      if (!path.pattern.test(pathname)) continue;
      const operation = OPERATIONS.find((op) => op.path === path.name && op.method === upper);
      if (operation) return operation;
    }
    return undefined;
  }
}
