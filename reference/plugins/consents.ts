// Consent and corporate context endpoints (Endpoints > Other endpoints named,
// Authentication 13): the deprecated POST /v1/consents and its replacement POST
// /v1/bank-offered-consents, both answering with an SCA redirect whatever the body
// (consent is given on the bank's pages); GET /v1/user, which starts SCA for a
// PISP to learn the corporate context; GET /v1/agreements, the PSU's corporate
// agreements for a known PSU-ID.
import fp from 'fastify-plugin';
import { BankError } from '../errors.js';
import { defineFault } from '../faults.js';
import { scaChallenge } from './accounts.js';
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

export const consentsPlugin = fp(
  (api, _options, done) => {
    const { bank } = api;
    const notFound = () => new BankError(404, 'NOT_FOUND', 'No such endpoint');

    // The body is ignored on purpose (the specification says so for /v1/consents).
    api.post('/consents', (request) => {
      if (bank.faults.on(consentsRemoved, request.tppId)) throw notFound();
      throw scaChallenge(bank, request);
    });

    api.post('/bank-offered-consents', (request) => {
      if (bank.faults.on(bankOfferedConsentsMissing, request.tppId)) throw notFound();
      throw scaChallenge(bank, request);
    });

    api.get('/user', (request) => {
      if (bank.faults.on(userWithoutSca, request.tppId)) throw notFound();
      throw scaChallenge(bank, request);
    });

    api.get('/agreements', (request) => {
      const psuId = header(request, 'psu-id');
      if (psuId === undefined) throw scaChallenge(bank, request);
      const lookup = bank.psuIds.resolve(tppOf(request).id, psuId);
      if (lookup.kind === 'malformed') throw new BankError(400, 'FORMAT_ERROR', 'Header PSU-ID must be a UUID');
      if (lookup.kind === 'unknown') throw scaChallenge(bank, request);
      const agreements = bank.faults.on(agreementsEmpty, request.tppId) ? [] : bank.data.agreementsOf(lookup.customerNumber);
      return { agreements: agreements.map((a) => ({ psuCorporateId: a.id, name: a.name })) };
    });
    done();
  },
  { name: 'consents', encapsulate: true, decorators: { fastify: ['bank'] }, dependencies: ['signature', 'json-body'] },
);
