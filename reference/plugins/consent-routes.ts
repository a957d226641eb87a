// Consent and corporate context endpoints (Endpoints > Other endpoints named,
// Authentication 13): the deprecated POST /v1/consents and its replacement POST
// /v1/bank-offered-consents, both answering with an SCA redirect whatever the body
// (consent is given on the bank's pages); GET /v1/user, which starts SCA for a
// PISP to learn the corporate context; GET /v1/agreements, the PSU's corporate
// agreements for a known PSU-ID.
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { BankError, ScaRequired } from '../bank-errors.js';
import { defineFault, defineVariant } from '../switches.js';
import { PRIVATE } from '../state/sandbox-data.js';
import { resolvePsuId } from '../services/psu-id-lookup.js';
import { scaChallenge } from '../services/sca-answers.js';
import { header, tppOf } from '../http/request-context.js';
import { tppRoles } from '../services/tpp-roles.js';

const consentsRemoved = defineFault('consents-endpoint-removed', {
  description: 'the deprecated POST /v1/consents is gone (404) instead of answering with an SCA redirect',
  breaks: ['END-20', 'VER-18'],
});
const bankOfferedConsentsMissing = defineFault('bank-offered-consents-missing', {
  description: 'POST /v1/bank-offered-consents does not exist (404)',
  breaks: ['END-21'],
});
const userForPispsOnly = defineVariant('user-for-pisps-only', {
  description: 'GET /v1/user is refused (403 FORBIDDEN) to a TPP whose certificate carries the account information role',
  allowedBy:
    '"GET /v1/user | starts SCA in corporate context for PISPs that are not AISPs"; Authentication 13: the corporate id comes from "consent flow for AISPs, GET /v1/user for PISPs"',
  source: 'Specification, Endpoints > Other endpoints named and Authentication 13',
});
const userWithoutSca = defineFault('user-without-sca', {
  description: 'GET /v1/user answers 404 instead of starting SCA',
  breaks: ['END-18'],
});
defineFault('agreements-empty', {
  description: "GET /v1/agreements lists none of the PSU's corporate agreements",
  breaks: ['END-19'],
  alters: { route: 'GET /v1/agreements', when: (_body, { status }) => status === 200, apply: (body) => ({ ...body, agreements: [] }) },
});

// [sandbox] the bank-offered approach (GEN-07) and the shape of a consent resource (AIS-15).
const consentFromTppBody = defineFault('consent-from-tpp-body', {
  description: "a consent body naming access for the PSU of X-PSU-IDENTITY grants access to all of that PSU's accounts, without the PSU",
  breaks: ['GEN-07'],
});
const consentResourceUpperCase = defineFault('consent-resource-status-upper-case', {
  description:
    'POST /v1/bank-offered-consents answers 201 with a consent resource whose consentStatus is RECEIVED (not the Berlin Group received)',
  breaks: ['AIS-15'],
});

/** Under consentFromTppBody only: what a bank that reads the TPP's consent body would grant. */
function grantFromBody(request: FastifyRequest): void {
  const { world } = request;
  const customerNumber = header(request, 'x-psu-identity') ?? '';
  const access = (request.body as { access?: unknown } | undefined)?.access;
  if (access === undefined || !world.data.customers.has(customerNumber)) return;
  const ids = world.data.accountsIn(customerNumber, PRIVATE).map((a) => a.resourceId);
  world.consents.grant(tppOf(request).id, customerNumber, PRIVATE, ids, world.clock.now());
}

const consentResources = defineVariant('consent-resources', {
  description:
    'POST /v1/consents and /v1/bank-offered-consents answer 201 with a Berlin Group consent resource (consentStatus received, consentId) holding the scaRedirect link, instead of a 401',
  allowedBy:
    'POST /v1/consents "returns an SCA redirect"; bank-offered consents: "Method and payload not shown"; Berlin Group answers a consent request with 201 consentsResponse-201 (consentStatus, consentId, _links.scaRedirect)',
  source: 'Specification, Endpoints > Other endpoints named; Berlin Group 1.3.8, consentsResponse-201',
});

