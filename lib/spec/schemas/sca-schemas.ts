/**
 * SCA, errors and events: the signing basket authorisation response and its 401 body, the error body,
 * the redirect query parameters after success and after failure (as the object of parsed query
 * parameters: every value is a string), and the signing basket resources (Berlin Group 1.3).
 */
import { named, ref, req } from './base.js';
import type { JsonSchema } from './base.js';
import { MESSAGE_CODES, TRANSACTION_STATUSES } from './common-schemas.js';

/** An error code: upper snake case (catalogue ERR-04). */
export const ERROR_CODE_PATTERN = '^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$';

/**
 * transactionStatus of a signing basket: the specification's payment statuses. A basket reports the worst
 * case over its payments (BSK-05), so its status is a payment status; the Berlin Group basket list (with
 * PATC, without PART, PDNG, ...) does not apply.
 */
export const BASKET_TRANSACTION_STATUSES = TRANSACTION_STATUSES;

export const SigningBasketAuthorisationResponse = named(
  'SigningBasketAuthorisationResponse',
  'Body of the 201 answer to the start of a signing basket authorisation.',
  {
    type: 'object',
    required: ['scaStatus', '_links'],
    ...req('BSK-01', 'BSK-02'),
    properties: {
      scaStatus: ref('ScaStatus', req('BSK-01', 'STA-01')),
      authorisationId: { type: 'string', ...req('BSK-07') },
      psuMessage: ref('PsuMessage'),
      _links: ref('Links', req('BSK-02', 'MSG-07')),
    },
  },
);

/**
 * A 401 body asking for SCA: `_links.scaRedirect`, the address of the SCA site (a URI reference like any
 * link href, MSG-05), and optionally the error-body fields. `links` is the link type of its _links: the
 * Berlin Group link where the spec types none (an account read), the spec's Link for the basket
 * authorisation, whose _links row covers its 401 body (MSG-07).
 */
function scaRedirectBody(
  name: string,
  description: string,
  links: 'Links' | 'ResourceLinks',
  link: 'Link' | 'ResourceLink',
  ids: string[],
): JsonSchema {
  return named(name, description, {
    type: 'object',
    required: ['_links'],
    ...req(...ids),
    properties: {
      _links: {
        allOf: [ref(links)],
        type: 'object',
        required: ['scaRedirect'],
        ...req(...ids),
        properties: {
          scaRedirect: {
            allOf: [ref(link)],
            type: 'object',
            ...req(...ids),
            properties: { href: { type: 'string', format: 'uri-reference', ...req(...ids) } },
          },
        },
      },
      scaStatus: ref('ScaStatus', req('STA-01')),
      tppMessages: { type: 'array', items: ref('TppMessage'), ...req('PAY-41') },
      id: { type: 'string', ...req('ERR-01') },
      system: { type: 'string', ...req('ERR-02') },
      status: { type: 'integer', minimum: 100, maximum: 599, ...req('ERR-03') },
      code: { type: 'string', pattern: ERROR_CODE_PATTERN, ...req('ERR-04') },
      message: { type: 'string', ...req('ERR-05') },
    },
  });
}

export const ScaRedirectBody = scaRedirectBody(
  'ScaRedirectBody',
  'Body of a 401 answer when SCA is required: _links holds scaRedirect, the address of the SCA site (links as the Berlin Group writes them).',
  'ResourceLinks',
  'ResourceLink',
  ['END-10'],
);

export const SigningBasketScaRedirectBody = scaRedirectBody(
  'SigningBasketScaRedirectBody',
  'Body of the 401 answer to the start of a signing basket authorisation: _links, a map of Link, holds scaRedirect.',
  'Links',
  'Link',
  ['BSK-03', 'MSG-07'],
);

/** `required` for one property, with the requirement that asks for it: a missing field blames only its own rule. */
function requires(property: string, id: string): JsonSchema {
  // AJV's strict mode wants a required property declared beside it; `true` adds no rule.
  return { required: [property], properties: { [property]: true }, ...req(id) };
}

export const ErrorBody = named('ErrorBody', "The specification's error body; message may be absent (e.g. SYSTEM_ERROR).", {
  type: 'object',
  ...req('ERR-01', 'ERR-02', 'ERR-03', 'ERR-04'),
  allOf: [requires('id', 'ERR-01'), requires('system', 'ERR-02'), requires('status', 'ERR-03'), requires('code', 'ERR-04')],
  properties: {
    id: { type: 'string', minLength: 1, ...req('ERR-01') },
    system: { type: 'string', minLength: 1, ...req('ERR-02') },
    status: { type: 'integer', minimum: 100, maximum: 599, ...req('ERR-03') },
    code: {
      type: 'string',
      ...req('ERR-04'),
      allOf: [
        { pattern: ERROR_CODE_PATTERN, ...req('ERR-04') },
        { enum: [...MESSAGE_CODES], ...req('ERR-43') },
      ],
    },
    message: { type: 'string', ...req('ERR-05') },
  },
});

