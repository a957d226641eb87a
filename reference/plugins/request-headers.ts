// The optional request headers of the header table (Endpoints > POST /v1/payments/
// sepa-credit-transfers > Headers, shared by every request): where a row gives the
// header a form (an IP address, a UUID, one of a few values), a value outside it is
// the TPP's error (400 FORMAT_ERROR); the rest are taken and change nothing. One
// table, one row per header; each row's faults are derived from it.
import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { BankError } from '../bank-errors.js';
import { defineFault, type Fault } from '../switches.js';
import { isUuid } from '../ids.js';
import { checkHook, header } from '../http/request-context.js';
import { readsPaymentHeaders } from '../services/payment-headers.js';

interface FormRule {
  /** Lower-case header name. */
  header: string;
  /** A header only the payment header table names (a bank may read it on payments only). */
  paymentOnly?: true;
  /** The form the row gives, in words (for the error message). */
  form: string;
  valid: (value: string) => boolean;
  /** The fault that skips the check (or, for PSU-ID, fails on it). */
  fault: Fault;
  /**
   * Checked by the module that reads it (PSU-ID: the PSU lookup, where other faults apply too): here only
   * its fault acts, failing with a 500 on a malformed value.
   */
  checkedElsewhere?: true;
}

const oneOf =
  (...values: string[]) =>
  (value: string) =>
    values.includes(value);

const FORM_RULES: readonly FormRule[] = [
  {
    header: 'psu-ip-address',
    form: 'an IPv4 or IPv6 address',
    valid: (value) => isIP(value) !== 0,
    fault: defineFault('psu-ip-address-unchecked', { description: 'accepts a PSU-IP-Address that is no IP address', breaks: ['HDR-15'] }),
  },
  {
    header: 'psu-context',
    form: 'PRIVATE or CORPORATE',
    valid: oneOf('PRIVATE', 'CORPORATE'),
    paymentOnly: true,
    fault: defineFault('psu-context-unchecked', { description: 'accepts any PSU-Context value', breaks: ['HDR-19'] }),
  },
  {
    header: 'psu-http-method',
    form: 'GET, POST, PUT, PATCH or DELETE',
    valid: oneOf('GET', 'POST', 'PUT', 'PATCH', 'DELETE'),
    paymentOnly: true,
    fault: defineFault('psu-http-method-unchecked', { description: 'accepts any PSU-HTTP-Method value', breaks: ['HDR-28'] }),
  },
  {
    header: 'psu-device-id',
    form: 'a UUID',
    valid: isUuid,
    paymentOnly: true,
    fault: defineFault('psu-device-id-unchecked', { description: 'accepts a PSU-Device-ID that is no UUID', breaks: ['HDR-29'] }),
  },
  {
    header: 'psu-id',
    form: 'a UUID',
    valid: isUuid,
    checkedElsewhere: true,
    fault: defineFault('psu-id-malformed-server-error', {
      description: 'a PSU-ID that is no UUID gives 500',
      breaks: ['HDR-12', 'ERR-44'],
    }),
  },
];

/** Headers the interface takes as they come: a fault refuses each, to show the suite notices. */
const TAKEN_AS_THEY_COME: readonly [Fault, readonly string[]][] = [
  [
    defineFault('brand-logging-refused', { description: 'refuses requests carrying TPP-Brand-Logging-Information', breaks: ['HDR-23'] }),
    ['tpp-brand-logging-information'],
  ],
  [defineFault('psu-ip-port-refused', { description: 'refuses requests carrying PSU-IP-Port', breaks: ['HDR-26'] }), ['psu-ip-port']],
  [
    defineFault('forwarded-psu-headers-refused', {
      description: 'refuses requests carrying the forwarded PSU-User-Agent, PSU-Accept… headers',
      breaks: ['HDR-27'],
    }),
    ['psu-user-agent', 'psu-accept', 'psu-accept-charset', 'psu-accept-encoding', 'psu-accept-language'],
  ],
  [
    defineFault('psu-geo-location-refused', { description: 'refuses requests carrying PSU-Geo-Location', breaks: ['HDR-30'] }),
    ['psu-geo-location'],
  ],
  [
    defineFault('redirect-preferred-refused', {
      description: 'refuses requests carrying TPP-Redirect-Preferred',
      breaks: ['HDR-21', 'HDR-22'],
    }),
    ['tpp-redirect-preferred'],
  ],
  [
    defineFault('accept-language-refused', {
      description: 'refuses requests carrying Accept-Language or Accept-Charset',
      breaks: ['HDR-24'],
    }),
    ['accept-language', 'accept-charset'],
  ],
];

