// Versioning: the /v1 path prefix and x-accept-fix, the header with which a TPP switches on published
// breaking changes early (several values comma-separated). Every fix of the specification's table has
// since become the default, so today the header changes nothing: its values are read, unknown ones
// ignored, and each answer shows the fixed behaviour with or without it.
//
// The faults bring back, for a TPP that does not send a fix, the behaviour from before that fix became
// the default (as a bank that never made it default would), or refuse what the header may carry. They
// transform the answer before it is serialised, so the account and transaction plugins stay unaware.
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { PUBLISHED_FIXES } from '../../lib/spec/codelists.js';
import { BankError } from '../bank-errors.js';
import { defineFault, defineVariant, type Fault, type TppSwitches } from '../switches.js';
import { checkHook, header } from '../http/request-context.js';

/** The values of the specification's table of implemented breaking changes: all defaults now. */
export { PUBLISHED_FIXES };
type PublishedFix = (typeof PUBLISHED_FIXES)[number];

const severalFixesRefused = defineFault('x-accept-fix-list-refused', {
  description: 'an x-accept-fix naming several values, comma-separated, is refused with 400 FORMAT_ERROR',
  breaks: ['VER-09'],
});
const unknownFixRefused = defineFault('x-accept-fix-unknown-refused', {
  description: 'an x-accept-fix value the bank does not know is refused with 400 FORMAT_ERROR instead of ignored',
  breaks: ['VER-10'],
});
const unversionedAlias = defineVariant('unversioned-alias', {
  description: 'the API is served without the /v1 prefix too (GET /accounts answers like GET /v1/accounts)',
  allowedBy: '"The path prefix is /v1": the interface is there; an alias beside it takes nothing away from it',
  source: 'Specification, Versioning',
  // Routing happens before the TPP is known: the whole bank serves the paths.
  scope: 'bank',
});
const structuredRemittanceArrayMalformed = defineFault('remittance-structured-array-malformed', {
  description: 'account transactions carry remittanceInformationStructuredArray as a plain string, not an array of structured references',
  breaks: ['VER-20', 'AIS-13'],
});

/** A rewrite of the answer under a fault: which objects of the body it changes, and how. */
interface Rewrite {
  fault: Fault;
  /** Whether it changes this object of the answer (every object of the body is visited). */
  touches: (node: Record<string, unknown>) => boolean;
  apply: (node: Record<string, unknown>) => void;
}

/** A behaviour from before a fix became the default: what a bank shows a TPP that does not send the fix. */
interface Regression extends Rewrite {
  fix: PublishedFix;
}

/** Card account names were cut to this before longer-names. */
const SHORT_NAME_LENGTH = 35;
const PROPRIETARY_CASH_ACCOUNT_TYPES: Readonly<Record<string, string>> = { CACC: 'CURRENT', SVGS: 'SAVINGS', TAXE: 'TAX' };

const REGRESSIONS: readonly Regression[] = [
  {
    fix: 'amount-as-string',
    fault: defineFault('amount-as-string-not-default', {
      description: 'without x-accept-fix: amount-as-string, amounts are JSON numbers',
      breaks: ['VER-12', 'VER-16', 'FMT-09'],
    }),
    touches: (node) => typeof node['amount'] === 'string' && typeof node['currency'] === 'string',
    apply: (node) => {
      node['amount'] = Number(node['amount']);
    },
  },
  {
    fix: 'cardaccount-switch-originalamount-and-transactionamount',
    fault: defineFault('card-amounts-switched-without-fix', {
      description:
        'without x-accept-fix: cardaccount-switch-originalamount-and-transactionamount, card transactions carry transactionAmount and originalAmount swapped',
      breaks: ['VER-13'],
    }),
    touches: (node) => node['transactionAmount'] !== undefined && node['originalAmount'] !== undefined,
    apply: (node) => {
      [node['transactionAmount'], node['originalAmount']] = [node['originalAmount'], node['transactionAmount']];
    },
  },
  {
    fix: 'longer-names',
    fault: defineFault('longer-names-not-default', {
      description: `without x-accept-fix: longer-names, card account names are cut to ${SHORT_NAME_LENGTH} characters`,
      breaks: ['VER-14'],
    }),
    touches: (node) => typeof node['maskedPan'] === 'string' && typeof node['name'] === 'string' && node['name'].length > SHORT_NAME_LENGTH,
    apply: (node) => {
      node['name'] = String(node['name']).slice(0, SHORT_NAME_LENGTH);
    },
  },
  {
    fix: 'cash-account-type-iso',
    fault: defineFault('cash-account-type-iso-not-default', {
      description: 'without x-accept-fix: cash-account-type-iso, cashAccountType is a proprietary word (CURRENT, SAVINGS, TAX)',
      breaks: ['VER-15', 'VER-16', 'AIS-08'],
    }),
    touches: (node) => typeof node['cashAccountType'] === 'string',
    apply: (node) => {
      node['cashAccountType'] = PROPRIETARY_CASH_ACCOUNT_TYPES[String(node['cashAccountType'])] ?? 'OTHER';
    },
  },
];

