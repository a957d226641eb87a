// Consent and corporate context endpoints (Endpoints > Other endpoints named,
// Authentication 13): the deprecated POST /v1/consents and its replacement POST
// /v1/bank-offered-consents, both answering with an SCA redirect whatever the body
// (consent is given on the bank's pages); GET /v1/user, which starts SCA for a
// PISP to learn the corporate context; GET /v1/agreements, the PSU's corporate
// agreements for a known PSU-ID.
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { BankError, ScaRequired } from '../errors.js';
import { defineFault } from '../switches.js';
import type { BankState } from '../state/bank.js';
import { PRIVATE } from '../state/customers.js';
import { scaChallenge } from './accounts.js';
import { resolvePsuId } from './sca-access.js';
import { header, tppOf } from './shared.js';

const consentsRemoved = defineFault('consents-endpoint-removed', {
  description: 'the deprecated POST /v1/consents is gone (404) instead of answering with an SCA redirect',
  breaks: ['END-20', 'VER-18'],
});
const bankOfferedConsentsMissing = defineFault('bank-offered-consents-missing', {
  description: 'POST /v1/bank-offered-consents does not exist (404)',
  breaks: ['END-21'],
});
const userWithoutSca = defineFault('user-without-sca', {
  description: 'GET /v1/user answers 404 instead of starting SCA',
  breaks: ['END-18'],
});
const agreementsEmpty = defineFault('agreements-empty', {
  description: "GET /v1/agreements lists none of the PSU's corporate agreements",
  breaks: ['END-19'],
});

// [sandbox] the bank-offered approach (GEN-07) and the shape of a consent resource (AIS-15).
const consentFromTppBody = defineFault('consent-from-tpp-body', {
  description: "a consent body naming access for the PSU of X-PSU-IDENTITY grants access to all of that PSU's accounts, without the PSU",
  breaks: ['GEN-07'],
});
const consentResourceUpperCase = defineFault('consent-resource-status-upper-case', {
  description: 'POST /v1/bank-offered-consents answers 201 with a consent resource whose consentStatus is RECEIVED (not the Berlin Group received)',
  breaks: ['AIS-15'],
});

/** Under consentFromTppBody only: what a bank that reads the TPP's consent body would grant. */
function grantFromBody(bank: BankState, request: FastifyRequest): void {
  const customerNumber = header(request, 'x-psu-identity') ?? '';
  const access = (request.body as { access?: unknown } | undefined)?.access;
  if (access === undefined || !bank.data.customers.has(customerNumber)) return;
  const ids = bank.data.accountsIn(customerNumber, PRIVATE).map((a) => a.resourceId);
  bank.consents.grant(tppOf(request).id, customerNumber, PRIVATE, ids, bank.clock.now());
}

/** Under consentResourceUpperCase only: the redirect as a 201 consent resource, its status in the wrong case. */
function consentResource(challenge: Error, reply: FastifyReply): FastifyReply {
  if (!(challenge instanceof ScaRequired)) throw challenge;
  return reply.code(201).send({ consentStatus: 'RECEIVED', consentId: challenge.authorisationId, ...challenge.body });
}

export const consentsPlugin = fp(
  (api, _options, done) => {
    const { bank } = api;
    const notFound = () => new BankError(404, 'NOT_FOUND', 'No such endpoint');

    // The body is ignored on purpose (the specification says so for /v1/consents).
    api.post('/consents', (request) => {
      if (request.bank.breaks(consentsRemoved)) throw notFound();
      throw scaChallenge(request);
    });

    api.post('/bank-offered-consents', (request, reply) => {
      if (request.bank.breaks(bankOfferedConsentsMissing)) throw notFound();
      if (request.bank.breaks(consentFromTppBody)) grantFromBody(bank, request);
      if (request.bank.breaks(consentResourceUpperCase)) return consentResource(scaChallenge(request), reply);
      throw scaChallenge(request);
    });

    api.get('/user', (request) => {
      if (request.bank.breaks(userWithoutSca)) throw notFound();
      throw scaChallenge(request);
    });

    api.get('/agreements', (request) => {
      const psuId = header(request, 'psu-id');
      if (psuId === undefined) throw scaChallenge(request);
      const lookup = resolvePsuId(request, psuId);
      if (lookup.kind === 'malformed') throw new BankError(400, 'FORMAT_ERROR', 'Header PSU-ID must be a UUID');
      if (lookup.kind === 'unknown') throw scaChallenge(request);
      const agreements = request.bank.breaks(agreementsEmpty) ? [] : bank.data.agreementsOf(lookup.customerNumber);
      return { agreements: agreements.map((a) => ({ psuCorporateId: a.id, name: a.name })) };
    });
    done();
  },
  { name: 'consents', encapsulate: true, decorators: { fastify: ['bank'] }, dependencies: ['signature', 'json-body'] },
);
