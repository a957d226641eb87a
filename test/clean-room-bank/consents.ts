// Consent resources (bank-offered, and the deprecated /v1/consents), GET /v1/user,
// GET /v1/agreements, and the TPP dialogue API for the contact e-mail address.

import { randomUUID } from 'node:crypto';
import {
  CONSENT_RENEWAL_MS,
  explicitContext,
  lookupPsu,
  psuPresent,
  requireSession,
  resolveContext,
  scaHref,
  scaRequired,
} from './access.js';
import { addDays, isoDateTime, osloDate, parseIsoDate } from './clock.js';
import { header, isObject, jsonBody, link, objectBody, requireHeader, thirdPartyName, type ApiResult, type Ctx } from './context.js';
import { ApiError, formatError, notFound } from './errors.js';
import { LIMITS, agreementIdOf, boundedSet, type ConsentResource, type ConsentStatus, type World } from './model.js';
import { createFlow, newAuthorisation, validSession } from './sca-flow.js';
import { getAuthorisation, listAuthorisations } from './payments.js';

/** Consent status derived from the grant it is bound to. */
function consentStatus(world: World, c: ConsentResource): ConsentStatus {
  if (c.status !== 'valid' || c.customerNumber === undefined || c.contextKey === undefined) return c.status;
  const grant = world.grants.get(world.grantKey(c.customerNumber, c.contextKey));
  if (!grant || grant.accountIds.size === 0) return 'revokedByPsu';
  if (world.now() - grant.lastScaAt > CONSENT_RENEWAL_MS) return 'expired';
  return 'valid';
}

/** POST /v1/bank-offered-consents and the deprecated POST /v1/consents (body ignored). */
export function createConsent(ctx: Ctx, deprecated: boolean): ApiResult {
  const tppSessionId = requireHeader(ctx, 'TPP-Session-ID');
  const redirectUri = requireHeader(ctx, 'TPP-Redirect-URI');
  if (!deprecated) {
    const body = jsonBody(ctx, false);
    if (body !== undefined) {
      if (!isObject(body)) throw formatError('The body must be a JSON object');
      if (body.access !== undefined) {
        if (!isObject(body.access)) throw formatError('access must be an object');
        for (const k of ['accounts', 'balances', 'transactions']) {
          const v = body.access[k];
          if (v !== undefined && (!Array.isArray(v) || v.length > 0)) {
            throw formatError(`access.${k} must be empty: consent is bank-offered, the PSU selects the accounts during SCA`);
          }
        }
      }
      if (body.recurringIndicator !== undefined && typeof body.recurringIndicator !== 'boolean')
        throw formatError('recurringIndicator must be a boolean');
      if (body.validUntil !== undefined && (typeof body.validUntil !== 'string' || parseIsoDate(body.validUntil) === undefined)) {
        throw formatError('validUntil must be an ISO 8601 date');
      }
      if (
        body.frequencyPerDay !== undefined &&
        (typeof body.frequencyPerDay !== 'number' || !Number.isInteger(body.frequencyPerDay) || body.frequencyPerDay < 1)
      ) {
        throw formatError('frequencyPerDay must be an integer of at least 1');
      }
    }
  }
  const psu = lookupPsu(ctx);
  let expectedCustomer: string | undefined;
  let fixedContext: string | undefined;
  if (psu.kind === 'known') {
    expectedCustomer = psu.customer.customerNumber;
    const contextKey = resolveContext(ctx, psu.customer);
    if (explicitContext(ctx)) fixedContext = contextKey;
  }
  const authorisation = newAuthorisation(ctx.world);
  const consent: ConsentResource = {
    consentId: randomUUID(),
    status: 'received',
    customerNumber: undefined,
    contextKey: undefined,
    authorisations: [authorisation],
    createdAt: ctx.world.now(),
    lastActionDate: ctx.world.today(),
  };
  boundedSet(ctx.world.consents, consent.consentId, consent, LIMITS.consents);
  const flow = createFlow(ctx.bank, ctx.world, {
    kind: 'consent',
    tppSessionId,
    redirectUri,
    thirdParty: thirdPartyName(ctx),
    ...(expectedCustomer !== undefined ? { expectedCustomer } : {}),
    ...(fixedContext !== undefined ? { fixedContext } : {}),
    consentId: consent.consentId,
    authorisation,
  });
  const base = deprecated ? '/v1/consents' : '/v1/bank-offered-consents';
  const self = `${base}/${consent.consentId}`;
  const headers: Record<string, string> = { Location: self, 'ASPSP-SCA-Approach': 'REDIRECT' };
  if (deprecated) {
    headers.Deprecation = 'true';
    headers.Link = `</v1/bank-offered-consents>; rel="successor-version"`;
  }
  return {
    status: 201,
    body: {
      consentStatus: consent.status,
      consentId: consent.consentId,
      _links: {
        scaRedirect: link(scaHref(ctx, flow.id), 'GET'),
        self: link(self, 'GET', 'DELETE'),
        status: link(`${self}/status`),
        scaStatus: link(`${self}/authorisations/${authorisation.authorisationId}`),
      },
    },
    headers,
  };
}