export const RedirectSuccessQuery = named(
  'RedirectSuccessQuery',
  'Query parameters of the redirect to TPP-Redirect-URI after successful SCA (parsed, all strings).',
  {
    type: 'object',
    ...req('EVT-02'),
    allOf: [requires('psu-id', 'EVT-03'), requires('tpp-session-id', 'EVT-06'), requires('context', 'EVT-07')],
    properties: {
      'psu-id': ref('Uuid', req('EVT-03', 'PSU-01')),
      'psu-corporate-id': ref('Uuid', req('EVT-04', 'PSU-08')),
      'tpp-session-id': { type: 'string', minLength: 1, ...req('EVT-06') },
      context: { type: 'string', enum: ['PRIVATE', 'CORPORATE'], ...req('EVT-07') },
    },
    // EVT-05 (no psu-corporate-id in private context) is a SHOULD, checked by the suites, not here
    if: { properties: { context: { const: 'CORPORATE' } }, required: ['context'] },
    then: { properties: { 'psu-corporate-id': req('EVT-04') }, required: ['psu-corporate-id'] },
  },
);

export const RedirectFailureQuery = named(
  'RedirectFailureQuery',
  'Query parameters of the redirect to TPP-Redirect-URI after failed SCA (parsed, all strings; status numeric; system required for a server error).',
  {
    type: 'object',
    ...req('EVT-02'),
    allOf: [requires('status', 'EVT-09'), requires('code', 'EVT-10'), requires('message', 'EVT-11')],
    properties: {
      system: { type: 'string', minLength: 1, ...req('EVT-08') },
      status: { type: 'string', pattern: '^[1-5][0-9]{2}$', ...req('EVT-09') },
      code: { type: 'string', minLength: 1, ...req('EVT-10') },
      message: { type: 'string', ...req('EVT-11') },
    },
    if: { properties: { status: { type: 'string', pattern: '^5' } }, required: ['status'] },
    then: { properties: { system: req('EVT-08') }, required: ['system'] },
  },
);

const basketTransactionStatus: JsonSchema = { type: 'string', enum: [...BASKET_TRANSACTION_STATUSES], ...req('BSK-05') };
const idList: JsonSchema = { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 }, ...req('BSK-07') };

export const SigningBasketRequest = named('SigningBasketRequest', 'Body of POST /v1/signing-baskets (Berlin Group 1.3).', {
  type: 'object',
  minProperties: 1,
  ...req('BSK-07'),
  properties: { paymentIds: idList, consentIds: idList },
});

export const SigningBasketCreationResponse = named(
  'SigningBasketCreationResponse',
  'Body of the 201 answer to POST /v1/signing-baskets (Berlin Group 1.3).',
  {
    type: 'object',
    required: ['transactionStatus', 'basketId', '_links'],
    ...req('BSK-07'),
    properties: {
      transactionStatus: basketTransactionStatus,
      basketId: { type: 'string', minLength: 1, ...req('BSK-07') },
      _links: ref('ResourceLinks', req('BSK-07')),
      psuMessage: ref('PsuMessage'),
      tppMessages: { type: 'array', items: ref('TppMessage'), ...req('PAY-41') },
    },
  },
);

export const SigningBasket = named('SigningBasket', 'Body of GET /v1/signing-baskets/{basketId} (Berlin Group 1.3).', {
  type: 'object',
  required: ['transactionStatus'],
  ...req('BSK-07'),
  properties: {
    payments: idList,
    consents: idList,
    transactionStatus: basketTransactionStatus,
    _links: ref('ResourceLinks', req('BSK-07')),
  },
});

export const SigningBasketStatus = named('SigningBasketStatus', 'Body of GET /v1/signing-baskets/{basketId}/status (Berlin Group 1.3).', {
  type: 'object',
  required: ['transactionStatus'],
  ...req('BSK-07'),
  properties: { transactionStatus: basketTransactionStatus },
});

/** [pis] Body of GET .../authorisations/{authorisationId} (Berlin Group 1.3 scaStatusResponse). */
export const ScaStatusResponse = named('ScaStatusResponse', 'Body of an authorisation status request (Berlin Group 1.3).', {
  type: 'object',
  required: ['scaStatus'],
  ...req('STA-01'),
  properties: { scaStatus: ref('ScaStatus', req('STA-01')) },
});

export const SCA_SCHEMAS = {
  ScaStatusResponse,
  SigningBasketAuthorisationResponse,
  ScaRedirectBody,
  SigningBasketScaRedirectBody,
  ErrorBody,
  RedirectSuccessQuery,
  RedirectFailureQuery,
  SigningBasketRequest,
  SigningBasketCreationResponse,
  SigningBasket,
  SigningBasketStatus,
} satisfies Record<string, JsonSchema>;