const MALFORMED_STRUCTURED_REMITTANCE: Rewrite = {
  fault: structuredRemittanceArrayMalformed,
  touches: (node) => Array.isArray(node['remittanceInformationUnstructured']),
  apply: (node) => {
    node['remittanceInformationStructuredArray'] = 'RF18539007547034';
  },
};

/** The values of the request's x-accept-fix (whitespace around the commas ignored). */
export function acceptedFixes(request: FastifyRequest): string[] {
  return (header(request, 'x-accept-fix') ?? '')
    .split(',')
    .map((value) => value.trim())
    .filter((value) => value !== '');
}

function visit(value: unknown, apply: (node: Record<string, unknown>) => void): void {
  if (Array.isArray(value)) for (const item of value) visit(item, apply);
  else if (value !== null && typeof value === 'object') {
    const node = value as Record<string, unknown>;
    apply(node);
    for (const child of Object.values(node)) visit(child, apply);
  }
}

/** Fastify's `rewriteUrl` for a bank that serves the API without /v1 too (undefined otherwise). */
export function unversionedPathRewrite(switches: TppSwitches): ((request: { url?: string }) => string) | undefined {
  if (!switches.reads(unversionedAlias)) return undefined;
  return ({ url = '/' }) => (url.startsWith('/v1/') || url.startsWith('/sca') ? url : `/v1${url}`);
}

export const versioningPlugin = fp(
  (api, _options, done) => {
    api.addHook(
      'preValidation',
      checkHook((request) => {
        const fixes = acceptedFixes(request);
        if (fixes.length > 1 && request.switches.breaks(severalFixesRefused))
          throw new BankError(400, 'FORMAT_ERROR', 'x-accept-fix takes one value');
        const unknown = fixes.find((fix) => !(PUBLISHED_FIXES as readonly string[]).includes(fix));
        if (unknown !== undefined && request.switches.breaks(unknownFixRefused))
          throw new BankError(400, 'FORMAT_ERROR', `x-accept-fix: unknown value ${unknown}`);
      }),
    );
    api.addHook('preSerialization', (request, _reply, payload, next) => {
      const fixes = acceptedFixes(request);
      const candidates: Rewrite[] = [...REGRESSIONS.filter(({ fix }) => !fixes.includes(fix)), MALFORMED_STRUCTURED_REMITTANCE];
      // Each fault is asked only of an answer it would change.
      const touched = new Set<Rewrite>();
      visit(payload, (node) => candidates.forEach((c) => c.touches(node) && touched.add(c)));
      const rewrites = [...touched].filter(({ fault }) => request.switches.breaks(fault));
      if (rewrites.length === 0) return next(null, payload);
      // A copy: a handler may answer with objects the bank keeps.
      const answer = structuredClone(payload);
      for (const rewrite of rewrites) visit(answer, (node) => rewrite.touches(node) && rewrite.apply(node));
      next(null, answer);
    });
    done();
  },
  { name: 'versioning', decorators: { request: ['switches'] }, dependencies: ['signature'] },
);