function findConsent(ctx: Ctx, consentId: string): ConsentResource {
  const c = ctx.world.consents.get(consentId);
  if (!c) throw new ApiError(404, 'RESOURCE_UNKNOWN', `Consent ${consentId} is unknown`);
  return c;
}

export function getConsent(ctx: Ctx, base: string, consentId: string): ApiResult {
  const c = findConsent(ctx, consentId);
  const status = consentStatus(ctx.world, c);
  const accounts: Record<string, string>[] = [];
  let validUntil = osloDate(c.createdAt);
  if (c.customerNumber !== undefined && c.contextKey !== undefined) {
    const grant = ctx.world.grants.get(ctx.world.grantKey(c.customerNumber, c.contextKey));
    if (grant) {
      validUntil = addDays(osloDate(grant.lastScaAt), 180);
      for (const id of grant.accountIds) {
        const a = ctx.world.accounts.get(id);
        if (a) accounts.push(a.iban ? { iban: a.iban } : { bban: a.bban ?? '' });
        const card = ctx.world.cardAccounts.get(id);
        if (card) accounts.push({ maskedPan: card.maskedPan });
      }
    }
  }
  const access = status === 'valid' ? { accounts, balances: accounts, transactions: accounts } : {};
  return {
    status: 200,
    body: {
      access,
      recurringIndicator: true,
      validUntil,
      frequencyPerDay: 4,
      lastActionDate: c.lastActionDate,
      consentStatus: status,
      _links: {
        self: link(`${base}/${c.consentId}`, 'GET', 'DELETE'),
        status: link(`${base}/${c.consentId}/status`),
        ...(status === 'valid' ? { account: link('/v1/accounts') } : {}),
      },
    },
  };
}

export function getConsentStatus(ctx: Ctx, consentId: string): ApiResult {
  const c = findConsent(ctx, consentId);
  return { status: 200, body: { consentStatus: consentStatus(ctx.world, c) } };
}

/** DELETE: the TPP terminates the consent; the access it gave ends. */
export function deleteConsent(ctx: Ctx, consentId: string): ApiResult {
  const c = findConsent(ctx, consentId);
  if (c.status === 'valid' && c.customerNumber !== undefined && c.contextKey !== undefined) {
    const key = ctx.world.grantKey(c.customerNumber, c.contextKey);
    ctx.world.grants.delete(key);
    for (const other of ctx.world.consents.values()) {
      if (other.status === 'valid' && other.customerNumber === c.customerNumber && other.contextKey === c.contextKey)
        other.status = 'terminatedByTpp';
    }
  }
  if (c.status === 'received') {
    for (const a of c.authorisations) if (a.scaStatus !== 'FINALISED') a.scaStatus = 'FAILED';
  }
  c.status = 'terminatedByTpp';
  c.lastActionDate = ctx.world.today();
  return { status: 204 };
}

export function startConsentAuthorisation(ctx: Ctx, base: string, consentId: string): ApiResult {
  const c = findConsent(ctx, consentId);
  if (c.status !== 'received') throw new ApiError(409, 'CONFLICT', `The consent (status ${c.status}) does not await authorisation`);
  const tppSessionId = requireHeader(ctx, 'TPP-Session-ID');
  const redirectUri = requireHeader(ctx, 'TPP-Redirect-URI');
  for (const a of c.authorisations) if (a.scaStatus !== 'FINALISED') a.scaStatus = 'FAILED';
  const psu = lookupPsu(ctx);
  const authorisation = newAuthorisation(ctx.world, 'STARTED');
  c.authorisations.push(authorisation);
  if (c.authorisations.length > 20) c.authorisations.splice(0, c.authorisations.length - 20);
  const flow = createFlow(ctx.bank, ctx.world, {
    kind: 'consent',
    tppSessionId,
    redirectUri,
    thirdParty: thirdPartyName(ctx),
    ...(psu.kind === 'known' ? { expectedCustomer: psu.customer.customerNumber } : {}),
    consentId: c.consentId,
    authorisation,
  });
  return {
    status: 201,
    body: {
      scaStatus: authorisation.scaStatus,
      authorisationId: authorisation.authorisationId,
      _links: {
        scaRedirect: link(scaHref(ctx, flow.id), 'GET'),
        scaStatus: link(`${base}/${c.consentId}/authorisations/${authorisation.authorisationId}`),
      },
    },
    headers: { 'ASPSP-SCA-Approach': 'REDIRECT' },
  };
}

export function listConsentAuthorisations(ctx: Ctx, consentId: string): ApiResult {
  return listAuthorisations(findConsent(ctx, consentId).authorisations);
}

