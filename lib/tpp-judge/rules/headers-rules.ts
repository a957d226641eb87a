/**
 * The request headers the TPP sets (the header table of payment initiation, Authentication 9, the
 * identifiers of the PSU): present where required, values of the type the table gives, in UTF-8, X-Request-ID
 * new on every call.
 */
import { isIP } from 'node:net';
import { hasNationalIdForm } from '../../identifiers/index.js';
import { PUBLISHED_FIXES } from '../../spec/codelists.js';
import { isUuid } from '../../validate/formats.js';
import { fail, judged, PASS, type Learner, type Rule, type RuleContext } from '../rule.js';

/** The call that exercises a rule of the payment header set. */
const ON_PAYMENTS = 'POST /v1/payments/sepa-credit-transfers (or any payment initiation), or POST /v1/signing-baskets/{id}/authorisations';

/** The requests whose header set the table shows: payment initiation and the start of a basket authorisation (the same set). */
function hasPaymentHeaderSet(c: RuleContext): boolean {
  const name = c.call.path?.name;
  return c.call.method === 'POST' && (name === 'paymentInitiation' || name === 'signingBasketAuthorisations');
}

/** A header the table requires on payment initiation (and the basket authorisation): present, blank allowed when `blankAllowed`. */
function requiredOnPayments(id: string, header: string, blankAllowed = false): Rule {
  return {
    id,
    hint: ON_PAYMENTS,
    judge: (c) => {
      if (!hasPaymentHeaderSet(c)) return undefined;
      const present = blankAllowed ? c.rawHeader(header.toLowerCase()) !== undefined : c.header(header.toLowerCase()) !== undefined;
      return judged(present, `${header} on ${c.call.method} ${c.call.pathname}`, () => `no ${header}`);
    },
  };
}

/** A header whose value, when sent, must satisfy `valid`. */
function valueRule(id: string, header: string, expected: string, valid: (value: string) => boolean): Rule {
  return {
    id,
    hint: `a request with ${header}`,
    judge: (c) => {
      const value = c.header(header.toLowerCase());
      if (value === undefined) return undefined;
      return judged(valid(value.trim()), `${header}: ${expected}`, () => `${header}: ${value}`);
    },
  };
}

const PSU_HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** TPP-23: a value already used by this TPP. */
const uniqueRequestId: Rule & Learner = {
  id: 'TPP-23',
  hint: 'any two requests with X-Request-ID',
  judge: (c) => {
    const id = c.header('x-request-id');
    if (id === undefined) return undefined;
    return c.tpp.requestIds.has(id) ? fail('an X-Request-ID this TPP has not sent before', `X-Request-ID: ${id}, sent before`) : PASS;
  },
  learn: (c) => {
    const id = c.header('x-request-id');
    if (id !== undefined) c.tpp.requestIds.add(id);
  },
};

export const HEADER_RULES: readonly Rule[] = [
  {
    id: 'TPP-22',
    hint: 'any request to the interface (GET /v1/accounts)',
    judge: (c) => judged(c.header('x-request-id') !== undefined, 'an X-Request-ID header', () => 'no X-Request-ID'),
  },
  uniqueRequestId,
  {
    id: 'TPP-24',
    hint: 'any request to the interface but a sandbox operation (GET /v1/accounts)',
    judge: (c) =>
      c.call.sandboxOperation
        ? undefined
        : judged(c.header('tpp-redirect-uri') !== undefined, 'a TPP-Redirect-URI header', () => 'no TPP-Redirect-URI'),
  },
  valueRule('TPP-25', 'TPP-Redirect-URI', 'an absolute URI', (value) => URL.canParse(value)),
  requiredOnPayments('TPP-26', 'TPP-Session-ID'),
  requiredOnPayments('TPP-27', 'x-accept-fix', true),
  {
    id: 'TPP-28',
    hint: 'a request with x-accept-fix',
    judge: (c) => {
      const value = c.rawHeader('x-accept-fix');
      if (value === undefined) return undefined;
      const unknown = value
        .split(',')
        .map((fix) => fix.trim())
        .filter((fix) => fix !== '' && !(PUBLISHED_FIXES as readonly string[]).includes(fix));
      return judged(
        unknown.length === 0,
        `x-accept-fix values among ${PUBLISHED_FIXES.join(', ')}`,
        () => `x-accept-fix: ${value} (unknown: ${unknown.join(', ')})`,
      );
    },
  },
  requiredOnPayments('TPP-29', 'PSU-IP-Address'),
  valueRule('TPP-30', 'PSU-IP-Address', 'an IPv4 or IPv6 address', (value) => isIP(value) !== 0),
  valueRule('TPP-32', 'PSU-ID', 'an RFC 4122 UUID', isUuid),
  valueRule('TPP-33', 'X-PSU-IDENTITY', 'a national identity number or D-number of 11 digits', hasNationalIdForm),
  valueRule('TPP-34', 'PSU-Context', 'PRIVATE or CORPORATE', (value) => value === 'PRIVATE' || value === 'CORPORATE'),
  valueRule('TPP-36', 'PSU-HTTP-Method', PSU_HTTP_METHODS.join(', '), (value) => PSU_HTTP_METHODS.includes(value)),
  valueRule('TPP-37', 'PSU-Device-ID', 'a UUID', isUuid),
  valueRule('TPP-38', 'TPP-Redirect-Preferred', 'true or false', (value) => /^(?:true|false)$/i.test(value)),
  {
    id: 'TPP-52',
    hint: 'a request with a header value outside ASCII, e.g. TPP-Brand-Logging-Information: Blåbær AS in UTF-8',
    judge: (c) => {
      const values = Object.entries(c.exchange.request.headers).filter(
        ([name, value]) => name !== 'signature' && value !== undefined && /[\u0080-\uffff]/.test(value),
      );
      if (values.length === 0) return undefined;
      const bad = values.find(([, value]) => !isUtf8Text(value ?? ''));
      return judged(
        bad === undefined,
        'header values in UTF-8',
        () => `${bad?.[0] ?? ''}: bytes that are not UTF-8 (${latin1Bytes(bad?.[1] ?? '')})`,
      );
    },
  },
];

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Whether a header value is UTF-8 text. Recorders hand header bytes over as latin1 characters (Node does), so
 * a value of characters up to U+00FF is decoded back to its bytes first; a value with a character above
 * that was decoded by its recorder already (a browser's HAR), so it was text.
 */
function isUtf8Text(value: string): boolean {
  if (/[\u0100-\uffff]/.test(value)) return true;
  try {
    utf8.decode(Buffer.from(value, 'latin1'));
    return true;
  } catch {
    return false;
  }
}

/** The bytes of a latin1-decoded value outside ASCII, as hexadecimal (what a reader can compare with the wire). */
function latin1Bytes(value: string): string {
  return [...value]
    .filter((char) => char.charCodeAt(0) > 0x7f)
    .slice(0, 8)
    .map((char) => `0x${char.charCodeAt(0).toString(16).toUpperCase()}`)
    .join(' ');
}