const consentRedirectAs200 = defineVariant('consent-redirect-as-200', {
  description:
    'POST /v1/consents and /v1/bank-offered-consents answer 200 with the SCA redirect alone (a body holding _links.scaRedirect, no consent resource), instead of a 401',
  allowedBy:
    'POST /v1/consents "ignores its body and returns an SCA redirect", with no status; "Payload shapes of these endpoints: not shown"; consent is bank-offered ("the PSU grants consent during the SCA redirect"), so there is no consent resource to create',
  source: 'Specification, Endpoints > Other endpoints named; What the service does (consent)',
  excludes: ['consent-resources'],
});

/** The redirect alone, as a 200 answer (the variant): the link, without the error fields of the 401 body. */
function redirectAlone(challenge: Error, reply: FastifyReply): FastifyReply {
  if (!(challenge instanceof ScaRequired)) throw challenge;
  return reply.code(200).send({ _links: (challenge.body as { _links?: object })._links });
}

/** The redirect as a 201 consent resource (the variant), or its status in the wrong case (the fault). */
function consentResource(challenge: Error, reply: FastifyReply, status: 'received' | 'RECEIVED'): FastifyReply {
  if (!(challenge instanceof ScaRequired)) throw challenge;
  return reply.code(201).send({ consentStatus: status, consentId: challenge.authorisationId, ...challenge.body });
}

/**
 * The PSU a consent request names with a psu-id of this TPP, if any: the SCA it starts is that PSU's (whose session in force spares the
 * login).
 */
function namedPsu(request: FastifyRequest): { expectedCustomer?: string } {
  const psuId = header(request, 'psu-id');
  const lookup = psuId === undefined ? undefined : resolvePsuId(request, psuId);
  return lookup?.kind === 'known' ? { expectedCustomer: lookup.customerNumber } : {};
}

export const consentsPlugin = fp(
  (api, _options, done) => {
    const notFound = () => new BankError(404, 'NOT_FOUND', 'No such endpoint');

    // The body is ignored on purpose (the specification says so for /v1/consents).
    api.post('/consents', (request, reply) => {
      if (request.switches.breaks(consentsRemoved)) throw notFound();
      const challenge = () => scaChallenge(request, namedPsu(request));
      if (request.switches.reads(consentResources)) return consentResource(challenge(), reply, 'received');
      if (request.switches.reads(consentRedirectAs200)) return redirectAlone(challenge(), reply);
      throw challenge();
    });

    api.post('/bank-offered-consents', (request, reply) => {
      if (request.switches.breaks(bankOfferedConsentsMissing)) throw notFound();
      if (request.switches.breaks(consentFromTppBody)) grantFromBody(request);
      const challenge = () => scaChallenge(request, namedPsu(request));
      if (request.switches.breaks(consentResourceUpperCase)) return consentResource(challenge(), reply, 'RECEIVED');
      if (request.switches.reads(consentResources)) return consentResource(challenge(), reply, 'received');
      if (request.switches.reads(consentRedirectAs200)) return redirectAlone(challenge(), reply);
      throw challenge();
    });

    api.get('/user', (request) => {
      if (request.switches.breaks(userWithoutSca)) throw notFound();
      if (request.switches.reads(userForPispsOnly) && tppRoles(request).includes('PSP_AI')) {
        throw new BankError(
          403,
          'FORBIDDEN',
          'GET /v1/user is for PISPs that are not AISPs: an AISP gets the corporate context from the consent flow',
        );
      }
      throw scaChallenge(request);
    });

    api.get('/agreements', (request) => {
      const psuId = header(request, 'psu-id');
      if (psuId === undefined) throw scaChallenge(request);
      const lookup = resolvePsuId(request, psuId);
      if (lookup.kind === 'malformed') throw new BankError(400, 'FORMAT_ERROR', 'Header PSU-ID must be a UUID');
      if (lookup.kind === 'unknown') throw scaChallenge(request);
      return { agreements: request.world.data.agreementsOf(lookup.customerNumber).map((a) => ({ psuCorporateId: a.id, name: a.name })) };
    });
    done();
  },
  { name: 'consents', encapsulate: true, decorators: { request: ['world'] }, dependencies: ['signature', 'json-body'] },
);