export function getConsentAuthorisation(ctx: Ctx, consentId: string, authorisationId: string): ApiResult {
  return getAuthorisation(findConsent(ctx, consentId).authorisations, authorisationId);
}

// ---------------------------------------------------------------- /v1/user

/** GET /v1/user: starts SCA (corporate context where the PSU has agreements); with a valid session describes it. */
export function getUser(ctx: Ctx): ApiResult {
  const psu = lookupPsu(ctx);
  const flow = { kind: 'user' as const };
  if (psu.kind === 'none') throw scaRequired(ctx, 'SCA_NOT_FOUND', 'SCA is required to identify the PSU', flow);
  if (psu.kind === 'unknown')
    throw scaRequired(ctx, 'PSU_CREDENTIALS_INVALID', `${psu.header} cannot be matched to a PSU of this bank for this TPP`, flow);
  const customer = psu.customer;
  const explicit = explicitContext(ctx);
  const contextKey = explicit ? resolveContext(ctx, customer) : undefined;
  const userFlow = {
    kind: 'user' as const,
    expectedCustomer: customer.customerNumber,
    ...(contextKey !== undefined ? { fixedContext: contextKey } : {}),
  };
  requireSession(ctx, customer, userFlow);
  const session = validSession(ctx.world, header(ctx, 'tpp-session-id'));
  const effective = contextKey ?? session?.contextKey ?? 'PRIVATE';
  const agreementId = agreementIdOf(effective);
  return {
    status: 200,
    body: {
      psuId: ctx.world.psuIdOf(customer.customerNumber),
      name: customer.name,
      context: agreementId !== undefined ? 'CORPORATE' : 'PRIVATE',
      ...(agreementId !== undefined ? { psuCorporateId: ctx.world.corporateIdOf(agreementId) } : {}),
      ...(session ? { scaValidUntil: isoDateTime(session.validUntil) } : {}),
      _links: { agreements: link('/v1/agreements') },
    },
  };
}

// ---------------------------------------------------------------- /v1/agreements

/** GET /v1/agreements: the PSU's corporate agreements (needs a valid session, or a valid consent when the PSU is absent). */
export function getAgreements(ctx: Ctx): ApiResult {
  const psu = lookupPsu(ctx);
  if (psu.kind === 'none') throw scaRequired(ctx, 'SCA_NOT_FOUND', 'SCA is required to identify the PSU', { kind: 'user' });
  if (psu.kind === 'unknown')
    throw scaRequired(ctx, 'PSU_CREDENTIALS_INVALID', `${psu.header} cannot be matched to a PSU of this bank for this TPP`, {
      kind: 'user',
    });
  const customer = psu.customer;
  const flow = { kind: 'user' as const, expectedCustomer: customer.customerNumber };
  const now = ctx.world.now();
  const hasFreshGrant = [...ctx.world.grants.values()].some(
    (g) => g.customerNumber === customer.customerNumber && g.accountIds.size > 0 && now - g.lastScaAt <= CONSENT_RENEWAL_MS,
  );
  if (psuPresent(ctx) || !hasFreshGrant) requireSession(ctx, customer, flow);
  const agreements = ctx.world.agreementsOf(customer.customerNumber).map((a) => {
    const owner = ctx.world.customers.get(a.owner);
    const accountIds = [...new Set(a.engagements.map((e) => e.accountId))];
    return {
      psuCorporateId: ctx.world.corporateIdOf(a.agreementId),
      name: a.name,
      organisationNumber: a.owner,
      ownerName: owner?.name ?? '',
      accounts: accountIds
        .map((id) => ctx.world.accounts.get(id))
        .filter((acc) => acc !== undefined && acc.status !== 'deleted')
        .map((acc) => ({
          ...(acc?.iban ? { iban: acc.iban } : {}),
          currency: acc?.currency ?? '',
          roles: [...ctx.world.rolesIn(a, customer.customerNumber, acc?.resourceId ?? '')],
        }))
        .filter((x) => x.roles.length > 0),
    };
  });
  return { status: 200, body: { agreements } };
}

// ---------------------------------------------------------------- TPP dialogue

const GROUP_MAILBOX_HINT = 'Only group or common mailboxes are to be used';

export function putContactEmail(ctx: Ctx): ApiResult {
  const body = objectBody(ctx);
  const email = body.email;
  if (typeof email !== 'string' || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 254) {
    throw formatError('email must be an e-mail address');
  }
  ctx.world.contactEmail = email;
  return { status: 200, body: { email, note: GROUP_MAILBOX_HINT } };
}

export function getContactEmail(ctx: Ctx): ApiResult {
  if (ctx.world.contactEmail === undefined) throw notFound('No contact e-mail address is registered');
  return { status: 200, body: { email: ctx.world.contactEmail, note: GROUP_MAILBOX_HINT } };
}

export function deleteContactEmail(ctx: Ctx): ApiResult {
  ctx.world.contactEmail = undefined;
  return { status: 204 };
}