const hostWithoutPortRefused = defineFault('host-without-port-refused', {
  description: 'refuses a Host header without the port',
  breaks: ['HDR-25'],
});
const headerNamesCaseSensitive = defineFault('header-names-case-sensitive', {
  description: 'finds X-Request-ID, TPP-Session-ID and TPP-Redirect-URI only when spelt in exactly that case',
  breaks: ['HDR-31'],
});
const redirectPreferredFalseRefused = defineFault('redirect-preferred-false-refused', {
  description: 'refuses TPP-Redirect-Preferred: false (a bank without app authentication that takes only true)',
  breaks: ['HDR-22'],
});
const psuIpAddressRequired = defineFault('psu-ip-address-required', {
  description: 'refuses account reads without PSU-IP-Address (unattended calls)',
  breaks: ['HDR-14'],
});

/** Each fault is asked only where it would change the answer to this request. */
function checkHeaders(request: FastifyRequest): void {
  const { switches } = request;
  for (const rule of FORM_RULES) {
    const value = header(request, rule.header);
    if (value === undefined || rule.valid(value) || (rule.paymentOnly && !readsPaymentHeaders(request))) continue;
    if (rule.checkedElsewhere) {
      if (switches.breaks(rule.fault)) throw new Error(`${rule.header} lookup failed`);
      continue;
    }
    if (switches.breaks(rule.fault)) continue;
    throw new BankError(400, 'FORMAT_ERROR', `Header ${rule.header} must be ${rule.form}`);
  }
  for (const [fault, names] of TAKEN_AS_THEY_COME) {
    const present = names.find((name) => header(request, name) !== undefined);
    if (present !== undefined && switches.breaks(fault)) throw new BankError(400, 'FORMAT_ERROR', `Header ${present} is not supported`);
  }
  if (header(request, 'tpp-redirect-preferred') === 'false' && switches.breaks(redirectPreferredFalseRefused)) {
    throw new BankError(400, 'FORMAT_ERROR', 'TPP-Redirect-Preferred: false is not supported: this bank authenticates by redirect only');
  }
  if (!/:\d+$/.test(header(request, 'host') ?? '') && switches.breaks(hostWithoutPortRefused))
    throw new BankError(400, 'FORMAT_ERROR', 'Host must name the port');
  const raw = request.raw.rawHeaders.filter((_, i) => i % 2 === 0);
  const missing = ['X-Request-ID', 'TPP-Session-ID', 'TPP-Redirect-URI'].find((name) => !raw.includes(name));
  if (missing !== undefined && switches.breaks(headerNamesCaseSensitive))
    throw new BankError(400, 'HTTP_HEADER_REQUIRED', `Header ${missing} is required`);
  if (
    request.routeOptions.url?.startsWith('/v1/accounts') &&
    header(request, 'psu-ip-address') === undefined &&
    switches.breaks(psuIpAddressRequired)
  ) {
    throw new BankError(400, 'HTTP_HEADER_REQUIRED', 'Header PSU-IP-Address is required');
  }
}

export const requestHeadersPlugin = fp(
  (api, _options, done) => {
    api.addHook('preValidation', checkHook(checkHeaders));
    done();
  },
  { name: 'request-headers', decorators: { request: ['switches'] }, dependencies: ['signature'] },
);
