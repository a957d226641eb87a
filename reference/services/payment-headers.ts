// The headers of payment initiation (Endpoints, its header table), which the start of a basket authorisation
// shares ("Headers: the same set as for payment initiation"): which are required, their forms, and the
// context they ask for. Also whether the headers only that table names count on other requests.
import { BankError } from '../bank-errors.js';
import { header, type BankContext } from '../http/bank-context.js';
import { isNationalIdentityNumber, isUuid } from '../ids.js';
import { PRIVATE, type PsuContext } from '../state/sandbox-data.js';
import { defineFault, defineVariant } from '../switches.js';
import { resolvePsuId } from './psu-id-lookup.js';
import { scaChallenge } from './sca-answers.js';

const corporateWithoutIdServed = defineFault('corporate-payment-without-id-served', {
  description: 'a payment initiation in context CORPORATE without PSU-Corporate-ID is taken (as a private one) instead of refused with 400',
  breaks: ['SCA-17', 'ERR-38'],
});
const psuIdentityRefused = defineFault('payment-x-psu-identity-refused', {
  description: 'a payment initiation naming the PSU by X-PSU-IDENTITY is refused (400) instead of taken as the alternative to PSU-ID',
  breaks: ['HDR-16'],
});
const withoutPsuAccepted = defineFault('payment-without-psu-accepted', {
  description: 'a payment initiation (or basket authorisation) with neither PSU-ID nor X-PSU-IDENTITY is accepted',
  breaks: ['HDR-32'],
});

const withoutPsuAsksForSca = defineVariant('payment-without-psu-asks-for-sca', {
  description:
    'a payment initiation (or basket authorisation) naming no PSU is answered 401 with an scaRedirect that identifies the PSU, instead of 400',
  allowedBy:
    'PSU-ID is "obtained from the redirect after SCA"; account access: "call a resource; receive 401 with scaRedirect"; "The service may ... require SCA on any transaction"',
  source: 'Specification, Identifiers of the PSU; Authentication 9 and 12',
});

/**
 * A required header of the payment header table that the bank, under the fault, does not ask for (TPP-Session-ID is required of every
 * request: plugins/signature.ts).
 */
const requiredHeaderFaults = {
  'x-accept-fix': defineFault('payment-x-accept-fix-optional', {
    description: 'a payment initiation without x-accept-fix is accepted',
    breaks: ['HDR-01'],
  }),
  'PSU-IP-Address': defineFault('payment-psu-ip-address-optional', {
    description: 'a payment initiation without PSU-IP-Address is accepted',
    breaks: ['HDR-13'],
  }),
} as const;

/**
 * The header rules of payment initiation (Endpoints, its header table), shared by the start of a basket
 * authorisation: x-accept-fix required (empty allowed; its four published fixes are all defaults now, so
 * every value, known or not, changes nothing), PSU-IP-Address required and an
 * IP address, PSU-ID a UUID, X-PSU-IDENTITY 11 digits, PSU-Context PRIVATE or CORPORATE (CORPORATE with
 * PSU-Corporate-ID). Answers the context asked for, if any.
 */
export function paymentHeaders(ctx: BankContext): { context?: PsuContext } {
  const required = (name: keyof typeof requiredHeaderFaults) => {
    const value = header(ctx, name.toLowerCase());
    if (value === undefined && !ctx.switches.breaks(requiredHeaderFaults[name]))
      throw new BankError(400, 'HTTP_HEADER_REQUIRED', `Header ${name} is required`);
    return value;
  };
  required('x-accept-fix');
  // The forms of PSU-IP-Address and PSU-Context are checked with every request's (plugins/request-headers.ts);
  // PSU-ID's and X-PSU-IDENTITY's where each resource looks the PSU up: here, for payments.
  required('PSU-IP-Address');
  const psuId = header(ctx, 'psu-id');
  // A psu-id this bank issued is taken back in whatever form it was issued (state/psu-directory.ts tells it from a malformed one).
  if (psuId !== undefined && resolvePsuId(ctx, psuId).kind === 'malformed')
    throw new BankError(400, 'FORMAT_ERROR', 'Header PSU-ID must be a UUID');
  const identity = header(ctx, 'x-psu-identity');
  if (identity !== undefined && !isNationalIdentityNumber(identity))
    throw new BankError(400, 'FORMAT_ERROR', 'Header X-PSU-IDENTITY must be a national identity number or D-number (11 digits)');
  if (identity !== undefined && ctx.switches.breaks(psuIdentityRefused))
    throw new BankError(400, 'FORMAT_ERROR', 'Header X-PSU-IDENTITY is not supported: send PSU-ID');
  // The header table: PSU-ID required, X-PSU-IDENTITY its alternative. A payment is always some PSU's.
  if (psuId === undefined && identity === undefined && !ctx.switches.breaks(withoutPsuAccepted)) {
    if (ctx.switches.reads(withoutPsuAsksForSca)) throw identifyThePsu(ctx);
    throw new BankError(400, 'HTTP_HEADER_REQUIRED', 'Header PSU-ID (or its alternative X-PSU-IDENTITY) is required');
  }
  const psuContext = header(ctx, 'psu-context');
  if (psuContext !== 'CORPORATE') return psuContext === 'PRIVATE' ? { context: PRIVATE } : {};
  const corporateId = header(ctx, 'psu-corporate-id');
  if (corporateId === undefined && ctx.switches.breaks(corporateWithoutIdServed)) return { context: PRIVATE };
  if (corporateId === undefined || !isUuid(corporateId))
    throw new BankError(400, 'FORMAT_ERROR', 'Header PSU-Corporate-ID (a UUID) is required in corporate context');
  return { context: { kind: 'CORPORATE', agreementId: corporateId.toLowerCase() } };
}

/** The 401 that sends the PSU to an SCA naming them, before any payment is made (a variant's reading of HDR-32). */
function identifyThePsu(ctx: BankContext): Error {
  return scaChallenge(ctx);
}

const paymentHeadersOnPaymentsOnly = defineVariant('payment-headers-on-payments-only', {
  description:
    'PSU-Context, PSU-HTTP-Method and PSU-Device-ID are read on payment initiation (and the start of a basket authorisation) only: on account reads they are ignored, whatever their value',
  allowedBy:
    'The header table is that of POST /v1/payments/sepa-credit-transfers ("Headers: the same set as for payment initiation" for the basket authorisation); no header set is shown for the account endpoints',
  source: 'Specification, Endpoints > POST /v1/payments/sepa-credit-transfers > Headers; Start of signing basket authorisation',
});

/** Whether the headers only the payment header table names (PSU-Context, PSU-HTTP-Method, PSU-Device-ID) count for this request. */
export function readsPaymentHeaders(ctx: BankContext): boolean {
  return (
    !ctx.switches.reads(paymentHeadersOnPaymentsOnly) ||
    /^\/v1\/(?:payments|periodic-payments|bulk-payments|signing-baskets)\//.test(ctx.url)
  );
}
